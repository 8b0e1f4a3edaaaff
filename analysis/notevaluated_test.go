package analysis

import (
	"math"
	"testing"
)

// A (run, group) with no evaluated trial has NaN pass^k and pass@k and
// NotEvaluated set; one evaluated trial among failures makes the group
// evaluated (the unevaluated ones count as failures).
func TestPassK_NotEvaluated(t *testing.T) {
	tasks := []TaskTrials{
		{RunID: 1, TaskID: 1, Group: []string{"anger"}, Trials: 2, Passes: 1},
		{RunID: 1, TaskID: 2, Group: []string{"fear"}, Trials: 2, Passes: 0, Unevaluated: 2},
		{RunID: 2, TaskID: 1, Group: []string{"anger"}, Trials: 2, Passes: 0, Unevaluated: 2},
		{RunID: 2, TaskID: 2, Group: []string{"fear"}, Trials: 2, Passes: 0, Unevaluated: 1},
	}
	rows, err := PassK(tasks, PassKOptions{Ks: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	// Hand computation: run 1 anger 1/2; fear and run 2 anger nothing
	// evaluated; run 2 fear 0/2 with one evaluated failure.
	want := []struct {
		run          int64
		group        string
		v            float64
		notEvaluated bool
	}{{1, "anger", 0.5, false}, {1, "fear", math.NaN(), true}, {2, "anger", math.NaN(), true}, {2, "fear", 0, false}}
	if got, w := len(rows), len(want); got != w {
		t.Fatalf("rows = %d, want %d", got, w)
	}
	for i, w := range want {
		r := rows[i]
		if r.RunID != w.run || r.Group[0] != w.group || r.NotEvaluated != w.notEvaluated ||
			math.IsNaN(r.PassHatK) != math.IsNaN(w.v) || (!math.IsNaN(w.v) && math.Abs(r.PassHatK-w.v) > 1e-12) ||
			math.IsNaN(r.PassAtK) != w.notEvaluated {
			t.Errorf("row %d = %+v, want run %d %s pass^1 %v not evaluated %v", i, r, w.run, w.group, w.v, w.notEvaluated)
		}
	}
	if hat, _, ci, _ := PassKCI(tasks[2:3], 1, PerTask, 0, BootstrapOptions{Resamples: 10}); !math.IsNaN(hat) || !math.IsNaN(ci.Lo) {
		t.Errorf("PassKCI of a not evaluated task = %v [%v, …], want NaN", hat, ci.Lo)
	}
}

// Pooling adds up unevaluated trials: a pool is not evaluated only when
// none of its runs' trials is.
func TestPoolTasks_Unevaluated(t *testing.T) {
	u := NewUnits(map[int64]PoolKey{1: {AgentModel: "m"}, 2: {AgentModel: "m"}}, true)
	pooled := PoolTasks([]TaskTrials{
		{RunID: 1, TaskID: 7, Trials: 1, Unevaluated: 1},
		{RunID: 2, TaskID: 7, Trials: 2, Passes: 1},
	}, u)
	if got, want := pooled[0].Unevaluated, 1; got != want {
		t.Fatalf("pooled unevaluated = %d, want %d", got, want)
	}
	if NotEvaluated(pooled) {
		t.Error("a pool with evaluated trials is not evaluated")
	}
	if NotEvaluated(nil) {
		t.Error("no trials at all is not 'not evaluated': there is nothing to evaluate")
	}
}

// A share bin whose trajectories are all unevaluated has a NaN rate.
func TestSuccessByShareBinEvaluated(t *testing.T) {
	bins := SuccessByShareBinEvaluated([]float64{0.1, 0.9, 0.95}, []bool{false, true, false}, []bool{false, true, false}, 2)
	if !bins[0].NotEvaluated || !math.IsNaN(bins[0].Rate) || !math.IsNaN(bins[0].CI.Lo) || bins[0].N != 1 {
		t.Errorf("bin 0 = %+v, want 1 trajectory, not evaluated, NaN rate", bins[0])
	}
	// Bin 1: 1 pass of 2, one evaluated: the unevaluated one is a failure.
	if bins[1].NotEvaluated || bins[1].Rate != 0.5 {
		t.Errorf("bin 1 = %+v, want rate 0.5", bins[1])
	}
}
