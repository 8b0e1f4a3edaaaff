package db

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/emobench/emobench/db/sqlcdb"
)

// The run_task_outcomes table holds, per (run, task row, evaluable), the
// counts statistics read (trials, passes, abandonments, evaluated, partial
// credit), so that they cost O(tasks) and not O(trajectories). Every write
// of trajectories rewrites the counts it changes in the same transaction:
// a whole run after ingest and merge (refreshRunOutcomes), the touched
// task rows after AppendTrajectory (refreshTaskOutcomes). Deleting a run
// deletes its counts (ON DELETE CASCADE). Triggers would do it in SQLite,
// but emobench refuses files with triggers (see refuseTriggers).

// refreshRunOutcomes recounts every outcome of run runID from its
// trajectories.
func refreshRunOutcomes(ctx context.Context, q *sqlcdb.Queries, runID int64) error {
	if err := recountOutcomes(ctx, q, runID, math.MinInt64, math.MaxInt64); err != nil {
		return fmt.Errorf("outcomes of run %d: %w", runID, err)
	}
	return nil
}

// refreshTaskOutcomes recounts the outcomes of run runID on the task rows
// taskIDs (repeats allowed) from their trajectories.
func refreshTaskOutcomes(ctx context.Context, q *sqlcdb.Queries, runID int64, taskIDs []int64) error {
	slices.Sort(taskIDs)
	for _, id := range slices.Compact(taskIDs) {
		if err := recountOutcomes(ctx, q, runID, id, id); err != nil {
			return fmt.Errorf("outcomes of run %d, task row %d: %w", runID, id, err)
		}
	}
	return nil
}

// recountOutcomes rewrites the counts of run runID on the task rows from
// fromTask to toTask from their trajectories: one query for a whole run
// and for one task row.
func recountOutcomes(ctx context.Context, q *sqlcdb.Queries, runID, fromTask, toTask int64) error {
	if err := q.DeleteRunOutcomes(ctx, sqlcdb.DeleteRunOutcomesParams{RunID: runID, FromTaskID: fromTask, ToTaskID: toTask}); err != nil {
		return err
	}
	if err := q.InsertRunOutcomes(ctx, sqlcdb.InsertRunOutcomesParams{RunID: runID, FromTaskID: fromTask, ToTaskID: toTask}); err != nil {
		return err
	}
	return q.UpdateStrictPasses(ctx, sqlcdb.UpdateStrictPassesParams{RunID: runID, FromTaskID: fromTask, ToTaskID: toTask})
}

// CheckOutcomes compares the stored per-(run, task) counts with a recount
// from every trajectory and returns one line per difference (none when
// they agree). It reads every trajectory: O(trajectories). Both reads are
// one read transaction, so a writer committing between them (another
// process ingesting) cannot show as a difference.
func (db *DB) CheckOutcomes(ctx context.Context) ([]string, error) {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil { // deferred: a snapshot at the first read
		return nil, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
	q := sqlcdb.New(conn)
	stored, err := q.ListRunTaskOutcomeRows(ctx)
	if err != nil {
		return nil, err
	}
	recount, err := q.RecountRunTaskOutcomeRows(ctx)
	if err != nil {
		return nil, err
	}
	want := make(map[outcomeKey]outcomeCounts, len(recount))
	for _, r := range recount {
		want[outcomeKey{r.RunID, r.TaskID, r.Evaluable}] = outcomeCounts{r.Trials, r.Passes, r.Abandoned, r.Evaluated, r.Partial, r.Credit}
	}
	var problems []string
	for _, r := range stored {
		k := outcomeKey{r.RunID, r.TaskID, r.Evaluable}
		got := outcomeCounts{r.Trials, r.Passes, r.Abandoned, r.Evaluated, r.Partial, r.Credit}
		w, ok := want[k]
		delete(want, k)
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("run_task_outcomes: run %d, task row %d, evaluable %d: %+v stored, no trajectory", k.run, k.task, k.evaluable, got))
		case !sameCounts(got, w):
			problems = append(problems, fmt.Sprintf("run_task_outcomes: run %d, task row %d, evaluable %d: %+v stored, trajectories count %+v", k.run, k.task, k.evaluable, got, w))
		}
	}
	for k, w := range want { // the recounted pairs no stored row matched
		problems = append(problems, fmt.Sprintf("run_task_outcomes: run %d, task row %d, evaluable %d: missing, trajectories count %+v", k.run, k.task, k.evaluable, w))
	}
	strict, err := checkStrictPasses(ctx, q) // in the same snapshot
	problems = append(problems, strict...)
	slices.Sort(problems)
	return problems, err
}

// checkStrictPasses compares run_task_outcomes.strict_passes with a
// recount of strict_passed from every trajectory; rows without
// trajectories CheckOutcomes reports already.
func checkStrictPasses(ctx context.Context, q *sqlcdb.Queries) ([]string, error) {
	stored, err := q.ListStrictPassRows(ctx)
	if err != nil {
		return nil, err
	}
	recount, err := q.RecountStrictPassRows(ctx)
	if err != nil {
		return nil, err
	}
	want := make(map[outcomeKey]int64, len(recount))
	for _, r := range recount {
		want[outcomeKey{r.RunID, r.TaskID, r.Evaluable}] = r.StrictPasses
	}
	var problems []string
	for _, r := range stored {
		k := outcomeKey{r.RunID, r.TaskID, r.Evaluable}
		if w, ok := want[k]; ok && w != r.StrictPasses {
			problems = append(problems, fmt.Sprintf("run_task_outcomes: run %d, task row %d, evaluable %d: %d strict passes stored, trajectories count %d", k.run, k.task, k.evaluable, r.StrictPasses, w))
		}
	}
	return problems, nil
}

type outcomeKey struct{ run, task, evaluable int64 }

type outcomeCounts struct {
	trials, passes, abandoned, evaluated, partial int64
	credit                                        float64
}

// sameCounts compares credit within 1e-9: a sum of rewards may round
// differently when summed in another order.
func sameCounts(a, b outcomeCounts) bool {
	credit := a.credit - b.credit
	a.credit, b.credit = 0, 0
	return a == b && credit < 1e-9 && credit > -1e-9
}
