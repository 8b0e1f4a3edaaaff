package db

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// TrajectoryOutcome is one trajectory as per-trajectory statistics see it.
type TrajectoryOutcome struct {
	ID, RunID         int64
	TaskKey           string
	PairKey           string // pairs the task across conditions (emobench.Task.PairSHA256)
	Trial             int
	Passed            bool
	Evaluated         bool // the source gave reward information (evaluated = 1)
	TerminationReason emobench.TerminationReason
	UserTurns         int
	AgentTurns        int
	ToolCalls         int
	Fields            map[string]string // GroupFields → value; shared, read only

	taskRank int // position of TaskKey among all task keys, for sorting
}

// ListTrajectoryOutcomes returns every trajectory (of runIDs, or of all
// runs when empty), ordered by run, task key and trial. Trajectories of one
// run and task share one Fields map: callers must not change it. Runs are
// selected in SQL, so one run costs its own trajectories only. Statistics
// over (run, task) counts alone read ListTaskTrials, which costs O(tasks).
func (db *DB) ListTrajectoryOutcomes(ctx context.Context, runIDs []int64) ([]TrajectoryOutcome, error) {
	runs, err := db.queries.ListOutcomeRuns(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := db.runFilter(ctx, runIDs)
	if err != nil {
		return nil, err
	}
	rows, err := db.queries.ListTrajectoryOutcomes(ctx, ids)
	if err != nil {
		return nil, err
	}
	tasks, err := db.runOutcomeTasks(ctx, runIDs, ids)
	if err != nil {
		return nil, err
	}
	runByID := make(map[int64]sqlcdb.ListOutcomeRunsRow, len(runs))
	for _, r := range runs {
		runByID[r.ID] = r
	}
	taskByID, taskRank := outcomeTasks(tasks)
	fields := map[[2]int64]map[string]string{}
	out := make([]TrajectoryOutcome, 0, len(rows))
	for _, r := range rows {
		k := taskByID[r.TaskID]
		f, ok := fields[[2]int64{r.RunID, r.TaskID}]
		if !ok {
			f = outcomeFields(runByID[r.RunID], k)
			fields[[2]int64{r.RunID, r.TaskID}] = f
		}
		out = append(out, TrajectoryOutcome{
			ID: r.ID, RunID: r.RunID, TaskKey: k.TaskKey, PairKey: k.PairKey, Trial: int(r.Trial),
			Passed: r.Passed == 1, Evaluated: r.Evaluated == 1, TerminationReason: emobench.TerminationReason(r.TerminationReason),
			UserTurns: int(r.NUserTurns), AgentTurns: int(r.NAgentTurns), ToolCalls: int(r.NToolCalls),
			Fields: f, taskRank: taskRank[r.TaskID],
		})
	}
	slices.SortFunc(out, func(a, b TrajectoryOutcome) int {
		return cmp.Or(cmp.Compare(a.RunID, b.RunID), cmp.Compare(a.taskRank, b.taskRank), cmp.Compare(a.Trial, b.Trial), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// outcomeTasks indexes tasks by id and ranks them by task key, so that
// outcomes sort by key with integer comparisons.
func outcomeTasks(tasks []sqlcdb.ListOutcomeTasksRow) (map[int64]sqlcdb.ListOutcomeTasksRow, map[int64]int) {
	byID := make(map[int64]sqlcdb.ListOutcomeTasksRow, len(tasks))
	for _, k := range tasks {
		byID[k.ID] = k
	}
	slices.SortFunc(tasks, func(a, b sqlcdb.ListOutcomeTasksRow) int {
		return cmp.Or(strings.Compare(a.TaskKey, b.TaskKey), cmp.Compare(a.ID, b.ID))
	})
	rank := make(map[int64]int, len(tasks))
	for i, k := range tasks {
		rank[k.ID] = i
	}
	return byID, rank
}

// outcomeFields is the GroupFields map of a trajectory of run r on task k.
func outcomeFields(r sqlcdb.ListOutcomeRunsRow, k sqlcdb.ListOutcomeTasksRow) map[string]string {
	return map[string]string{
		"domain": r.Domain, "agent_model": r.AgentModel, "user_model": r.UserModel,
		"condition": r.Condition, "emotion_family": k.EmotionFamily, "emotion_leaf": k.EmotionLeaf,
		"politeness": k.Politeness, "urgency": k.Urgency, "trust": k.Trust,
	}
}

// agentTextBatch is how many trajectories' texts ForEachAgentText holds in
// memory at once.
const agentTextBatch = 4096

// ForEachAgentText calls fn with every agent message to the user (a message
// without tool calls), by trajectory, in order. It reads the messages of
// agentTextBatch trajectories at a time (keyset paging on the id), so
// memory does not grow with the file and time grows with the rows.
func (db *DB) ForEachAgentText(ctx context.Context, fn func(trajectoryID int64, text string)) error {
	after := int64(math.MinInt64)
	for {
		end, err := db.queries.NextTrajectoryBatchEnd(ctx, sqlcdb.NextTrajectoryBatchEndParams{AfterID: after, BatchSize: agentTextBatch})
		if err != nil || end == after {
			return err
		}
		rows, err := db.queries.ListAgentTexts(ctx, sqlcdb.ListAgentTextsParams{FromID: after, ToID: end})
		if err != nil {
			return err
		}
		for _, r := range rows {
			fn(r.TrajectoryID, r.Content)
		}
		after = end
	}
}

// RunTags is a run's generalization metadata.
type RunTags struct {
	RunID        int64
	Name         string
	AgentModel   string
	Domain       string
	Condition    emobench.Condition
	TrainDomains []string // nil: not a tuned model
	BaseRunID    int64    // 0: no base run
}

// TagRun records that run id is a model tuned on trainDomains whose base
// model's run is baseRunID (0 for none).
func (db *DB) TagRun(ctx context.Context, id int64, trainDomains []string, baseRunID int64) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		return writeTags(ctx, db.queries.WithTx(tx), id, trainDomains, baseRunID)
	})
}

// ListRunTags returns every run's generalization metadata, by id.
func (db *DB) ListRunTags(ctx context.Context) ([]RunTags, error) {
	rows, err := db.queries.ListRunTags(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]RunTags, len(rows))
	for i, r := range rows {
		t := RunTags{RunID: r.ID, Name: r.Name, AgentModel: r.AgentModel, Domain: r.Domain,
			Condition: emobench.Condition(r.Condition), BaseRunID: r.BaseRunID.Int64}
		if r.TrainDomains.Valid {
			if err := json.Unmarshal([]byte(r.TrainDomains.String), &t.TrainDomains); err != nil {
				return nil, fmt.Errorf("run %d: train_domains: %w", r.ID, err)
			}
		}
		out[i] = t
	}
	return out, nil
}

// TaskKeys returns every task's key (the source's task id), by task id.
func (db *DB) TaskKeys(ctx context.Context) (map[int64]string, error) {
	tasks, err := db.queries.ListOutcomeTasks(ctx, sqlcdb.ListOutcomeTasksParams{AllTasks: 1, RunIds: "[]"})
	if err != nil {
		return nil, err
	}
	keys := make(map[int64]string, len(tasks))
	for _, k := range tasks {
		keys[k.ID] = k.TaskKey
	}
	return keys, nil
}
