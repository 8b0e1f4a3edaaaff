package ingest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// tauInfoRecord is a τ-bench record with the given info keys (besides task)
// and messages, a JSON array.
func tauInfoRecord(info, traj string) string {
	return fmt.Sprintf(`[{"task_id": 0, "reward": 0.0, "info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []}%s}, "traj": %s, "trial": 0}]`, info, traj)
}

func extraKeys(t *testing.T, traj *emobench.Trajectory) map[string]json.RawMessage {
	t.Helper()
	m := map[string]json.RawMessage{}
	if len(traj.Extra) > 0 {
		if err := json.Unmarshal(traj.Extra, &m); err != nil {
			t.Fatalf("extra %s: %v", traj.Extra, err)
		}
	}
	return m
}

// emobench's τ-bench export writes the reasons τ-bench cannot signal to
// info.emobench_termination_reason and the reward_info of an evaluated
// max_steps to info.emobench_reward_info; both are read back. Values that
// are not emobench's leave the reader's derivation alone and stay in Extra.
func TestTauBench_EmobenchKeys(t *testing.T) {
	t.Parallel()
	const stopped = `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "done"}, {"role": "user", "content": "###STOP###"}]`
	const capped = `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "still working"}]`
	const ri = `, "reward_info": {"reward": 0.0, "info": {}}`
	tests := []struct {
		name      string
		info      string
		traj      string
		want      emobench.TerminationReason
		evaluated bool
		kept      []string // info keys that stay in Extra
	}{
		{"agent_stop", ri + `, "emobench_termination_reason": "agent_stop"`, stopped, emobench.TerminationAgentStop, true, nil},
		{"too_many_errors without reward_info", `, "reward_info": null, "emobench_termination_reason": "too_many_errors"`, stopped, emobench.TerminationTooManyErrors, false, nil},
		{"unknown", ri + `, "emobench_termination_reason": "unknown"`, stopped, emobench.TerminationUnknown, true, nil},
		{"evaluated max_steps", `, "reward_info": null, "emobench_reward_info": {"reward": 0.0, "info": {"db_match": false}}`, capped, emobench.TerminationMaxSteps, true, nil},
		{"foreign reason", ri + `, "emobench_termination_reason": "gave_up"`, stopped, emobench.TerminationUserStop, true, []string{"emobench_termination_reason"}},
		{"reason not a string", ri + `, "emobench_termination_reason": 3`, stopped, emobench.TerminationUserStop, true, []string{"emobench_termination_reason"}},
		{"emobench_reward_info beside a reward_info", ri + `, "emobench_reward_info": {"reward": 1.0}`, stopped, emobench.TerminationUserStop, true, []string{"emobench_reward_info"}},
		{"emobench_reward_info null", `, "reward_info": null, "emobench_reward_info": null`, capped, emobench.TerminationMaxSteps, false, []string{"emobench_reward_info"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			traj := readOne(t, tauInfoRecord(tt.info, tt.traj))
			if traj.TerminationReason != tt.want || traj.Evaluated != tt.evaluated {
				t.Errorf("reason %s, evaluated %v; want %s, %v", traj.TerminationReason, traj.Evaluated, tt.want, tt.evaluated)
			}
			extra := extraKeys(t, traj)
			for _, k := range []string{"emobench_termination_reason", "emobench_reward_info"} {
				_, got := extra[k]
				want := false
				for _, kk := range tt.kept {
					want = want || kk == k
				}
				if got != want {
					t.Errorf("extra %s: has %s %v, want %v", traj.Extra, k, got, want)
				}
			}
			if tt.name == "evaluated max_steps" && string(traj.RewardInfo) != `{"reward": 0.0, "info": {"db_match": false}}` {
				t.Errorf("reward_info %s, want the one kept aside", traj.RewardInfo)
			}
		})
	}
}

// emobench's τ²-bench export keeps the reason τ²-bench cannot spell in a
// simulation's info and a task's user id and emotion profile in its emobench
// object; both are read back, and foreign values change nothing.
func TestTau2_EmobenchKeys(t *testing.T) {
	sim := func(id, reason, info string) string {
		return fmt.Sprintf(`{"id": %q, "task_id": "t1", "termination_reason": %q, "reward_info": {"reward": 0.0}, "messages": [{"role": "user", "content": "hi", "turn_idx": 0}], "trial": 0%s}`, id, reason, info)
	}
	in := `{"timestamp": "2025-07-01T12:00:00", "info": {"agent_info": {"llm": "m"}}, "tasks": [
		{"id": "t1", "user_scenario": {"instructions": "do it"}, "emobench": {"user_id": "u_7", "emotion": {"family": "fear", "leaf": "anxiety", "politeness": "warm", "urgency": "high", "trust": "cautious"}}},
		{"id": "t2", "user_scenario": {"instructions": "other"}, "emobench": "not an object"}],
	"simulations": [` + strings.Join([]string{
		sim("a", "user_stop", `, "info": {"emobench_termination_reason": "user_unsatisfied"}`),
		sim("b", "user_stop", `, "info": {"emobench_termination_reason": "transfer"}`),
		sim("c", "unexpected_error", `, "info": {"emobench_termination_reason": "error", "error": "llm: 500 after 5 retries"}`),
		sim("d", "timeout", ``),
		sim("e", "user_stop", `, "info": {"emobench_termination_reason": "gave_up"}`),
		sim("f", "agent_stop", `, "info": "a string"`),
		sim("g", "agent_stop", `, "info": {"emobench_termination_reason": "unknown"}`),
	}, ",\n") + `]}`
	rd, err := ingest.Tau2(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := collect(t, rd.Trajectories())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		reason emobench.TerminationReason
		err    string
	}{
		{emobench.TerminationUserUnsatisfied, ""},
		{emobench.TerminationTransfer, ""},
		{emobench.TerminationError, "llm: 500 after 5 retries"},
		{emobench.TerminationError, "timeout"},
		{emobench.TerminationUserStop, ""},
		{emobench.TerminationAgentStop, ""},
		{emobench.TerminationUnknown, ""},
	}
	if len(trajs) != len(want) {
		t.Fatalf("%d trajectories, want %d", len(trajs), len(want))
	}
	for i, w := range want {
		if got := trajs[i]; got.TerminationReason != w.reason || got.Error != w.err {
			t.Errorf("simulation %d: reason %s, error %q; want %s, %q", i, got.TerminationReason, got.Error, w.reason, w.err)
		}
	}
	task := trajs[0].Task
	if wantEmotion := (emobench.EmotionProfile{Family: "fear", Leaf: "anxiety", Politeness: "warm", Urgency: "high", Trust: "cautious"}); task.UserID != "u_7" || task.Emotion != wantEmotion {
		t.Errorf("task user %q, emotion %+v; want u_7, %+v", task.UserID, task.Emotion, wantEmotion)
	}
}

// A task's emobench object of another shape is ignored.
func TestTau2_EmobenchTaskOtherShapes(t *testing.T) {
	t.Parallel()
	for _, obj := range []string{`"a string"`, `null`, `{"user_id": 3, "emotion": "anger"}`, `{"emotion": {"family": 1}}`} {
		in := `{"info": {}, "tasks": [{"id": "t1", "emobench": ` + obj + `}], "simulations": [{"id": "a", "task_id": "t1", "termination_reason": "user_stop", "messages": [], "trial": 0}]}`
		rd, err := ingest.Tau2(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", obj, err)
		}
		trajs, err := collect(t, rd.Trajectories())
		if err != nil || len(trajs) != 1 {
			t.Fatalf("%s: %d trajectories, %v", obj, len(trajs), err)
		}
		if task := trajs[0].Task; task.UserID != "" || task.Emotion != (emobench.EmotionProfile{}) {
			t.Errorf("%s: user %q, emotion %+v; want both empty", obj, task.UserID, task.Emotion)
		}
	}
}

// Message text is read exactly as encoding/json decodes it, in any script,
// with escapes, surrogate pairs, combining marks and a NUL; a 10 MB message
// is read whole (under a --max-record that allows it).
func TestTauBench_ContentIntact(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, literal string }{
		{"scripts", `"中文 日本語 한국어 مرحبا שלום Ελληνικά русский हिन्दी"`},
		{"emoji", `"😀 👍🏽 👨‍👩‍👧 \ud83d\ude00 \uD83D\uDE00"`},
		{"combining and bidi", `"e\u0301 n\u0303 Å\u030a \u202eevil\u202c \u200f\u200e"`},
		{"controls and NUL", `"nul\u0000after \u0001\u001f\b\f\n\r\t \"q\" \\ \/"`},
		{"lone surrogates", `"\ud800 x \udc00"`},
		{"invalid UTF-8", "\"a\xffb\xc3\""},
		{"huge", `"` + strings.Repeat(`abc\n中😀`, 1<<20) + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want string
			if err := json.Unmarshal([]byte(tt.literal), &want); err != nil {
				t.Fatal(err)
			}
			in := tauInfoRecord("", `[{"role": "user", "content": `+tt.literal+`}, {"role": "assistant", "content": [{"type": "text", "text": `+tt.literal+`}]}]`)
			trajs, err := collect(t, ingest.TauBenchWith(strings.NewReader(in), ingest.TauBenchOptions{MaxRecord: 64 << 20}))
			if err != nil || len(trajs) != 1 {
				t.Fatalf("TauBench: %d trajectories, %v; want 1", len(trajs), err)
			}
			for i, m := range trajs[0].Messages {
				if m.Content != want {
					t.Errorf("message %d: %d bytes %.40q…, want %d bytes %.40q…", i, len(m.Content), m.Content, len(want), want)
				}
			}
		})
	}
}
