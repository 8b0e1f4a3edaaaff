package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/emobench/emobench/db/sqlcdb"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Option configures Open.
type Option func(*DB)

// OnWait sets the function Open's database calls when a write has to wait
// for another connection (another process ingesting, say) to finish its
// write transaction: once per wait, after about a second. The write then
// goes on waiting until the lock is free or its context is done.
func OnWait(fn func()) Option { return func(db *DB) { db.onWait = fn } }

// OnReaderWait sets the function Open calls when it has to wait, for over
// a second, for a reader of another process that reads the file immutably
// (a file at rest in WAL mode with no -wal; see lockGate): once per wait.
func OnReaderWait(fn func()) Option { return func(db *DB) { db.onReaderWait = fn } }

// isBusy reports whether err is SQLite's SQLITE_BUSY (any extended code).
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// whileBusy runs fn until it returns something other than SQLITE_BUSY,
// and stops when ctx is done. db.onWait is called when a wait begins while
// no other goroutine of db is waiting: the trajectories of a run's
// episodes in flight wait together, and say so once.
func (db *DB) whileBusy(ctx context.Context, fn func() error) error {
	waiting := false
	defer func() {
		if waiting {
			db.waiters.Add(-1)
		}
	}()
	return retryBusy(ctx, db.path, func() {
		waiting = true
		if db.waiters.Add(1) == 1 && db.onWait != nil {
			db.onWait()
		}
	}, fn)
}

// retryBusy runs fn until it returns something other than SQLITE_BUSY,
// and stops when ctx is done. onWait, when not nil, is called at the
// first SQLITE_BUSY. Reads use it too: a reader that meets a lock (a
// writer switching the journal mode, say) waits instead of failing.
func retryBusy(ctx context.Context, path string, onWait func(), fn func() error) error {
	waiting := false
	for {
		err := fn()
		if !isBusy(err) {
			return err
		}
		if !waiting {
			waiting = true
			if onWait != nil {
				onWait()
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("interrupted while waiting for another process writing to %s: %w", path, ctx.Err())
		case <-time.After(50 * time.Millisecond): // BUSY without waiting (deadlock avoidance) must not spin
		}
	}
}

// readRetry is retryBusy for a reader: it waits without saying so.
func readRetry(path string) func(context.Context, func() error) error {
	return func(ctx context.Context, fn func() error) error { return retryBusy(ctx, path, nil, fn) }
}

// RunHolder is the process that holds a native run: it is running or
// resuming it.
type RunHolder struct {
	PID     int
	Host    string
	Command string    // e.g. "emobench run --resume 3"
	Started time.Time // when it took the run
}

// RunLockedError reports a run that another live process holds.
type RunLockedError struct {
	RunID  int64
	Holder RunHolder
	// Refused, when not empty, is what the refused command would have
	// done to the run ("runs rm would delete it"); empty for a second
	// process running it.
	Refused string
}

func (e *RunLockedError) Error() string {
	if e.Refused != "" {
		return fmt.Sprintf("run %d is being run by process %d on %s (%s, since %s): %s under it; wait for it to finish or stop it",
			e.RunID, e.Holder.PID, e.Holder.Host, e.Holder.Command, e.Holder.Started.UTC().Format(time.RFC3339), e.Refused)
	}
	return fmt.Sprintf("run %d is already being run by process %d on %s (%s, since %s): a second process would store the same (task, trial) pairs twice; wait for it to finish or stop it",
		e.RunID, e.Holder.PID, e.Holder.Host, e.Holder.Command, e.Holder.Started.UTC().Format(time.RFC3339))
}

// LockRun records holder as the process running run runID, in one
// transaction. When another holder is recorded and alive(it) is true, it
// returns a *RunLockedError and changes nothing; a holder that is not alive
// (a process killed meanwhile) is replaced and returned as stale.
func (db *DB) LockRun(ctx context.Context, runID int64, holder RunHolder, alive func(RunHolder) bool) (stale *RunHolder, err error) {
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		q := db.queries.WithTx(tx)
		row, err := q.FindRunLock(ctx, runID)
		switch {
		case err == nil:
			other := RunHolder{PID: int(row.Pid), Host: row.Host, Command: row.Command}
			other.Started, _ = time.Parse(time.RFC3339, row.StartedAt)
			if alive(other) {
				return &RunLockedError{RunID: runID, Holder: other}
			}
			stale = &other
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		return q.SetRunLock(ctx, sqlcdb.SetRunLockParams{
			RunID: runID, Pid: int64(holder.PID), Host: holder.Host, Command: holder.Command,
			StartedAt: holder.Started.UTC().Format(time.RFC3339),
		})
	})
	if err != nil {
		return nil, err
	}
	return stale, nil
}

// UnlockRun removes holder's lock on run runID (nothing when another holder
// took it over meanwhile).
func (db *DB) UnlockRun(ctx context.Context, runID int64, holder RunHolder) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		return db.queries.WithTx(tx).DeleteRunLock(ctx, sqlcdb.DeleteRunLockParams{
			RunID: runID, Pid: int64(holder.PID), Host: holder.Host,
			StartedAt: holder.Started.UTC().Format(time.RFC3339),
		})
	})
}

// LockRunHere is LockRun for this process on this host, running command: a
// holder on this host whose process no longer runs is taken over and
// returned as stale (another machine's process cannot be checked, so it is
// taken as alive). unlock removes the lock, even once ctx is cancelled.
func (db *DB) LockRunHere(ctx context.Context, runID int64, command string) (stale *RunHolder, unlock func(), err error) {
	host, _ := os.Hostname()
	me := RunHolder{PID: os.Getpid(), Host: host, Command: command, Started: time.Now().Truncate(time.Second)}
	stale, err = db.LockRun(ctx, runID, me, aliveHere)
	if err != nil {
		return nil, nil, err
	}
	return stale, func() { db.UnlockRun(context.WithoutCancel(ctx), runID, me) }, nil
}

// aliveHere reports whether holder h may still be running: its process
// runs on this host, or it is on another host (which cannot be checked).
func aliveHere(h RunHolder) bool {
	host, _ := os.Hostname()
	return h.Host != host || processAlive(h.PID)
}

// refuseHeldRun returns a *RunLockedError saying refused when a live
// process (aliveHere) holds run runID, read in q's transaction; a stale
// lock (its process gone) does not refuse.
func refuseHeldRun(ctx context.Context, q *sqlcdb.Queries, runID int64, refused string) error {
	row, err := q.FindRunLock(ctx, runID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	h := RunHolder{PID: int(row.Pid), Host: row.Host, Command: row.Command}
	h.Started, _ = time.Parse(time.RFC3339, row.StartedAt)
	if !aliveHere(h) {
		return nil
	}
	return &RunLockedError{RunID: runID, Holder: h, Refused: refused}
}

// processAlive reports whether a process with this pid exists on this host.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
