package ingest

import (
	"encoding/json"
	"strconv"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/redact"
)

// RedactTrajectory redacts credentials in the fields of t that keep source
// JSON or text as given (Extra and RewardInfo by redact.Field, Error by
// redact.Text), in its messages' content and in its task's instruction (by
// redact.Content); a field without any stays byte for byte as the source
// wrote it. Tool-call arguments are redacted by redact.Arguments, which
// keeps them valid JSON. It lives here, not in
// redact, because redact imports the standard library only.
//
// A field whose redaction panics (a bug in redact, as #20 item 1 was) is
// replaced whole by redact.Placeholder (a JSON field by it as a JSON
// string): the key it may hold is not kept, and the ingest, run, merge or
// export that called it goes on.
func RedactTrajectory(t *emobench.Trajectory) {
	t.Extra = failClosed(redact.Field, t.Extra, placeholderJSON)
	t.RewardInfo = failClosed(redact.Field, t.RewardInfo, placeholderJSON)
	t.Error = failClosed(redact.Text, t.Error, redact.Placeholder)
	t.Task.Instruction = failClosed(redact.Content, t.Task.Instruction, redact.Placeholder)
	for i := range t.Messages {
		t.Messages[i].Content = failClosed(redact.Content, t.Messages[i].Content, redact.Placeholder)
		for j := range t.Messages[i].ToolCalls {
			c := &t.Messages[i].ToolCalls[j]
			c.Arguments = failClosed(redact.Arguments, c.Arguments, placeholderJSON)
		}
	}
}

// placeholderJSON is redact.Placeholder as a JSON string.
var placeholderJSON = json.RawMessage(strconv.Quote(redact.Placeholder))

// failClosed returns redact(v), or whole when redact panics.
func failClosed[T any](redact func(T) T, v, whole T) (out T) {
	defer func() {
		if recover() != nil {
			out = whole
		}
	}()
	return redact(v)
}
