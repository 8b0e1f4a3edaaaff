package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An ingest whose every input is missing fails naming it and makes no
// database: nothing is invented for nothing read.
func TestIngest_ErrMissingMakesNoDB(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath, missing := filepath.Join(dir, "e.db"), filepath.Join(dir, "missing.json")
	r := runCLI(t, "", "--db", dbPath, "ingest", missing)
	if r.code != exitFailure || !strings.Contains(r.stderr, missing+": no such file or directory") {
		t.Fatalf("exit %d, stderr %q: want exit 1 naming %s", r.code, r.stderr, missing)
	}
	if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
		t.Fatalf("%s exists after an ingest of nothing (%v)", dbPath, err)
	}
}
