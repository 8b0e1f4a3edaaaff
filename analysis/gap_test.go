package analysis_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/emobench/emobench/analysis"
)

func TestGap(t *testing.T) {
	const eps = 1e-12
	nan := math.NaN()
	tests := []struct {
		pass1, passk, diff, ratio float64 // by hand
	}{
		{0.8, 0.5, 0.3, 0.625},
		{0.5, 0.5, 0, 1},
		{0, 0, 0, nan}, // ratio undefined at pass^1 = 0
		{nan, 0.2, nan, nan},
	}
	for _, tt := range tests {
		diff, ratio := analysis.Gap(tt.pass1, tt.passk)
		if !closeOrNaN(diff, tt.diff, eps) || !closeOrNaN(ratio, tt.ratio, eps) {
			t.Errorf("Gap(%v, %v) = %v, %v, want %v, %v", tt.pass1, tt.passk, diff, ratio, tt.diff, tt.ratio)
		}
	}
}

func closeOrNaN(got, want, eps float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return math.Abs(got-want) <= eps
}

func TestGapAtMaxK(t *testing.T) {
	const eps = 1e-12
	tasks := []analysis.TaskTrials{
		// Run 2 first, to check the ordering.
		{RunID: 2, TaskID: 1, Group: []string{"x"}, Trials: 2, Passes: 1},
		{RunID: 1, TaskID: 1, Group: []string{"b"}, Trials: 4, Passes: 4},
		{RunID: 1, TaskID: 2, Group: []string{"b"}, Trials: 4, Passes: 2},
		{RunID: 1, TaskID: 3, Group: []string{"b"}, Trials: 2, Passes: 2},
		{RunID: 1, TaskID: 1, Group: []string{"a"}, Trials: 1, Passes: 0},
	}
	rows, err := analysis.PassK(tasks, analysis.PassKOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := analysis.GapAtMaxK(rows)
	want := []analysis.GapRow{
		// Largest k is 1 and pass^1 = 0: no gap, ratio undefined.
		{RunID: 1, Group: []string{"a"}, K: 1, Pass1: 0, PassK: 0, Diff: 0, Ratio: math.NaN(), Tasks1: 1, TasksK: 1},
		// By hand: pass^1 = (1 + 0.5 + 1)/3 = 5/6; pass^4 over the two
		// 4-trial tasks = (1 + 0)/2 = 0.5; diff = 1/3, ratio = 0.6.
		{RunID: 1, Group: []string{"b"}, K: 4, Pass1: 5.0 / 6, PassK: 0.5, Diff: 1.0 / 3, Ratio: 0.6, Tasks1: 3, TasksK: 2},
		// pass^1 = 0.5, pass^2 = C(1,2)/C(2,2) = 0.
		{RunID: 2, Group: []string{"x"}, K: 2, Pass1: 0.5, PassK: 0, Diff: 0.5, Ratio: 0, Tasks1: 1, TasksK: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("GapAtMaxK = %+v, want %d rows", got, len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.RunID != w.RunID || !slices.Equal(g.Group, w.Group) || g.K != w.K || g.Tasks1 != w.Tasks1 || g.TasksK != w.TasksK ||
			g.Convention != analysis.PerTask ||
			!closeOrNaN(g.Pass1, w.Pass1, eps) || !closeOrNaN(g.PassK, w.PassK, eps) ||
			!closeOrNaN(g.Diff, w.Diff, eps) || !closeOrNaN(g.Ratio, w.Ratio, eps) {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}

	// Without a k = 1 row, pass^1 and the gap are NaN.
	rows, err = analysis.PassK(tasks, analysis.PassKOptions{Ks: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range analysis.GapAtMaxK(rows) {
		if !math.IsNaN(g.Pass1) || !math.IsNaN(g.Diff) || !math.IsNaN(g.Ratio) {
			t.Errorf("no k = 1 row: got %+v, want NaN Pass1, Diff, Ratio", g)
		}
	}
}

func ExampleGap() {
	diff, ratio := analysis.Gap(0.8, 0.5)
	fmt.Printf("pass^1 − pass^k = %.2f, pass^k/pass^1 = %.3f\n", diff, ratio)
	// Output:
	// pass^1 − pass^k = 0.30, pass^k/pass^1 = 0.625
}

func ExampleGapAtMaxK() {
	tasks := []analysis.TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 4, Passes: 4},
		{RunID: 1, TaskID: 2, Trials: 4, Passes: 3},
		{RunID: 1, TaskID: 3, Trials: 4, Passes: 1},
	}
	rows, _ := analysis.PassK(tasks, analysis.PassKOptions{})
	for _, g := range analysis.GapAtMaxK(rows) {
		fmt.Printf("run %d: pass^1 %.3f → pass^%d %.3f (−%.3f, ×%.2f)\n", g.RunID, g.Pass1, g.K, g.PassK, g.Diff, g.Ratio)
	}
	// By hand: pass^1 = (1 + 0.75 + 0.25)/3 = 0.667, pass^4 = 1/3 = 0.333.

	// Output:
	// run 1: pass^1 0.667 → pass^4 0.333 (−0.333, ×0.50)
}
