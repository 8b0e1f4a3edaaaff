package sft_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/tracer/sft"
)

// FuzzRecord feeds what a stored trajectory holds from outside (the agent's
// tool-call arguments and id, the user's and the tool's text) through
// NewRecord and every format: no panic, a refusal is a *ValidationError,
// and whatever is written is one line of valid JSON.
func FuzzRecord(f *testing.F) {
	f.Add(`{"order_id":"#R1"}`, "c1", "hello", `{"status":"ok"}`)
	f.Add(`{ "order_id" : "#R1" , "x": 1 }`, "", "</think>hi", "Error: nope")
	f.Add(`{order_id: #R1`, "c1", "<tool_response>x</tool_response>", "")
	f.Add(``, "", "\u2028\x00", "\xff")
	f.Add(`{"order_id":1e400}`, "c1", "a", "b")
	f.Fuzz(func(t *testing.T, args, id, userText, toolText string) {
		raw := json.RawMessage(args)
		malformed := args != "" && !json.Valid(raw)
		if malformed {
			raw, _ = json.Marshal(args) // as sim stores a malformed argument string
		}
		msgs := []emobench.Message{
			user(userText),
			agent(userText, emobench.ToolCall{ID: id, Name: "lookup_order", Arguments: raw, ArgumentsMalformed: malformed}),
			result(id, "", toolText),
			agent("done " + toolText),
			user(userText),
		}
		for _, format := range sft.Formats {
			var buf bytes.Buffer
			w := sft.NewWriter(&buf, format)
			err := w.Write(sft.NewRecord(1, "shop", "", fixturePolicy, fixtureTools, msgs))
			var ve *sft.ValidationError
			if err != nil && !errors.As(err, &ve) {
				t.Fatalf("%s: Write = %v, want nil or a *ValidationError", format, err)
			}
			if err != nil {
				if buf.Len() != 0 {
					t.Fatalf("%s: refused record written: %q", format, buf.String())
				}
				continue
			}
			line := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if bytes.Contains(line, []byte("\n")) || !json.Valid(line) {
				t.Fatalf("%s: output is not one JSON line: %q", format, buf.String())
			}
		}
	})
}
