package db

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// RunMetadata holds the run fields a user may correct after ingest; nil
// fields keep their value. The domain is not among them: it is part of the
// tasks' content, so a run of another domain is ingested anew.
type RunMetadata struct {
	Name, AgentModel, UserModel *string
	Condition                   *emobench.Condition
}

// UpdateRunMetadata sets the non-nil fields of m on run id. It returns
// ErrNotFound for an unknown id, and an EINVALID error for an invalid
// condition, a name that another run has or that reads as an id, and for
// anything but the name of a native run, whose recorded settings
// (runs.config) --resume and merge follow.
func (db *DB) UpdateRunMetadata(ctx context.Context, id int64, m RunMetadata) error {
	if m.Condition != nil {
		if _, err := emobench.ParseCondition(string(*m.Condition)); err != nil {
			return err
		}
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		run, err := q.FindRunConfig(ctx, id)
		if err != nil {
			return fmt.Errorf("run %d: %w", id, ErrNotFound)
		}
		if run.SourceFormat == emobench.SourceNative && (m.AgentModel != nil || m.UserModel != nil || m.Condition != nil) {
			return emobench.Errorf(emobench.EINVALID, "run %d was run by emobench: its models and condition are its recorded settings; only its name can change", id)
		}
		if err := checkNewName(ctx, q, id, m.Name); err != nil {
			return err
		}
		p := sqlcdb.UpdateRunMetadataParams{ID: id, Name: optString(m.Name), AgentModel: optString(m.AgentModel),
			UserModel: optString(m.UserModel)}
		if m.Condition != nil {
			p.Condition = sql.NullString{String: string(*m.Condition), Valid: true}
		}
		return q.UpdateRunMetadata(ctx, p)
	})
}

// checkNewName refuses a new name for run id that another run has, or that
// is a number (which --run would read as an id).
func checkNewName(ctx context.Context, q *sqlcdb.Queries, id int64, name *string) error {
	if name == nil {
		return nil
	}
	if NameReadsAsID(*name) {
		return emobench.Errorf(emobench.EINVALID, "name %q reads as a run id: choose a name with a letter", *name)
	}
	ids, err := q.FindRunsByName(ctx, *name)
	if err != nil {
		return err
	}
	for _, other := range ids {
		if other != id {
			return emobench.Errorf(emobench.EINVALID, "run %d is already called %q: names must tell runs apart", other, *name)
		}
	}
	return nil
}

// NameReadsAsID reports whether a run name is a number, which --run and
// ResolveRun read as an id first.
func NameReadsAsID(name string) bool {
	_, err := strconv.ParseInt(strings.TrimSpace(name), 10, 64)
	return err == nil
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
// tasks went, and ErrNotFound (deleting nothing) when an id is unknown,
// or a *RunLockedError (deleting nothing) when a live process holds a run.
func (db *DB) DeleteRuns(ctx context.Context, ids []int64) (tasks int64, err error) {
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		for _, id := range ids {
			if err := refuseHeldRun(ctx, q, id, "runs rm would delete the run"); err != nil {
				return err
			}
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
