package db_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench/db"
)

// holdWriteLock takes path's write lock (BEGIN IMMEDIATE) on a plain
// connection, as another process's ingest holds it; release commits.
func holdWriteLock(tb testing.TB, path string) (release func()) {
	tb.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		tb.Fatal(err)
	}
	conn, err := raw.Conn(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		tb.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			conn.ExecContext(context.Background(), "COMMIT")
			conn.Close()
			raw.Close()
		}
	}
	tb.Cleanup(release)
	return release
}

// The user dependence a run stores after each episode waits for another
// writer, as the trajectory's own transaction does, instead of failing
// with "database is locked" (#20 item 6). The lock is released once the
// write has said it waits (OnWait): no timing is assumed.
func TestSetRunTrajectoryDependence_WaitsForWriter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	waiting := make(chan struct{}, 1)
	store, err := db.Open(ctx, path, db.OnWait(func() { waiting <- struct{}{} }))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	runID, _ := selectionRun(t, store)
	release := holdWriteLock(t, path)
	done := make(chan error, 1)
	go func() {
		done <- store.SetRunTrajectoryDependence(ctx, runID, "retail", "1", 0, db.Dependence{UserTurnsPerFact: 2})
	}()
	select {
	case err := <-done:
		t.Fatalf("SetRunTrajectoryDependence while another connection writes = %v, want it to wait", err)
	case <-waiting:
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("SetRunTrajectoryDependence after the other writer committed: %v", err)
	}
	rows, err := store.ListFilterTrajectories(ctx, []int64{runID})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.UserTurnsPerFact == nil || *r.UserTurnsPerFact != 2 {
		t.Fatalf("stored dependence = %v, want 2", r.UserTurnsPerFact)
	}
}
