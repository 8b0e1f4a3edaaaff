package analysis

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The README's worked example: runs 1 and 2 with emotions (task 2 in
// both), run 3 without.
var (
	exampleWith    = PoolKey{"m", "u", "retail", "with-emotions"}
	exampleWithout = PoolKey{"m", "u", "retail", "without-emotions"}
	exampleRuns    = map[int64]PoolKey{1: exampleWith, 2: exampleWith, 3: exampleWithout}
	exampleTasks   = []TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 1, Passes: 1},
		{RunID: 1, TaskID: 2, Trials: 1, Passes: 0},
		{RunID: 2, TaskID: 2, Trials: 1, Passes: 1},
		{RunID: 2, TaskID: 3, Trials: 1, Passes: 1},
		{RunID: 3, TaskID: 1, Trials: 1, Passes: 1},
		{RunID: 3, TaskID: 2, Trials: 1, Passes: 0},
		{RunID: 3, TaskID: 3, Trials: 1, Passes: 0},
	}
)

func ExamplePoolTasks() {
	units := NewUnits(exampleRuns, true)
	rows, _ := PassK(PoolTasks(exampleTasks, units), PassKOptions{Ks: []int{1}})
	for _, r := range rows {
		u := units.ByID(r.RunID)
		fmt.Printf("%s runs %v: pass^1 %.4f over %d tasks, %d trajectories\n", u.Key.Label(), u.RunIDs, r.PassHatK, r.Tasks, r.Trajectories)
	}
	// Output:
	// m / u / retail / with-emotions runs [1 2]: pass^1 0.8333 over 3 tasks, 4 trajectories
	// m / u / retail / without-emotions runs [3]: pass^1 0.3333 over 3 tasks, 3 trajectories
}

func TestNewUnits(t *testing.T) {
	t.Run("PerRun", func(t *testing.T) {
		u := NewUnits(exampleRuns, false)
		want := []Unit{
			{ID: 1, Key: exampleWith, RunIDs: []int64{1}},
			{ID: 2, Key: exampleWith, RunIDs: []int64{2}},
			{ID: 3, Key: exampleWithout, RunIDs: []int64{3}},
		}
		if diff := cmp.Diff(want, u.List()); diff != "" {
			t.Fatalf("units (-want +got):\n%s", diff)
		}
		// Per run, PoolTasks changes nothing.
		if diff := cmp.Diff(exampleTasks, PoolTasks(exampleTasks, u)); diff != "" {
			t.Errorf("PoolTasks per run (-want +got):\n%s", diff)
		}
		if got := Overlaps(u, []RunTask{{1, "2"}, {2, "2"}}); got != nil {
			t.Errorf("per-run overlaps = %v, want none", got)
		}
	})
	t.Run("Pooled", func(t *testing.T) {
		u := NewUnits(exampleRuns, true)
		want := []Unit{
			{ID: 1, Key: exampleWith, RunIDs: []int64{1, 2}, Pooled: true},
			{ID: 3, Key: exampleWithout, RunIDs: []int64{3}, Pooled: true},
		}
		if diff := cmp.Diff(want, u.List()); diff != "" {
			t.Fatalf("units (-want +got):\n%s", diff)
		}
		if got := u.ByID(2); got.ID != 0 {
			t.Errorf("ByID(2) = %+v: 2 is not a unit's ID", got)
		}
		if got, ok := u.Of(2); !ok || got.ID != 1 {
			t.Errorf("Of(2) = %+v, %v: want the pool of runs 1, 2", got, ok)
		}
		// Task 2's two trajectories become two trials of one task.
		wantTasks := []TaskTrials{
			{RunID: 1, TaskID: 1, Trials: 1, Passes: 1},
			{RunID: 1, TaskID: 2, Trials: 2, Passes: 1},
			{RunID: 1, TaskID: 3, Trials: 1, Passes: 1},
			{RunID: 3, TaskID: 1, Trials: 1, Passes: 1},
			{RunID: 3, TaskID: 2, Trials: 1, Passes: 0},
			{RunID: 3, TaskID: 3, Trials: 1, Passes: 0},
		}
		if diff := cmp.Diff(wantTasks, PoolTasks(exampleTasks, u)); diff != "" {
			t.Errorf("PoolTasks (-want +got):\n%s", diff)
		}
		overlaps := Overlaps(u, []RunTask{{1, "1"}, {1, "2"}, {2, "2"}, {2, "3"}, {3, "2"}, {2, "2"}})
		if len(overlaps) != 1 || overlaps[0].String() != "pool m / u / retail / with-emotions: task 2 appears in runs 1 and 2" {
			t.Errorf("overlaps = %v", overlaps)
		}
		if got := PoolRunTrials(map[int64]int{1: 2, 2: 3, 3: 4}, u); !cmp.Equal(got, map[int64]int{1: 5, 3: 4}) {
			t.Errorf("PoolRunTrials = %v, want the pool's runs' n summed", got)
		}
	})
}

// exampleTrials are the worked example's trajectories, trial 0 each.
func exampleTrials() []ConditionTrial {
	var out []ConditionTrial
	for _, t := range exampleTasks {
		out = append(out, ConditionTrial{RunID: t.RunID, PairKey: fmt.Sprint(t.TaskID), Trial: 0, Passed: t.Passes == 1,
			Profile: map[string]string{"emotion_family": "anger"}})
	}
	return out
}

func TestCompareEmotions_PerRunPairsAndPool(t *testing.T) {
	opts := BootstrapOptions{Resamples: 100, Seed: 1}
	t.Run("PerRun", func(t *testing.T) {
		// Runs 1 and 3 come from one command (group "a"); run 2 from
		// another: only 1 vs 3 is compared (tasks 1, 2; task 3 is left out).
		p := Pairing{Groups: map[int64]string{1: "a", 2: "b", 3: "a"}}
		rows, comparisons := CompareEmotions(exampleTrials(), NewUnits(exampleRuns, false), p, nil, opts)
		if len(comparisons) != 1 || comparisons[0].With.ID != 1 || comparisons[0].Pairs != 2 || comparisons[0].OnlyWithout != 1 {
			t.Fatalf("comparisons = %+v", comparisons)
		}
		r := rows[0]
		if r.Dimension != "all" || r.With != 0.5 || r.Without != 0.5 || !cmp.Equal(r.WithRuns, []int64{1}) || !cmp.Equal(r.WithoutRuns, []int64{3}) {
			t.Errorf("comparison: %+v, want runs 1 vs 3, 0.5 vs 0.5", r)
		}
	})
	t.Run("Pooled", func(t *testing.T) {
		rows, _ := CompareEmotions(exampleTrials(), NewUnits(exampleRuns, true), Pairing{}, nil, opts)
		r := rows[0]
		// (1 + 1/2 + 1)/3 with, 1/3 without; McNemar matches run 1's trial 0
		// of task 2 (the first with-emotions run) with run 3's: only task 3
		// is discordant (b = 1).
		if r.Dimension != "all" || r.Pairs != 3 || math.Abs(r.With-5.0/6) > 1e-12 || math.Abs(r.Without-1.0/3) > 1e-12 || r.B != 1 || r.C != 0 || !cmp.Equal(r.WithRuns, []int64{1, 2}) {
			t.Errorf("pooled = %+v", r)
		}
	})
}

// NewUnitsTagged pools runs of one key only when their tags are equal too.
func TestNewUnitsTagged(t *testing.T) {
	k := PoolKey{AgentModel: "m", UserModel: "u", Domain: "retail", Condition: "none"}
	u := NewUnitsTagged(map[int64]PoolKey{1: k, 2: k, 3: k, 4: k}, map[int64]string{2: "tuned", 4: "tuned"}, true)
	var got [][]int64
	for _, unit := range u.List() {
		got = append(got, unit.RunIDs)
		if unit.Key != k {
			t.Errorf("unit %d key = %v, want %v", unit.ID, unit.Key, k)
		}
	}
	if want := [][]int64{{1, 3}, {2, 4}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("units = %v, want %v", got, want)
	}
}
