package db_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// outcomeRows is run_task_outcomes as text, one row a line:
// run|task_key|evaluable|trials|passes|abandoned|evaluated|partial|credit.
const outcomeRows = `SELECT o.run_id, k.task_key, o.evaluable, o.trials, o.passes, o.abandoned, o.evaluated, o.partial, o.credit
FROM run_task_outcomes o JOIN tasks k ON k.id = o.task_id ORDER BY o.run_id, k.task_key, o.task_id, o.evaluable`

// mustConsistentOutcomes fails when the stored counts differ from a recount
// of the trajectories.
func mustConsistentOutcomes(tb testing.TB, store *db.DB, after string) {
	tb.Helper()
	problems, err := store.CheckOutcomes(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if len(problems) > 0 {
		tb.Fatalf("after %s: outcomes differ from the trajectories:\n%s", after, strings.Join(problems, "\n"))
	}
}

func notEvaluable(t *emobench.Trajectory) *emobench.Trajectory {
	t.Evaluable = new(bool)
	t.Evaluated = false
	t.TerminationReason = emobench.TerminationError
	return t
}

func unevaluated(t *emobench.Trajectory) *emobench.Trajectory {
	t.Evaluated = false
	return t
}

func abandoned(t *emobench.Trajectory) *emobench.Trajectory {
	t.TerminationReason = emobench.TerminationUserUnsatisfied
	return t
}

func errored(t *emobench.Trajectory) *emobench.Trajectory {
	t.TerminationReason = emobench.TerminationError
	return t
}

// Every write path leaves run_task_outcomes equal to a recount from the
// trajectories, with the counts written out by hand.
func TestRunTaskOutcomes_EveryWritePath(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)

	mustIngest(t, store, run("a", "s1"),
		traj("1", 0, 1), traj("1", 1, 0), traj("1", 2, 1),
		traj("2", 0, 0.5), abandoned(traj("2", 1, -1)), unevaluated(traj("2", 2, 1)),
		notEvaluable(traj("3", 0, 1)), traj("3", 1, 1))
	mustConsistentOutcomes(t, store, "ingest")
	// Task 2: credit 0.5 of its partial reward; its unevaluated reward 1 is
	// no pass. Task 3: one evaluable pass beside one non-evaluable trial.
	if got, want := queryText(t, store, outcomeRows), strings.Join([]string{
		"1|1|1|3|2|0|3|0|2",
		"1|2|1|3|0|1|2|1|0.5",
		"1|3|0|1|0|0|0|0|0",
		"1|3|1|1|1|0|1|0|1",
	}, "\n"); got != want {
		t.Fatalf("after ingest:\n%s\nwant\n%s", got, want)
	}

	// keep-last: the later record of (1, 0) replaces the pass.
	items := []any{traj("1", 0, 1), traj("1", 1, 1), traj("1", 0, 0)}
	if _, err := store.IngestRun(ctx, run("b", "s2"), seq(items...), db.DuplicateKeepLast); err != nil {
		t.Fatal(err)
	}
	mustConsistentOutcomes(t, store, "ingest --on-duplicate keep-last")
	if got, want := queryText(t, store, outcomeRows+" LIMIT 1 OFFSET 4"), "2|1|1|2|1|0|2|0|1"; got != want {
		t.Fatalf("after keep-last: %s, want %s", got, want)
	}

	// A native run: an error trial, then its retry, which replaces it.
	native, err := store.CreateRun(ctx, nativeRun("sim", `{"seed":1}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*emobench.Trajectory{errored(traj("1", 0, 0)), traj("2", 0, 1), traj("1", 0, 1)} {
		if err := store.AppendTrajectory(ctx, native, tr); err != nil {
			t.Fatal(err)
		}
		mustConsistentOutcomes(t, store, "append")
	}
	if got, want := queryText(t, store, fmt.Sprintf("SELECT SUM(trials), SUM(passes) FROM run_task_outcomes WHERE run_id = %d", native)), "2|2"; got != want {
		t.Fatalf("native run after retry: trials|passes %s, want %s", got, want)
	}

	// Merge: a new imported run, and a shard that extends the native run.
	src := openDBAt(t, filepath.Join(t.TempDir(), "src.db"))
	mustIngest(t, src, run("c", "s3"), traj("4", 0, 1), notEvaluable(traj("4", 1, 0)))
	mustAppend(t, src, nativeRun("sim", `{"seed":1}`), traj("2", 1, 0), traj("3", 0, 1))
	if _, err := store.Merge(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
	mustConsistentOutcomes(t, store, "merge")
	if got, want := queryText(t, store, fmt.Sprintf("SELECT SUM(trials), SUM(passes) FROM run_task_outcomes WHERE run_id = %d", native)), "4|3"; got != want {
		t.Fatalf("native run after merge: trials|passes %s, want %s", got, want)
	}

	// Replace run a by its file's content: a's counts go with it.
	a, err := store.ResolveRun(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	res, err := store.ReplaceRun(ctx, a, run("a", "s1"), seq(traj("1", 0, 0)), db.DuplicateRefuse)
	if err != nil {
		t.Fatal(err)
	}
	mustConsistentOutcomes(t, store, "replace")
	if got, want := queryInt(t, store, fmt.Sprintf("SELECT COUNT(*) FROM run_task_outcomes WHERE run_id = %d", a)), 0; got != want {
		t.Fatalf("replaced run keeps %d outcome rows, want %d", got, want)
	}

	if _, err := store.DeleteRuns(ctx, []int64{res.RunID}); err != nil {
		t.Fatal(err)
	}
	mustConsistentOutcomes(t, store, "rm")
	if got, want := queryInt(t, store, fmt.Sprintf("SELECT COUNT(*) FROM run_task_outcomes WHERE run_id = %d", res.RunID)), 0; got != want {
		t.Fatalf("deleted run keeps %d outcome rows, want %d", got, want)
	}
	rep, err := store.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 {
		t.Fatalf("check: %v", rep.Problems)
	}
}

// Check reports counts that no longer match the trajectories.
func TestCheck_ErrStaleOutcomes(t *testing.T) {
	t.Parallel()
	store, path := MustOpenDB(t)
	mustIngest(t, store, run("a", "s1"), traj("1", 0, 1), traj("1", 1, 0))
	store.Close()
	plainExec(t, path, "UPDATE trajectories SET passed = 0")
	ro := openRO(t, path)
	rep, err := ro.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "passes:1") {
		t.Fatalf("problems %q, want one naming the stored pass", rep.Problems)
	}
}

// The --run filter reaches SQL: each loader returns the runs asked for and
// every run when none is.
func TestListTaskTrials_RunFilter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	mustIngest(t, store, run("a", "s1"), traj("1", 0, 1), notEvaluable(traj("2", 0, 0)))
	mustIngest(t, store, run("b", "s2"), traj("1", 0, 0), traj("1", 1, 1), unevaluated(traj("3", 0, 0)))

	describe := func(tasks []db.TaskTrials) string {
		var s []string
		for _, k := range tasks {
			s = append(s, fmt.Sprintf("%d/%d:%d/%d/%d", k.RunID, k.TaskID, k.Passes, k.Trials, k.Unevaluated))
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		runs               []int64
		want, withoutInfra string
		infra, outcomes    int
	}{
		{nil, "1/1:1/1/0 1/2:0/1/1 2/1:1/2/0 2/3:0/1/1", "1/1:1/1/0 2/1:1/2/0 2/3:0/1/1", 1, 5},
		{[]int64{2}, "2/1:1/2/0 2/3:0/1/1", "2/1:1/2/0 2/3:0/1/1", 0, 3},
		{[]int64{1}, "1/1:1/1/0 1/2:0/1/1", "1/1:1/1/0", 1, 2},
	} {
		tasks, err := store.ListTaskTrials(ctx, c.runs)
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(tasks); got != c.want {
			t.Errorf("ListTaskTrials(%v) = %s, want %s", c.runs, got, c.want)
		}
		tasks, err = store.ListTaskTrialsWithoutInfraErrors(ctx, c.runs)
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(tasks); got != c.withoutInfra {
			t.Errorf("ListTaskTrialsWithoutInfraErrors(%v) = %s, want %s", c.runs, got, c.withoutInfra)
		}
		n, err := store.CountInfraErrors(ctx, c.runs)
		if err != nil {
			t.Fatal(err)
		}
		if n != c.infra {
			t.Errorf("CountInfraErrors(%v) = %d, want %d", c.runs, n, c.infra)
		}
		outcomes, err := store.ListTrajectoryOutcomes(ctx, c.runs)
		if err != nil {
			t.Fatal(err)
		}
		if len(outcomes) != c.outcomes {
			t.Errorf("ListTrajectoryOutcomes(%v) has %d trajectories, want %d", c.runs, len(outcomes), c.outcomes)
		}
		for _, o := range outcomes {
			if o.Fields["emotion_family"] != "anger" || o.TaskKey == "" {
				t.Errorf("ListTrajectoryOutcomes(%v): trajectory %d has task %q, fields %v", c.runs, o.ID, o.TaskKey, o.Fields)
			}
		}
	}
}

// A trajectory's Evaluable survives the database (export and merge read
// it back).
func TestTrajectories_Evaluable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	mustIngest(t, store, run("a", "s1"), traj("1", 0, 1), notEvaluable(traj("2", 0, 0)))
	var got []bool
	for tr, err := range store.Trajectories(ctx, 1) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tr.IsEvaluable())
	}
	if fmt.Sprint(got) != "[true false]" {
		t.Fatalf("evaluable read back %v, want [true false]", got)
	}
}

// Migrating a version-8 file backfills evaluable from τ²-bench's raw
// termination_reason and the outcome table from its trajectories.
func TestMigrate_BackfillsOutcomes(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v8.db")
	var stmts []string
	for v := 1; v <= 8; v++ {
		files, err := filepath.Glob(fmt.Sprintf("migrations/%04d_*.sql", v))
		if err != nil || len(files) != 1 {
			t.Fatalf("migration %d: %v %v", v, files, err)
		}
		body, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(body))
	}
	stmts = append(stmts,
		fmt.Sprintf("PRAGMA application_id = %d", db.ApplicationID), "PRAGMA user_version = 8",
		`INSERT INTO runs (id, name, source_format, ingested_at) VALUES (1, 'old', 'tau2', '2026-01-01T00:00:00Z')`,
		`INSERT INTO tasks (id, domain, task_key, content_sha256) VALUES (1, 'airline', '7', 'h1'), (2, 'airline', '8', 'h2')`,
		`INSERT INTO trajectories (run_id, task_id, trial, reward, passed, evaluated, termination_reason,
		    n_messages, n_user_turns, n_agent_turns, n_tool_calls, n_tool_errors, extra) VALUES
		 (1, 1, 1, 1.0, 1, 1, 'agent_stop', 0, 0, 0, 0, 0, '{"termination_reason":"agent_stop"}'),
		 (1, 1, 2, NULL, 0, 0, 'error', 0, 0, 0, 0, 0, '{"termination_reason":"infrastructure_error"}'),
		 (1, 2, 1, NULL, 0, 0, 'error', 0, 0, 0, 0, 0, '{"termination_reason":"context_window_exceeded"}'),
		 (1, 2, 2, 0.0, 0, 1, 'user_unsatisfied', 0, 0, 0, 0, 0, NULL)`)
	plainExec(t, path, stmts...)

	store := openDBAt(t, path)
	mustConsistentOutcomes(t, store, "migration")
	if got, want := queryText(t, store, "SELECT trial, evaluable FROM trajectories ORDER BY id"), "1|1\n2|0\n1|0\n2|1"; got != want {
		t.Fatalf("evaluable backfilled as\n%s\nwant\n%s", got, want)
	}
	if got, want := queryText(t, store, outcomeRows), "1|7|0|1|0|0|0|0|0\n1|7|1|1|1|0|1|0|1\n1|8|0|1|0|0|0|0|0\n1|8|1|1|0|1|1|0|0"; got != want {
		t.Fatalf("outcomes backfilled as\n%s\nwant\n%s", got, want)
	}
	if got, want := queryText(t, store, "SELECT run_id, task_id, trials, passes, abandoned FROM task_outcomes"), "1|1|2|1|0\n1|2|2|0|1"; got != want {
		t.Fatalf("task_outcomes view\n%s\nwant\n%s", got, want)
	}
}

// Merging a file of schema 8, read as it is, takes evaluable from
// τ²-bench's raw termination_reason, as migration 9 does.
func TestMerge_FromSchema8KeepsEvaluable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srcPath := schemaFile(t, 8,
		`INSERT INTO runs (id, name, source_format, ingested_at) VALUES (1, 'a', 'tau2', '2026-01-01T00:00:00Z')`,
		`INSERT INTO tasks (id, domain, task_key, content_sha256) VALUES (1, 'airline', '1', 'h1'), (2, 'airline', '2', 'h2')`,
		`INSERT INTO trajectories (run_id, task_id, trial, reward, passed, evaluated, termination_reason,
		    n_messages, n_user_turns, n_agent_turns, n_tool_calls, n_tool_errors, extra) VALUES
		 (1, 1, 0, 1.0, 1, 1, 'user_stop', 0, 0, 0, 0, 0, NULL),
		 (1, 2, 0, NULL, 0, 0, 'error', 0, 0, 0, 0, 0, '{"termination_reason":"infrastructure_error"}')`)

	store, _ := MustOpenDB(t)
	if _, err := store.Merge(ctx, openRO(t, srcPath), nil); err != nil {
		t.Fatal(err)
	}
	mustConsistentOutcomes(t, store, "merge of a schema 8 file")
	if got, want := queryText(t, store, outcomeRows), "1|1|1|1|1|0|1|0|1\n1|2|0|1|0|0|0|0|0"; got != want {
		t.Fatalf("outcomes after merge\n%s\nwant\n%s", got, want)
	}
}

// A task key with two task rows in one run is one task, as task_outcomes
// counts it: its smallest row's id, and a field's largest value over the
// rows (without infrastructure errors: the fields of its smallest row
// left).
func TestListTaskTrials_KeyOfTwoTaskRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	other := func(tr *emobench.Trajectory) *emobench.Trajectory {
		tr.Task.Instruction += " (second wording)"
		tr.Task.Emotion.Family = "sadness"
		return tr
	}
	mustIngest(t, store, run("a", "s1"), traj("1", 0, 1), notEvaluable(traj("1", 1, 0)), other(traj("1", 2, 0)))
	for _, c := range []struct {
		withoutInfra bool
		want         string
	}{{false, "task 1: 1/3, sadness"}, {true, "task 1: 1/2, anger"}} {
		list := store.ListTaskTrials
		if c.withoutInfra {
			list = store.ListTaskTrialsWithoutInfraErrors
		}
		tasks, err := list(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) != 1 {
			t.Fatalf("withoutInfra %v: %d rows, want 1: %+v", c.withoutInfra, len(tasks), tasks)
		}
		k := tasks[0]
		if got := fmt.Sprintf("task %d: %d/%d, %s", k.TaskID, k.Passes, k.Trials, k.Field("emotion_family")); got != c.want {
			t.Errorf("withoutInfra %v: %s, want %s", c.withoutInfra, got, c.want)
		}
	}
	if got, want := queryText(t, store, "SELECT task_id, trials, passes, emotion_family FROM task_outcomes"), "1|3|1|sadness"; got != want {
		t.Errorf("task_outcomes view: %s, want %s", got, want)
	}
}
