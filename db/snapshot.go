package db

import (
	"context"
	"fmt"

	"github.com/emobench/emobench/db/sqlcdb"
)

// Snapshot returns a view of db whose reads all see one state of the file:
// they run on one connection in one read transaction, begun here and
// started by a first read, so that what a writer commits meanwhile (`runs
// rm` deleting a run, an ingest) is in none of them or, when committed
// before, in all. In WAL mode writers go on meanwhile; a file in rollback
// mode keeps writers waiting until release. The view's reads are its
// query methods (ListRuns, the export iterators, ...); Query and the
// statistics' integer scans read outside it, and writes through it are
// transactions of their own. release ends the transaction and must be
// called once the view is no longer used. A view's own Snapshot is itself.
func (db *DB) Snapshot(ctx context.Context) (view *DB, release func(), err error) {
	if db.inSnapshot {
		return db, func() {}, nil
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", db.path, err)
	}
	release = func() {
		conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		conn.Close()
	}
	err = retryBusy(ctx, db.path, nil, func() error {
		if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil { // deferred: the snapshot is the first read's
			return err
		}
		var n int
		if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_schema").Scan(&n); err != nil {
			conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
			return err
		}
		return nil
	})
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("read %s: %w", db.path, err)
	}
	view = &DB{sql: db.sql, path: db.path, queries: sqlcdb.New(conn), notOurs: db.notOurs, foreign: db.foreign, version: db.version, inSnapshot: true}
	return view, release, nil
}
