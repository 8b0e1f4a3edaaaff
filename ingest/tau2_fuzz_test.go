package ingest_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// FuzzTau2 feeds Tau2 arbitrary bytes, seeded with the small files of
// testdata/tau2. Tau2 must not panic, every trajectory must be well-formed,
// and nothing may follow an error.
func FuzzTau2(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"bad/*.json", "shapes/*.json", "golden/*/input.json", "golden/*/input/*.json", "golden/*/input/simulations/*.json"} {
		m, err := filepath.Glob(filepath.Join("testdata", "tau2", pattern))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, m...)
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"info": {}, "tasks": [], "simulations": [{"task_id": "a", "ticks": [[], {"a": "]"}, "x,y"], "messages": [{"role": "tool", "tool_messages": [{"id": 3}]}]}]}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := ingest.Tau2(bytes.NewReader(data))
		if err != nil {
			if rd != nil {
				t.Fatal("Tau2 returned a reader and an error")
			}
			return
		}
		if raw := rd.Info().Raw; raw != nil && !json.Valid(raw) {
			t.Fatalf("Info().Raw %q is not valid JSON", raw)
		}
		trajs, _ := collect(t, rd.Trajectories())
		checkTrajectories(t, trajs)
	})
}

// checkTrajectories checks the invariants every reader's trajectories keep.
func checkTrajectories(t *testing.T, trajs []*emobench.Trajectory) {
	t.Helper()
	for i, traj := range trajs {
		if traj.Task.Key == "" {
			t.Fatalf("trajectory %d: empty Task.Key", i)
		}
		if !validReasons[traj.TerminationReason] {
			t.Fatalf("trajectory %d: TerminationReason %q is not a constant", i, traj.TerminationReason)
		}
		if traj.Passed() && (traj.Reward == nil || !traj.Evaluated) {
			t.Fatalf("trajectory %d: Passed() with a nil Reward or not evaluated", i)
		}
		if (traj.TerminationReason == emobench.TerminationError) != (traj.Error != "") {
			t.Fatalf("trajectory %d: reason %s with error %q", i, traj.TerminationReason, traj.Error)
		}
		for j, m := range traj.Messages {
			if m.Role == "" {
				t.Fatalf("trajectory %d message %d: empty Role", i, j)
			}
			for k, call := range m.ToolCalls {
				if !json.Valid(call.Arguments) {
					t.Fatalf("trajectory %d message %d call %d: Arguments %q are not valid JSON", i, j, k, call.Arguments)
				}
				if call.ArgumentsMalformed && call.Arguments[0] != '"' {
					t.Fatalf("trajectory %d message %d call %d: malformed Arguments %s are not a JSON string", i, j, k, call.Arguments)
				}
			}
		}
		for name, raw := range map[string]json.RawMessage{"RewardInfo": traj.RewardInfo, "Extra": traj.Extra, "Task.Actions": traj.Task.Actions, "Task.Outputs": traj.Task.Outputs} {
			if raw != nil && !json.Valid(raw) {
				t.Fatalf("trajectory %d: %s %q is not valid JSON", i, name, raw)
			}
		}
		var actions []emobench.Action
		if err := json.Unmarshal(traj.Task.Actions, &actions); traj.Task.Actions != nil && err != nil {
			t.Fatalf("trajectory %d: Task.Actions %s are not [{name, kwargs}]: %v", i, traj.Task.Actions, err)
		}
	}
}
