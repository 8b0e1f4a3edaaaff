package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// RunSummary is one row of the runs listing.
type RunSummary struct {
	ID            int64
	Name          string
	SourceFormat  string
	AgentModel    string
	AgentStrategy string
	UserModel     string
	UserStrategy  string
	Domain        string
	Condition     emobench.Condition
	CreatedAt     string // RFC 3339, empty when unknown
	IngestedAt    string // RFC 3339
	Tasks         int
	MinTrials     int // fewest trials of any task
	MaxTrials     int // most trials of any task
	Trajectories  int
	Pass1         sql.NullFloat64 // mean over tasks of c/n; NULL for an empty run
	Abandoned     int             // trajectories ended by user_unsatisfied
}

// ListRunSummaries returns every run with its counts, by id.
func (db *DB) ListRunSummaries(ctx context.Context) ([]RunSummary, error) {
	rows, err := db.queries.ListRunSummaries(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]RunSummary, len(rows))
	for i, r := range rows {
		out[i] = RunSummary{
			ID: r.ID, Name: r.Name, SourceFormat: r.SourceFormat,
			AgentModel: r.AgentModel, AgentStrategy: r.AgentStrategy,
			UserModel: r.UserModel, UserStrategy: r.UserStrategy,
			Domain: r.Domain, Condition: emobench.Condition(r.Condition),
			CreatedAt: r.CreatedAt.String, IngestedAt: r.IngestedAt,
			Tasks: int(r.Tasks), MinTrials: int(r.MinTrials), MaxTrials: int(r.MaxTrials),
			Trajectories: int(r.Trajectories), Pass1: r.PassHat1, Abandoned: int(r.Abandoned),
		}
	}
	return out, nil
}

// TaskTrials is one (run, task key) pair's trial and pass counts with the
// fields statistics group by, read from the per-(run, task) counts that
// every write keeps up to date (O(tasks), whatever the number of
// trajectories or messages).
type TaskTrials struct {
	RunID, TaskID  int64 // TaskID: the smallest task row of the key in the run
	Trials, Passes int
	Unevaluated    int // trajectories without reward information (evaluated = 0)

	run  *sqlcdb.ListOutcomeRunsRow // shared by the run's pairs, read only
	task *taskFields                // shared by the pairs of one task row, read only
}

// taskFields are a task's emotion_family, emotion_leaf, politeness,
// urgency and trust.
type taskFields [5]string

// Field is the value of the group field name (one of GroupFields; "" when
// unknown or not a field). It allocates nothing: the listing keeps one
// copy of each run's and each task's fields, not a map per pair.
func (t *TaskTrials) Field(name string) string {
	switch name {
	case "domain":
		return t.run.Domain
	case "agent_model":
		return t.run.AgentModel
	case "user_model":
		return t.run.UserModel
	case "condition":
		return t.run.Condition
	case "emotion_family":
		return t.task[0]
	case "emotion_leaf":
		return t.task[1]
	case "politeness":
		return t.task[2]
	case "urgency":
		return t.task[3]
	case "trust":
		return t.task[4]
	}
	return ""
}

// GroupFields are the fields TaskTrials can be grouped by.
var GroupFields = emobench.GroupFields

// ListTaskTrials returns one row per (run, task key) of runIDs (of every
// run when empty), ordered by run and task key, as the task_outcomes view
// counts: TaskID is the smallest task row of the key in the run, and a
// task field is its largest value among the key's task rows. The runs are
// selected in SQL, so one run costs its own tasks only.
func (db *DB) ListTaskTrials(ctx context.Context, runIDs []int64) ([]TaskTrials, error) {
	return db.listTaskTrials(ctx, runIDs, false)
}

// ListTaskTrialsWithoutInfraErrors is ListTaskTrials leaving out the
// trajectories τ²-bench cannot evaluate (Trajectory.Evaluable false: those
// that ended in an infrastructure_error or context_window_exceeded,
// τ²-bench's NON_EVALUABLE_TERMINATION_REASONS), with the task fields of
// the key's smallest task row left. A task key whose every trajectory is
// left out has no row.
func (db *DB) ListTaskTrialsWithoutInfraErrors(ctx context.Context, runIDs []int64) ([]TaskTrials, error) {
	return db.listTaskTrials(ctx, runIDs, true)
}

// ListStrictTaskTrials is ListTaskTrials (ListTaskTrialsWithoutInfraErrors
// with withoutInfraErrors) with Passes the strict passes: trajectories that
// passed with every check their reward_info records passed
// (emobench.Trajectory.StrictPassed), the counts of stats passk --strict.
func (db *DB) ListStrictTaskTrials(ctx context.Context, runIDs []int64, withoutInfraErrors bool) ([]TaskTrials, error) {
	return db.listTaskTrialsOf(ctx, runIDs, withoutInfraErrors, true)
}

// listTaskTrials sums the run_task_outcomes rows of runIDs (only the
// evaluable ones with evaluableOnly: one query either way) per (run, task
// key). The rows come by run and task row, so a key's first row is its
// smallest task row. Of every run, the listing is made at the size of
// the table (CountRunTaskOutcomes), not grown.
// Grouping here, not in SQL, costs a range scan: SQLite's GROUP BY
// task_key over the join with tasks took ten times as long. The rows are
// read through eachIntRow, and every run's when runIDs is empty without
// listing the run ids (ListAllRunTaskCounts, ListAllEvaluableRunTaskCounts).
func (db *DB) listTaskTrials(ctx context.Context, runIDs []int64, evaluableOnly bool) ([]TaskTrials, error) {
	return db.listTaskTrialsOf(ctx, runIDs, evaluableOnly, false)
}

// listTaskTrialsOf is listTaskTrials counting strict passes with strict
// (the queries of queries/strict.sql, whose columns are the same).
func (db *DB) listTaskTrialsOf(ctx context.Context, runIDs []int64, evaluableOnly, strict bool) ([]TaskTrials, error) {
	all, allEvaluable, some := sqlcdb.ListAllRunTaskCounts, sqlcdb.ListAllEvaluableRunTaskCounts, sqlcdb.ListRunTaskCounts
	if strict {
		all, allEvaluable, some = sqlcdb.ListAllRunTaskStrictCounts, sqlcdb.ListAllEvaluableRunTaskStrictCounts, sqlcdb.ListRunTaskStrictCounts
	}
	query, args := all, []any(nil)
	if evaluableOnly {
		query = allEvaluable
	}
	ids, size := "[]", int64(0)
	var err error
	if len(runIDs) > 0 {
		if ids, err = db.runFilter(ctx, runIDs); err != nil {
			return nil, err
		}
		query, args = some, []any{boolInt(evaluableOnly), ids}
	} else if size, err = db.queries.CountRunTaskOutcomes(ctx); err != nil {
		return nil, err
	}
	runs, err := db.queries.ListOutcomeRuns(ctx)
	if err != nil {
		return nil, err
	}
	tasks, err := db.runOutcomeTasks(ctx, runIDs, ids)
	if err != nil {
		return nil, err
	}
	runByID := make(map[int64]*sqlcdb.ListOutcomeRunsRow, len(runs))
	for i := range runs {
		runByID[runs[i].ID] = &runs[i]
	}
	// Task keys are ranked once, so that grouping and ordering by key
	// compare integers.
	slices.SortFunc(tasks, func(a, b sqlcdb.ListOutcomeTasksRow) int { return strings.Compare(a.TaskKey, b.TaskKey) })
	type rankedTask struct {
		rank   int
		fields taskFields
	}
	ranked := make([]rankedTask, len(tasks))
	taskByID := make(map[int64]*rankedTask, len(tasks))
	rank := -1
	for i, k := range tasks {
		if i == 0 || k.TaskKey != tasks[i-1].TaskKey {
			rank++
		}
		ranked[i] = rankedTask{rank, taskFields{k.EmotionFamily, k.EmotionLeaf, k.Politeness, k.Urgency, k.Trust}}
		taskByID[k.ID] = &ranked[i]
	}
	keyed := make([]TaskTrials, 0, size)
	ranks := make([]int, 0, size) // of keyed[i]'s task key among all task keys
	slot := make([]int, rank+1)   // the current run's key ranks → their index in keyed + 1
	var touched []int             // the ranks slot holds for the current run
	sorted := true                // keyed is already by run, then task key
	var run *sqlcdb.ListOutcomeRunsRow
	err = db.eachIntRow(ctx, query, args, func(r []int64) error {
		runID, taskID, trials, passes, evaluated := r[0], r[1], r[2], r[3], r[4]
		if run == nil || run.ID != runID {
			for _, k := range touched {
				slot[k] = 0
			}
			touched = touched[:0]
			if run = runByID[runID]; run == nil {
				run = &sqlcdb.ListOutcomeRunsRow{ID: runID}
			}
		}
		k := taskByID[taskID]
		if k == nil {
			// A task row stored after the tasks were listed: a key of its
			// own, without fields, ranked after the others.
			k = &rankedTask{rank: len(slot)}
			taskByID[taskID] = k
			slot = append(slot, 0)
		}
		i := slot[k.rank] - 1
		if i < 0 {
			i = len(keyed)
			if n := len(keyed); n > 0 && keyed[n-1].RunID == runID && ranks[n-1] > k.rank {
				sorted = false
			}
			slot[k.rank] = i + 1
			touched = append(touched, k.rank)
			keyed = append(keyed, TaskTrials{RunID: runID, TaskID: taskID, run: run, task: &k.fields})
			ranks = append(ranks, k.rank)
		} else if !evaluableOnly && *keyed[i].task != k.fields {
			// Another task row of the key: each field is its largest value.
			merged := *keyed[i].task
			for j := range merged {
				merged[j] = max(merged[j], k.fields[j])
			}
			keyed[i].task = &merged
		}
		t := &keyed[i]
		t.Trials += int(trials)
		t.Passes += int(passes)
		t.Unevaluated += int(trials - evaluated)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Rows come by run, but within a run task rows need not follow their
	// keys' order: each run's pairs are put in key order by sorting packed
	// integers (rank, index), not the structs, then moved through a
	// buffer of one run's pairs.
	if sorted {
		return keyed, nil
	}
	var order []uint64
	var pairs []TaskTrials // one run's, in the order they came
	for lo := 0; lo < len(keyed); {
		hi := lo + 1
		for hi < len(keyed) && keyed[hi].RunID == keyed[lo].RunID {
			hi++
		}
		order = order[:0]
		for i := lo; i < hi; i++ {
			order = append(order, uint64(ranks[i])<<32|uint64(i-lo))
		}
		slices.Sort(order)
		pairs = append(pairs[:0], keyed[lo:hi]...)
		for j, o := range order {
			keyed[lo+j] = pairs[o&(1<<32-1)]
		}
		lo = hi
	}
	return keyed, nil
}

// runOutcomeTasks lists the tasks the runs of ids (runFilter's array of
// runIDs) have trajectories of; when runIDs is empty, every task, without
// the lookup.
func (db *DB) runOutcomeTasks(ctx context.Context, runIDs []int64, ids string) ([]sqlcdb.ListOutcomeTasksRow, error) {
	return db.queries.ListOutcomeTasks(ctx, sqlcdb.ListOutcomeTasksParams{AllTasks: boolInt(len(runIDs) == 0), RunIds: ids})
}

// RunErrors is how many trajectories of a run ended in error (the LLM
// endpoint or the harness failed, not the agent), besides those τ²-bench
// cannot evaluate (CountInfraErrors).
type RunErrors struct {
	RunID      int64
	Name       string
	Provenance string // ProvenanceNative, ProvenanceIngested, …
	Errors     int
}

// ListRunErrors returns, by run id, the runs holding trajectories that
// ended in error, each with their count.
func (db *DB) ListRunErrors(ctx context.Context) ([]RunErrors, error) {
	rows, err := db.queries.ListRunErrors(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]RunErrors, len(rows))
	for i, r := range rows {
		out[i] = RunErrors{RunID: r.RunID, Name: r.Name, Provenance: r.Provenance, Errors: int(r.Errors)}
	}
	return out, nil
}

// CountInfraErrors returns how many trajectories of runIDs (of all runs
// when empty) τ²-bench cannot evaluate (Trajectory.Evaluable false).
func (db *DB) CountInfraErrors(ctx context.Context, runIDs []int64) (int, error) {
	if len(runIDs) == 0 {
		n, err := db.queries.CountAllInfraErrors(ctx)
		return int(n), err
	}
	ids, err := db.runFilter(ctx, runIDs)
	if err != nil {
		return 0, err
	}
	n, err := db.queries.CountInfraErrors(ctx, ids)
	return int(n), err
}

// runFilter is runIDs, or every run's id when it is empty, as the JSON
// array the queries read with json_each: one parameter however many runs
// (an IN list of parameters stops at SQLite's 32,766 variables).
func (db *DB) runFilter(ctx context.Context, runIDs []int64) (string, error) {
	if len(runIDs) == 0 {
		var err error
		if runIDs, err = db.queries.ListRunIDs(ctx); err != nil {
			return "", err
		}
	}
	ids, err := json.Marshal(runIDs)
	return string(ids), err
}

// CountRunTrials returns each run's number of distinct trial values, the n
// of τ-bench v1's pass^k.
func (db *DB) CountRunTrials(ctx context.Context) (map[int64]int, error) {
	rows, err := db.queries.CountRunTrials(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.RunID] = int(r.Trials)
	}
	return out, nil
}

// TrialNumbers are one run's distinct trial values and their range.
type TrialNumbers struct {
	Distinct    int // distinct trial values: n of τ-bench v1's pass^k
	First, Last int // smallest and largest trial value
}

// ListTrialNumbers returns each run's TrialNumbers by run id (runs with no
// trajectory are absent).
func (db *DB) ListTrialNumbers(ctx context.Context) (map[int64]TrialNumbers, error) {
	rows, err := db.queries.ListRunTrialNumbers(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]TrialNumbers, len(rows))
	for _, r := range rows {
		out[r.RunID] = TrialNumbers{Distinct: int(r.Trials), First: int(r.FirstTrial), Last: int(r.LastTrial)}
	}
	return out, nil
}

// ResolveRun returns the id of the run named by ref: a numeric id, or a run
// name. It fails with a *RunNotFoundError (errors.Is ErrNotFound) when nothing matches and with an EINVALID
// error when a name matches several runs.
func (db *DB) ResolveRun(ctx context.Context, ref string) (int64, error) {
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		if _, err := db.queries.FindRunByID(ctx, id); err == nil {
			return id, nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
	}
	ids, err := db.queries.FindRunsByName(ctx, ref)
	if err != nil {
		return 0, err
	}
	switch len(ids) {
	case 0:
		return 0, &RunNotFoundError{Ref: ref}
	case 1:
		return ids[0], nil
	}
	idText := make([]string, len(ids))
	for i, id := range ids {
		idText[i] = strconv.FormatInt(id, 10)
	}
	return 0, emobench.Errorf(emobench.EINVALID, "run name %q matches runs %s: use an id", ref, strings.Join(idText, ", "))
}

// RunsNamed returns the ids of the runs called name, ascending.
func (db *DB) RunsNamed(ctx context.Context, name string) ([]int64, error) {
	return db.queries.FindRunsByName(ctx, name)
}

// Query runs a user's SQL statement and returns its rows. On a database
// opened with OpenReadOnly a write statement fails with an EINVALID error.
func (db *DB) Query(ctx context.Context, query string) (*sql.Rows, error) {
	rows, err := db.sql.QueryContext(ctx, query)
	if err != nil {
		if isReadOnlyError(err) {
			return nil, emobench.Errorf(emobench.EINVALID, "the database is open read-only: this command never changes %s (%v)", db.path, err)
		}
		return nil, err
	}
	return rows, nil
}

// QueryEach runs a user's SQL statement as Query does, then calls header
// with its column names and row with each row's values in turn. row's
// slice is reused from row to row: clone it to keep it.
func (db *DB) QueryEach(ctx context.Context, query string, header func(columns []string) error, row func(values []any) error) error {
	rows, err := db.Query(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if err := header(cols); err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := row(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// QueryTimeoutError is QueryEachWithin's error when its time limit
// stopped the statement (SQLite's interrupt).
type QueryTimeoutError struct {
	Limit time.Duration
}

func (e *QueryTimeoutError) Error() string { return fmt.Sprintf("query stopped after %v", e.Limit) }

// QueryEachWithin is QueryEach with a time limit on the whole statement,
// rows included (limit 0 or less: none). A statement the limit stops,
// such as a recursive CTE that never ends, returns a *QueryTimeoutError;
// ctx's own end returns its error as QueryEach does.
func (db *DB) QueryEachWithin(ctx context.Context, limit time.Duration, query string, header func(columns []string) error, row func(values []any) error) error {
	if limit <= 0 {
		return db.QueryEach(ctx, query, header, row)
	}
	qctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	err := db.QueryEach(qctx, query, header, row)
	if err != nil && ctx.Err() == nil && errors.Is(qctx.Err(), context.DeadlineExceeded) {
		return &QueryTimeoutError{Limit: limit}
	}
	return err
}

// isReadOnlyError reports whether err is SQLITE_READONLY (8) or SQLITE_AUTH
// (23, the read-only authorizer's refusal), with any extended code.
func isReadOnlyError(err error) bool {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		code := coded.Code() & 0xff
		return code == 8 || code == 23
	}
	return false
}

// RewardKinds counts a run's trajectories by what their reward says.
type RewardKinds struct {
	Unevaluated int // no reward information (evaluated = 0)
	Partial     int // evaluated, with a reward other than 1, 0 and −1: partial credit, which never passes
	Total       int
}

// RunRewards is what a run's rewards say beside its pass^1.
type RunRewards struct {
	Evaluated int // trajectories with reward information
	Partial   int // evaluated trajectories with partial credit (as RewardKinds.Partial)
	// MeanReward is pass^1 with partial credit: the mean over tasks of the
	// mean credit of the task's trajectories, where credit is an evaluated
	// trajectory's reward, or 0 when that is negative (an abandonment's −1)
	// or the trajectory is not evaluated.
	MeanReward float64
	// OutOfRange counts evaluated trajectories whose reward is outside
	// [−1, 1]: MeanReward is then no rate (a reward of 1e308 makes it huge).
	OutOfRange int
}

// ListRunRewards returns the RunRewards of every run with trajectories, by
// run id.
func (db *DB) ListRunRewards(ctx context.Context) (map[int64]RunRewards, error) {
	rows, err := db.queries.ListRunRewards(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]RunRewards, len(rows))
	for _, r := range rows {
		out[r.RunID] = RunRewards{Evaluated: int(r.Evaluated), Partial: int(r.Partial), MeanReward: r.MeanReward, OutOfRange: int(r.OutOfRange)}
	}
	return out, nil
}

// CountRewardKinds returns run id's RewardKinds.
func (db *DB) CountRewardKinds(ctx context.Context, id int64) (RewardKinds, error) {
	r, err := db.queries.CountRunRewardKinds(ctx, id)
	return RewardKinds{Unevaluated: int(r.Unevaluated), Partial: int(r.Partial), Total: int(r.Total)}, err
}

// EmotionCount is how many of a run's tasks have one family and leaf.
type EmotionCount struct {
	Family, Leaf string // "" when the task has none
	Tasks        int
}

// CountEmotionProfiles returns run id's tasks by emotion family and leaf.
func (db *DB) CountEmotionProfiles(ctx context.Context, id int64) ([]EmotionCount, error) {
	rows, err := db.queries.CountRunEmotionProfiles(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]EmotionCount, len(rows))
	for i, r := range rows {
		out[i] = EmotionCount{Family: r.Family, Leaf: r.Leaf, Tasks: int(r.Tasks)}
	}
	return out, nil
}
