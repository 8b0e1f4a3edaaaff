package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"
)

// CreateRun stores a run with no trajectories yet (a native run that
// trajectories are appended to as episodes finish) and returns its id.
func (db *DB) CreateRun(ctx context.Context, run emobench.Run) (int64, error) {
	var id int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		w := &runWriter{ctx: ctx, q: db.queries.WithTx(tx)}
		var err error
		id, err = w.createRun(run, Provenance{Kind: ProvenanceNative})
		return err
	})
	return id, err
}

// AppendTrajectory stores one finished trajectory of run runID, with its
// task and messages, in one transaction, so a crash loses only episodes in
// flight. It replaces an error trajectory of the same (task, trial), which
// is how a resumed run retries them; any other pair the run already holds
// is refused. ctx stops only the wait for the write lock (another process
// writing): once the transaction has begun it commits even when ctx is
// cancelled meanwhile, since the episode is done.
func (db *DB) AppendTrajectory(ctx context.Context, runID int64, traj *emobench.Trajectory) error {
	return db.inTxOnceBegun(ctx, func(ctx context.Context, tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		retried, err := q.DeleteErroredPair(ctx, sqlcdb.DeleteErroredPairParams{RunID: runID, Trial: int64(traj.Trial), TaskKey: traj.Task.Key})
		if err != nil {
			return err
		}
		w := &runWriter{ctx: ctx, q: q, onDup: DuplicateRefuse, seen: map[pairKey]seenPair{}, tasks: map[string]storedTask{}}
		taskID, err := w.writeTrajectory(runID, 0, traj)
		if err != nil {
			return err
		}
		return refreshTaskOutcomes(ctx, q, runID, append(retried, taskID))
	})
}

// ListFinishedPairs returns the (task, trial) pairs of run runID that did
// not end in error: what a resumed run skips.
func (db *DB) ListFinishedPairs(ctx context.Context, runID int64) (map[Pair]bool, error) {
	rows, err := db.queries.ListFinishedPairs(ctx, runID)
	if err != nil {
		return nil, err
	}
	same := make([]sqlcdb.ListRunPairsRow, len(rows))
	for i, r := range rows {
		same[i] = sqlcdb.ListRunPairsRow(r)
	}
	return pairSet(same), nil
}

// Pair is one (task key, trial) of a run.
type Pair struct {
	TaskKey string
	Trial   int
}

// ListRunPairs returns the (task, trial) pairs run runID already holds.
func (db *DB) ListRunPairs(ctx context.Context, runID int64) (map[Pair]bool, error) {
	rows, err := db.queries.ListRunPairs(ctx, runID)
	if err != nil {
		return nil, err
	}
	return pairSet(rows), nil
}

func pairSet(rows []sqlcdb.ListRunPairsRow) map[Pair]bool {
	pairs := make(map[Pair]bool, len(rows))
	for _, r := range rows {
		pairs[Pair{TaskKey: r.TaskKey, Trial: int(r.Trial)}] = true
	}
	return pairs
}

// FindRun returns run id's stored description, with its config, or
// ErrNotFound.
func (db *DB) FindRun(ctx context.Context, id int64) (emobench.Run, error) {
	r, err := db.queries.FindRunConfig(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return emobench.Run{}, ErrNotFound
	}
	if err != nil {
		return emobench.Run{}, err
	}
	return emobench.Run{
		ID: r.ID, Name: r.Name, SourceFormat: r.SourceFormat, AgentModel: r.AgentModel,
		UserModel: r.UserModel, Domain: r.Domain, Condition: emobench.Condition(r.Condition),
		Config: json.RawMessage(r.Config),
	}, nil
}
