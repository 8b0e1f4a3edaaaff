package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// StoredTrajectory is one stored trajectory with the ids that name it.
type StoredTrajectory struct {
	ID    int64 // trajectories.id
	RunID int64
	*emobench.Trajectory
}

// FindTrajectory returns trajectory id with its task and messages. An
// unknown id gives an ENOTFOUND error (errors.Is ErrNotFound).
func (db *DB) FindTrajectory(ctx context.Context, id int64) (StoredTrajectory, error) {
	runID, err := db.queries.FindTrajectoryRunID(ctx, id)
	var r sqlcdb.FindTrajectoryRow
	if err == nil {
		r, err = db.queries.FindTrajectory(ctx, id) // ErrNoRows only if deleted since
	}
	if errors.Is(err, sql.ErrNoRows) {
		return StoredTrajectory{}, emobench.Errorf(emobench.ENOTFOUND, "no trajectory with id %d", id)
	}
	if err != nil {
		return StoredTrajectory{}, fmt.Errorf("trajectory %d: %w", id, err)
	}
	// FindTrajectory selects ListRunTrajectories' columns: a column added
	// to one and not the other stops this conversion compiling.
	traj := trajectoryFromRow(sqlcdb.ListRunTrajectoriesRow(r))
	if traj.Messages, err = db.messages(ctx, id); err != nil {
		return StoredTrajectory{}, fmt.Errorf("trajectory %d: %w", id, err)
	}
	refine, err := db.storesUserStopsAsStop(ctx)
	if err != nil {
		return StoredTrajectory{}, fmt.Errorf("trajectory %d: %w", id, err)
	}
	if refine {
		traj.TerminationReason = traj.UserStopReason()
	}
	return StoredTrajectory{ID: id, RunID: runID, Trajectory: traj}, nil
}

// FindTrajectoryID returns the id of run runID's trajectory of task key
// taskKey (the source's task id) and trial; a negative trial means the
// task's only trajectory. It gives an ENOTFOUND error naming the trials
// stored when there is no such trajectory, and an EINVALID one when
// several match (a negative trial and several trials, or tasks of
// different content under one key and trial).
func (db *DB) FindTrajectoryID(ctx context.Context, runID int64, taskKey string, trial int) (int64, error) {
	rows, err := db.queries.ListTaskTrajectories(ctx, sqlcdb.ListTaskTrajectoriesParams{RunID: runID, TaskKey: taskKey})
	if err != nil {
		return 0, fmt.Errorf("run %d: task %q: %w", runID, taskKey, err)
	}
	if len(rows) == 0 {
		return 0, emobench.Errorf(emobench.ENOTFOUND, "run %d has no task %q", runID, taskKey)
	}
	var ids, trials []string
	var id int64
	for _, r := range rows {
		trials = append(trials, strconv.FormatInt(r.Trial, 10))
		if trial < 0 || r.Trial == int64(trial) {
			id = r.ID
			ids = append(ids, strconv.FormatInt(r.ID, 10))
		}
	}
	switch len(ids) {
	case 0:
		return 0, emobench.Errorf(emobench.ENOTFOUND, "run %d has no trial %d of task %q (its trials: %s)", runID, trial, taskKey, strings.Join(trials, ", "))
	case 1:
		return id, nil
	}
	if trial < 0 {
		return 0, emobench.Errorf(emobench.EINVALID, "run %d has %d trajectories of task %q (trials %s): name the trial", runID, len(ids), taskKey, strings.Join(trials, ", "))
	}
	return 0, emobench.Errorf(emobench.EINVALID, "run %d has trial %d of task %q for tasks of different content (trajectories %s): give a trajectory id", runID, trial, taskKey, strings.Join(ids, ", "))
}
