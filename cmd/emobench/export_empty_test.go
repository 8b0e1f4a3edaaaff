package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/export"
)

// A τ-bench file keeps a run's metadata only in its records: exporting a
// run with no trajectories warns that its model, user model and domain
// will not come back, and --format tau2, which the warning points to, does
// keep them.
func TestExport_TauBenchEmptyRunWarns(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	src := filepath.Join(t.TempDir(), "src.db")
	mustRun(t, "--db", src, "ingest", filepath.Join(realRuns, "tau2", "empty-run-no-simulations.json"))
	q := "SELECT agent_model, user_model, domain, condition FROM runs"
	meta := mustRun(t, "--db", src, "sql", "--format", "csv", q)
	if strings.Contains(meta, "unknown") {
		t.Fatalf("source run metadata %q has unknowns; the test needs a run whose metadata is known", meta)
	}
	out := filepath.Join(t.TempDir(), "empty.json")
	r := runCLI(t, "", "--db", src, "export", "--format", export.FormatTauBench, "--out", out)
	if r.code != 0 {
		t.Fatalf("export: exit %d\nstderr: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "warning: "+out+": run 1 (") || !strings.Contains(r.stderr, "has no trajectories") ||
		!strings.Contains(r.stderr, "model") || !strings.Contains(r.stderr, "domain") {
		t.Errorf("export of a run with no trajectories: stderr %q, want a warning that its metadata is lost", r.stderr)
	}
	if !strings.Contains(r.stdout, "wrote "+out+" (run 1, 0 trajectories)") {
		t.Errorf("stdout %q, want the file written anyway", r.stdout)
	}

	dst := roundTrip(t, src, export.FormatTau2)
	if got := mustRun(t, "--db", dst, "sql", "--format", "csv", q); got != meta {
		t.Errorf("tau2 round trip of the empty run: metadata %q, want %q", got, meta)
	}
	// Runs with trajectories carry their metadata: no warning.
	full := filepath.Join(t.TempDir(), "full.db")
	fixtureDB(t, full)
	if r := runCLI(t, "", "--db", full, "export", "--format", export.FormatTauBench, "--out", t.TempDir()); r.code != 0 || r.stderr != "" {
		t.Errorf("export of runs with trajectories: exit %d, stderr %q, want no warning", r.code, r.stderr)
	}
}
