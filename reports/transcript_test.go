package reports

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/google/go-cmp/cmp"
)

func TestFlattenJSON(t *testing.T) {
	t.Parallel()
	raw := `{"reward": 0.0, "info": {"r_outputs": 0, "outputs": {"30.50": false}}, "actions": [{"name": "refund", "kwargs": {"b": 1, "a": "<x>"}}],
		"basis": ["DB", "ACTION"], "empty": {}, "none": [], "env": [{"env_assertion": {"func_name": "assert_x", "arguments": {}, "message": null}, "met": true}]}`
	got, err := flattenJSON(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"reward: 0.0", // numbers as stored
		"info.r_outputs: 0",
		`info.outputs.30.50: false`,
		`actions[0]: refund {"b":1,"a":"<x>"}`, // keys in stored order, no HTML escaping
		`basis: ["DB","ACTION"]`,
		"empty: {}",
		"none: []",
		"env[0].env_assertion: assert_x {}",
		"env[0].env_assertion.message: null",
		"env[0].met: true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flattenJSON (-want +got):\n%s", diff)
	}
	if _, err := flattenJSON(json.RawMessage(`{"reward": `)); err == nil {
		t.Error("truncated JSON: no error")
	}
}

func TestWriteTranscript(t *testing.T) {
	t.Parallel()
	one := 1.0
	traj := &emobench.Trajectory{
		Task:              emobench.Task{Domain: "retail", Key: "4"},
		Trial:             2,
		Reward:            &one,
		Evaluated:         false,
		Evaluable:         new(bool),
		TerminationReason: emobench.TerminationError,
		Error:             "rate limited",
		Messages: []emobench.Message{
			{Role: emobench.RoleSystem, Content: "a\nb\nc"},
			{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: "c1", Name: "get", Arguments: json.RawMessage(`"{oops"`), ArgumentsMalformed: true}}},
		},
	}
	var out strings.Builder
	if err := WriteTranscript(&out, Transcript{ID: 9, Run: emobench.Run{ID: 3, Name: "r"}, Trajectory: traj, SystemLines: 1}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"trajectory 9 · run 3 (r) · task 4 · trial 2\n",
		"#0 system\n    a\n    … 2 more lines\n",
		"    → get {oops (arguments not JSON) [c1]\n",
		"termination: error (not evaluable: the source could not evaluate it)\nerror:\n    rate limited\n",
		"reward: 1 (not evaluated: kept as stored, never a pass)\n",
		"checks: none stored (no reward_info)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, out.String())
		}
	}
	traj.RewardInfo = json.RawMessage(`{"reward": [`)
	if err := WriteTranscript(&strings.Builder{}, Transcript{ID: 9, Trajectory: traj}); err == nil || !strings.Contains(err.Error(), "trajectory 9: reward_info") {
		t.Errorf("bad reward_info: err = %v, want one naming trajectory 9", err)
	}
}
