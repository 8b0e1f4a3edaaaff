package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"iter"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// ListRuns returns every run's stored description, by id.
func (db *DB) ListRuns(ctx context.Context) ([]emobench.Run, error) {
	rows, err := db.queries.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]emobench.Run, len(rows))
	for i, r := range rows {
		out[i] = emobench.Run{
			ID: r.ID, Name: r.Name, SourceFormat: r.SourceFormat, SourcePath: r.SourcePath.String,
			SourceSHA256: r.SourceSha256.String, AgentModel: r.AgentModel, AgentStrategy: r.AgentStrategy,
			UserModel: r.UserModel, UserStrategy: r.UserStrategy, Domain: r.Domain,
			Condition: emobench.Condition(r.Condition), Config: json.RawMessage(r.Config),
		}
		if r.CreatedAt.Valid {
			out[i].CreatedAt, _ = time.Parse(time.RFC3339, r.CreatedAt.String)
		}
	}
	return out, nil
}

// Trajectories yields run runID's trajectories, with their tasks and
// messages, in the order they were stored. It reads one trajectory's
// messages at a time.
func (db *DB) Trajectories(ctx context.Context, runID int64) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		rows, err := db.runTrajectories(ctx, runID)
		if err != nil {
			yield(nil, err)
			return
		}
		refine, err := db.storesUserStopsAsStop(ctx)
		if err != nil {
			yield(nil, err)
			return
		}
		for _, r := range rows {
			traj := trajectoryFromRow(r)
			if traj.Messages, err = db.messages(ctx, r.ID); err != nil {
				yield(nil, fmt.Errorf("trajectory %d: %w", r.ID, err))
				return
			}
			if refine {
				traj.TerminationReason = traj.UserStopReason()
			}
			if !yield(traj, nil) {
				return
			}
		}
	}
}

// userStopReasonsVersion is the schema version whose termination_reason
// allows user_transfer and user_out_of_scope.
const userStopReasonsVersion = 10

// storesUserStopsAsStop reports whether the file's schema predates
// userStopReasonsVersion (a merge source, which is read as it is), so that
// its user_stop rows hold user_transfer and user_out_of_scope too, told
// apart by the last user message (emobench.Trajectory.UserStopReason).
func (db *DB) storesUserStopsAsStop(ctx context.Context) (bool, error) {
	version, err := db.userVersion(ctx)
	return err == nil && version < userStopReasonsVersion, err
}

// runTrajectories lists run runID's trajectories, from a file of an older
// schema too (a merge source, which is read as it is).
func (db *DB) runTrajectories(ctx context.Context, runID int64) ([]sqlcdb.ListRunTrajectoriesRow, error) {
	version, err := db.userVersion(ctx)
	if err != nil || version >= outcomesVersion {
		return db.queries.ListRunTrajectories(ctx, runID)
	}
	old, err := db.queries.ListRunTrajectoriesV8(ctx, runID)
	rows := make([]sqlcdb.ListRunTrajectoriesRow, len(old))
	for i, r := range old {
		rows[i] = sqlcdb.ListRunTrajectoriesRow(r)
	}
	return rows, err
}

func trajectoryFromRow(r sqlcdb.ListRunTrajectoriesRow) *emobench.Trajectory {
	t := &emobench.Trajectory{
		Task: emobench.Task{
			Domain: r.Domain, Key: r.TaskKey, Instruction: r.Instruction, UserID: r.UserID,
			Emotion: emobench.EmotionProfile{
				Family: r.EmotionFamily.String, Leaf: r.EmotionLeaf.String, Politeness: r.Politeness.String,
				Urgency: r.Urgency.String, Trust: r.Trust.String,
			},
			Actions: json.RawMessage(r.Actions), Outputs: json.RawMessage(r.Outputs),
			Split: emobench.Split(r.Split.String), Scenario: rawOrNil(r.Scenario),
		},
		Trial:             int(r.Trial),
		Evaluated:         r.Evaluated == 1,
		TerminationReason: emobench.TerminationReason(r.TerminationReason),
		Error:             r.Error.String,
		RewardInfo:        rawOrNil(r.RewardInfo),
		Extra:             rawOrNil(r.Extra),
	}
	if r.Evaluable == 0 {
		t.Evaluable = new(bool)
	}
	if r.Seed.Valid {
		s := r.Seed.Int64
		t.Seed = &s
	}
	t.Reward, t.AgentCost, t.UserCost = floatPtr(r.Reward), floatPtr(r.AgentCost), floatPtr(r.UserCost)
	return t
}

func (db *DB) messages(ctx context.Context, trajectoryID int64) ([]emobench.Message, error) {
	rows, err := db.queries.ListTrajectoryMessages(ctx, trajectoryID)
	if err != nil {
		return nil, err
	}
	msgs := make([]emobench.Message, len(rows))
	for i, r := range rows {
		m := emobench.Message{Role: emobench.Role(r.Role), Content: r.Content.String}
		if r.ToolCalls.Valid {
			var calls []storedCall
			if err := json.Unmarshal([]byte(r.ToolCalls.String), &calls); err != nil {
				return nil, fmt.Errorf("message %d: tool_calls: %w", r.Idx, err)
			}
			for _, c := range calls {
				m.ToolCalls = append(m.ToolCalls, emobench.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments, ArgumentsMalformed: c.Malformed})
			}
		} else {
			m.ToolName, m.ToolCallID = r.ToolName.String, r.ToolCallID.String
		}
		if r.PromptTokens.Valid || r.Cost.Valid {
			m.Usage = &emobench.Usage{PromptTokens: int(r.PromptTokens.Int64), CompletionTokens: int(r.CompletionTokens.Int64),
				Cost: floatPtr(r.Cost), TokensUnknown: !r.PromptTokens.Valid}
		}
		msgs[i] = m
	}
	return msgs, nil
}

func rawOrNil(s sql.NullString) json.RawMessage {
	if !s.Valid {
		return nil
	}
	return json.RawMessage(s.String)
}

func floatPtr(f sql.NullFloat64) *float64 {
	if !f.Valid {
		return nil
	}
	v := f.Float64
	return &v
}
