package ingest_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// A task's instruction is conversation text: RedactTrajectory redacts it
// by RedactContent, and leaves the task's actions as written.
func TestRedactTrajectory_Instruction(t *testing.T) {
	t.Parallel()
	tr := emobench.Trajectory{Task: emobench.Task{
		Instruction: "Log in with api_key=LEAK1 and send Bearer LEAK2abcdef123. Credentials: MD",
		Actions:     json.RawMessage(`[{"name":"login","kwargs":{"api_key":"keep"}}]`),
	}}
	ingest.RedactTrajectory(&tr)
	if got, want := tr.Task.Instruction, "Log in with api_key=[redacted] and send Bearer [redacted]. Credentials: MD"; got != want {
		t.Errorf("instruction = %q, want %q", got, want)
	}
	if got, want := string(tr.Task.Actions), `[{"name":"login","kwargs":{"api_key":"keep"}}]`; got != want {
		t.Errorf("actions = %s, want %s", got, want)
	}
}

// Message content is redacted too, and so are credentials in tool-call
// arguments, which stay valid JSON; ordinary arguments stay as written.
func TestRedactTrajectory_Messages(t *testing.T) {
	t.Parallel()
	args := json.RawMessage(`{"token":"Bearer sk-ARG123456"}`)
	plain := json.RawMessage(`{"user_id": "mia_li_3668", "amount": 10.50}`)
	tr := emobench.Trajectory{Messages: []emobench.Message{
		{Role: emobench.RoleAssistant, Content: "calling with Authorization: Bearer sk-LEAK123456", ToolCalls: []emobench.ToolCall{{Name: "f", Arguments: args}, {Name: "g", Arguments: plain}}},
		{Role: emobench.RoleTool, Content: `{"error": "bad key", "api_key": "sk-LEAK2"}`},
		{Role: emobench.RoleUser, Content: "my order code is W123"},
	}}
	ingest.RedactTrajectory(&tr)
	var got []string
	for _, m := range tr.Messages {
		got = append(got, m.Content)
	}
	want := []string{"calling with Authorization: Bearer [redacted]", `{"error": "bad key", "api_key": "[redacted]"}`, "my order code is W123"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}
	if got, want := string(tr.Messages[0].ToolCalls[0].Arguments), `{"token":"[redacted]"}`; got != want {
		t.Errorf("arguments = %s, want %s", got, want)
	}
	if got := string(tr.Messages[0].ToolCalls[1].Arguments); got != string(plain) {
		t.Errorf("ordinary arguments = %s, want %s as written", got, plain)
	}
}
