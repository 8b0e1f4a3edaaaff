package ingest_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench/ingest"
)

// A reward too large for a float64 is refused with an error naming the
// record and the value, in τ-bench and τ²-bench files; rewards in [−1, 1]
// and beyond (finite) are kept as given.
func TestReward_ErrOutOfRange(t *testing.T) {
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
