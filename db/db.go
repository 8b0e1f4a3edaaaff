// Package db owns emobench's SQLite file: opening it (pure-Go driver
// modernc.org/sqlite), applying the embedded numbered migrations, and the
// writes and reads the rest of the program needs. SQL lives in queries/ and
// reaches Go through the sqlc-generated package db/sqlcdb.
package db

//go:generate go run github.com/sqlc-dev/sqlc/cmd/sqlc@v1.31.1 generate -f ../sqlc.yaml

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db/sqlcdb"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// BusyTimeout is how long, in milliseconds, one statement of a read-only
// connection waits for a lock before failing with SQLITE_BUSY. While a
// database is being opened (OpenReadOnly, RequireCurrent, Open's first
// reads), SQLITE_BUSY is retried without limit, until the context is done.
const BusyTimeout = 5000

// WriteBusyTimeout is how long, in milliseconds, one attempt of a writer to
// take the write lock waits (SQLite's busy_timeout) before the OnWait
// option is called and the attempt repeated: writers wait for another
// writer (such as a long ingest) without limit, until their context is done.
const WriteBusyTimeout = 1000

// pageSize is the page size, in bytes, of a new database file. Messages of a
// few kilobytes (system prompts, tool results) fit in one 32 KiB page, where
// SQLite's default 4 KiB needs overflow chains: ingest spends 10-20% less
// CPU time in SQLite (BenchmarkIngest_RealRuns). Existing files keep the
// page size they were created with.
const pageSize = 32768

// untrustedSafety makes a .db from someone else safe to open: with
// trusted_schema off, views and triggers stored in the file cannot call
// functions with side effects, and defensive mode forbids writing to the
// schema or corrupting the file through pragmas. Extension loading is never
// enabled.
const untrustedSafety = "&_pragma=trusted_schema(0)&_defensive=1"

// errEmptyPath refuses an empty path, which SQLite would take for a
// temporary database deleted on close: whatever was written would be lost.
var errEmptyPath = emobench.Errorf(emobench.EINVALID, "no database path given (an empty path is a temporary database that SQLite deletes on close)")

// DB is an open emobench database.
type DB struct {
	sql      *sql.DB
	path     string
	queries  *sqlcdb.Queries
	writable bool         // opened by Open: Close puts the journal back to DELETE
	notOurs  error        // OpenReadOnly: why the file is not emobench's, nil when it is
	foreign  error        // OpenReadOnly: how its schema differs from emobench's, nil when it does not
	onWait   func()       // called when a write starts waiting for another writer
	waiters  atomic.Int32 // goroutines waiting for the write lock
	gate     *gateLock    // OpenReadOnly of a file read immutably: held until Close
	version  int          // OpenReadOnly: the schema version read at open (0: none yet)

	onReaderWait func() // called when Open waits for an immutable reader
	inSnapshot   bool   // a view of Snapshot: its queries read one snapshot
}

// Open opens (creating if needed) the database at path for reading and
// writing, in WAL mode (until Close) with foreign keys on, and applies
// pending migrations. It fails, before writing anything, when the file was
// written by a newer emobench (its schema version, PRAGMA user_version, is
// above SchemaVersion), is another program's SQLite file (see ApplicationID),
// is not an SQLite database, or holds emobench's schema changed (an object
// of emobench's redefined or missing, an index or trigger added to its
// tables: EINVALID, naming it; objects of the file's own may be beside).
//
// A write that finds another connection writing waits until it is done
// (see WriteBusyTimeout and OnWait), however long that takes. Open also
// waits, before touching the file, for readers of another process that
// read it immutably (see lockGate and OnReaderWait), and fails with
// EINVALID when this process reads it immutably.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	if path == "" {
		return nil, errEmptyPath
	}
	if err := checkFileKind(path); err != nil {
		return nil, err
	}
	if dir := filepath.Dir(path); dir != "" {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return nil, emobench.Errorf(emobench.EINVALID, "cannot create database %s: directory %s does not exist", path, dir)
		}
	}
	db := &DB{path: path, writable: true}
	for _, opt := range opts {
		opt(db)
	}
	// The gate, held exclusive until the file is in WAL mode with its -wal
	// beside it, waits for immutable readers and keeps new ones out. A new
	// file is created empty first, so that it has a gate: the switch to WAL
	// writes its header before the -wal exists.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		if werr := notWritable(path); werr != nil {
			return nil, werr
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	f.Close()
	gate, err := lockGate(ctx, path, true, db.onReaderWait)
	if err != nil {
		return nil, err
	}
	defer gate.release()
	// Nothing may write to the file before it is known to be ours: not even
	// the switch to WAL.
	st, err := inspectFile(ctx, path, db.whileBusy)
	if err != nil {
		return nil, err
	}
	if st.notOurs != nil {
		return nil, st.notOurs
	}
	if len(st.triggers) > 0 {
		return nil, triggersError(path, st.triggers)
	}
	if st.foreign != nil {
		return nil, st.foreign
	}
	// page_size only takes effect while the file is new.
	dsn := "file:" + escapePath(path) + "?_txlock=immediate" +
		"&_pragma=foreign_keys(1)" +
		"&_pragma=busy_timeout(" + strconv.Itoa(WriteBusyTimeout) + ")" +
		"&_pragma=page_size(" + strconv.Itoa(pageSize) + ")" +
		"&_pragma=synchronous(NORMAL)" + untrustedSafety
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.sql, db.queries = sqlDB, sqlcdb.New(sqlDB)
	// journal_mode is a property of the file, not of a connection: in WAL
	// mode readers never wait for writers. Close switches it back to DELETE,
	// so that a file at rest has no -wal and read-only commands create none.
	// SQLite creates the -wal at the first read after the switch, not at
	// the switch: the gate is held until it exists, and it stays while the
	// pool's connection is open.
	err = db.whileBusy(ctx, func() error {
		conn, err := sqlDB.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "PRAGMA journal_mode = WAL"); err != nil {
			return err
		}
		var v int
		return conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	})
	if err != nil {
		sqlDB.Close()
		if werr := notWritable(path); werr != nil {
			return nil, werr
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Migrations commit one by one: when there are any, the gate stays held
	// until the last, so that a reader never sees a file between two schema
	// versions (a new file half created, say). Otherwise readers go on.
	if st.version >= SchemaVersion() {
		gate.release()
	}
	if err := db.migrate(ctx); err != nil {
		gate.release()
		db.Close()
		return nil, err
	}
	return db, nil
}

// OpenReadOnly opens an existing database so that nothing can change it: the
// file is opened with mode=ro and every connection has PRAGMA query_only on.
// An authorizer refuses, at compile time, every statement that would do more
// than read (ATTACH, temp tables, pragma assignments). It fails when the
// file does not exist or has a newer schema. It waits, without limit until
// ctx is done, while the file is locked (a writer switching its journal
// mode). A file in WAL mode with no -wal is read immutably, and writers
// are kept off it until Close (see lockGate).
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errEmptyPath
	}
	if _, err := os.Stat(path); err != nil {
		return nil, &emobench.Error{Code: emobench.ENOTFOUND, Message: fmt.Sprintf("no database at %s: %v", path, errors.Unwrap(err))}
	}
	if err := checkFileKind(path); err != nil {
		return nil, err
	}
	// The gate, held shared while the file is inspected and the first
	// connection opened, and until Close when the file is read immutably,
	// keeps writers from starting meanwhile.
	gate, err := lockGate(ctx, path, false, nil)
	if err != nil {
		return nil, err
	}
	dsn, immutable := readOnlyDSN(path)
	dsn += "&_pragma=query_only(1)" +
		"&_pragma=busy_timeout(" + strconv.Itoa(BusyTimeout) + ")" + untrustedSafety
	sqlDB, err := openReadOnlyPool(dsn)
	if err != nil {
		gate.release()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// The file is inspected through the pool's first connection, opened
	// under the gate: a file in WAL mode is then read through its -wal,
	// which stays while a connection has it.
	st, err := inspectThrough(ctx, path, sqlDB, readRetry(path))
	if err == nil && st.appID == ApplicationID && st.version > SchemaVersion() {
		err = st.notOurs
	}
	if err == nil && st.empty {
		// No probe ran: open the connection, as on any other file.
		err = retryBusy(ctx, path, nil, func() error {
			var v int
			return sqlDB.QueryRowContext(ctx, "SELECT user_version FROM pragma_user_version").Scan(&v)
		})
		if err != nil {
			err = notOursOr(ctx, path, err)
		}
	}
	if err != nil {
		sqlDB.Close()
		gate.release()
		return nil, err
	}
	db := &DB{sql: sqlDB, path: path, queries: sqlcdb.New(sqlDB), notOurs: st.notOurs, foreign: st.foreign, version: st.version}
	if immutable {
		gate.markImmutable()
		db.gate = gate
	} else {
		gate.release()
	}
	return db, nil
}

// RequireCurrent fails when the file's schema is older than this build's,
// which read-only commands cannot upgrade: any writing command (such as
// emobench migrate) upgrades it: a *OutdatedSchemaError (EINVALID) then.
// It also fails (EINVALID, naming the object) when the file's tables,
// views, indexes or triggers differ from those emobench's migrations
// create (a view rewritten to run other SQL, say), as Open does.
// Of a database opened by OpenReadOnly with a current schema, it reads
// nothing more: schemas only grow newer.
func (db *DB) RequireCurrent(ctx context.Context) error {
	if db.notOurs != nil {
		return db.notOurs
	}
	if db.foreign != nil {
		return db.foreign
	}
	if db.version >= SchemaVersion() {
		return nil
	}
	version, err := db.userVersion(ctx)
	if err != nil {
		return err
	}
	if version == 0 {
		return emobench.Errorf(emobench.EINVALID, "%s holds no emobench schema yet (an empty file): ingest or run into it first, or wait for the command creating it", db.path)
	}
	if version < SchemaVersion() {
		return &OutdatedSchemaError{Path: db.path, Version: version, Want: SchemaVersion()}
	}
	return nil
}

// NotOurs returns why a file opened by OpenReadOnly is not an emobench
// database (another program's SQLite file), or nil when it is one.
func (db *DB) NotOurs() error { return db.notOurs }

// ForeignSchema returns how the schema of an emobench file opened by
// OpenReadOnly differs from the one emobench's migrations create for its
// version (an EINVALID error naming the file and the first object that
// differs), or nil when it does not. RequireCurrent and Merge refuse such
// a file; Check lists every difference.
func (db *DB) ForeignSchema() error { return db.foreign }

// Close closes the database. A database opened for writing is first put
// back in rollback-journal (DELETE) mode when no other connection has it
// open, so that the file at rest has no -wal or -shm beside it; otherwise it
// stays in WAL mode and the last writer to close does it.
//
// The switch and the close hold the file's gate exclusive (see lockGate):
// a reader starting meanwhile waits, and never reads immutably a file whose
// pages a checkpoint is writing. When the gate cannot be had within
// closeGateWait, the file is closed in WAL mode.
func (db *DB) Close() error {
	if db.inSnapshot {
		return nil // the pool is its database's (Snapshot's release ends the view)
	}
	if !db.writable {
		err := db.sql.Close()
		db.gate.release()
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeGateWait)
	defer cancel()
	gate, err := lockGate(ctx, db.path, true, nil)
	if err == nil {
		db.restJournal()
	}
	err = db.sql.Close()
	gate.release()
	return err
}

// closeGateWait is how long Close waits for readers that are opening the
// file (each holds the gate for a moment) before it leaves it in WAL mode.
const closeGateWait = 10 * time.Second

// restJournal checkpoints the WAL and switches to journal_mode DELETE,
// without waiting: when another connection (here or in another process)
// holds the file, the mode stays WAL.
func (db *DB) restJournal() {
	ctx := context.Background()
	db.sql.SetMaxIdleConns(1) // closes the other idle connections of the pool
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return
	}
	conn.ExecContext(ctx, "PRAGMA journal_mode = DELETE")
}

// Path returns the file the database was opened from.
func (db *DB) Path() string { return db.path }

// escapePath makes path safe inside a file: URI (a '?' or '#' in a file name
// would otherwise start the query or fragment).
func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

type migration struct {
	version int
	name    string
}

func migrations() []migration {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		panic(err) // embedded at build time: cannot fail
	}
	var ms []migration
	for _, e := range entries {
		prefix, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(prefix)
		if err != nil {
			panic("db: migration file name without a number: " + e.Name())
		}
		ms = append(ms, migration{version: v, name: e.Name()})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms
}

// SchemaVersion is the schema version this build writes: the number of its
// newest migration.
func SchemaVersion() int { return schemaVersion() }

// schemaVersion reads the embedded migrations' names once.
var schemaVersion = sync.OnceValue(func() int {
	ms := migrations()
	return ms[len(ms)-1].version
})

// userVersion reads PRAGMA user_version, waiting while the file is locked.
func (db *DB) userVersion(ctx context.Context) (int, error) {
	var v int
	err := retryBusy(ctx, db.path, nil, func() error {
		return db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	})
	if err != nil {
		return 0, notOursOr(ctx, db.path, err)
	}
	return v, nil
}

func newerSchemaError(path string, version int) error {
	return &emobench.Error{Code: emobench.EINVALID, Message: fmt.Sprintf(
		"%s has schema version %d, newer than this emobench understands (%d): upgrade emobench to open it",
		path, version, SchemaVersion())}
}

// migrate applies every migration above the file's user_version, each in its
// own transaction together with the version bump; a new file gets them all
// in one (createFromImage).
func (db *DB) migrate(ctx context.Context) error {
	version, err := db.userVersion(ctx)
	if err != nil {
		return err
	}
	if version > SchemaVersion() {
		return newerSchemaError(db.path, version)
	}
	if err := db.whileBusy(ctx, func() error { return refuseTriggers(ctx, db.sql, db.path) }); err != nil {
		return err
	}
	// A new, empty file gets the current schema at once; a file of an older
	// version is migrated step by step, each migration moving its data.
	if version == 0 {
		created, err := db.createFromImage(ctx)
		if emobench.ErrorCode(err) != "" {
			return err
		}
		if err != nil {
			return fmt.Errorf("create %s at schema version %d: %w", db.path, SchemaVersion(), err)
		}
		if created {
			version = SchemaVersion()
		}
	}
	for _, m := range migrations() {
		if m.version <= version {
			continue
		}
		body, err := migrationFS.ReadFile(path.Join("migrations", m.name))
		if err != nil {
			return err
		}
		// The immediate transaction holds the write lock, so another process
		// migrating the same file waits and then finds the work done.
		err = db.inTx(ctx, func(tx *sql.Tx) error {
			var current int
			if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
				return err
			}
			if current >= m.version {
				return nil
			}
			if current == 0 {
				if err := refuseForeign(ctx, tx, db.path); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "PRAGMA application_id = "+strconv.Itoa(ApplicationID)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(m.version))
			return err
		})
		if emobench.ErrorCode(err) != "" {
			return err
		}
		if err != nil {
			return fmt.Errorf("migrate %s to version %d (%s): %w", db.path, m.version, m.name, err)
		}
	}
	// A file of an emobench older than application_id, recognised by its
	// schema, is marked at its first write.
	var appID int64
	err = db.whileBusy(ctx, func() error {
		return db.sql.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID)
	})
	if err != nil {
		return fmt.Errorf("open %s: %w", db.path, err)
	}
	if appID != ApplicationID {
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, "PRAGMA application_id = "+strconv.Itoa(ApplicationID))
			return err
		})
		if err != nil {
			return fmt.Errorf("open %s: mark as an emobench file: %w", db.path, err)
		}
	}
	return nil
}

// refuseTriggers fails when the file holds triggers. emobench creates none,
// and a trigger in a file from someone else would run its SQL on our writes
// (trusted_schema off stops only its function calls).
func refuseTriggers(ctx context.Context, conn *sql.DB, path string) error {
	names, err := stringRows(ctx, conn, "SELECT name FROM sqlite_schema WHERE type = 'trigger'")
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if len(names) > 0 {
		return triggersError(path, names)
	}
	return nil
}

func triggersError(path string, names []string) error {
	return &ForeignTriggersError{Path: path, Names: names}
}

// refuseForeign fails when an unversioned file already holds tables: it is
// some other program's database, and emobench must not add its schema.
func refuseForeign(ctx context.Context, tx *sql.Tx, path string) error {
	var objects int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return err
	}
	if objects > 0 {
		return emobench.Errorf(emobench.EINVALID, "%s is not an emobench database: it holds %d tables or indexes of another program", path, objects)
	}
	return nil
}

// inTxOnceBegun is inTx where ctx stops only the wait for the write lock:
// fn and the commit run under a context that is never cancelled.
func (db *DB) inTxOnceBegun(ctx context.Context, fn func(context.Context, *sql.Tx) error) error {
	keep := context.WithoutCancel(ctx)
	var tx *sql.Tx
	err := db.whileBusy(ctx, func() (err error) {
		tx, err = db.sql.BeginTx(keep, nil)
		return err
	})
	if err != nil {
		return err
	}
	if err := fn(keep, tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// inTx runs fn in a transaction, committing when fn returns nil and rolling
// back otherwise.
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	var tx *sql.Tx
	err := db.whileBusy(ctx, func() (err error) {
		tx, err = db.sql.BeginTx(ctx, nil) // BEGIN IMMEDIATE: takes the write lock
		return err
	})
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
