package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// importedRunDB stores one imported τ-bench run (run 1) and returns the db.
func importedRunDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	mustRun(t, "--db", dbPath, "ingest", writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json"))
	return dbPath
}

// An export that writes no record (every trajectory of an imported run is
// skipped) is a failure of the data: exit 1, naming the skips, without the
// usage hint.
func TestTracerExport_ErrNoRecords(t *testing.T) {
	dbPath := importedRunDB(t)
	out := filepath.Join(t.TempDir(), "train.jsonl")
	r := runCLI(t, "", "--db", dbPath, "tracer", "export", "--run", "1", "--format", "openai", "--out", out)
	if got, want := r.code, exitFailure; got != want {
		t.Fatalf("exit %d, want %d; stderr %q", got, want, r.stderr)
	}
	if !strings.Contains(r.stderr, "no record written (0 failed validation, ") || strings.Contains(r.stderr, "--help") {
		t.Errorf("stderr %q: want the no-record error without the usage hint", r.stderr)
	}
}
