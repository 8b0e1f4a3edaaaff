package analysis_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench/analysis"
)

// bootTasks simulates tasks, each with trials i.i.d. trials that pass with
// probability rate(i), from a seeded PCG.
func bootTasks(seed uint64, tasks, trials int, rate func(i int, r *rand.Rand) float64) []analysis.TaskTrials {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]analysis.TaskTrials, tasks)
	for i := range out {
		p := rate(i, r)
		c := 0
		for range trials {
			if r.Float64() < p {
				c++
			}
		}
		out[i] = analysis.TaskTrials{RunID: 1, TaskID: int64(i), Trials: trials, Passes: c}
	}
	return out
}

func constRate(p float64) func(int, *rand.Rand) float64 {
	return func(int, *rand.Rand) float64 { return p }
}

// passRate is the plain pass rate Σc/Σn, a statistic for BootstrapTasks.
func passRate(tasks []analysis.TaskTrials) float64 {
	var c, n int
	for _, t := range tasks {
		c += t.Passes
		n += t.Trials
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(c) / float64(n)
}

func TestBootstrapTasks_Seed(t *testing.T) {
	tasks := bootTasks(7, 40, 4, constRate(0.6))
	for _, method := range []string{analysis.MethodPercentile, analysis.MethodBCa} {
		opts := analysis.BootstrapOptions{Seed: 42, Method: method}
		est1, ci1 := analysis.BootstrapTasks(tasks, passRate, opts)
		est2, ci2 := analysis.BootstrapTasks(tasks, passRate, opts)
		if est1 != est2 || ci1 != ci2 {
			t.Fatalf("%s: seed 42 twice: %v %v, then %v %v; want identical", method, est1, ci1, est2, ci2)
		}
		opts.Seed = 43
		_, ci3 := analysis.BootstrapTasks(tasks, passRate, opts)
		if ci3 == ci1 {
			t.Fatalf("%s: seeds 42 and 43 both gave %v; want different intervals", method, ci1)
		}
		if got, want := ci1.Method, method; got != want {
			t.Fatalf("Method = %q, want %q", got, want)
		}
		if got, want := ci1.Level, 0.95; got != want {
			t.Fatalf("Level = %v, want default %v", got, want)
		}
		if !(ci1.Lo < est1 && est1 < ci1.Hi) {
			t.Fatalf("%s: interval %v does not contain the estimate %v", method, ci1, est1)
		}
	}
}

func TestBootstrapTasks_NaN(t *testing.T) {
	nanStat := func([]analysis.TaskTrials) float64 { return math.NaN() }
	tests := []struct {
		name  string
		tasks []analysis.TaskTrials
		stat  func([]analysis.TaskTrials) float64
	}{
		{"empty", nil, passRate},
		{"NaN statistic", bootTasks(1, 5, 2, constRate(0.5)), nanStat},
	}
	for _, tt := range tests {
		for _, method := range []string{analysis.MethodPercentile, analysis.MethodBCa} {
			est, ci := analysis.BootstrapTasks(tt.tasks, tt.stat, analysis.BootstrapOptions{Method: method})
			if !math.IsNaN(est) || !math.IsNaN(ci.Lo) || !math.IsNaN(ci.Hi) {
				t.Errorf("%s/%s: got %v %v, want NaN estimate and interval", tt.name, method, est, ci)
			}
			if got, want := ci.Method, method; got != want {
				t.Errorf("%s: Method = %q, want %q", tt.name, got, want)
			}
		}
	}
}

// TestBootstrapTasks_Constant: when every task passes every trial, every
// replicate equals the estimate, so both intervals collapse onto it (z0 = 0
// by the half-tie rule, a = 0 because the jackknife values are equal).
func TestBootstrapTasks_Constant(t *testing.T) {
	tasks := bootTasks(1, 20, 3, constRate(1))
	for _, method := range []string{analysis.MethodPercentile, analysis.MethodBCa} {
		est, ci := analysis.BootstrapTasks(tasks, passRate, analysis.BootstrapOptions{Method: method})
		if est != 1 || ci.Lo != 1 || ci.Hi != 1 {
			t.Errorf("%s: got %v %v, want 1 [1, 1]", method, est, ci)
		}
	}
}

func TestBootstrapOptions_Panics(t *testing.T) {
	tasks := bootTasks(1, 5, 2, constRate(0.5))
	tests := []struct {
		name string
		opts analysis.BootstrapOptions
	}{
		{"negative resamples", analysis.BootstrapOptions{Resamples: -1}},
		{"level 1", analysis.BootstrapOptions{Level: 1}},
		{"negative level", analysis.BootstrapOptions{Level: -0.9}},
		{"unknown method", analysis.BootstrapOptions{Method: "studentized"}},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: BootstrapTasks did not panic", tt.name)
				}
			}()
			analysis.BootstrapTasks(tasks, passRate, tt.opts)
		}()
	}
}

// TestBootstrapTasks_Coverage simulates 200 datasets of 60 tasks × 4 trials
// with every trial passing with probability 0.7, so the true pass^1 is 0.7
// and the true pass^2 is 0.7² = 0.49 (pass^k is unbiased; Yao et al. 2024).
// A 95% interval should cover the truth in about 95% of datasets; ≥ 90%
// leaves room for the percentile interval's known small-sample
// undercoverage and for simulation noise (sd ≈ 1.5 points at 200 datasets).
func TestBootstrapTasks_Coverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation")
	}
	const datasets = 200
	for _, k := range []int{1, 2} {
		truth := math.Pow(0.7, float64(k))
		for _, method := range []string{analysis.MethodPercentile, analysis.MethodBCa} {
			covered := 0
			for d := range datasets {
				tasks := bootTasks(uint64(d), 60, 4, constRate(0.7))
				_, _, ci, _ := analysis.PassKCI(tasks, k, analysis.PerTask, 0,
					analysis.BootstrapOptions{Resamples: 1000, Seed: uint64(d), Method: method})
				if ci.Contains(truth) {
					covered++
				}
			}
			t.Logf("pass^%d %s: %d/%d intervals cover %v", k, method, covered, datasets, truth)
			if covered < datasets*90/100 {
				t.Errorf("pass^%d %s: %d/%d 95%% intervals cover %v, want ≥ 90%%", k, method, covered, datasets, truth)
			}
		}
	}
}

// skewedRate gives 80% of tasks a pass probability of 0.2 and 20% a
// probability of 0.9, so per-task pass^3 is strongly right-skewed. The true
// pass^3 is 0.8·0.2³ + 0.2·0.9³ = 0.0064 + 0.1458 = 0.1522 (by hand).
func skewedRate(_ int, r *rand.Rand) float64 {
	if r.Float64() < 0.2 {
		return 0.9
	}
	return 0.2
}

const skewedPass3 = 0.1522

// TestBootstrapTasks_BCa checks that on a skewed statistic BCa moves the
// interval away from the percentile one, still contains the estimate, and
// still covers the truth at close to the nominal rate.
func TestBootstrapTasks_BCa(t *testing.T) {
	tasks := bootTasks(3, 40, 5, skewedRate)
	opts := analysis.BootstrapOptions{Seed: 9}
	est, _, pct, _ := analysis.PassKCI(tasks, 3, analysis.PerTask, 0, opts)
	opts.Method = analysis.MethodBCa
	_, _, bca, _ := analysis.PassKCI(tasks, 3, analysis.PerTask, 0, opts)
	t.Logf("pass^3 = %.4f, percentile %v, BCa %v", est, pct, bca)
	const moved = 1e-3 // the two must differ by more than this at one end
	if math.Abs(bca.Lo-pct.Lo) < moved && math.Abs(bca.Hi-pct.Hi) < moved {
		t.Errorf("BCa %v ≈ percentile %v on skewed data, want them to differ by > %v", bca, pct, moved)
	}
	if !bca.Contains(est) {
		t.Errorf("BCa %v does not contain the estimate %v", bca, est)
	}

	if testing.Short() {
		return
	}
	const datasets = 200
	covered := 0
	for d := range datasets {
		tasks := bootTasks(1000+uint64(d), 40, 5, skewedRate)
		_, _, ci, _ := analysis.PassKCI(tasks, 3, analysis.PerTask, 0,
			analysis.BootstrapOptions{Resamples: 1000, Seed: uint64(d), Method: analysis.MethodBCa})
		if ci.Contains(skewedPass3) {
			covered++
		}
	}
	t.Logf("BCa skewed pass^3: %d/%d intervals cover %v", covered, datasets, skewedPass3)
	if covered < datasets*88/100 {
		t.Errorf("BCa skewed pass^3: %d/%d 95%% intervals cover %v, want ≥ 88%%", covered, datasets, skewedPass3)
	}
}

// TestPassKCI_MatchesPassK: the point estimates must be PassK's, under both
// conventions, including a task with n_t < k that PerTask leaves out.
func TestPassKCI_MatchesPassK(t *testing.T) {
	const eps = 1e-12
	tasks := []analysis.TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 4, Passes: 4},
		{RunID: 1, TaskID: 2, Trials: 4, Passes: 2},
		{RunID: 1, TaskID: 3, Trials: 3, Passes: 1},
		{RunID: 1, TaskID: 4, Trials: 1, Passes: 1},
	}
	for _, conv := range []analysis.Convention{analysis.PerTask, analysis.MinTrials} {
		rows, err := analysis.PassK(tasks, analysis.PassKOptions{Convention: conv, RunTrials: map[int64]int{1: 4}})
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			hat, at, hatCI, atCI := analysis.PassKCI(tasks, row.K, conv, 4, analysis.BootstrapOptions{Resamples: 200})
			if math.Abs(hat-row.PassHatK) > eps || math.Abs(at-row.PassAtK) > eps {
				t.Errorf("%s k=%d: PassKCI = %v, %v; PassK = %v, %v", conv, row.K, hat, at, row.PassHatK, row.PassAtK)
			}
			if !hatCI.Contains(hat) || !atCI.Contains(at) {
				t.Errorf("%s k=%d: %v ∌ %v or %v ∌ %v", conv, row.K, hatCI, hat, atCI, at)
			}
		}
	}
	// By hand, per-task k = 4: only tasks 1 and 2 have n ≥ 4;
	// pass^4 = (1 + 0)/2 = 0.5.
	if hat, _, _, _ := analysis.PassKCI(tasks, 4, "", 0, analysis.BootstrapOptions{}); math.Abs(hat-0.5) > eps {
		t.Errorf("per-task pass^4 = %v, want 0.5", hat)
	}
}

func TestPassKCI_NaN(t *testing.T) {
	one := []analysis.TaskTrials{{Trials: 2, Passes: 1}}
	tests := []struct {
		name  string
		tasks []analysis.TaskTrials
		k     int
	}{
		{"empty", nil, 1},
		{"k = 0", one, 0},
		{"every n_t < k", one, 3},
	}
	for _, tt := range tests {
		hat, at, hatCI, atCI := analysis.PassKCI(tt.tasks, tt.k, analysis.PerTask, 0, analysis.BootstrapOptions{})
		for _, v := range []float64{hat, at, hatCI.Lo, hatCI.Hi, atCI.Lo, atCI.Hi} {
			if !math.IsNaN(v) {
				t.Errorf("%s: got %v %v %v %v, want all NaN", tt.name, hat, at, hatCI, atCI)
				break
			}
		}
	}
}

func ExamplePassKCI() {
	// 10 tasks × 4 trials of one (run, group).
	passes := []int{4, 4, 3, 4, 2, 4, 0, 3, 4, 1}
	tasks := make([]analysis.TaskTrials, len(passes))
	for i, c := range passes {
		tasks[i] = analysis.TaskTrials{RunID: 1, TaskID: int64(i), Trials: 4, Passes: c}
	}
	hat, at, hatCI, atCI := analysis.PassKCI(tasks, 2, analysis.PerTask, 0, analysis.BootstrapOptions{Seed: 1})
	fmt.Printf("pass^2 = %.3f, 95%% CI [%.2f, %.2f]\n", hat, hatCI.Lo, hatCI.Hi)
	fmt.Printf("pass@2 = %.3f, 95%% CI [%.2f, %.2f]\n", at, atCI.Lo, atCI.Hi)
	// By hand: pass^2 = (6·1 + 2·C(3,2)/C(4,2) + C(2,2)/C(4,2))/10 = 0.617,
	// pass@2 = (8 + 5/6 + 1/2)/10 = 0.833; the intervals are seed 1's.

	// Output:
	// pass^2 = 0.617, 95% CI [0.37, 0.85]
	// pass@2 = 0.833, 95% CI [0.60, 1.00]
}

func ExampleBootstrapTasks() {
	tasks := []analysis.TaskTrials{
		{Trials: 1, Passes: 1}, {Trials: 1, Passes: 0}, {Trials: 1, Passes: 1},
		{Trials: 1, Passes: 1}, {Trials: 1, Passes: 1}, {Trials: 1, Passes: 0},
	}
	passRate := func(ts []analysis.TaskTrials) float64 {
		c := 0
		for _, t := range ts {
			c += t.Passes
		}
		return float64(c) / float64(len(ts))
	}
	est, ci := analysis.BootstrapTasks(tasks, passRate, analysis.BootstrapOptions{Seed: 7, Method: analysis.MethodBCa})
	fmt.Printf("%.3f %v\n", est, ci)
	// Output:
	// 0.667 [0.1667, 1.0000] (95% bca)
}

// BenchmarkPassKCI resamples n tasks × 4 trials 2000 times for pass^2.
func BenchmarkPassKCI(b *testing.B) {
	for _, n := range []int{100, 1000} {
		tasks := bootTasks(1, n, 4, constRate(0.7))
		for _, method := range []string{analysis.MethodPercentile, analysis.MethodBCa} {
			b.Run(fmt.Sprintf("tasks=%d/%s", n, method), func(b *testing.B) {
				opts := analysis.BootstrapOptions{Resamples: 2000, Method: method}
				for b.Loop() {
					analysis.PassKCI(tasks, 2, analysis.PerTask, 0, opts)
				}
				// Each call bootstraps pass^k and pass@k.
				b.ReportMetric(float64(b.N)*2*float64(opts.Resamples)/b.Elapsed().Seconds(), "replicates/s")
			})
		}
	}
}
