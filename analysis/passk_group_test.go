package analysis_test

import (
	"math"
	"slices"
	"testing"

	"github.com/emobench/emobench/analysis"
)

// A group whose tasks are not consecutive in the input (here: group "a"
// of run 1 resumes after "b") gets the same rows as when they are, and
// PassK leaves its input as it was.
func TestPassK_InterleavedGroups(t *testing.T) {
	task := func(run, id int64, group string, trials, passes int) analysis.TaskTrials {
		return analysis.TaskTrials{RunID: run, TaskID: id, Group: []string{group}, Trials: trials, Passes: passes}
	}
	interleaved := []analysis.TaskTrials{
		task(1, 1, "a", 4, 4), task(1, 2, "b", 4, 0), task(1, 3, "a", 4, 2),
		task(2, 1, "a", 2, 1), task(1, 4, "a", 4, 1),
	}
	consecutive := []analysis.TaskTrials{
		task(1, 1, "a", 4, 4), task(1, 3, "a", 4, 2), task(1, 4, "a", 4, 1),
		task(1, 2, "b", 4, 0), task(2, 1, "a", 2, 1),
	}
	before := slices.Clone(interleaved)
	got, err := analysis.PassK(interleaved, analysis.PassKOptions{Ks: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := analysis.PassK(consecutive, analysis.PassKOptions{Ks: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(got) != 6 {
		t.Fatalf("got %d rows, want %d (= 6)", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.RunID != w.RunID || !slices.Equal(g.Group, w.Group) || g.K != w.K || g.Tasks != w.Tasks ||
			g.Trajectories != w.Trajectories || math.Abs(g.PassHatK-w.PassHatK) > tol {
			t.Errorf("row %d: %+v, want %+v", i, g, w)
		}
	}
	// Run 1, group a, k = 1: tasks 4/4, 2/4, 1/4 → (1 + 0.5 + 0.25) / 3.
	if r := got[0]; r.RunID != 1 || r.Group[0] != "a" || r.K != 1 || r.Tasks != 3 || math.Abs(r.PassHatK-1.75/3) > tol {
		t.Errorf("run 1, group a, k = 1: %+v, want 3 tasks and pass^1 %.4f", r, 1.75/3)
	}
	for i := range before {
		if interleaved[i].TaskID != before[i].TaskID || interleaved[i].Passes != before[i].Passes {
			t.Fatalf("PassK changed its input: task %d is %+v, was %+v", i, interleaved[i], before[i])
		}
	}
}
