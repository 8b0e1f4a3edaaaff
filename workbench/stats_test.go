package workbench_test

import (
	"context"
	"encoding/json"
	"iter"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/workbench"
	"github.com/google/go-cmp/cmp"
)

const tol = 1e-9

// outcome is one trajectory of a test run: its task key, trial and
// whether it passed.
type outcome struct {
	task   string
	trial  int
	passed bool
}

func task(key string) emobench.Task {
	return emobench.Task{Domain: "retail", Key: key, Instruction: "You are user " + key + ".",
		Actions: json.RawMessage(`[]`), Outputs: json.RawMessage(`[]`)}
}

func trajectories(outcomes []outcome) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		for _, o := range outcomes {
			reward := 0.0
			if o.passed {
				reward = 1
			}
			if !yield(&emobench.Trajectory{Task: task(o.task), Trial: o.trial, Reward: &reward, Evaluated: true,
				TerminationReason: emobench.TerminationUserStop}, nil) {
				return
			}
		}
	}
}

// testDB stores three runs in a fresh database under t.TempDir():
//
//	run 1 "a" (model m): task 0 passes trials 0 and 1, task 1 passes trial 0 of 0, 1;
//	run 2 "b" (model m): task 0 fails trial 0, task 2 passes trial 0;
//	run 3 "c" (model unknown): task 0 passes trial 0.
//
// Runs 1 and 2 pool (same agent, user, domain, condition); run 3 is kept
// apart, its agent model unknown.
func testDB(t *testing.T) *db.DB {
	t.Helper()
	ctx := t.Context()
	store, err := db.Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	runs := []struct {
		name, model string
		outcomes    []outcome
	}{
		{"a", "m", []outcome{{"0", 0, true}, {"0", 1, true}, {"1", 0, true}, {"1", 1, false}}},
		{"b", "m", []outcome{{"0", 0, false}, {"2", 0, true}}},
		{"c", analysis.Unknown, []outcome{{"0", 0, true}}},
	}
	for _, r := range runs {
		run := emobench.Run{Name: r.name, SourceFormat: "synthetic", AgentModel: r.model, UserModel: "u",
			Domain: "retail", Condition: emobench.ConditionWithEmotions}
		if _, err := store.IngestRun(ctx, run, trajectories(r.outcomes), db.DuplicateRefuse); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

func mustSelect(t *testing.T, store *db.DB, runIDs []int64, pool bool) workbench.Selection {
	t.Helper()
	s, err := workbench.Select(t.Context(), store, runIDs, pool)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSelect_PoolsAndKeepsApart(t *testing.T) {
	t.Parallel()
	store := testDB(t)
	s := mustSelect(t, store, nil, true)
	var got [][]int64
	for _, u := range s.Units.List() {
		got = append(got, u.RunIDs)
	}
	if diff := cmp.Diff([][]int64{{1, 2}, {3}}, got); diff != "" {
		t.Errorf("pooled units (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[int64]string{1: "a", 2: "b", 3: "c"}, s.Names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	want := []string{"--pool: runs 3 have an unknown agent model or domain, so each is its own pool (set them with `emobench runs set RUN --model M`, or ingest with --model/--domain)"}
	if diff := cmp.Diff(want, s.KeptApartNotes()); diff != "" {
		t.Errorf("kept-apart notes (-want +got):\n%s", diff)
	}
	if !s.Pool {
		t.Error("Pool = false, want true")
	}
	if notes := mustSelect(t, store, []int64{1, 3}, false).KeptApartNotes(); notes != nil {
		t.Errorf("per run: notes %q, want none", notes)
	}
}

func TestPassKStats_Compute(t *testing.T) {
	t.Parallel()
	store := testDB(t)
	ctx := t.Context()
	t.Run("PerRun", func(t *testing.T) {
		s := mustSelect(t, store, []int64{1, 2}, false)
		rows, notes, err := workbench.PassKStats{Options: analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{2}}}.Compute(ctx, store, s)
		if err != nil {
			t.Fatal(err)
		}
		// Run 1 at k = 2: task 0 C(2,2)/C(2,2) = 1, task 1 C(1,2)/C(2,2) = 0.
		if len(rows) != 1 || rows[0].RunID != 1 || math.Abs(rows[0].PassHatK-0.5) > tol {
			t.Fatalf("rows %+v, want run 1 only, pass^2 0.5", rows)
		}
		want := []string{"run 2 (b) has no row: it holds no trajectory, or no task with k trials (see `emobench runs`)"}
		if diff := cmp.Diff(want, notes); diff != "" {
			t.Errorf("notes (-want +got):\n%s", diff)
		}
	})
	t.Run("Pooled", func(t *testing.T) {
		s := mustSelect(t, store, nil, true)
		rows, notes, err := workbench.PassKStats{Options: analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}}, Intervals: true,
			Bootstrap: workbench.DefaultBootstrap}.Compute(ctx, store, s)
		if err != nil {
			t.Fatal(err)
		}
		// Pool 1,2: task 0 passes 2 of 3 trials, task 1 1 of 2, task 2 1 of 1.
		if len(rows) != 2 || rows[0].RunID != 1 || math.Abs(rows[0].PassHatK-(2.0/3+0.5+1)/3) > tol {
			t.Fatalf("rows %+v, want the pool's pass^1 (2/3 + 1/2 + 1)/3 first", rows)
		}
		if ci := rows[0].HatCI; !(ci.Lo <= rows[0].PassHatK && rows[0].PassHatK <= ci.Hi) {
			t.Errorf("interval %+v does not hold pass^1 %v", ci, rows[0].PassHatK)
		}
		if len(notes) != 2 || !strings.HasPrefix(notes[0], "--pool: runs 3 ") || !strings.Contains(notes[1], "task 0 appears in runs 1 and 2") {
			t.Errorf("notes %q, want the kept-apart note, then the overlap of task 0", notes)
		}
	})
}

func TestGapStats_Compute(t *testing.T) {
	t.Parallel()
	store := testDB(t)
	s := mustSelect(t, store, []int64{1}, false)
	rows, _, err := workbench.GapStats{Options: analysis.PassKOptions{Convention: analysis.PerTask}, K: 2}.Compute(t.Context(), store, s)
	if err != nil {
		t.Fatal(err)
	}
	// Run 1: pass^1 = (1 + 1/2)/2 = 0.75, pass^2 = (1 + 0)/2 = 0.5.
	if len(rows) != 1 || rows[0].K != 2 || math.Abs(rows[0].Pass1-0.75) > tol || math.Abs(rows[0].Diff-0.25) > tol {
		t.Errorf("rows %+v, want K 2, pass^1 0.75, diff 0.25", rows)
	}
}

func TestAbandonmentStats_Compute(t *testing.T) {
	t.Parallel()
	store := testDB(t)
	s := mustSelect(t, store, []int64{1}, false)
	all, _, err := workbench.AbandonmentStats{}.Compute(t.Context(), store, s)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(all), len(workbench.AbandonmentDimensions); got != want {
		t.Errorf("without fields: %d tables, want one per dimension (%d)", got, want)
	}
	joint, _, err := workbench.AbandonmentStats{Fields: []string{"domain", "agent_model"}}.Compute(t.Context(), store, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(joint) != 1 || len(joint[0].Rates) != 1 || joint[0].Rates[0].N != 4 || joint[0].Rates[0].Abandoned != 0 {
		t.Errorf("joint %+v, want one rate: 0 of 4 abandoned", joint)
	}
}

func TestParseGroupFields(t *testing.T) {
	t.Parallel()
	got, err := workbench.ParseGroupFields("condition, run,emotion_family")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"condition", "emotion_family"}, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if got, err := workbench.ParseGroupFields(""); got != nil || err != nil {
		t.Errorf(`"" = %v, %v; want none`, got, err)
	}
	_, err = workbench.ParseGroupFields("colour")
	if err == nil || !strings.HasPrefix(err.Error(), `by "colour": no field "colour" (fields: `) {
		t.Errorf("err = %v, want one naming the field", err)
	}
}

func TestCheckBootstrap(t *testing.T) {
	t.Parallel()
	ok := workbench.DefaultBootstrap
	if err := workbench.CheckBootstrap(ok); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, tc := range []struct {
		edit func(*analysis.BootstrapOptions)
		want string
	}{
		{func(o *analysis.BootstrapOptions) { o.Method = "basic" }, `ci-method "basic" is not one of percentile, bca`},
		{func(o *analysis.BootstrapOptions) { o.Resamples = 99 }, "resamples 99: use at least 100"},
		{func(o *analysis.BootstrapOptions) { o.Resamples = math.MaxInt }, "resamples 9223372036854775807 is too large: at most 1000000 (each statistic keeps every resample in memory)"},
		{func(o *analysis.BootstrapOptions) { o.Level = 1 }, "level 1 is not in (0, 1)"},
	} {
		o := ok
		tc.edit(&o)
		if err := workbench.CheckBootstrap(o); err == nil || err.Error() != tc.want {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}

func TestRunRow_NoPass1IsNaN(t *testing.T) {
	t.Parallel()
	row := workbench.RunRow(db.RunSummary{ID: 4, Name: "empty"}, db.RunRewards{}, "ingested")
	if !math.IsNaN(row.Pass1) || row.NotEvaluated || row.Provenance != "ingested" {
		t.Errorf("row %+v, want pass1 NaN, evaluated (no trajectories), provenance ingested", row)
	}
}

func TestSuspectTrialNotes_OnlyMinTrials(t *testing.T) {
	t.Parallel()
	store := testDB(t)
	s := mustSelect(t, store, nil, false)
	notes, err := workbench.SuspectTrialNotes(context.Background(), store, s, analysis.PerTask)
	if err != nil || notes != nil {
		t.Errorf("per-task: %q, %v; want no notes", notes, err)
	}
}

// ingestRuns stores each run (agent model, name and outcomes; user model u,
// retail, with-emotions) in a fresh database under t.TempDir(), as runs 1,
// 2, … in order.
func ingestRuns(t *testing.T, runs ...struct {
	name, model string
	outcomes    []outcome
}) *db.DB {
	t.Helper()
	ctx := t.Context()
	store, err := db.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	for _, r := range runs {
		run := emobench.Run{Name: r.name, SourceFormat: "synthetic", AgentModel: r.model, UserModel: "u",
			Domain: "retail", Condition: emobench.ConditionWithEmotions}
		if _, err := store.IngestRun(ctx, run, trajectories(r.outcomes), db.DuplicateRefuse); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

// A tuned run and its base run with different task sets: the row's pass
// columns are over the 4 paired tasks Δ is over, and a note names what was
// left out of each run.
func TestGeneralizationStats_PassOverPairedTasks(t *testing.T) {
	t.Parallel()
	type run = struct {
		name, model string
		outcomes    []outcome
	}
	store := ingestRuns(t,
		run{"base", "b", []outcome{{"0", 0, false}, {"1", 0, false}, {"2", 0, false}, {"3", 0, true}, {"9", 0, true}}},
		run{"tuned", "t", []outcome{{"0", 0, true}, {"1", 0, true}, {"2", 0, false}, {"3", 0, true}, {"5", 0, false}, {"6", 0, false}}},
	)
	if err := store.TagRun(t.Context(), 2, []string{"retail"}, 1); err != nil {
		t.Fatal(err)
	}
	models, notes, err := workbench.GeneralizationStats{Bootstrap: workbench.DefaultBootstrap}.Compute(t.Context(), store, mustSelect(t, store, nil, false))
	if err != nil || len(models) != 1 || len(models[0].Result.Domains) != 1 {
		t.Fatalf("Compute = %+v, %v", models, err)
	}
	d := models[0].Result.Domains[0]
	// Over all tasks tuned would read 3/6 = 0.5 and base 2/5 = 0.4.
	if math.Abs(d.TunedPass1-0.75) > tol || math.Abs(d.BasePass1-0.25) > tol || math.Abs(d.Delta-0.5) > tol || d.PairedTasks != 4 {
		t.Errorf("tuned %v, base %v, Δ %v over %d paired; want 0.75, 0.25, 0.5 over 4", d.TunedPass1, d.BasePass1, d.Delta, d.PairedTasks)
	}
	want := []string{"t on retail: tuned_pass_1, base_pass_1 and Δ are over the 4 paired tasks; left out, as the other side lacks them: 2 of the tuned run's 6 tasks and 1 of the base run's 5"}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// With --pool, tuned runs pool only with tuned runs of the same train
// domains and base, and untagged runs, not tuned, stay out of the tuned
// pool: runs 3 and 4 (tuned on retail from runs 1 and 2, which pool) are
// the tuned pool, run 5 of the same model, untagged, is not in it.
func TestGeneralizationStats_PoolKeepsToTags(t *testing.T) {
	t.Parallel()
	type run = struct {
		name, model string
		outcomes    []outcome
	}
	store := ingestRuns(t,
		run{"b1", "b", []outcome{{"0", 0, false}, {"1", 0, false}}},
		run{"b2", "b", []outcome{{"0", 1, true}, {"1", 1, false}}},
		run{"t1", "t", []outcome{{"0", 0, true}, {"1", 0, true}}},
		run{"t2", "t", []outcome{{"0", 1, true}, {"1", 1, false}}},
		run{"t-untagged", "t", []outcome{{"0", 2, false}, {"1", 2, false}}},
	)
	for _, tag := range [][2]int64{{3, 1}, {4, 2}} {
		if err := store.TagRun(t.Context(), tag[0], []string{"retail"}, tag[1]); err != nil {
			t.Fatal(err)
		}
	}
	models, _, err := workbench.GeneralizationStats{Bootstrap: workbench.DefaultBootstrap}.Compute(t.Context(), store, mustSelect(t, store, nil, true))
	if err != nil || len(models) != 1 {
		t.Fatalf("Compute = %+v, %v", models, err)
	}
	m := models[0]
	if got, want := [][]int64{m.Tuned["retail"].RunIDs, m.Base["retail"].RunIDs}, [][]int64{{3, 4}, {1, 2}}; !cmp.Equal(got, want) {
		t.Fatalf("tuned, base run ids = %v, want %v", got, want)
	}
	// Tuned pool: task 0 passes 2/2, task 1 1/2 → 0.75; base pool: task 0
	// 1/2, task 1 0/2 → 0.25 (with run 5, tuned would read 0.5).
	d := m.Result.Domains[0]
	if math.Abs(d.TunedPass1-0.75) > tol || math.Abs(d.BasePass1-0.25) > tol || math.Abs(d.Delta-0.5) > tol {
		t.Errorf("tuned %v, base %v, Δ %v; want 0.75, 0.25, 0.5", d.TunedPass1, d.BasePass1, d.Delta)
	}
	// A tuned run of other train domains pools apart from them.
	if err := store.TagRun(t.Context(), 4, []string{"airline"}, 2); err != nil {
		t.Fatal(err)
	}
	tags, err := store.ListRunTags(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got [][]int64
	for _, u := range workbench.TaggedUnits(mustSelect(t, store, nil, true), tags).List() {
		got = append(got, u.RunIDs)
	}
	if want := [][]int64{{1, 2}, {3}, {4}, {5}}; !cmp.Equal(got, want) {
		t.Errorf("units = %v, want %v", got, want)
	}
}
