package ingest

import (
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
func RedactTrajectory(t *emobench.Trajectory) {
	t.Extra = redact.Field(t.Extra)
	t.RewardInfo = redact.Field(t.RewardInfo)
	t.Error = redact.Text(t.Error)
	t.Task.Instruction = redact.Content(t.Task.Instruction)
	for i := range t.Messages {
		t.Messages[i].Content = redact.Content(t.Messages[i].Content)
		for j := range t.Messages[i].ToolCalls {
			c := &t.Messages[i].ToolCalls[j]
			c.Arguments = redact.Arguments(c.Arguments)
		}
	}
}
