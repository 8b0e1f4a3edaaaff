package ingest_test

import (
	"encoding/json"
	"errors"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// collect drains seq. It fails the test when a trajectory comes with an
// error, when a nil trajectory comes without one, or when anything at all is
// yielded after an error.
func collect(tb testing.TB, seq iter.Seq2[*emobench.Trajectory, error]) ([]*emobench.Trajectory, error) {
	tb.Helper()
	var trajs []*emobench.Trajectory
	var first error
	for traj, err := range seq {
		switch {
		case first != nil:
			tb.Fatalf("yielded (%v, %v) after error %q", traj, err, first)
		case err != nil && traj != nil:
			tb.Fatalf("yielded a trajectory together with error %q", err)
		case err != nil:
			first = err
		case traj == nil:
			tb.Fatalf("yielded a nil trajectory without an error")
		default:
			trajs = append(trajs, traj)
		}
	}
	return trajs, first
}

// readString runs TauBench over s and expects no error.
func readString(t *testing.T, s string) []*emobench.Trajectory {
	t.Helper()
	trajs, err := collect(t, ingest.TauBench(strings.NewReader(s)))
	if err != nil {
		t.Fatalf("TauBench: %v", err)
	}
	return trajs
}

// readOne runs TauBench over s and expects exactly one trajectory.
func readOne(t *testing.T, s string) *emobench.Trajectory {
	t.Helper()
	trajs := readString(t, s)
	if got, want := len(trajs), 1; got != want {
		t.Fatalf("got %d trajectories, want %d", got, want)
	}
	return trajs[0]
}

func TestTauBench_Err(t *testing.T) {
	t.Parallel()
	// index is the RecordError's Index, or -1 when the error must not be a
	// *RecordError (the file is not an array of records at all). good is
	// how many trajectories come before the error.
	tests := []struct {
		file    string
		index   int
		good    int
		phrases []string
	}{
		{"not-json.json", -1, 0, []string{"not JSON", "invalid character"}},
		{"empty.json", -1, 0, []string{"empty file", "want a JSON array"}},
		{"truncated-mid-record.json", 2, 2, []string{"record 2", "truncated file"}},
		{"truncated-after-comma.json", 1, 1, []string{"record 1", "truncated file"}},
		{"truncated-before-close.json", -1, 1, []string{"after last record", "truncated file"}},
		{"top-level-object.json", -1, 0, []string{"top level is a JSON object", "want an array"}},
		{"top-level-number.json", -1, 0, []string{"top level is a number", "want an array"}},
		{"record-is-string.json", 2, 2, []string{"record 2", "record is a string, want an object"}},
		{"reward-string.json", 1, 1, []string{"record 1", `reward is a string ("1.0"), want a number`}},
		{"reward-missing.json", 2, 2, []string{"record 2", "missing reward"}},
		{"task-id-missing.json", 0, 0, []string{"record 0", "missing task_id"}},
		{"not-taubench-records.json", 0, 0, []string{"record 0", "not a τ-bench result", "none of task_id, reward, info and traj"}},
		{"task-id-null.json", 1, 1, []string{"record 1", "task_id"}},
		{"trial-abc.json", 2, 2, []string{"record 2", `trial is a string ("abc"), want an integer`}},
		// The error must speak JSON, not Go: "want an array", never
		// "want []ingest.tauMessage".
		{"traj-not-array.json", 1, 1, []string{"record 1", "traj is an object, want an array"}},
		{"info-not-object.json", 2, 2, []string{"record 2", "info is an array, want an object"}},
		{"trailing-garbage.json", -1, 1, []string{"trailing data after the array"}},
		{"message-without-role.json", 2, 2, []string{"record 2", "traj[1]", "message without a role"}},
		// Errors inside a record name the part at fault, not "record".
		{"content-part-not-object.json", 0, 0, []string{"record 0", "traj[0]", "content part is a string, want an object"}},
		{"task-not-object.json", 0, 0, []string{"record 0", "info.task is an array, want an object"}},
		{"user-id-number.json", 0, 0, []string{"record 0", "info.task", "user_id is a number, want a string"}},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.file] = true
		t.Run(strings.TrimSuffix(tt.file, ".json"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "bad", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			trajs, err := collect(t, ingest.TauBench(strings.NewReader(string(data))))
			if err == nil {
				t.Fatalf("TauBench returned no error, want one mentioning %q", tt.phrases)
			}
			if got, want := len(trajs), tt.good; got != want {
				t.Fatalf("got %d trajectories before the error, want %d", got, want)
			}
			for _, p := range tt.phrases {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("error %q does not mention %q", err, p)
				}
			}
			if strings.Contains(err.Error(), "ingest.") || strings.Contains(err.Error(), "json.RawMessage") {
				t.Errorf("error %q names Go types; want JSON words", err)
			}
			var rerr *ingest.RecordError
			if tt.index < 0 {
				if errors.As(err, &rerr) {
					t.Fatalf("error %q is a *RecordError, want a plain error", err)
				}
				return
			}
			if !errors.As(err, &rerr) {
				t.Fatalf("error %q (%T) is not a *RecordError", err, err)
			}
			if got, want := rerr.Index, tt.index; got != want {
				t.Fatalf("RecordError.Index = %d, want %d", got, want)
			}
			if rerr.Offset <= 0 || rerr.Offset > int64(len(data)) {
				t.Fatalf("RecordError.Offset = %d, want within the file's %d bytes", rerr.Offset, len(data))
			}
			if rerr.Unwrap() == nil {
				t.Fatalf("RecordError.Unwrap() = nil")
			}
		})
	}

	// Every file in testdata/bad has a row above.
	files, err := filepath.Glob(filepath.Join("testdata", "bad", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s has no row in TestTauBench_Err", f)
		}
	}
}

func TestTauBench_ErrReader(t *testing.T) {
	t.Parallel()
	// A reader that fails after one whole record: the record still comes
	// out (reading streams), then the reader's own error, unwrappable.
	boom := errors.New("disk on fire")
	r := io.MultiReader(
		strings.NewReader(`[{"task_id": 7, "reward": 1, "traj": []}, {"task_id": 8, "rew`),
		iotest.ErrReader(boom),
	)
	trajs, err := collect(t, ingest.TauBench(r))
	if got, want := len(trajs), 1; got != want {
		t.Fatalf("got %d trajectories, want %d", got, want)
	}
	if got, want := trajs[0].Task.Key, "7"; got != want {
		t.Fatalf("Key = %q, want %q", got, want)
	}
	if !errors.Is(err, boom) {
		t.Fatalf("error %v does not wrap %v", err, boom)
	}
	var rerr *ingest.RecordError
	if !errors.As(err, &rerr) {
		t.Fatalf("error %q (%T) is not a *RecordError", err, err)
	}
	if got, want := rerr.Index, 1; got != want {
		t.Fatalf("RecordError.Index = %d, want %d", got, want)
	}
}

func TestTauBench_BOM(t *testing.T) {
	t.Parallel()
	traj := readOne(t, "\xef\xbb\xbf"+`[{"task_id": 3, "reward": 1, "traj": []}]`)
	if got, want := traj.Task.Key, "3"; got != want {
		t.Fatalf("Key = %q, want %q", got, want)
	}
}

func TestTauBench_Empty(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"[]", " \n[ ]\n", "\xef\xbb\xbf[]"} {
		if got, want := len(readString(t, in)), 0; got != want {
			t.Fatalf("%q: got %d trajectories, want %d", in, got, want)
		}
	}
}

func TestTauBench_Break(t *testing.T) {
	t.Parallel()
	// The range-over-func runtime panics if the iterator calls yield after
	// the loop body broke out, so reaching the end without a panic is the
	// test.
	in := `[{"task_id": 1, "reward": 1}, {"task_id": 2, "reward": 1}, {"task_id": 3, "reward": 1}]`
	n := 0
	for traj, err := range ingest.TauBench(strings.NewReader(in)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if got, want := traj.Task.Key, "1"; got != want {
			t.Fatalf("Key = %q, want %q", got, want)
		}
		break
	}
	if got, want := n, 1; got != want {
		t.Fatalf("loop ran %d times, want %d", got, want)
	}

	// Breaking on the error is fine too.
	for _, err := range ingest.TauBench(strings.NewReader(`[1]`)) {
		if err == nil {
			t.Fatal("want an error")
		}
		break
	}
}

func TestTauBench_Reward(t *testing.T) {
	t.Parallel()
	ptr := func(v float64) *float64 { return &v }
	tests := []struct {
		raw    string
		want   *float64
		passed bool
	}{
		{"1", ptr(1), true},
		{"1.0", ptr(1), true},
		{"0", ptr(0), false},
		{"0.5", ptr(0.5), false},
		{"-1.0", ptr(-1), false},
		{"0.6499999999999999", ptr(0.6499999999999999), false},
		{"1.0000005", ptr(1.0000005), true}, // within 1e-6 of 1
		{"0.9999995", ptr(0.9999995), true}, // within 1e-6 of 1
		{"0.999998", ptr(0.999998), false},  // 2e-6 below 1
		{"1e0", ptr(1), true},               // exponent form
		{"null", nil, false},                // recorded, but no value
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			traj := readOne(t, `[{"task_id": 0, "reward": `+tt.raw+`, "info": {"reward_info": {"reward": 0}}}]`)
			switch {
			case tt.want == nil && traj.Reward != nil:
				t.Fatalf("Reward = %v, want nil", *traj.Reward)
			case tt.want != nil && traj.Reward == nil:
				t.Fatalf("Reward = nil, want %v", *tt.want)
			case tt.want != nil && *traj.Reward != *tt.want:
				t.Fatalf("Reward = %v, want %v", *traj.Reward, *tt.want)
			}
			if got, want := traj.Passed(), tt.passed; got != want {
				t.Fatalf("Passed() = %v, want %v", got, want)
			}
		})
	}
}

func TestTauBench_TaskAndTrial(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		wantKey   string
		wantTrial int
	}{
		{"int id", `{"task_id": 12, "reward": 1, "trial": 3}`, "12", 3},
		{"string id", `{"task_id": "abc", "reward": 1, "trial": 0}`, "abc", 0},
		{"unicode id", `{"task_id": "tâche-é", "reward": 1}`, "tâche-é", 0},
		{"trial missing", `{"task_id": 5, "reward": 1}`, "5", 0},
		{"trial null", `{"task_id": 5, "reward": 1, "trial": null}`, "5", 0},
		{"trial equals task id", `{"task_id": 10, "reward": 0, "trial": 10}`, "10", 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			traj := readOne(t, "["+tt.in+"]")
			if got, want := traj.Task.Key, tt.wantKey; got != want {
				t.Fatalf("Key = %q, want %q", got, want)
			}
			if got, want := traj.Trial, tt.wantTrial; got != want {
				t.Fatalf("Trial = %d, want %d", got, want)
			}
		})
	}
}

func TestTauBench_Info(t *testing.T) {
	t.Parallel()
	traj := readOne(t, `[{
		"task_id": 4, "reward": 1.0, "trial": 2,
		"info": {
			"task": {"user_id": "u1", "instruction": "Return the lamp.", "actions": [{"name": "return", "kwargs": {"id": 1}}],
				"emotion_family": "fear", "emotion_leaf": "anxiety", "dimension_politeness": "warm",
				"dimension_urgency": "high", "dimension_trust_in_agent": "skeptical"},
			"source": "user",
			"user_cost": 0.25,
			"agent_cost": null,
			"reward_info": {"reward": 1.0, "info": {"r_actions": 1.0}},
			"custom": [1, 2]
		},
		"traj": [{"role": "user", "content": "thanks ###STOP###"}]
	}]`)
	task := traj.Task
	if got, want := task.UserID, "u1"; got != want {
		t.Fatalf("UserID = %q, want %q", got, want)
	}
	if got, want := task.Instruction, "Return the lamp."; got != want {
		t.Fatalf("Instruction = %q, want %q", got, want)
	}
	if got, want := string(task.Actions), `[{"name": "return", "kwargs": {"id": 1}}]`; got != want {
		t.Fatalf("Actions = %s, want %s", got, want)
	}
	if got, want := string(task.Outputs), `[]`; got != want {
		t.Fatalf("Outputs = %s, want %s (missing outputs)", got, want)
	}
	wantEmotion := emobench.EmotionProfile{Family: "fear", Leaf: "anxiety", Politeness: "warm", Urgency: "high", Trust: "skeptical"}
	if got, want := task.Emotion, wantEmotion; got != want {
		t.Fatalf("Emotion = %+v, want %+v", got, want)
	}
	if traj.UserCost == nil {
		t.Fatal("UserCost = nil, want 0.25")
	}
	if got, want := *traj.UserCost, 0.25; got != want {
		t.Fatalf("UserCost = %v, want %v", got, want)
	}
	if traj.AgentCost != nil {
		t.Fatalf("AgentCost = %v, want nil (null is unknown)", *traj.AgentCost)
	}
	if got, want := traj.Evaluated, true; got != want {
		t.Fatalf("Evaluated = %v, want %v", got, want)
	}
	if got, want := string(traj.RewardInfo), `{"reward": 1.0, "info": {"r_actions": 1.0}}`; got != want {
		t.Fatalf("RewardInfo = %s, want %s", got, want)
	}
	var extra map[string]json.RawMessage
	if err := json.Unmarshal(traj.Extra, &extra); err != nil {
		t.Fatalf("Extra %s: %v", traj.Extra, err)
	}
	if got, want := len(extra), 2; got != want {
		t.Fatalf("Extra = %s, want 2 keys (source, custom)", traj.Extra)
	}
	if got, want := string(extra["source"]), `"user"`; got != want {
		t.Fatalf("Extra.source = %s, want %s", got, want)
	}
	if got, want := string(extra["custom"]), `[1,2]`; got != want {
		t.Fatalf("Extra.custom = %s, want %s", got, want)
	}
	if got, want := traj.TerminationReason, emobench.TerminationUserStop; got != want {
		t.Fatalf("TerminationReason = %q, want %q", got, want)
	}
}

func TestTauBench_Messages(t *testing.T) {
	t.Parallel()
	traj := readOne(t, `[{"task_id": 1, "reward": 1, "info": {"reward_info": {}}, "traj": [
		{"role": "system", "content": "You are an agent."},
		{"role": "user", "content": [{"type": "text", "text": "Hello, "}, {"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": "world"}]},
		{"role": "assistant", "content": null, "annotations": [], "function_call": null,
			"tool_calls": [
				{"id": "c1", "type": "function", "function": {"name": "find", "arguments": "{\"email\": \"a@b.c\"}"}},
				{"id": "c2", "type": "function", "function": {"name": "bad", "arguments": "{bad json"}},
				{"id": "c3", "type": "function", "function": {"name": "obj", "arguments": {"n": 1}}},
				{"id": "c4", "type": "function", "function": {"name": "none"}}
			]},
		{"role": "tool", "name": "find", "tool_call_id": "c1", "content": "Error: not found"},
		{"role": "assistant", "content": "legacy", "function_call": {"name": "get_user", "arguments": "{\"id\":\"u1\"}"}},
		{"role": "user", "content": "bye ###STOP###"}
	]}]`)
	if got, want := len(traj.Messages), 6; got != want {
		t.Fatalf("got %d messages, want %d", got, want)
	}
	msgs := traj.Messages
	if got, want := msgs[1].Content, "Hello, world"; got != want {
		t.Fatalf("content parts = %q, want %q", got, want)
	}
	if got, want := msgs[2].Content, ""; got != want {
		t.Fatalf("null content = %q, want %q", got, want)
	}

	calls := msgs[2].ToolCalls
	if got, want := len(calls), 4; got != want {
		t.Fatalf("got %d tool calls, want %d", got, want)
	}
	tests := []struct {
		id, name, args string
		malformed      bool
	}{
		{"c1", "find", `{"email":"a@b.c"}`, false}, // the string's JSON, compacted
		{"c2", "bad", `"{bad json"`, true},         // a JSON string of the raw text
		{"c3", "obj", `{"n":1}`, false},            // already an object: compacted
		{"c4", "none", `{}`, false},                // no arguments
	}
	for i, tt := range tests {
		c := calls[i]
		if got, want := c.ID, tt.id; got != want {
			t.Fatalf("calls[%d].ID = %q, want %q", i, got, want)
		}
		if got, want := c.Name, tt.name; got != want {
			t.Fatalf("calls[%d].Name = %q, want %q", i, got, want)
		}
		if got, want := string(c.Arguments), tt.args; got != want {
			t.Fatalf("calls[%d].Arguments = %s, want %s", i, got, want)
		}
		if got, want := c.ArgumentsMalformed, tt.malformed; got != want {
			t.Fatalf("calls[%d].ArgumentsMalformed = %v, want %v", i, got, want)
		}
		if !json.Valid(c.Arguments) {
			t.Fatalf("calls[%d].Arguments %s is not valid JSON", i, c.Arguments)
		}
	}
	var raw string
	if err := json.Unmarshal(calls[1].Arguments, &raw); err != nil {
		t.Fatalf("malformed Arguments %s: %v", calls[1].Arguments, err)
	}
	if got, want := raw, "{bad json"; got != want {
		t.Fatalf("malformed Arguments hold %q, want %q", got, want)
	}

	if got, want := msgs[3].ToolName, "find"; got != want {
		t.Fatalf("ToolName = %q, want %q", got, want)
	}
	if got, want := msgs[3].ToolCallID, "c1"; got != want {
		t.Fatalf("ToolCallID = %q, want %q", got, want)
	}

	legacy := msgs[4].ToolCalls
	if got, want := len(legacy), 1; got != want {
		t.Fatalf("legacy function_call gave %d tool calls, want %d", got, want)
	}
	if got, want := legacy[0].Name, "get_user"; got != want {
		t.Fatalf("legacy call Name = %q, want %q", got, want)
	}
	if got, want := legacy[0].ID, ""; got != want {
		t.Fatalf("legacy call ID = %q, want %q", got, want)
	}
	if got, want := string(legacy[0].Arguments), `{"id":"u1"}`; got != want {
		t.Fatalf("legacy call Arguments = %s, want %s", got, want)
	}

	c := traj.Counts()
	if got, want := c, (emobench.TurnCounts{Messages: 6, UserTurns: 2, AgentTurns: 2, ToolCalls: 5, ToolErrors: 1}); got != want {
		t.Fatalf("Counts() = %+v, want %+v", got, want)
	}
}

func TestTauBench_TerminationReason(t *testing.T) {
	t.Parallel()
	const ri = `"reward_info": {"reward": 1.0, "info": {}}`
	tests := []struct {
		name      string
		rec       string
		want      emobench.TerminationReason
		evaluated bool
	}{
		{"stop", `{"task_id": 0, "reward": 1, "info": {` + ri + `}, "traj": [{"role": "user", "content": "Thanks! ###STOP###"}, {"role": "assistant", "content": "bye"}]}`,
			emobench.TerminationUserStop, true},
		{"unsatisfied marker", `{"task_id": 0, "reward": 0, "info": {` + ri + `}, "traj": [{"role": "user", "content": "###UNSATISFIED###"}]}`,
			emobench.TerminationUserUnsatisfied, true},
		{"user_abandoned", `{"task_id": 0, "reward": -1, "info": {"reward_info": {"reward": -1.0, "info": {"reason": "user_abandoned"}}}, "traj": [{"role": "user", "content": "no."}]}`,
			emobench.TerminationUserUnsatisfied, true},
		{"transfer agents", `{"task_id": 0, "reward": 0, "info": {"source": "transfer_to_human_agents", ` + ri + `}, "traj": [{"role": "user", "content": "hi"}]}`,
			emobench.TerminationTransfer, true},
		{"transfer support", `{"task_id": 0, "reward": 0, "info": {"source": "transfer_to_human_support", ` + ri + `}, "traj": [{"role": "user", "content": "hi"}]}`,
			emobench.TerminationTransfer, true},
		{"max steps", `{"task_id": 0, "reward": 0, "info": {"reward_info": null}, "traj": [{"role": "user", "content": "hi"}]}`,
			emobench.TerminationMaxSteps, false},
		{"error", `{"task_id": 0, "reward": 0, "info": {"error": "EOF when reading a line", "traceback": "..."}, "traj": []}`,
			emobench.TerminationError, false},
		{"no information", `{"task_id": 0, "reward": 1, "info": {` + ri + `}, "traj": []}`,
			emobench.TerminationUnknown, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			traj := readOne(t, "["+tt.rec+"]")
			if got, want := traj.TerminationReason, tt.want; got != want {
				t.Fatalf("TerminationReason = %q, want %q", got, want)
			}
			if got, want := traj.Evaluated, tt.evaluated; got != want {
				t.Fatalf("Evaluated = %v, want %v", got, want)
			}
		})
	}
}
