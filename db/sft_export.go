package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// ExportTrajectory is one stored trajectory as tracer export reads it: its
// messages (already redacted at ingest) and what chooses the policy and
// tools its record gets.
type ExportTrajectory struct {
	ID            int64 // trajectories.id
	RunID         int64
	RunDomain     string // the run's domain name ("unknown" when the source gave none)
	SourceFormat  string // the run's source format: emobench.SourceNative for emobench run
	Condition     string // the run's condition (with-emotions, without-emotions, none)
	EmotionFamily string // the task's emotion family; "" when it has none
	Messages      []emobench.Message
}

// FindSelectionID returns the id of the selection called name, or an
// ENOTFOUND error (errors.Is ErrNotFound) naming it.
func (db *DB) FindSelectionID(ctx context.Context, name string) (int64, error) {
	id, err := db.queries.FindSelectionByName(ctx, name)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, emobench.Errorf(emobench.ENOTFOUND, "no selection named %q (tracer filter stores one)", name)
	}
	if err != nil {
		return 0, fmt.Errorf("selection %q: %w", name, err)
	}
	return id, nil
}

// SelectionExportTrajectories yields selection selectionID's trajectories
// by id, reading one trajectory's messages at a time.
func (db *DB) SelectionExportTrajectories(ctx context.Context, selectionID int64) iter.Seq2[ExportTrajectory, error] {
	return db.exportTrajectories(ctx, func() ([]sqlcdb.ListRunExportTrajectoriesRow, error) {
		rows, err := db.queries.ListSelectionExportTrajectories(ctx, selectionID)
		out := make([]sqlcdb.ListRunExportTrajectoriesRow, len(rows))
		for i, r := range rows {
			out[i] = sqlcdb.ListRunExportTrajectoriesRow(r)
		}
		return out, err
	})
}

// RunExportTrajectories yields run runID's trajectories by id, reading one
// trajectory's messages at a time. A run without trajectories yields none.
func (db *DB) RunExportTrajectories(ctx context.Context, runID int64) iter.Seq2[ExportTrajectory, error] {
	return db.exportTrajectories(ctx, func() ([]sqlcdb.ListRunExportTrajectoriesRow, error) {
		return db.queries.ListRunExportTrajectories(ctx, runID)
	})
}

func (db *DB) exportTrajectories(ctx context.Context, list func() ([]sqlcdb.ListRunExportTrajectoriesRow, error)) iter.Seq2[ExportTrajectory, error] {
	return func(yield func(ExportTrajectory, error) bool) {
		rows, err := list()
		if err != nil {
			yield(ExportTrajectory{}, err)
			return
		}
		for _, r := range rows {
			t := ExportTrajectory{ID: r.ID, RunID: r.RunID, RunDomain: r.RunDomain, SourceFormat: r.SourceFormat, Condition: r.Condition, EmotionFamily: r.EmotionFamily.String}
			if t.Messages, err = db.messages(ctx, r.ID); err != nil {
				yield(ExportTrajectory{}, fmt.Errorf("trajectory %d: %w", r.ID, err))
				return
			}
			if !yield(t, nil) {
				return
			}
		}
	}
}
