package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// report keeps an existing --out file unless --force is given, as export
// and vacuum do.
func TestReport_RefusesOverwriteWithoutForce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	fixtureDB(t, dbPath)
	out := filepath.Join(dir, "r.html")
	if err := os.WriteFile(out, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}

	r := runCLI(t, "", "--db", dbPath, "report", "--out", out, "--resamples", "200")
	if got, want := r.code, exitUsage; got != want {
		t.Fatalf("report over an existing file: exit %d, want %d (stderr %q)", got, want, r.stderr)
	}
	if !strings.Contains(r.stderr, out) || !strings.Contains(r.stderr, "--force") {
		t.Errorf("stderr = %q, want the file named and --force suggested", r.stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "keep me" {
		t.Errorf("file was changed to %d bytes, want it kept", len(b))
	}

	mustRun(t, "--db", dbPath, "report", "--out", out, "--resamples", "200", "--force")
	if b, _ := os.ReadFile(out); !strings.HasPrefix(string(b), "<!DOCTYPE html>") {
		t.Errorf("with --force the file starts %q, want the report", string(b[:min(len(b), 20)]))
	}
}
