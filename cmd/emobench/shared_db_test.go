package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// sharedDB is one database built once per test binary (sharedDBCopy).
type sharedDB struct {
	once sync.Once
	path string // "" when the build failed
}

// sharedDBs holds the sharedDB of each name.
var sharedDBs sync.Map

// sharedDBCopy copies to the new file dst the database that build makes
// at the path it is given. build
// runs once per name in the test binary (by the first test that asks,
// failing that test when it fails), in the test config directory that
// TestMain removes; every test gets a copy of its own, to change as it
// likes. Tests that ingest the same files into a fresh database share one
// ingest this way.
func sharedDBCopy(t *testing.T, name, dst string, build func(t *testing.T, dbPath string)) {
	t.Helper()
	v, _ := sharedDBs.LoadOrStore(name, &sharedDB{})
	s := v.(*sharedDB)
	s.once.Do(func() {
		dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "shared-dbs", name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		dbPath := filepath.Join(dir, name+".db")
		build(t, dbPath)
		s.path = dbPath // only when build returned: a failed build leaves ""
	})
	if s.path == "" {
		t.Fatalf("shared database %s: its build failed (see the first test that asked for it)", name)
	}
	// The CLI closed the database, so the main file holds it all; a WAL
	// file left beside it is copied too.
	for _, suffix := range []string{"", "-wal"} {
		if err := copyFile(s.path+suffix, dst+suffix); err != nil && !(suffix != "" && errors.Is(err, fs.ErrNotExist)) {
			t.Fatalf("copy of shared database %s: %v", name, err)
		}
	}
}

// copyFile copies the regular file src to the new file dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// realRunsTauBenchDB returns a database of the test's own holding the
// real run files realRuns/*.json and realRuns/taubench, ingested once per
// test binary. Under -short it holds a sample of them (shortSample); the
// full suite holds them all.
func realRunsTauBenchDB(t *testing.T) string {
	t.Helper()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "src.db")
	sharedDBCopy(t, "realruns-taubench", dbPath, func(t *testing.T, dbPath string) {
		files, _ := filepath.Glob(filepath.Join(realRuns, "*.json"))
		mustRun(t, append([]string{"--db", dbPath, "ingest"}, shortSample(t, files)...)...)
		if !testing.Short() {
			mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "taubench"))
			return
		}
		files, _ = filepath.Glob(filepath.Join(realRuns, "taubench", "*.json"))
		mustRun(t, append([]string{"--db", dbPath, "ingest"}, shortSample(t, files)...)...)
	})
	return dbPath
}

// shortSampleBytes is the size under which shortSample keeps every file.
const shortSampleBytes = 1 << 20

// shortSample returns files whole, or under -short those smaller than
// shortSampleBytes: the real runs' every format and oddity at a fraction
// of the ingest time (their redaction is the costly part), where the full
// suite takes them all.
func shortSample(t *testing.T, files []string) []string {
	t.Helper()
	if !testing.Short() {
		return files
	}
	var out []string
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() < shortSampleBytes {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no file of %v is under %d bytes: the -short sample is empty", files, shortSampleBytes)
	}
	return out
}
