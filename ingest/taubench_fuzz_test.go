package ingest_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// validReasons are the TerminationReason constants of package emobench.
var validReasons = map[emobench.TerminationReason]bool{
	emobench.TerminationUserStop:        true,
	emobench.TerminationUserUnsatisfied: true,
	emobench.TerminationTransfer:        true,
	emobench.TerminationAgentStop:       true,
	emobench.TerminationMaxSteps:        true,
	emobench.TerminationTooManyErrors:   true,
	emobench.TerminationError:           true,
	emobench.TerminationUnknown:         true,
}

// FuzzTauBench feeds TauBench arbitrary bytes, seeded with the small files
// of testdata/bad and testdata/golden. TauBench must not panic, every
// trajectory must be well-formed, and nothing may follow an error.
func FuzzTauBench(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "bad", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	golden, err := filepath.Glob(filepath.Join("testdata", "golden", "*", "input.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range append(seeds, golden...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`[]`))
	// Python's json.dump writes bare NaN and Infinity.
	f.Add([]byte(`[{"task_id": 1, "reward": NaN, "info": {"user_cost": Infinity, "note": "-Infinity NaN"}, "traj": [{"role": "user", "content": "\"NaN\""}]}]`))
	f.Add([]byte(`[{"task_id": "x", "reward": 1, "traj": [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{\"a\":"}}]}]}]`))
	// Nested deeper than SQLite takes (#20 item 3): arguments flagged, other fields refused.
	f.Add([]byte(`[{"task_id": "x", "reward": 1, "traj": [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `"}}]}]}]`))
	f.Add([]byte(`[{"task_id": "x", "reward": 1, "info": {"reward_info": {"a": ` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}}]`))

	f.Fuzz(func(t *testing.T, data []byte) {
		trajs, _ := collect(t, ingest.TauBench(bytes.NewReader(data)))
		for i, traj := range trajs {
			if traj.Task.Key == "" {
				t.Fatalf("trajectory %d: empty Task.Key", i)
			}
			if !validReasons[traj.TerminationReason] {
				t.Fatalf("trajectory %d: TerminationReason %q is not a constant", i, traj.TerminationReason)
			}
			if traj.Passed() && traj.Reward == nil {
				t.Fatalf("trajectory %d: Passed() with a nil Reward", i)
			}
			for j, m := range traj.Messages {
				if m.Role == "" {
					t.Fatalf("trajectory %d message %d: empty Role", i, j)
				}
				for k, call := range m.ToolCalls {
					if d := emobench.JSONDepth(call.Arguments); d > emobench.MaxToolArgumentsDepth {
						t.Fatalf("trajectory %d message %d call %d: Arguments nested %d deep, more than the store takes", i, j, k, d)
					}
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
				if d := emobench.JSONDepth(raw); d > emobench.MaxJSONDepth {
					t.Fatalf("trajectory %d: %s nested %d deep, more than the store takes", i, name, d)
				}
			}
		}
	})
}
