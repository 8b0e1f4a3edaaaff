package analysis_test

import (
	"slices"
	"testing"

	"github.com/emobench/emobench/analysis"
)

// Per-run units keep each run's tasks as they are, add up repeats of a
// (run, task, group), and drop runs no unit holds, whether a run's tasks
// come together or resume after another run's.
func TestPoolTasks_PerRun(t *testing.T) {
	u := analysis.NewUnits(map[int64]analysis.PoolKey{1: {AgentModel: "m"}, 2: {AgentModel: "m"}}, false)
	task := func(run, id int64, group string, trials, passes int) analysis.TaskTrials {
		return analysis.TaskTrials{RunID: run, TaskID: id, Group: []string{group}, Trials: trials, Passes: passes}
	}
	type pair struct {
		run, task      int64
		trials, passes int
	}
	pairs := func(tasks []analysis.TaskTrials) []pair {
		var out []pair
		for _, t := range tasks {
			out = append(out, pair{t.RunID, t.TaskID, t.Trials, t.Passes})
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		tasks []analysis.TaskTrials
		want  []pair
	}{
		{"runs together",
			[]analysis.TaskTrials{task(1, 5, "a", 2, 1), task(1, 6, "a", 2, 2), task(1, 5, "a", 1, 1), task(3, 5, "a", 4, 4), task(2, 5, "a", 3, 0)},
			[]pair{{1, 5, 3, 2}, {1, 6, 2, 2}, {2, 5, 3, 0}}},
		{"nothing to add up",
			[]analysis.TaskTrials{task(1, 5, "a", 2, 1), task(1, 5, "b", 1, 1), task(2, 5, "a", 3, 0)},
			[]pair{{1, 5, 2, 1}, {1, 5, 1, 1}, {2, 5, 3, 0}}},
		{"a run resumes",
			[]analysis.TaskTrials{task(1, 5, "a", 2, 1), task(2, 5, "a", 3, 0), task(1, 5, "a", 1, 1), task(1, 5, "b", 1, 0)},
			[]pair{{1, 5, 3, 2}, {2, 5, 3, 0}, {1, 5, 1, 0}}},
	} {
		if got := pairs(analysis.PoolTasks(tt.tasks, u)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: PoolTasks = %v, want %v", tt.name, got, tt.want)
		}
	}
}
