package db

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// RunMetadata holds the run fields a user may correct after ingest; nil
// fields keep their value.
type RunMetadata struct {
	Name, AgentModel, UserModel, Domain *string
	Condition                           *emobench.Condition
}

// UpdateRunMetadata sets the non-nil fields of m on run id. It returns
// ErrNotFound for an unknown id, and an error for an invalid condition.
func (db *DB) UpdateRunMetadata(ctx context.Context, id int64, m RunMetadata) error {
	if m.Condition != nil {
		if _, err := emobench.ParseCondition(string(*m.Condition)); err != nil {
			return err
		}
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		if _, err := q.FindRunByID(ctx, id); err != nil {
			return fmt.Errorf("run %d: %w", id, ErrNotFound)
		}
		p := sqlcdb.UpdateRunMetadataParams{ID: id, Name: optString(m.Name), AgentModel: optString(m.AgentModel),
			UserModel: optString(m.UserModel), Domain: optString(m.Domain)}
		if m.Condition != nil {
			p.Condition = sql.NullString{String: string(*m.Condition), Valid: true}
		}
		return q.UpdateRunMetadata(ctx, p)
	})
}

func optString(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}

// DeleteRuns deletes runs ids with their trajectories and messages, then
// the tasks no remaining trajectory uses, in one transaction. Runs that
// named a deleted run as their base keep no base. It returns how many
// tasks went, and ErrNotFound (deleting nothing) when an id is unknown.
func (db *DB) DeleteRuns(ctx context.Context, ids []int64) (tasks int64, err error) {
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		for _, id := range ids {
			n, err := q.DeleteRun(ctx, id)
			if err != nil {
				return fmt.Errorf("run %d: %w", id, err)
			}
			if n == 0 {
				return fmt.Errorf("run %d: %w", id, ErrNotFound)
			}
		}
		tasks, err = q.DeleteOrphanTasks(ctx)
		return err
	})
	return tasks, err
}
