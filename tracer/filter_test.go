package tracer

import (
	"context"
	"encoding/json"
	"iter"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/google/go-cmp/cmp"
)

func openDB(t *testing.T) *db.DB {
	t.Helper()
	store, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// oneFactTask needs one fact from the user (its order id), so a
// trajectory's user_turns_per_fact is its number of user turns.
func oneFactTask(key, family string) emobench.Task {
	spec := emobench.TaskSpec{
		ID: key, Domain: "retail", Split: emobench.SplitTrain, Instruction: "cancel " + key,
		Emotion:  emobench.EmotionProfile{Family: family},
		Scenario: emobench.Scenario{Facts: map[string]string{"order_id": "#W" + key}, Requests: []emobench.Request{{Text: "cancel"}}},
		Actions:  []emobench.Action{{Name: "cancel_pending_order", Arguments: json.RawMessage(`{"order_id":"#W` + key + `"}`)}},
	}
	return spec.Task()
}

// episode is a trajectory of task with userTurns user messages.
func episode(task emobench.Task, trial int, reward float64, end emobench.TerminationReason, userTurns int) *emobench.Trajectory {
	tr := &emobench.Trajectory{Task: task, Trial: trial, Reward: &reward, Evaluated: true, TerminationReason: end}
	for i := 0; i < userTurns; i++ {
		tr.Messages = append(tr.Messages, emobench.Message{Role: emobench.RoleUser, Content: "my order id is #W" + task.Key},
			emobench.Message{Role: emobench.RoleAssistant, Content: "ok"})
	}
	return tr
}

// filterFixture stores two native runs and one imported run; the funnel
// expected of it is counted by hand in TestFilter_Fixture.
func filterFixture(t *testing.T) *db.DB {
	t.Helper()
	ctx := context.Background()
	store := openDB(t)
	native := func(cond emobench.Condition, trajs ...*emobench.Trajectory) {
		id, err := store.CreateRun(ctx, emobench.Run{Name: "native-" + string(cond), SourceFormat: emobench.SourceNative, Domain: "retail", Condition: cond})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range trajs {
			if err := store.AppendTrajectory(ctx, id, tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	k1, k2, k3 := oneFactTask("1", "anger"), oneFactTask("2", "anger"), oneFactTask("3", "fear")
	native(emobench.ConditionWithEmotions,
		episode(k1, 0, 1, emobench.TerminationUserStop, 1),        // kept
		episode(k1, 1, 1, emobench.TerminationUserUnsatisfied, 1), // abandoned
		episode(k2, 0, 0, emobench.TerminationUserStop, 1),        // failed
		episode(k2, 1, 1, emobench.TerminationUserStop, 3),        // dependence 3 > 2
		episode(k3, 0, 1, emobench.TerminationUserStop, 2),        // dependence exactly 2: kept
	)
	native(emobench.ConditionWithoutEmotions,
		episode(k1, 0, 1, emobench.TerminationUserStop, 2), // kept
		episode(k3, 0, 1, emobench.TerminationUserStop, 3), // dependence 3 > 2
	)
	imported := episode(emobench.Task{Domain: "retail", Key: "i1", Instruction: "imported", Emotion: emobench.EmotionProfile{Family: "anger"}}, 0, 1, emobench.TerminationUserStop, 1)
	seq := func(yield func(*emobench.Trajectory, error) bool) { yield(imported, nil) }
	run := emobench.Run{Name: "imported", SourceFormat: "taubench", SourceSHA256: "s1", Domain: "retail", Condition: emobench.ConditionWithEmotions}
	if _, err := store.IngestRun(ctx, run, iter.Seq2[*emobench.Trajectory, error](seq), db.DuplicateRefuse); err != nil {
		t.Fatal(err)
	}
	return store
}

func count(t *testing.T, store *db.DB, query string) int {
	t.Helper()
	rows, err := store.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int
	rows.Next()
	if err := rows.Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFilter_Fixture(t *testing.T) {
	ctx := context.Background()
	store := filterFixture(t)
	x := 2.0
	req := FilterRequest{Criteria: analysis.FilterCriteria{MinReward: 1, MaxUserDependence: &x}, Name: "kept",
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	res, err := Filter(ctx, store, req)
	if err != nil {
		t.Fatal(err)
	}
	want := []analysis.FunnelRow{
		// k1 kept, k1 abandoned, k2 failed, k2 dependent, i1 unknown (dropped under the bound).
		{Domain: "retail", Family: "anger", Generated: 3, Collected: 5, Passed: 4, NotAbandoned: 3, WithinDependence: 1, Kept: 1, DependenceUnknown: 1},
		{Domain: "retail", Family: "fear", Generated: 1, Collected: 1, Passed: 1, NotAbandoned: 1, WithinDependence: 1, Kept: 1},
		{Domain: "retail", Family: "none", Generated: 2, Collected: 2, Passed: 2, NotAbandoned: 2, WithinDependence: 1, Kept: 1},
	}
	if diff := cmp.Diff(want, res.Funnel.Rows); diff != "" {
		t.Fatalf("funnel rows (-want +got):\n%s", diff)
	}
	wantTotal := analysis.FunnelRow{Generated: 4, Collected: 8, Passed: 7, NotAbandoned: 6, WithinDependence: 3, Kept: 3, DependenceUnknown: 1}
	if diff := cmp.Diff(wantTotal, res.Funnel.Total); diff != "" {
		t.Fatalf("funnel total (-want +got):\n%s", diff)
	}
	if got, want := res.Backfilled, 7; got != want {
		t.Fatalf("backfilled %d, want %d (every native trajectory)", got, want)
	}
	if got, want := count(t, store, "SELECT COUNT(*) FROM trajectories WHERE user_turns_per_fact IS NULL"), 1; got != want {
		t.Fatalf("%d trajectories without dependence, want %d (the imported one)", got, want)
	}
	if got, want := count(t, store, "SELECT COUNT(*) FROM selection_trajectories"), 3; got != want {
		t.Fatalf("%d selected, want %d", got, want)
	}
	sel, err := store.FindSelection(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := DecodeFunnel(sel)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res.Funnel.Rows, stored.Rows); diff != "" {
		t.Fatalf("stored counts differ (-printed +stored):\n%s", diff)
	}
	var crit FilterCriteriaRecord
	if err := json.Unmarshal(sel.Criteria, &crit); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(crit.Runs, []int64{1, 2, 3}) || crit.MaxUserDependence == nil || *crit.MaxUserDependence != 2 || crit.DependenceMetric != DependenceMetric {
		t.Fatalf("criteria = %s", sel.Criteria)
	}

	t.Run("ErrNameClash", func(t *testing.T) {
		if _, err := Filter(ctx, store, req); emobench.ErrorCode(err) != emobench.ECONFLICT {
			t.Fatalf("second filter under one name: %v, want a conflict", err)
		}
		req := req
		req.Replace, req.Criteria.MaxUserDependence = true, nil
		res, err := Filter(ctx, store, req)
		if err != nil {
			t.Fatal(err)
		}
		// Without a bound: the unknown and the dependent ones are kept too.
		if got, want := res.Funnel.Total.Kept, 6; got != want {
			t.Fatalf("kept without a bound %d, want %d", got, want)
		}
		if got, want := count(t, store, "SELECT COUNT(*) FROM selection_trajectories"), 6; got != want {
			t.Fatalf("%d selected after --replace, want %d", got, want)
		}
	})
}

func TestFilter_DryRunStoresNothing(t *testing.T) {
	ctx := context.Background()
	store := filterFixture(t)
	res, err := Filter(ctx, store, FilterRequest{Criteria: analysis.FilterCriteria{MinReward: 1, KeepAbandoned: true}, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	// Abandoned kept, no bound: every passed trajectory (7) is kept.
	if got, want := res.Funnel.Total.Kept, 7; got != want {
		t.Fatalf("kept %d, want %d", got, want)
	}
	for _, q := range []string{
		"SELECT COUNT(*) FROM selections",
		"SELECT COUNT(*) FROM selection_trajectories",
		"SELECT COUNT(*) FROM trajectories WHERE user_turns_per_fact IS NOT NULL",
	} {
		if n := count(t, store, q); n != 0 {
			t.Fatalf("dry run: %s = %d, want 0", q, n)
		}
	}
}

func TestFilter_Boundaries(t *testing.T) {
	ctx := context.Background()
	store := openDB(t)
	id, err := store.CreateRun(ctx, emobench.Run{Name: "b", SourceFormat: emobench.SourceNative, Domain: "retail", Condition: emobench.ConditionWithEmotions})
	if err != nil {
		t.Fatal(err)
	}
	task := oneFactTask("1", "anger")
	for _, tr := range []*emobench.Trajectory{
		episode(task, 0, 1, emobench.TerminationUserStop, 2),        // dependence exactly X
		episode(task, 1, 1, emobench.TerminationUserStop, 3),        // just above X
		episode(task, 2, 0.5, emobench.TerminationUserStop, 1),      // reward exactly a min of 0.5
		episode(task, 3, 0.49, emobench.TerminationUserStop, 1),     // just below it
		episode(task, 4, 1, emobench.TerminationUserUnsatisfied, 1), // abandoned
	} {
		if err := store.AppendTrajectory(ctx, id, tr); err != nil {
			t.Fatal(err)
		}
	}
	kept := func(c analysis.FilterCriteria) []int64 {
		t.Helper()
		res, err := Filter(ctx, store, FilterRequest{Criteria: c, DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.Funnel.Kept
	}
	x := 2.0
	if got, want := kept(analysis.FilterCriteria{MinReward: 1, MaxUserDependence: &x}), []int64{1}; !slices.Equal(got, want) {
		t.Fatalf("X=2: kept %v, want %v (exactly X kept, above dropped, abandoned dropped)", got, want)
	}
	if got, want := kept(analysis.FilterCriteria{MinReward: 0.5}), []int64{1, 2, 3}; !slices.Equal(got, want) {
		t.Fatalf("min 0.5: kept %v, want %v", got, want)
	}
	if got, want := kept(analysis.FilterCriteria{MinReward: 1, KeepAbandoned: true}), []int64{1, 2, 5}; !slices.Equal(got, want) {
		t.Fatalf("abandoned kept: kept %v, want %v", got, want)
	}
}

// A selection holds no test-split task unless AllowTestTasks: a run whose
// config says split test, a run of a stored test task set, a task stored
// as test, an embedded test task by domain and id (also with other content
// or another emotion), are all excluded and counted; a train task is kept.
func TestFilter_ExcludesTestSplit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openDB(t)
	test := emobench.TaskSpec{
		ID: "retail-test-000", Domain: "retail", Split: emobench.SplitTest, Instruction: "cancel T",
		Emotion:  emobench.EmotionProfile{Family: "anger"},
		Scenario: emobench.Scenario{Facts: map[string]string{"order_id": "#WT"}, Requests: []emobench.Request{{Text: "cancel"}}},
		Actions:  []emobench.Action{{Name: "cancel_pending_order", Arguments: json.RawMessage(`{"order_id":"#WT"}`)}},
	}
	set := db.TaskSet{Name: "test-set", Domain: "retail", Split: emobench.SplitTest, GeneratorVersion: "t", Seed: 1}
	if _, err := store.CreateTaskSet(ctx, set, []emobench.TaskSpec{test}, false); err != nil {
		t.Fatal(err)
	}
	run := func(name string, spec *emobench.RunSpec, tasks ...emobench.Task) {
		r := emobench.Run{Name: name, SourceFormat: emobench.SourceNative, Domain: "retail", Condition: emobench.ConditionWithEmotions}
		if spec != nil {
			r.Config = spec.Encode()
		}
		id, err := store.CreateRun(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			if err := store.AppendTrajectory(ctx, id, episode(task, 0, 1, emobench.TerminationUserStop, 1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	stored := oneFactTask("s1", "anger")
	stored.Split = emobench.SplitTest
	sameID := oneFactTask("retail-test-000", "anger") // another task under the test task's id
	twin := test                                      // the test task under another emotion, stored as train
	twin.Split, twin.Emotion = emobench.SplitTrain, emobench.EmotionProfile{Family: "fear"}
	run("split-test", &emobench.RunSpec{Split: "test"}, oneFactTask("c1", "anger"))
	run("test-set", &emobench.RunSpec{Split: "train", TaskSet: "test-set"}, oneFactTask("c2", "anger"))
	run("stored", nil, stored)
	run("same-id", nil, sameID)
	run("twin", nil, twin.Task())
	run("train", &emobench.RunSpec{Split: "train"}, oneFactTask("k1", "anger"))

	req := FilterRequest{Criteria: analysis.FilterCriteria{MinReward: 1}, TestTasks: []emobench.TaskSpec{test}, DryRun: true}
	res, err := Filter(ctx, store, req)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Funnel.Total, (analysis.FunnelRow{Generated: 5, Collected: 6, TestExcluded: 5, Passed: 1, NotAbandoned: 1, WithinDependence: 1, Kept: 1}); got != want {
		t.Fatalf("funnel total = %+v, want %+v", got, want)
	}
	if got, want := res.TestKept, 0; got != want {
		t.Fatalf("test kept %d, want %d", got, want)
	}
	req.Criteria.AllowTestTasks = true
	if res, err = Filter(ctx, store, req); err != nil {
		t.Fatal(err)
	}
	if got := res.Funnel.Total; got.TestExcluded != 0 || got.Kept != 6 || res.TestKept != 5 {
		t.Fatalf("AllowTestTasks: funnel total %+v, test kept %d; want 0 excluded, 6 kept, 5 of them test", got, res.TestKept)
	}
	if !res.Criteria.AllowTestTasks {
		t.Fatal("the criteria record does not say test tasks were allowed")
	}
}
