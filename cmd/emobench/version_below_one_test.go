package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// A file whose user_version was set below 1 outside emobench gets one
// verdict from check, runs and migrate: refused, naming the version, no
// raw SQL error (#20 items 5 and 22c, second round).
func TestDB_ErrVersionBelowOne(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "uv.db")
	mustRun(t, "--db", dbPath, "migrate")
	raw, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA user_version = -1"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	for _, cmd := range []string{"check", "runs", "migrate"} {
		r := runCLI(t, "", "--db", dbPath, cmd)
		if r.code != exitFailure || !strings.Contains(r.stdout+r.stderr, "but schema version -1, which no emobench writes") || strings.Contains(r.stderr, "SQL logic error") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want exit 1 naming the version", cmd, r.code, r.stdout, r.stderr)
		}
	}
}
