package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// TrajectoryOutcome is one trajectory as per-trajectory statistics see it.
type TrajectoryOutcome struct {
	ID, RunID         int64
	TaskKey           string
	PairKey           string // pairs the task across conditions (TaskPairSHA256)
	Trial             int
	Passed            bool
	TerminationReason emobench.TerminationReason
	UserTurns         int
	AgentTurns        int
	ToolCalls         int
	Fields            map[string]string // GroupFields → value
}

// ListTrajectoryOutcomes returns every trajectory (of runIDs, or of all
// runs when empty), ordered by run, task key and trial.
func (db *DB) ListTrajectoryOutcomes(ctx context.Context, runIDs []int64) ([]TrajectoryOutcome, error) {
	rows, err := db.queries.ListTrajectoryOutcomes(ctx)
	if err != nil {
		return nil, err
	}
	keep := idSet(runIDs)
	out := make([]TrajectoryOutcome, 0, len(rows))
	for _, r := range rows {
		if len(keep) > 0 && !keep[r.RunID] {
			continue
		}
		out = append(out, TrajectoryOutcome{
			ID: r.ID, RunID: r.RunID, TaskKey: r.TaskKey, PairKey: r.PairKey, Trial: int(r.Trial),
			Passed: r.Passed == 1, TerminationReason: emobench.TerminationReason(r.TerminationReason),
			UserTurns: int(r.NUserTurns), AgentTurns: int(r.NAgentTurns), ToolCalls: int(r.NToolCalls),
			Fields: map[string]string{
				"domain": r.Domain, "agent_model": r.AgentModel, "user_model": r.UserModel,
				"condition": r.Condition, "emotion_family": r.EmotionFamily, "emotion_leaf": r.EmotionLeaf,
				"politeness": r.Politeness, "urgency": r.Urgency, "trust": r.Trust,
			},
		})
	}
	return out, nil
}

func idSet(ids []int64) map[int64]bool {
	set := make(map[int64]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}

// agentTextBatch is how many trajectories' texts ForEachAgentText holds in
// memory at once.
const agentTextBatch = 4096

// ForEachAgentText calls fn with every agent message to the user (a message
// without tool calls), by trajectory, in order. It reads the messages in
// batches of trajectories, so memory does not grow with the file.
func (db *DB) ForEachAgentText(ctx context.Context, fn func(trajectoryID int64, text string)) error {
	maxID, err := db.queries.MaxTrajectoryID(ctx)
	if err != nil {
		return err
	}
	for from := int64(0); from <= maxID; from += agentTextBatch {
		rows, err := db.queries.ListAgentTexts(ctx, sqlcdb.ListAgentTextsParams{FromID: from, ToID: from + agentTextBatch})
		if err != nil {
			return err
		}
		for _, r := range rows {
			fn(r.TrajectoryID, r.Content)
		}
	}
	return nil
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
	domains, err := json.Marshal(trainDomains)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		if _, err := q.FindRunByID(ctx, id); err != nil {
			return fmt.Errorf("run %d: %w", id, ErrNotFound)
		}
		base := sql.NullInt64{Int64: baseRunID, Valid: baseRunID != 0}
		return q.TagRun(ctx, sqlcdb.TagRunParams{
			TrainDomains: sql.NullString{String: string(domains), Valid: trainDomains != nil},
			BaseRunID:    base, ID: id,
		})
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
