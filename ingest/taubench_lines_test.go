package ingest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench/ingest"
)

const lineRecord = `{"task_id": %s, "reward": %s, "info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []}, "user_cost": %s, "reward_info": {"reward": 1.0, "info": {}}}, "traj": [{"role": "user", "content": "NaN ###STOP###"}], "trial": 0}`

func record(taskID, reward, userCost string) string {
	return fmt.Sprintf(lineRecord, taskID, reward, userCost)
}

func TestTauBench_JSONLines(t *testing.T) {
	t.Parallel()
	in := record("0", "1.0", "0.5") + "\n" + record("1", "0.0", "null") + "\n"
	var keys []string
	for traj, err := range ingest.TauBench(strings.NewReader(in)) {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, traj.Task.Key)
	}
	if got, want := strings.Join(keys, ","), "0,1"; got != want {
		t.Fatalf("keys = %s, want %s", got, want)
	}
}

func TestTauBench_ErrJSONLinesBadSecondRecord(t *testing.T) {
	t.Parallel()
	in := record("0", "1.0", "0.5") + "\n" + record("1", `"1.0"`, "null") + "\n"
	n := 0
	for _, err := range ingest.TauBench(strings.NewReader(in)) {
		if err != nil {
			if !strings.Contains(err.Error(), "record 1") || !strings.Contains(err.Error(), "reward is a string") {
				t.Fatalf("err = %v, want record 1 reward is a string", err)
			}
			return
		}
		n++
	}
	t.Fatalf("no error after %d records", n)
}

// Python's json.dump writes NaN and Infinity; they are read as null, while
// the same letters inside strings are kept.
func TestTauBench_NonFinite(t *testing.T) {
	t.Parallel()
	in := "[" + record("0", "NaN", "Infinity") + "]"
	for traj, err := range ingest.TauBench(strings.NewReader(in)) {
		if err != nil {
			t.Fatal(err)
		}
		if traj.Reward != nil || traj.UserCost != nil {
			t.Fatalf("reward %v user_cost %v, want both nil", traj.Reward, traj.UserCost)
		}
		if got := traj.Messages[0].Content; got != "NaN ###STOP###" {
			t.Fatalf("content = %q, want the string kept", got)
		}
	}
}

// Python writes integral floats (2.0) where ints belong; they name the same
// task and trial.
func TestTauBench_IntegralFloats(t *testing.T) {
	t.Parallel()
	in := `[{"task_id": 3.0, "reward": 1, "info": {}, "traj": [], "trial": 2.0}]`
	for traj, err := range ingest.TauBench(strings.NewReader(in)) {
		if err != nil {
			t.Fatal(err)
		}
		if traj.Task.Key != "3" || traj.Trial != 2 {
			t.Fatalf("task %q trial %d, want 3 and 2", traj.Task.Key, traj.Trial)
		}
	}
	bad := `[{"task_id": 3, "reward": 1, "info": {}, "traj": [], "trial": 1.5}]`
	for _, err := range ingest.TauBench(strings.NewReader(bad)) {
		if err == nil || !strings.Contains(err.Error(), "trial is a number (1.5), want an integer") {
			t.Fatalf("err = %v, want trial 1.5 refused", err)
		}
	}
}
