package analysis_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/emobench/emobench/analysis"
)

func taskOutcome(id int64, trials, passes int) analysis.TaskTrials {
	return analysis.TaskTrials{TaskID: id, Trials: trials, Passes: passes}
}

// generalizationFixture: tuned on retail and mock, evaluated on those and
// on airline and telecom.
func generalizationFixture() (tuned, base map[string][]analysis.TaskTrials, train []string) {
	tuned = map[string][]analysis.TaskTrials{
		// Task 1 is split over two entries (merged to 4/4); task 9 has no
		// trials (skipped).
		"retail":  {taskOutcome(1, 2, 2), taskOutcome(1, 2, 2), taskOutcome(2, 4, 3), taskOutcome(3, 4, 2), taskOutcome(4, 4, 4), taskOutcome(9, 0, 0)},
		"airline": {taskOutcome(10, 2, 1), taskOutcome(11, 2, 2)},
		"telecom": {taskOutcome(30, 1, 1)},
		"mock":    {taskOutcome(5, 2, 2), taskOutcome(6, 2, 2)},
	}
	base = map[string][]analysis.TaskTrials{
		"retail":  {taskOutcome(1, 4, 2), taskOutcome(2, 4, 3), taskOutcome(3, 4, 1), taskOutcome(4, 4, 4)},
		"airline": {taskOutcome(20, 1, 0), taskOutcome(21, 1, 1), taskOutcome(22, 2, 1)},
		"mock":    {taskOutcome(5, 2, 1), taskOutcome(6, 2, 1)},
	}
	return tuned, base, []string{"retail", "mock", "unused"}
}

func TestGeneralization(t *testing.T) {
	tuned, base, train := generalizationFixture()
	res := analysis.Generalization(tuned, base, train, analysis.BootstrapOptions{Seed: 1})
	nan := math.NaN()
	// By hand:
	//   airline  unpaired: tuned (0.5+1)/2 = 0.75, base (0+1+0.5)/3 = 0.5, Δ 0.25
	//   mock     paired: diffs 0.5, 0.5, Δ 0.5 (and every resample is 0.5)
	//   retail   paired: tuned 1, .75, .5, 1; base .5, .75, .25, 1;
	//            diffs .5, 0, .25, 0, Δ 0.1875
	//   telecom  no base: Δ NaN
	want := []struct {
		domain              string
		in, paired          bool
		tunedP, baseP, d    float64
		tunedN, baseN, nPrd int
	}{
		{"airline", false, false, 0.75, 0.5, 0.25, 2, 3, 0},
		{"mock", true, true, 1, 0.5, 0.5, 2, 2, 2},
		{"retail", true, true, 0.8125, 0.625, 0.1875, 4, 4, 4},
		{"telecom", false, false, 1, nan, nan, 1, 0, 0},
	}
	if got, want := len(res.Domains), len(want); got != want {
		t.Fatalf("len(Domains) = %v, want %v", got, want)
	}
	same := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= tol }
	for i, w := range want {
		d := res.Domains[i]
		if d.Domain != w.domain || d.InDomain != w.in || d.Paired != w.paired ||
			d.TunedTasks != w.tunedN || d.BaseTasks != w.baseN || d.PairedTasks != w.nPrd {
			t.Errorf("domain %d = %+v, want %+v", i, d, w)
		}
		if !same(d.TunedPass1, w.tunedP) || !same(d.BasePass1, w.baseP) || !same(d.Delta, w.d) {
			t.Errorf("%s: pass^1 %v → %v, Δ %v; want %v → %v, Δ %v", d.Domain, d.BasePass1, d.TunedPass1, d.Delta, w.baseP, w.tunedP, w.d)
		}
		// No Δ, or an unpaired one (different tasks): no interval.
		if math.IsNaN(w.d) || !w.paired {
			if !math.IsNaN(d.CI.Lo) || !math.IsNaN(d.CI.Hi) {
				t.Errorf("%s: CI = %v, want NaN", d.Domain, d.CI)
			}
			continue
		}
		if !d.CI.Contains(d.Delta) || d.CI.Level != 0.95 || d.CI.Method != analysis.MethodPercentile {
			t.Errorf("%s: CI = %v, want a 95%% percentile interval containing %v", d.Domain, d.CI, d.Delta)
		}
	}
	// Resampled means of the diffs stay within their range.
	if ci := res.Domains[1].CI; ci.Lo != 0.5 || ci.Hi != 0.5 {
		t.Errorf("mock CI = %v, want [0.5, 0.5]", ci)
	}
	if ci := res.Domains[2].CI; ci.Lo < 0 || ci.Hi > 0.5 {
		t.Errorf("retail CI = %v, want within [0, 0.5]", ci)
	}

	// In-domain: (0.1875 + 0.5)/2; out-of-domain: airline only.
	if got, want := res.InDomain.Mean, 0.34375; math.Abs(got-want) > tol {
		t.Errorf("InDomain.Mean = %v, want %v", got, want)
	}
	if got, want := res.InDomain.Domains, 2; got != want {
		t.Errorf("InDomain.Domains = %v, want %v", got, want)
	}
	if got, want := res.OutOfDomain.Mean, 0.25; math.Abs(got-want) > tol {
		t.Errorf("OutOfDomain.Mean = %v, want %v", got, want)
	}
	if got, want := res.OutOfDomain.Domains, 1; got != want {
		t.Errorf("OutOfDomain.Domains = %v, want %v", got, want)
	}
	// The in-domain mean resamples retail only (mock is constant):
	// 0.25 + retail*/2 ∈ [0.25, 0.5].
	if ci := res.InDomain.CI; !ci.Contains(res.InDomain.Mean) || ci.Lo < 0.25 || ci.Hi > 0.5 {
		t.Errorf("InDomain.CI = %v, want within [0.25, 0.5] and containing %v", ci, res.InDomain.Mean)
	}
	// The out-of-domain mean is airline's unpaired Δ: no interval.
	if ci := res.OutOfDomain.CI; !math.IsNaN(ci.Lo) || !math.IsNaN(ci.Hi) {
		t.Errorf("OutOfDomain.CI = %v, want NaN (airline is unpaired)", ci)
	}
	if got, want := [2]int{res.InDomain.Unpaired, res.OutOfDomain.Unpaired}, [2]int{0, 1}; got != want {
		t.Errorf("Unpaired in, out = %v, want %v", got, want)
	}
	if got, want := res.Resamples, 2000; got != want {
		t.Errorf("Resamples = %v, want %v", got, want)
	}
}

func TestGeneralization_Seeded(t *testing.T) {
	tuned, base := largePairedDomain()
	run := func(seed uint64) analysis.GeneralizationResult {
		return analysis.Generalization(tuned, base, []string{"retail"}, analysis.BootstrapOptions{Seed: seed, Resamples: 500})
	}
	a, b, c := run(42), run(42), run(43)
	if a.InDomain.CI != b.InDomain.CI || a.Domains[0].CI != b.Domains[0].CI {
		t.Errorf("CIs %v and %v with the same seed", a.InDomain.CI, b.InDomain.CI)
	}
	if a.InDomain.CI == c.InDomain.CI {
		t.Errorf("CIs identical with seeds 42 and 43: %v", a.InDomain.CI)
	}
}

// largePairedDomain is 400 tasks of 4 trials on retail, with tuned passes i mod 5
// and base passes 3i mod 5, capped at 4.
func largePairedDomain() (tuned, base map[string][]analysis.TaskTrials) {
	var tunedTasks, baseTasks []analysis.TaskTrials
	for i := range 400 {
		tunedTasks = append(tunedTasks, taskOutcome(int64(i), 4, min(i%5, 4)))
		baseTasks = append(baseTasks, taskOutcome(int64(i), 4, min((i*3)%5, 4)))
	}
	return map[string][]analysis.TaskTrials{"retail": tunedTasks}, map[string][]analysis.TaskTrials{"retail": baseTasks}
}

// For a large paired domain the percentile interval of a mean is close to
// the normal one, Δ ± z·σ̂/√n with σ̂ the plug-in SD (Efron & Tibshirani
// 1993, §13.3).
func TestGeneralization_NormalApprox(t *testing.T) {
	tuned, base := largePairedDomain()
	var diffs []float64
	for i, tk := range tuned["retail"] {
		diffs = append(diffs, float64(tk.Passes-base["retail"][i].Passes)/4)
	}
	res := analysis.Generalization(tuned, base, []string{"retail"}, analysis.BootstrapOptions{Seed: 3, Resamples: 4000})
	var mean, ss float64
	for _, d := range diffs {
		mean += d / float64(len(diffs))
	}
	for _, d := range diffs {
		ss += (d - mean) * (d - mean)
	}
	half := 1.959964 * math.Sqrt(ss/float64(len(diffs))) / math.Sqrt(float64(len(diffs)))
	d := res.Domains[0]
	if math.Abs(d.Delta-mean) > tol {
		t.Fatalf("Delta = %v, want %v", d.Delta, mean)
	}
	if got, want := d.CI.Hi-d.CI.Lo, 2*half; math.Abs(got-want) > 0.1*want {
		t.Errorf("CI width = %.4f, want %.4f ± 10%% (normal approximation)", got, want)
	}
}

func TestGeneralization_Empty(t *testing.T) {
	res := analysis.Generalization(nil, nil, nil, analysis.BootstrapOptions{Resamples: 10})
	if len(res.Domains) != 0 || !math.IsNaN(res.InDomain.Mean) || !math.IsNaN(res.OutOfDomain.Mean) ||
		!math.IsNaN(res.InDomain.CI.Lo) || res.InDomain.Domains != 0 {
		t.Fatalf("Generalization(empty) = %+v, want no domains and NaN means", res)
	}
}

func TestGeneralization_PanicsOnBadOptions(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for Level 1.5")
		}
	}()
	analysis.Generalization(nil, nil, nil, analysis.BootstrapOptions{Level: 1.5})
}

func ExampleGeneralization() {
	tuned, base, train := generalizationFixture()
	res := analysis.Generalization(tuned, base, train, analysis.BootstrapOptions{Seed: 1})
	for _, d := range res.Domains {
		fmt.Printf("%-8s in=%-5v Δ=%+.4f\n", d.Domain, d.InDomain, d.Delta)
	}
	fmt.Printf("in-domain %+.4f over %d, out-of-domain %+.4f over %d\n",
		res.InDomain.Mean, res.InDomain.Domains, res.OutOfDomain.Mean, res.OutOfDomain.Domains)
	fmt.Println("mock", res.Domains[1].CI)
	// Output:
	// airline  in=false Δ=+0.2500
	// mock     in=true  Δ=+0.5000
	// retail   in=true  Δ=+0.1875
	// telecom  in=false Δ=+NaN
	// in-domain +0.3438 over 2, out-of-domain +0.2500 over 1
	// mock [0.5000, 0.5000] (95% percentile)
}

// When the runs' task sets differ, the pass columns are over the tasks Δ
// is paired over, so Δ = tuned − base pass^1 on the row, and each side's
// tasks the other lacks are counted as left out (and noted).
func TestGeneralization_PassOverPairedTasks(t *testing.T) {
	tuned := map[string][]analysis.TaskTrials{"retail": {
		taskOutcome(1, 1, 1), taskOutcome(2, 1, 1), taskOutcome(3, 1, 0), taskOutcome(4, 1, 1),
		taskOutcome(5, 1, 0), taskOutcome(6, 1, 0), taskOutcome(7, 1, 0), // tuned only
	}}
	base := map[string][]analysis.TaskTrials{"retail": {
		taskOutcome(1, 1, 0), taskOutcome(2, 1, 0), taskOutcome(3, 1, 0), taskOutcome(4, 1, 1),
		taskOutcome(8, 1, 1), // base only
	}}
	res := analysis.Generalization(tuned, base, []string{"retail"}, analysis.BootstrapOptions{Seed: 1})
	d := res.Domains[0]
	// Paired tasks 1-4: tuned 1, 1, 0, 1 = 0.75; base 0, 0, 0, 1 = 0.25; Δ 0.5.
	// Over all tasks tuned would read 3/7 and base 2/5.
	if math.Abs(d.TunedPass1-0.75) > tol || math.Abs(d.BasePass1-0.25) > tol || math.Abs(d.Delta-0.5) > tol {
		t.Errorf("tuned %v, base %v, Δ %v; want 0.75, 0.25, 0.5", d.TunedPass1, d.BasePass1, d.Delta)
	}
	if d.PairedTasks != 4 || d.TunedTasks != 7 || d.BaseTasks != 5 || d.TunedLeftOut != 3 || d.BaseLeftOut != 1 {
		t.Errorf("paired %d, tasks %d/%d, left out %d/%d; want 4, 7/5, 3/1", d.PairedTasks, d.TunedTasks, d.BaseTasks, d.TunedLeftOut, d.BaseLeftOut)
	}

	// Through GeneralizationByModel: the note names what was left out.
	keys := map[int64]analysis.PoolKey{
		1: {AgentModel: "tuned-m", UserModel: "u", Domain: "retail", Condition: "with-emotions"},
		2: {AgentModel: "base-m", UserModel: "u", Domain: "retail", Condition: "with-emotions"},
	}
	var tasks []analysis.TaskTrials
	for id, side := range map[int64][]analysis.TaskTrials{1: tuned["retail"], 2: base["retail"]} {
		for _, tt := range side {
			tt.RunID = id
			tasks = append(tasks, tt)
		}
	}
	tagged := []analysis.TunedRun{{RunID: 1, BaseRunID: 2, Domain: "retail", TrainDomains: []string{"retail"}}}
	models, notes, err := analysis.GeneralizationByModel(tagged, analysis.NewUnits(keys, false), tasks, analysis.BootstrapOptions{Seed: 1})
	if err != nil || len(models) != 1 {
		t.Fatalf("GeneralizationByModel = %d models, %v", len(models), err)
	}
	want := []string{"tuned-m on retail: tuned_pass_1, base_pass_1 and Δ are over the 4 paired tasks; left out, as the other side lacks them: 3 of the tuned run's 7 tasks and 1 of the base run's 5"}
	if fmt.Sprint(notes) != fmt.Sprint(want) {
		t.Errorf("notes = %q, want %q", notes, want)
	}
	if got := models[0].Result.Domains[0]; math.Abs(got.TunedPass1-0.75) > tol || math.Abs(got.BasePass1-0.25) > tol {
		t.Errorf("by model: tuned %v, base %v; want 0.75, 0.25", got.TunedPass1, got.BasePass1)
	}
}

// The intervals follow the listing's order of tasks, not their row ids:
// the same tasks stored in another order (other ids, listed alike, as a
// listing by content key gives them) give the same intervals.
func TestGeneralization_IntervalsIgnoreRowIDs(t *testing.T) {
	build := func(id func(i int) int64) (map[string][]analysis.TaskTrials, map[string][]analysis.TaskTrials) {
		tuned, base := map[string][]analysis.TaskTrials{}, map[string][]analysis.TaskTrials{}
		for _, d := range []string{"retail", "telecom"} {
			for i := 0; i < 30; i++ {
				tuned[d] = append(tuned[d], analysis.TaskTrials{RunID: 1, TaskID: id(i), Trials: 4, Passes: (i * 7) % 5})
				base[d] = append(base[d], analysis.TaskTrials{RunID: 2, TaskID: id(i), Trials: 4, Passes: (i * 3) % 5})
			}
		}
		return tuned, base
	}
	opts := analysis.BootstrapOptions{Seed: 5, Resamples: 300}
	t1, b1 := build(func(i int) int64 { return int64(100 + i) })
	t2, b2 := build(func(i int) int64 { return int64(1000 - 7*i) })
	r1 := analysis.Generalization(t1, b1, []string{"retail"}, opts)
	r2 := analysis.Generalization(t2, b2, []string{"retail"}, opts)
	for i := range r1.Domains {
		if r1.Domains[i].CI != r2.Domains[i].CI {
			t.Errorf("%s: CI %v with ids in one order, %v in another", r1.Domains[i].Domain, r1.Domains[i].CI, r2.Domains[i].CI)
		}
	}
	if r1.OutOfDomain.CI != r2.OutOfDomain.CI || r1.InDomain.CI != r2.InDomain.CI {
		t.Errorf("mean CIs differ: in %v vs %v, out %v vs %v", r1.InDomain.CI, r2.InDomain.CI, r1.OutOfDomain.CI, r2.OutOfDomain.CI)
	}
}
