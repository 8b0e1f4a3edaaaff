package analysis_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/emobench/emobench/analysis"
	"gonum.org/v1/gonum/stat/combin"
)

const tol = 1e-9

func TestPassHatK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64 // C(c,k)/C(n,k), by hand
	}{
		{4, 4, 4, 1},
		{4, 2, 1, 0.5},
		{4, 2, 2, 1.0 / 6}, // C(2,2)/C(4,2) = 1/6
		{4, 3, 2, 0.5},     // 3/6
		{4, 0, 1, 0},
		{4, 1, 2, 0}, // C(1,2) = 0
		{1, 1, 1, 1},
	}
	for _, tt := range tests {
		if got := analysis.PassHatK(tt.n, tt.c, tt.k); math.Abs(got-tt.want) > tol {
			t.Errorf("PassHatK(n=%d, c=%d, k=%d) = %v, want %v", tt.n, tt.c, tt.k, got, tt.want)
		}
	}
}

func TestPassAtK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64 // 1 − C(n−c,k)/C(n,k), by hand
	}{
		{4, 2, 2, 5.0 / 6},
		{3, 1, 2, 2.0 / 3},
		{4, 1, 3, 0.75},
		{4, 0, 4, 0},
		{5, 1, 5, 1},
	}
	for _, tt := range tests {
		if got := analysis.PassAtK(tt.n, tt.c, tt.k); math.Abs(got-tt.want) > tol {
			t.Errorf("PassAtK(n=%d, c=%d, k=%d) = %v, want %v", tt.n, tt.c, tt.k, got, tt.want)
		}
	}
}

func TestPassHatK_ErrInvalid(t *testing.T) {
	for _, tt := range []struct{ n, c, k int }{{3, 1, 4}, {3, 4, 1}, {3, -1, 1}, {3, 1, 0}} {
		if got := analysis.PassHatK(tt.n, tt.c, tt.k); !math.IsNaN(got) {
			t.Errorf("PassHatK(n=%d, c=%d, k=%d) = %v, want NaN", tt.n, tt.c, tt.k, got)
		}
		if got := analysis.PassAtK(tt.n, tt.c, tt.k); !math.IsNaN(got) {
			t.Errorf("PassAtK(n=%d, c=%d, k=%d) = %v, want NaN", tt.n, tt.c, tt.k, got)
		}
	}
}

// For large n the binomials overflow float64 (C(2000,1000) ≈ 2e600); the
// product form must agree with gonum's log-binomials.
func TestPassHatK_LargeN(t *testing.T) {
	for _, tt := range []struct{ n, c, k int }{{2000, 1500, 1000}, {10000, 9990, 50}, {5000, 2500, 2}} {
		logRatio := combin.LogGeneralizedBinomial(float64(tt.c), float64(tt.k)) -
			combin.LogGeneralizedBinomial(float64(tt.n), float64(tt.k))
		want := math.Exp(logRatio)
		got := analysis.PassHatK(tt.n, tt.c, tt.k)
		if math.IsNaN(got) || math.IsInf(got, 0) || math.Abs(got-want) > 1e-9*math.Max(1, want) && math.Abs(got-want)/want > 1e-9 {
			t.Errorf("PassHatK(n=%d, c=%d, k=%d) = %g, want %g (gonum log-binomials)", tt.n, tt.c, tt.k, got, want)
		}
		if at := analysis.PassAtK(tt.n, tt.c, tt.k); at < 0 || at > 1 || math.IsNaN(at) {
			t.Errorf("PassAtK(n=%d, c=%d, k=%d) = %g, want within [0, 1]", tt.n, tt.c, tt.k, at)
		}
	}
}

// passKFixture mirrors fixtures.PassKFile: tasks 0-2 have 4 trials with 4,
// 2, 0 passes; task 3 has 3 trials with 1 pass. The run has 4 distinct trials.
var passKFixture = []analysis.TaskTrials{
	{RunID: 1, TaskID: 10, Trials: 4, Passes: 4},
	{RunID: 1, TaskID: 11, Trials: 4, Passes: 2},
	{RunID: 1, TaskID: 12, Trials: 4, Passes: 0},
	{RunID: 1, TaskID: 13, Trials: 3, Passes: 1},
}

type passKWant struct {
	k             int
	hat, at       float64
	tasks, trajes int
}

func TestPassK_Conventions(t *testing.T) {
	tests := []struct {
		conv analysis.Convention
		want []passKWant
	}{
		{analysis.PerTask, []passKWant{
			// k=1: (1 + 1/2 + 0 + 1/3)/4
			{1, (1 + 0.5 + 0 + 1.0/3) / 4, (1 + 0.5 + 0 + 1.0/3) / 4, 4, 15},
			// k=2: pass^2 (1 + 1/6 + 0 + 0)/4; pass@2 (1 + 5/6 + 0 + 2/3)/4
			{2, (1 + 1.0/6) / 4, (1 + 5.0/6 + 2.0/3) / 4, 4, 15},
			// k=3: pass^3 (1+0+0+0)/4; pass@3 (1 + 1 + 0 + 1)/4
			{3, 0.25, 0.75, 4, 15},
			// k=4: task 13 (n=3) left out: pass^4 1/3; pass@4 2/3
			{4, 1.0 / 3, 2.0 / 3, 3, 12},
		}},
		{analysis.MinTrials, []passKWant{
			// n = 4 for every task; task 13 has c = 1 of n = 4.
			{1, (1 + 0.5 + 0 + 0.25) / 4, (1 + 0.5 + 0 + 0.25) / 4, 4, 15},
			// pass@2 for task 13: 1 − C(3,2)/C(4,2) = 1/2
			{2, (1 + 1.0/6) / 4, (1 + 5.0/6 + 0 + 0.5) / 4, 4, 15},
			// pass@3 for task 13: 1 − C(3,3)/C(4,3) = 3/4
			{3, 0.25, (1 + 1 + 0 + 0.75) / 4, 4, 15},
			{4, 0.25, 0.75, 4, 15},
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.conv), func(t *testing.T) {
			rows, err := analysis.PassK(passKFixture, analysis.PassKOptions{
				Convention: tt.conv, RunTrials: map[int64]int{1: 4},
			})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(rows), len(tt.want); got != want {
				t.Fatalf("got %d rows, want %d: %+v", got, want, rows)
			}
			for i, w := range tt.want {
				r := rows[i]
				if r.K != w.k || r.Tasks != w.tasks || r.Trajectories != w.trajes || r.Convention != tt.conv {
					t.Errorf("row %d = k %d tasks %d trajectories %d %s, want k %d tasks %d trajectories %d",
						i, r.K, r.Tasks, r.Trajectories, r.Convention, w.k, w.tasks, w.trajes)
				}
				if math.Abs(r.PassHatK-w.hat) > tol || math.Abs(r.PassAtK-w.at) > tol {
					t.Errorf("k=%d: pass^k %v pass@k %v, want %v %v", w.k, r.PassHatK, r.PassAtK, w.hat, w.at)
				}
			}
		})
	}
}

func TestPassK_GroupsAndKs(t *testing.T) {
	tasks := []analysis.TaskTrials{
		{RunID: 2, Group: []string{"anger"}, Trials: 2, Passes: 1},
		{RunID: 1, Group: []string{"fear"}, Trials: 2, Passes: 2},
		{RunID: 1, Group: []string{"anger"}, Trials: 2, Passes: 0},
		{RunID: 1, Group: []string{"anger"}, Trials: 2, Passes: 2},
	}
	rows, err := analysis.PassK(tasks, analysis.PassKOptions{Ks: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, r := range rows {
		got += fmt.Sprintf("%d/%s k%d %.4f %d; ", r.RunID, r.Group[0], r.K, r.PassHatK, r.Tasks)
	}
	// Ordered by run then group; run 1 anger: (0 + 1)/2.
	if want := "1/anger k2 0.5000 2; 1/fear k2 1.0000 1; 2/anger k2 0.0000 1; "; got != want {
		t.Fatalf("rows = %q, want %q", got, want)
	}
}

func TestPassK_ErrInvalid(t *testing.T) {
	if _, err := analysis.PassK(passKFixture, analysis.PassKOptions{Ks: []int{0}}); err == nil {
		t.Fatal("k = 0: want an error")
	}
	if _, err := analysis.PassK(passKFixture, analysis.PassKOptions{Convention: "best"}); err == nil {
		t.Fatal("convention best: want an error")
	}
	rows, err := analysis.PassK(passKFixture, analysis.PassKOptions{Ks: []int{5}})
	if err != nil || len(rows) != 0 {
		t.Fatalf("k = 5 above every n: rows %v err %v, want none", rows, err)
	}
}

func ExamplePassHatK() {
	// A task passed 2 of 4 trials: the chance that 2 fresh trials both pass.
	fmt.Printf("%.4f\n", analysis.PassHatK(4, 2, 2))
	// Output: 0.1667
}

func ExamplePassK() {
	rows, _ := analysis.PassK([]analysis.TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 4, Passes: 4},
		{RunID: 1, TaskID: 2, Trials: 4, Passes: 2},
	}, analysis.PassKOptions{})
	for _, r := range rows {
		fmt.Printf("k=%d pass^k=%.4f pass@k=%.4f tasks=%d\n", r.K, r.PassHatK, r.PassAtK, r.Tasks)
	}
	// Output:
	// k=1 pass^k=0.7500 pass@k=0.7500 tasks=2
	// k=2 pass^k=0.5833 pass@k=0.9167 tasks=2
	// k=3 pass^k=0.5000 pass@k=1.0000 tasks=2
	// k=4 pass^k=0.5000 pass@k=1.0000 tasks=2
}

func TestMinTrialsSuspect(t *testing.T) {
	tests := []struct {
		name                                 string
		distinct, first, last, maxTaskTrials int
		want                                 bool
	}{
		{"trials 0..2, a task has 3", 3, 0, 2, 3, false},
		{"trials 1..3, a task has 3", 3, 1, 3, 3, false},
		{"one trial 0", 1, 0, 0, 1, false},
		{"trial = task id: 0..9, tasks have 1", 10, 0, 9, 1, true},
		{"one record at trial 10", 1, 10, 10, 1, true},
		{"gaps: 0, 2, 5", 3, 0, 5, 3, true},
		{"no task has every trial", 3, 0, 2, 2, true},
		{"a task has more than n", 2, 0, 1, 3, true},
		{"negative trial", 2, -1, 0, 2, true},
	}
	for _, tt := range tests {
		if got := analysis.MinTrialsSuspect(tt.distinct, tt.first, tt.last, tt.maxTaskTrials); got != tt.want {
			t.Errorf("%s: MinTrialsSuspect(%d, %d, %d, %d) = %v, want %v", tt.name, tt.distinct, tt.first, tt.last, tt.maxTaskTrials, got, tt.want)
		}
	}
}
