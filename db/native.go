package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

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

// CreateTaggedRun is CreateRun that also records run's generalization tags
// (TagRun's: trainDomains, nil for none, and baseRunID, 0 for none) in the
// same transaction, so that a run is never stored without the tags it was
// started with. A base run that is not stored (or is gone meanwhile) is
// ErrNotFound, and stores nothing.
func (db *DB) CreateTaggedRun(ctx context.Context, run emobench.Run, trainDomains []string, baseRunID int64) (int64, error) {
	var id int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		w := &runWriter{ctx: ctx, q: q}
		var err error
		if id, err = w.createRun(run, Provenance{Kind: ProvenanceNative}); err != nil {
			return err
		}
		return writeTags(ctx, q, id, trainDomains, baseRunID)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// writeTags records run id's generalization tags in q's transaction: the
// run and a base run (unless 0) must be stored.
func writeTags(ctx context.Context, q *sqlcdb.Queries, id int64, trainDomains []string, baseRunID int64) error {
	domains, err := json.Marshal(trainDomains)
	if err != nil {
		return err
	}
	if _, err := q.FindRunByID(ctx, id); err != nil {
		return fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	if baseRunID != 0 {
		if _, err := q.FindRunByID(ctx, baseRunID); err != nil {
			return fmt.Errorf("base run %d: %w", baseRunID, ErrNotFound)
		}
	}
	return q.TagRun(ctx, sqlcdb.TagRunParams{
		TrainDomains: sql.NullString{String: string(domains), Valid: trainDomains != nil},
		BaseRunID:    sql.NullInt64{Int64: baseRunID, Valid: baseRunID != 0}, ID: id,
	})
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
		stmts := newStmtCache(tx) // a message's insert is parsed once, not once a message
		defer stmts.Close()
		q := sqlcdb.New(stmts)
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
