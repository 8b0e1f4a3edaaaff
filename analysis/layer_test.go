package analysis_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/google/go-cmp/cmp"
)

func perRunUnits(keys map[int64]analysis.PoolKey) analysis.Units {
	return analysis.NewUnits(keys, false)
}

func TestGaps_AtKAndSingleTrial(t *testing.T) {
	tasks := []analysis.TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 3, Passes: 3},
		{RunID: 1, TaskID: 2, Trials: 3, Passes: 0},
		{RunID: 2, TaskID: 1, Trials: 1, Passes: 1}, // one trial: no gap
	}
	units := perRunUnits(map[int64]analysis.PoolKey{1: {}, 2: {}})
	names := map[int64]string{1: "a", 2: "b"}
	rows, err := analysis.PassK(tasks, analysis.PassKOptions{Ks: []int{1, 4}})
	if err != nil {
		t.Fatal(err)
	}
	res := analysis.Gaps(rows, 4, units, names)
	// Run 1 has no task of 4 trials: its pass^4 is unknown (NaN), not 0,
	// at K = 4; run 2 gets K = 4 too, so it is kept with NaN values.
	if got, want := len(res.Rows), 2; got != want {
		t.Fatalf("rows = %d, want %d: %+v", got, want, res.Rows)
	}
	r := res.Rows[0]
	if r.K != 4 || !math.IsNaN(r.PassK) || !math.IsNaN(r.Diff) || r.TasksK != 0 || r.Pass1 != 0.5 {
		t.Errorf("run 1 gap = %+v, want K 4, pass^4 NaN, pass^1 0.5 (1 of 2 tasks)", r)
	}
	want := []string{
		"run 1 has no task with 4 trials: pass^4 is unknown",
		"run 2 has no task with 4 trials: pass^4 is unknown",
	}
	if diff := cmp.Diff(want, res.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}

	// At the largest k, run 2 (one trial) is left out and named.
	res = analysis.Gaps(rows[:0:0], 0, units, names)
	if len(res.Rows) != 0 || len(res.Notes) != 0 {
		t.Errorf("no rows: got %+v", res)
	}
	rows, _ = analysis.PassK(tasks, analysis.PassKOptions{})
	res = analysis.Gaps(rows, 0, units, names)
	if got, want := len(res.Rows), 1; got != want || res.Rows[0].RunID != 1 || res.Rows[0].K != 3 {
		t.Fatalf("rows = %+v, want run 1 at k 3", res.Rows)
	}
	if diff := cmp.Diff([]string{"left out 1 run with one trial per task: a gap needs k >= 2 (run with --trials 2 or more): 2 (b)"}, res.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestPassKIntervals_SetsFields(t *testing.T) {
	tasks := []analysis.TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 2, Passes: 2},
		{RunID: 1, TaskID: 2, Trials: 2, Passes: 1},
		{RunID: 1, TaskID: 3, Trials: 2, Passes: 0},
	}
	rows, err := analysis.PassK(tasks, analysis.PassKOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opts := analysis.BootstrapOptions{Resamples: 500, Level: 0.9, Seed: 7}
	analysis.PassKIntervals(rows, tasks, nil, opts)
	for _, r := range rows {
		_, _, hat, at := analysis.PassKCI(tasks, r.K, analysis.PerTask, 0, opts)
		if r.HatCI != hat || r.AtCI != at {
			t.Errorf("k=%d: intervals %v %v, want PassKCI's %v %v", r.K, r.HatCI, r.AtCI, hat, at)
		}
		if !r.HatCI.Contains(r.PassHatK) {
			t.Errorf("k=%d: %v not in its interval %v", r.K, r.PassHatK, r.HatCI)
		}
	}
}

func TestSuspectTrialNotes(t *testing.T) {
	tasks := []analysis.TaskTrials{
		{RunID: 2, Trials: 1}, {RunID: 2, Trials: 1}, // trial = task id: values 5 and 9
		{RunID: 1, Trials: 3}, {RunID: 1, Trials: 3}, // 0,1,2: fine
		{RunID: 3, Trials: 2}, {RunID: 3, Trials: 4}, // 1..4 but a task has 2
	}
	numbers := map[int64]analysis.TrialNumbers{1: {3, 0, 2}, 2: {2, 5, 9}, 3: {4, 1, 4}}
	got := analysis.SuspectTrialNotes(numbers, tasks, map[int64]string{2: "sparse"})
	want := []string{
		"run 2 (sparse): trial numbers look sparse: 2 distinct values from 5 to 9, and tasks have 1 trial; --convention min-trials used n = 2 for every task (--convention per-task uses each task's own trials)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestBalanceByUnit(t *testing.T) {
	followUps := analysis.FollowUps{}
	followUps.Add(10, "Could you give me your email?")
	followUps.Add(10, "Your order is cancelled.") // not a follow-up
	followUps.Add(11, "Please confirm (yes/no).")
	units := analysis.NewUnits(map[int64]analysis.PoolKey{
		1: {AgentModel: "m", Domain: "retail"}, 2: {AgentModel: "m", Domain: "retail"},
	}, true)
	got := analysis.BalanceByUnit([]analysis.BalanceTrajectory{
		{ID: 10, RunID: 1, ToolCalls: 3, Turns: 6, Passed: true, Evaluated: true},
		{ID: 11, RunID: 2, ToolCalls: 1, Turns: 4, Evaluated: true, Abandoned: true},
		{ID: 12, RunID: 2},               // neither tool calls nor follow-ups: no share
		{ID: 13, RunID: 9, ToolCalls: 1}, // a run no unit holds
	}, followUps, units)
	// One pool, ID 1: shares 3/(3+1) and 1/(1+1), by hand.
	want := map[int64]analysis.BalanceSample{1: {
		Shares: []float64{0.75, 0.5}, Turns: []float64{6, 4}, Abandoned: []float64{0, 1},
		Passed: []bool{true, false}, Evaluated: []bool{true, true},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("samples (-want +got):\n%s", diff)
	}
	if !math.IsNaN(analysis.Share(0, 0)) || analysis.Share(1, 3) != 0.25 {
		t.Errorf("Share(0,0) = %v, Share(1,3) = %v; want NaN, 0.25", analysis.Share(0, 0), analysis.Share(1, 3))
	}
	c := got[1].Correlations()
	if c.N != 2 || c.SuccessNotEvaluated || math.Abs(c.Success-1) > 1e-12 || math.Abs(c.Abandonment+1) > 1e-12 {
		t.Errorf("correlations = %+v, want n 2, success r 1, abandonment r -1 (two points)", c)
	}
	unevaluated := analysis.BalanceSample{Shares: []float64{0.5}, Passed: []bool{false}, Evaluated: []bool{false}, Turns: []float64{1}, Abandoned: []float64{0}}
	if _, err := unevaluated.Regression(); err == nil || !strings.HasPrefix(err.Error(), analysis.NotEvaluatedText) {
		t.Errorf("Regression of an unevaluated sample: err = %v, want %q…", err, analysis.NotEvaluatedText)
	}
	if c := unevaluated.Correlations(); !c.SuccessNotEvaluated || !math.IsNaN(c.Success) {
		t.Errorf("unevaluated correlations = %+v, want success NaN, not evaluated", c)
	}
}

func TestOverlapNotes_Capped(t *testing.T) {
	key := analysis.PoolKey{AgentModel: "m", UserModel: "u", Domain: "d", Condition: "none"}
	var overlaps []analysis.Overlap
	for _, task := range []string{"1", "2", "3"} {
		overlaps = append(overlaps, analysis.Overlap{Unit: analysis.Unit{Key: key}, Task: task, RunIDs: []int64{3, 5}})
	}
	// Tasks of one pool in the same runs share a note, naming at most 2.
	got := analysis.OverlapNotes(overlaps, 2)
	want := []string{"pool m / u / d / none: 3 tasks appear in runs 3 and 5: 1, 2 and 1 more"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	// Past 2 notes, one counts the tasks left.
	overlaps = append(overlaps,
		analysis.Overlap{Unit: analysis.Unit{Key: key}, Task: "4", RunIDs: []int64{3, 6}},
		analysis.Overlap{Unit: analysis.Unit{Key: key}, Task: "5", RunIDs: []int64{5, 6}},
		analysis.Overlap{Unit: analysis.Unit{Key: key}, Task: "6", RunIDs: []int64{5, 6}})
	got = analysis.OverlapNotes(overlaps, 2)
	want = []string{
		"pool m / u / d / none: 3 tasks appear in runs 3 and 5: 1, 2 and 1 more",
		"pool m / u / d / none: task 4 appears in runs 3 and 6",
		"and 2 more tasks in more than one pooled run",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes past the cap (-want +got):\n%s", diff)
	}
}

func TestNamedOverlaps_ByContentShownByName(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{1: {AgentModel: "m", Domain: "d"}, 2: {AgentModel: "m", Domain: "d"}}, true)
	got := analysis.NamedOverlaps(units, []analysis.NamedRunTask{
		{RunID: 1, Task: "hashA", Name: "10"}, {RunID: 2, Task: "hashA", Name: "10"},
		{RunID: 1, Task: "hashB", Name: "2"}, {RunID: 2, Task: "hashC", Name: "2"}, // same name, other task: no overlap
		{RunID: 1, Task: "hashD", Name: "9"}, {RunID: 2, Task: "hashD", Name: "9"},
	})
	var tasks []string
	for _, o := range got {
		tasks = append(tasks, o.Task)
	}
	if want := []string{"9", "10"}; !slices.Equal(tasks, want) {
		t.Errorf("overlapping tasks = %q, want %q (numeric order)", tasks, want)
	}
	if analysis.NamedOverlaps(perRunUnits(map[int64]analysis.PoolKey{1: {}}), nil) != nil {
		t.Error("per-run units overlap")
	}
}

func TestGeneralizationByModel(t *testing.T) {
	keys := map[int64]analysis.PoolKey{
		1: {AgentModel: "tuned", Domain: "retail"}, 2: {AgentModel: "base", Domain: "retail"},
		3: {AgentModel: "tuned", Domain: "airline"}, 4: {AgentModel: "base", Domain: "airline"},
		5: {AgentModel: "tuned", Domain: "retail", UserModel: "other"},
	}
	units := perRunUnits(keys)
	tasks := []analysis.TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 2, Passes: 2}, {RunID: 2, TaskID: 1, Trials: 2, Passes: 1},
		{RunID: 3, TaskID: 7, Trials: 1, Passes: 0}, {RunID: 4, TaskID: 8, Trials: 1, Passes: 1},
	}
	tagged := []analysis.TunedRun{
		{RunID: 1, BaseRunID: 2, Domain: "retail", TrainDomains: []string{"retail"}},
		{RunID: 3, BaseRunID: 4, Domain: "airline", TrainDomains: []string{"retail"}},
		{RunID: 2, Domain: "retail"}, // not tuned
	}
	opts := analysis.BootstrapOptions{Resamples: 200, Seed: 1}
	models, notes, err := analysis.GeneralizationByModel(tagged, units, tasks, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 1 || models[0].Name != "tuned" || models[0].Tuned["airline"].ID != 3 || models[0].Base["retail"].ID != 2 {
		t.Fatalf("models = %+v, want one, tuned, runs 1/3 against 2/4", models)
	}
	// By hand: retail Δ = 1 − 0.5 = 0.5 (paired over task 1); airline
	// shares no task: unpaired Δ = 0 − 1 = −1, with a note.
	d := models[0].Result.Domains
	if d[0].Domain != "airline" || d[0].Delta != -1 || d[0].Paired || d[1].Delta != 0.5 || !d[1].InDomain {
		t.Errorf("domains = %+v", d)
	}
	if diff := cmp.Diff([]string{"tuned on airline: 0 paired tasks (the tuned and base runs share no task), so its Δ compares different tasks and has no interval, nor has the out-of-domain mean"}, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}

	// Two tuned runs of one model on one domain are never combined.
	keys[5] = analysis.PoolKey{AgentModel: "tuned", Domain: "retail"}
	units = perRunUnits(keys)
	tagged = append(tagged, analysis.TunedRun{RunID: 5, BaseRunID: 2, Domain: "retail", TrainDomains: []string{"retail"}})
	_, _, err = analysis.GeneralizationByModel(tagged, units, tasks, opts)
	if err == nil || !strings.Contains(err.Error(), "several tuned runs on domain retail (run 1 and run 5)") {
		t.Errorf("err = %v, want several tuned runs on domain retail", err)
	}
}

func TestUnitLabelAndName(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{1: {}, 2: {}, 3: {}}, false)
	names := map[int64]string{1: "same", 2: "same", 3: ""}
	for _, tt := range []struct {
		id          int64
		label, name string
	}{{1, "same (run 1)", "run 1"}, {3, "run 3", "run 3"}} {
		u := units.ByID(tt.id)
		if got := u.Label(names); got != tt.label {
			t.Errorf("Label(%d) = %q, want %q", tt.id, got, tt.label)
		}
		if got := u.Name(); got != tt.name {
			t.Errorf("Name(%d) = %q, want %q", tt.id, got, tt.name)
		}
	}
	pooled := analysis.NewUnits(map[int64]analysis.PoolKey{4: {AgentModel: "m", UserModel: "u", Domain: "d", Condition: "none"}, 6: {AgentModel: "m", UserModel: "u", Domain: "d", Condition: "none"}}, true)
	u := pooled.ByID(4)
	if got, want := u.Name(), "pool m / u / d / none (runs 4,6)"; got != want || pooled.Noun() != "pool" || units.Noun() != "run" {
		t.Errorf("Name = %q, want %q; nouns %q %q", got, want, pooled.Noun(), units.Noun())
	}
}

// ExampleGaps: a run of two tasks with 3 trials each, one always passing
// and one passing once. By hand: pass^1 = (1 + 1/3)/2 = 2/3, pass^3 =
// (1 + 0)/2 = 1/2, gap = 1/6, ratio = 3/4.
func ExampleGaps() {
	tasks := []analysis.TaskTrials{
		{RunID: 1, TaskID: 1, Trials: 3, Passes: 3},
		{RunID: 1, TaskID: 2, Trials: 3, Passes: 1},
	}
	rows, _ := analysis.PassK(tasks, analysis.PassKOptions{})
	units := analysis.NewUnits(map[int64]analysis.PoolKey{1: {}}, false)
	res := analysis.Gaps(rows, 0, units, map[int64]string{1: "demo"})
	g := res.Rows[0]
	fmt.Printf("k=%d pass^1=%.4f pass^k=%.4f gap=%.4f ratio=%.4f notes=%d\n", g.K, g.Pass1, g.PassK, g.Diff, g.Ratio, len(res.Notes))
	// Output: k=3 pass^1=0.6667 pass^k=0.5000 gap=0.1667 ratio=0.7500 notes=0
}

func TestAbandonmentByUnit(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{1: {AgentModel: "m", Domain: "d"}, 2: {AgentModel: "m", Domain: "d"}, 3: {AgentModel: "n", Domain: "d"}}, true)
	anger, fear := map[string]string{"emotion_family": "anger"}, map[string]string{"emotion_family": "fear"}
	got := analysis.AbandonmentByUnit([]analysis.AbandonmentTrajectory{
		{RunID: 1, Fields: anger, Abandoned: true, Turn: 3},
		{RunID: 2, Fields: anger, Abandoned: true, Turn: 5},
		{RunID: 2, Fields: fear},
		{RunID: 3, Fields: fear, Abandoned: true, Turn: 2},
		{RunID: 9, Fields: fear, Abandoned: true}, // no unit holds run 9
	}, units, [][]string{{"emotion_family"}, {"trust"}})
	if len(got) != 4 {
		t.Fatalf("got %d unit results, want 2 units × 2 field lists", len(got))
	}
	// Pool of runs 1 and 2: anger 2 of 2 abandoned at turns 3 and 5 (mean
	// 4), fear 0 of 1; by trust (missing, ""), 2 of 3.
	p := got[0]
	if p.Unit.ID != 1 || len(p.Rates) != 2 || p.Rates[0].Group[0] != "anger" || p.Rates[0].Abandoned != 2 || p.Rates[0].MeanTurn != 4 || p.Rates[1].N != 1 || p.Rates[1].Abandoned != 0 {
		t.Errorf("pool by family = %+v", p)
	}
	if r := got[1].Rates; len(r) != 1 || r[0].Group[0] != "" || r[0].N != 3 || r[0].Abandoned != 2 {
		t.Errorf("pool by trust = %+v", r)
	}
	if got[2].Unit.ID != 3 || got[2].Rates[0].Rate != 1 {
		t.Errorf("run 3 = %+v", got[2])
	}
}
