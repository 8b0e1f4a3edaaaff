package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// Dependence is a trajectory's user dependence as migration 12's columns
// store it (tracer.UserDependence computes it).
type Dependence struct {
	UserTurnsPerFact         float64
	QuestionsAlreadyAnswered int
	QuestionsToolFindable    int
	FollowUpQuestions        int
	ToolCallShare            float64
}

func (d Dependence) params(id int64) sqlcdb.SetUserDependenceParams {
	return sqlcdb.SetUserDependenceParams{
		UserTurnsPerFact:         sql.NullFloat64{Float64: d.UserTurnsPerFact, Valid: true},
		QuestionsAlreadyAnswered: sql.NullInt64{Int64: int64(d.QuestionsAlreadyAnswered), Valid: true},
		QuestionsToolFindable:    sql.NullInt64{Int64: int64(d.QuestionsToolFindable), Valid: true},
		FollowUpQuestions:        sql.NullInt64{Int64: int64(d.FollowUpQuestions), Valid: true},
		ToolCallShare:            sql.NullFloat64{Float64: d.ToolCallShare, Valid: true},
		ID:                       id,
	}
}

// SetRunTrajectoryDependence stores the user dependence of run runID's
// trajectory of (domain, task key, trial), as a run stores each finished
// episode's. A pair the run does not hold is ErrNotFound. Like every
// write, it is a transaction that waits for another writer (inTx).
func (db *DB) SetRunTrajectoryDependence(ctx context.Context, runID int64, domain, taskKey string, trial int, d Dependence) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		row, err := q.FindRunTrajectoryByTaskKey(ctx, sqlcdb.FindRunTrajectoryByTaskKeyParams{Domain: orUnknown(domain), TaskKey: taskKey, RunID: runID, Trial: int64(trial)})
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("run %d: task %s trial %d: %w", runID, taskKey, trial, ErrNotFound)
		} else if err != nil {
			return err
		}
		return q.SetUserDependence(ctx, d.params(row.ID))
	})
}

// FilterTrajectory is one trajectory as `tracer filter` reads it.
type FilterTrajectory struct {
	ID                int64
	RunID             int64
	Domain, Condition string // the run's
	SourceFormat      string // the run's: emobench.SourceNative for emobench run
	TaskKey, Family   string // the task's key and emotion family ("" when none)
	Reward            *float64
	Evaluated         bool
	TerminationReason emobench.TerminationReason
	// UserTurnsPerFact is the stored user dependence; nil when not
	// computed. HasScenario says whether it can be (a native task).
	UserTurnsPerFact *float64
	HasScenario      bool
	// TaskSplit is the task's stored split: test or train; "" for an
	// imported task.
	TaskSplit string
}

// ListFilterTrajectories returns the trajectories of runIDs (of every run
// when empty), by id.
func (db *DB) ListFilterTrajectories(ctx context.Context, runIDs []int64) ([]FilterTrajectory, error) {
	ids, err := db.runFilter(ctx, runIDs)
	if err != nil {
		return nil, err
	}
	rows, err := db.queries.ListFilterTrajectories(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]FilterTrajectory, len(rows))
	for i, r := range rows {
		out[i] = FilterTrajectory{
			ID: r.ID, RunID: r.RunID, Domain: r.Domain, Condition: r.Condition, SourceFormat: r.SourceFormat, TaskKey: r.TaskKey, Family: r.EmotionFamily.String,
			Reward: floatPtr(r.Reward), Evaluated: r.Evaluated == 1, TerminationReason: emobench.TerminationReason(r.TerminationReason),
			UserTurnsPerFact: floatPtr(r.UserTurnsPerFact), HasScenario: r.HasScenario == 1,
			TaskSplit: r.TaskSplit,
		}
	}
	return out, nil
}

// DependenceInput returns what trajectory id's user dependence is computed
// from: a Trajectory holding its task's key, scenario and gold actions,
// and its messages. An unknown id is ErrNotFound.
func (db *DB) DependenceInput(ctx context.Context, id int64) (*emobench.Trajectory, error) {
	row, err := db.queries.FindDependenceInput(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("trajectory %d: %w", id, ErrNotFound)
	} else if err != nil {
		return nil, err
	}
	t := &emobench.Trajectory{Task: emobench.Task{Key: row.TaskKey, Scenario: rawOrNil(row.Scenario), Actions: json.RawMessage(row.Actions)}}
	if t.Messages, err = db.messages(ctx, id); err != nil {
		return nil, fmt.Errorf("trajectory %d: %w", id, err)
	}
	return t, nil
}

// Selection is a named set of trajectories (`tracer filter`'s kept set):
// the criteria that chose it and its funnel counts, as JSON objects.
type Selection struct {
	ID        int64
	Name      string
	CreatedAt time.Time // stored in UTC, to the second
	Criteria  json.RawMessage
	Counts    json.RawMessage
	// TrajectoryIDs are its trajectories' ids, ascending (ListSelections
	// leaves it nil and sets Size).
	TrajectoryIDs []int64
	Size          int
}

// CreateSelection stores sel (its name, criteria, counts and trajectory
// ids; CreatedAt zero means now) and writes the user dependence of
// dependence's trajectories, all in one transaction, and returns its id.
// A name a stored selection has is a *SelectionExistsError (ECONFLICT) unless replace,
// which deletes that selection in the same transaction. A trajectory id
// that is not stored fails and stores nothing.
func (db *DB) CreateSelection(ctx context.Context, sel Selection, dependence map[int64]Dependence, replace bool) (int64, error) {
	if sel.Name == "" {
		return 0, emobench.Errorf(emobench.EINVALID, "a selection needs a name")
	}
	for _, raw := range []json.RawMessage{sel.Criteria, sel.Counts} {
		if !json.Valid(raw) {
			return 0, emobench.Errorf(emobench.EINVALID, "selection %s: criteria and counts must be JSON", sel.Name)
		}
	}
	created := sel.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	var id int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		if replace {
			if _, err := q.DeleteSelectionByName(ctx, sel.Name); err != nil {
				return err
			}
		} else if _, err := q.FindSelectionByName(ctx, sel.Name); err == nil {
			return &SelectionExistsError{Name: sel.Name}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		for tid, d := range dependence {
			if err := q.SetUserDependence(ctx, d.params(tid)); err != nil {
				return fmt.Errorf("trajectory %d: dependence: %w", tid, err)
			}
		}
		var err error
		id, err = q.CreateSelection(ctx, sqlcdb.CreateSelectionParams{
			Name: sel.Name, CreatedAt: created.UTC().Format(time.RFC3339), Criteria: string(sel.Criteria), Counts: string(sel.Counts),
		})
		if err != nil {
			return err
		}
		for _, tid := range sel.TrajectoryIDs {
			if err := q.AddSelectionTrajectory(ctx, sqlcdb.AddSelectionTrajectoryParams{SelectionID: id, TrajectoryID: tid}); err != nil {
				return fmt.Errorf("selection %s: trajectory %d: %w", sel.Name, tid, err)
			}
		}
		return nil
	})
	return id, err
}

// FindSelection returns the selection called name with its trajectory ids;
// none is ErrNotFound.
func (db *DB) FindSelection(ctx context.Context, name string) (Selection, error) {
	s, err := db.queries.FindSelectionRecord(ctx, name)
	if errors.Is(err, sql.ErrNoRows) {
		return Selection{}, fmt.Errorf("selection %q: %w", name, ErrNotFound)
	} else if err != nil {
		return Selection{}, err
	}
	ids, err := db.queries.ListSelectionTrajectoryIDs(ctx, s.ID)
	if err != nil {
		return Selection{}, err
	}
	out := selectionOf(s.ID, s.Name, s.CreatedAt, s.Criteria, s.Counts, len(ids))
	out.TrajectoryIDs = ids
	return out, nil
}

// ListSelections returns every selection, by name, with its Size and
// without its trajectory ids.
func (db *DB) ListSelections(ctx context.Context) ([]Selection, error) {
	rows, err := db.queries.ListSelections(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Selection, len(rows))
	for i, r := range rows {
		out[i] = selectionOf(r.ID, r.Name, r.CreatedAt, r.Criteria, r.Counts, int(r.N))
	}
	return out, nil
}

func selectionOf(id int64, name, created, criteria, counts string, size int) Selection {
	at, _ := time.Parse(time.RFC3339, created)
	return Selection{ID: id, Name: name, CreatedAt: at, Criteria: json.RawMessage(criteria), Counts: json.RawMessage(counts), Size: size}
}

// tracerVersion is the schema version that added selections.
const tracerVersion = 12

// countSelectionsForMerge counts the selections of a merge source, of an
// older schema too (none before tracerVersion).
func (db *DB) countSelectionsForMerge(ctx context.Context) (int, error) {
	v, err := db.userVersion(ctx)
	if err != nil || v < tracerVersion {
		return 0, err
	}
	n, err := db.queries.CountSelections(ctx)
	return int(n), err
}

// countTaskSetsForMerge counts the task sets of a merge source, of an
// older schema too (none before tracerVersion).
func (db *DB) countTaskSetsForMerge(ctx context.Context) (int, error) {
	v, err := db.userVersion(ctx)
	if err != nil || v < tracerVersion {
		return 0, err
	}
	sets, err := db.ListTaskSets(ctx)
	return len(sets), err
}
