package ingest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench/ingest"
	"github.com/google/go-cmp/cmp"
)

// A reward too large for a float64 is refused with an error naming the
// record and the value, in τ-bench and τ²-bench files; rewards in [−1, 1]
// and beyond (finite) are kept as given.
func TestReward_ErrOutOfRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
		read           func(string) error
	}{
		{"taubench", `[{"task_id": 1, "reward": 1, "info": {}, "traj": [], "trial": 0}, {"task_id": 2, "reward": 1e400, "info": {}, "traj": [], "trial": 0}]`,
			"record 1 (byte 133): reward 1e400 is out of range: not a finite number", readTauBench},
		{"tau2", `{"timestamp": "x", "info": {}, "tasks": [], "simulations": [{"id": "a", "task_id": "1", "trial": 0, "messages": [], "termination_reason": "user_stop", "reward_info": {"reward": -1e999}}]}`,
			"reward_info.reward -1e999 is out of range: not a finite number", readTau2Simulations},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	for _, r := range []string{"-1", "0.5", "2.5"} {
		in := `[{"task_id": 1, "reward": ` + r + `, "info": {}, "traj": [], "trial": 0}]`
		for traj, err := range ingest.TauBench(strings.NewReader(in)) {
			if err != nil || traj.Reward == nil {
				t.Fatalf("reward %s: %v, reward %v; want it kept", r, err, traj.Reward)
			}
		}
	}
}

func readTauBench(in string) error {
	for _, err := range ingest.TauBench(strings.NewReader(in)) {
		if err != nil {
			return err
		}
	}
	return nil
}

func readTau2Simulations(in string) error {
	rd, err := ingest.Tau2(strings.NewReader(in))
	if err != nil {
		return err
	}
	for _, err := range rd.Trajectories() {
		if err != nil {
			return err
		}
	}
	return nil
}

// A reward that is NaN or ±Infinity (read as null) beside a reward_info is
// not evaluated, never an evaluated failure; a finite reward outside
// [−1, 1] is kept and noted, naming the task and trial (#20 item 17).
func TestReward_NonFiniteNotEvaluatedOutOfRangeNoted(t *testing.T) {
	t.Parallel()
	t.Run("taubench", func(t *testing.T) {
		in := `[{"task_id": 1, "reward": NaN, "info": {"reward_info": {"reward": 0}}, "traj": [], "trial": 0},
			{"task_id": 2, "reward": -Infinity, "info": {"reward_info": {}}, "traj": [], "trial": 3},
			{"task_id": 3, "reward": 1e308, "info": {"reward_info": {}}, "traj": [], "trial": 1},
			{"task_id": 4, "reward": 1, "info": {"reward_info": {}}, "traj": [], "trial": 0}]`
		var notes []string
		var evaluated []bool
		for traj, err := range ingest.TauBenchWithNotes(strings.NewReader(in), func(n string) { notes = append(notes, n) }) {
			if err != nil {
				t.Fatal(err)
			}
			evaluated = append(evaluated, traj.Evaluated)
		}
		if got, want := fmt.Sprint(evaluated), "[false false true true]"; got != want {
			t.Errorf("evaluated %s, want %s", got, want)
		}
		want := []string{
			"record 0: task 1, trial 0: reward is null or not a finite number (NaN, Infinity) beside a reward_info: stored as not evaluated",
			"record 1: task 2, trial 3: reward is null or not a finite number (NaN, Infinity) beside a reward_info: stored as not evaluated",
			"record 2: task 3, trial 1: reward 1e+308 is outside [-1, 1]: kept as given (it never passes), and every mean reward over it says so",
		}
		if diff := cmp.Diff(want, notes); diff != "" {
			t.Errorf("notes (-want +got):\n%s", diff)
		}
	})
	t.Run("tau2", func(t *testing.T) {
		in := `{"timestamp": "x", "info": {}, "tasks": [], "simulations": [
			{"id": "a", "task_id": "1", "trial": 0, "messages": [], "termination_reason": "user_stop", "reward_info": {"reward": NaN}},
			{"id": "b", "task_id": "2", "trial": 2, "messages": [], "termination_reason": "user_stop", "reward_info": {"reward": 5}}]}`
		rd, err := ingest.Tau2(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		var evaluated []bool
		for traj, err := range rd.Trajectories() {
			if err != nil {
				t.Fatal(err)
			}
			evaluated = append(evaluated, traj.Evaluated)
		}
		if got, want := fmt.Sprint(evaluated), "[false true]"; got != want {
			t.Errorf("evaluated %s, want %s", got, want)
		}
		want := []string{
			"simulation 0 (task 1, trial 0): reward is null or not a finite number (NaN, Infinity) beside a reward_info: stored as not evaluated",
			"simulation 1 (task 2, trial 2): reward 5 is outside [-1, 1]: kept as given (it never passes), and every mean reward over it says so",
		}
		if diff := cmp.Diff(want, rd.Warnings()[:2]); diff != "" {
			t.Errorf("warnings (-want +got):\n%s", diff)
		}
	})
}
