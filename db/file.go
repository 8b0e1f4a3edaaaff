package db

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/internal/atomicfile"
)

// ApplicationID is the PRAGMA application_id of an emobench file ("emob" in
// ASCII), written at every migration. A file with another non-zero
// application_id belongs to another program and is never written.
const ApplicationID = 0x656d6f62

// lastUnmarkedVersion is the newest schema version whose files carry no
// application_id: files of versions 1 to lastUnmarkedVersion are
// recognised by their schema.
const lastUnmarkedVersion = 6

// sqliteMagic starts every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// checkFileKind refuses (EINVALID) a database path that exists as
// anything but a regular file, a symbolic link followed to its target: a
// named pipe would block the open for ever, and SQLite would write its
// pages over a block device and its journal beside a character device.
// It runs before anything opens the file; a path that does not exist
// passes (the caller decides whether it may be created). SQLite's files
// beside it (sideFiles), of path and of the file a link at path leads
// to, must each be absent or a regular file, not a link: SQLite would
// block on a named pipe there, uninterruptibly, delete it, or write
// through the link.
func checkFileKind(path string) error {
	if info, err := os.Stat(path); err == nil {
		if err := fileKindError(path, info.Mode()); err != nil {
			return err
		}
	}
	bases := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		bases = append(bases, real)
	}
	for _, base := range bases {
		for _, side := range sideFiles {
			info, err := os.Lstat(base + side.suffix)
			if err != nil {
				continue
			}
			if !info.Mode().IsRegular() {
				return emobench.Errorf(emobench.EINVALID, "%s is %s, not SQLite's %s: emobench leaves it as it is; move it away",
					base+side.suffix, atomicfile.Kind(info.Mode()), side.what)
			}
			// SQLite truncates and rewrites its side files: through a
			// second name it would overwrite another file.
			if n := hardLinks(info); n > 1 {
				return emobench.Errorf(emobench.EINVALID, "%s has %d names (hard links): SQLite would write its %s into another file too; emobench leaves it as it is; move it away",
					base+side.suffix, n, side.what)
			}
		}
	}
	return nil
}

// sideFiles are the files SQLite keeps beside a database, by suffix.
var sideFiles = []struct{ suffix, what string }{
	{"-journal", "journal"}, {"-wal", "WAL file"}, {"-shm", "shared-memory file"},
}

// fileKindError is checkFileKind's answer for a file of mode at path.
func fileKindError(path string, mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	return emobench.Errorf(emobench.EINVALID, "%s is %s, not a database file: emobench leaves it as it is", path, atomicfile.Kind(mode))
}

// fileState is what inspectFile found in a database file, read without
// writing anything.
type fileState struct {
	empty    bool // no file, or a file of 0 bytes
	appID    int64
	version  int
	objects  int      // tables, views, indexes and triggers
	triggers []string // names of its triggers
	notOurs  error    // why emobench must not write the file; nil when it may
	foreign  error    // of an emobench file: how its schema differs from emobench's (foreignSchema); nil when it does not
}

// inspectFile reads path's SQLite header and schema through a read-only
// connection that creates no -wal or -shm file, and says in notOurs whether
// emobench may write it. It fails when path holds something other than an
// SQLite database. Its caller holds path's gate (see lockGate), so that an
// immutable read of it cannot race a writer that starts; retry runs the
// probe again while the file is locked (SQLITE_BUSY), until ctx is done.
func inspectFile(ctx context.Context, path string, retry func(context.Context, func() error) error) (fileState, error) {
	return inspectWith(ctx, path, retry, func() (fileState, error) { return probeFile(ctx, path) })
}

// inspectThrough is inspectFile reading through conn, a read-only pool
// of path that the caller keeps (OpenReadOnly's own: one connection and
// one reading of the schema, not two).
func inspectThrough(ctx context.Context, path string, conn *sql.DB, retry func(context.Context, func() error) error) (fileState, error) {
	return inspectWith(ctx, path, retry, func() (fileState, error) { return probeThrough(ctx, path, conn) })
}

// inspectWith is inspectFile with probe as each attempt's reading.
func inspectWith(ctx context.Context, path string, retry func(context.Context, func() error) error, probe func() (fileState, error)) (fileState, error) {
	info, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && info.Size() == 0) {
		return fileState{empty: true}, nil
	}
	if err != nil {
		return fileState{}, fmt.Errorf("open %s: %w", path, err)
	}
	if _, err := readHeader(path); err != nil {
		return fileState{}, err
	}
	var st fileState
	err = retry(ctx, func() error {
		var err error
		st, err = probe()
		return err
	})
	return st, err
}

// probeFile is one attempt of inspectFile; an SQLITE_BUSY error it
// returns as it is, for the caller to try again.
func probeFile(ctx context.Context, path string) (fileState, error) {
	dsn, _ := readOnlyDSN(path)
	conn, err := sql.Open("sqlite", dsn+"&_pragma=busy_timeout("+strconv.Itoa(BusyTimeout)+")"+untrustedSafety)
	if err != nil {
		return fileState{}, fmt.Errorf("open %s: %w", path, err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	return probeThrough(ctx, path, conn)
}

// probeThrough is probeFile's reading of path through conn.
func probeThrough(ctx context.Context, path string, conn *sql.DB) (fileState, error) {
	var st fileState
	var triggers int // their names are listed only when there are any: one statement fewer
	err := conn.QueryRowContext(ctx, "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), (SELECT COUNT(*) FROM sqlite_schema), (SELECT COUNT(*) FROM sqlite_schema WHERE type = 'trigger')").
		Scan(&st.appID, &st.version, &st.objects, &triggers)
	if err != nil {
		return fileState{}, notOursOr(ctx, path, err)
	}
	if triggers > 0 {
		if st.triggers, err = stringRows(ctx, conn, "SELECT name FROM sqlite_schema WHERE type = 'trigger'"); err != nil {
			if isBusy(err) {
				return fileState{}, err
			}
			return fileState{}, fmt.Errorf("open %s: %w", path, err)
		}
	}
	if st.objects == 0 && st.version == 0 && st.appID == 0 {
		st.empty = true // an SQLite file nothing was stored in yet
	}
	st.notOurs = st.ours(ctx, path, conn)
	if isBusy(st.notOurs) {
		return fileState{}, st.notOurs // reading the schema met a lock
	}
	if st.notOurs == nil && !st.empty && st.version >= 1 {
		if st.foreign = foreignSchema(ctx, path, conn, st.version); isBusy(st.foreign) {
			return fileState{}, st.foreign
		}
	}
	return st, nil
}

// notOursOr wraps err, from the first read of path, as "not an emobench
// database", except a lock (SQLITE_BUSY, returned as it is) or a done ctx:
// a file that is busy is not for that someone else's.
func notOursOr(ctx context.Context, path string, err error) error {
	switch {
	case isBusy(err):
		return err
	case ctx.Err() != nil:
		return fmt.Errorf("open %s: %w", path, ctx.Err())
	}
	return fmt.Errorf("open %s: not an emobench database: %w", path, err)
}

// readHeader returns the first 100 bytes of path, the SQLite header, or an
// error when the file is not an SQLite database.
func readHeader(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	header := make([]byte, 100)
	if _, err := io.ReadFull(f, header); err != nil || !bytes.HasPrefix(header, sqliteMagic) {
		return nil, emobench.Errorf(emobench.EINVALID, "%s is not an emobench database: it is not an SQLite file", path)
	}
	return header, nil
}

// readOnlyDSN opens path read-only without creating files beside it. A
// file in WAL mode whose -wal file is absent (every write committed and
// checkpointed) is opened immutable: mode=ro alone would create -wal and
// -shm files next to it. Such a read is only safe while path's gate is
// held shared (see lockGate): no writer can start on the file meanwhile.
func readOnlyDSN(path string) (dsn string, immutable bool) {
	dsn = "file:" + escapePath(path) + "?mode=ro"
	if walWithoutLog(path) {
		return dsn + "&immutable=1", true
	}
	return dsn, false
}

// walWithoutLog reports whether path's header says WAL mode (file format
// bytes 18 and 19 are 2) while no -wal file exists.
func walWithoutLog(path string) bool {
	header, err := readHeader(path)
	if err != nil || (header[18] != 2 && header[19] != 2) {
		return false
	}
	_, err = os.Stat(path + "-wal")
	return errors.Is(err, os.ErrNotExist)
}

// ours returns nil when st describes a file emobench may write: empty, made
// by emobench (its application_id), or made by an emobench older than
// application_id and recognised by its schema. Otherwise it returns why
// the file is someone else's.
func (st fileState) ours(ctx context.Context, path string, conn *sql.DB) error {
	switch {
	case st.empty:
		return nil
	case st.appID == ApplicationID:
		if st.version > SchemaVersion() {
			return newerSchemaError(path, st.version)
		}
		if st.version < 1 && st.objects > 0 {
			// No migration leaves tables at version 0 or below: the
			// version was changed outside emobench, and migrating would
			// run 0001 over tables that exist.
			return emobench.Errorf(emobench.EINVALID, "%s has emobench's mark and %d schema objects but schema version %d, which no emobench writes (PRAGMA user_version was changed outside emobench): emobench leaves it as it is",
				path, st.objects, st.version)
		}
		return nil
	}
	why := ""
	if st.appID == 0 && st.objects > 0 && st.version >= 1 && st.version <= lastUnmarkedVersion {
		missing, err := missingSchema(ctx, conn, st.version)
		if err != nil {
			return fmt.Errorf("open %s: %w", path, err)
		}
		if missing == "" {
			return nil // an earlier emobench's file
		}
		why = fmt.Sprintf("; not emobench's schema of version %d: no %s", st.version, missing)
	}
	objects := fmt.Sprintf("%d schema objects", st.objects)
	if st.objects == 1 {
		objects = "1 schema object"
	}
	return emobench.Errorf(emobench.EINVALID, "%s is not an emobench database (application_id %d, user_version %d, %s%s): emobench leaves it as it is",
		path, st.appID, st.version, objects, why)
}

// missingSchema returns the first table or view of emobench's schema of
// version that conn lacks or has with other columns, or "" when it has
// them all. Indexes, definitions and objects of its own beside them are
// left to emobench check, which reports a damaged file's differences.
func missingSchema(ctx context.Context, conn *sql.DB, version int) (string, error) {
	want, err := referenceSchema(ctx, version)
	if err != nil {
		return "", err
	}
	got, err := schemaOf(ctx, conn)
	if err != nil {
		return "", err
	}
	var missing []string
	for obj, w := range want {
		g, ok := got[obj]
		switch {
		case strings.HasPrefix(obj, "index "):
		case !ok:
			missing = append(missing, obj)
		case g.cols != w.cols:
			// Same names, other columns: a look-alike that migrations
			// would fail on halfway, after the switch to WAL had written.
			missing = append(missing, fmt.Sprintf("%s with columns %s (it has %s)", obj, w.cols, g.cols))
		}
	}
	if len(missing) == 0 {
		return "", nil
	}
	// Name a table first: it says the most about what the file is.
	first := missing[0]
	for _, m := range missing[1:] {
		if strings.HasPrefix(m, "table ") == strings.HasPrefix(first, "table ") && m < first || strings.HasPrefix(m, "table ") && !strings.HasPrefix(first, "table ") {
			first = m
		}
	}
	return first, nil
}
