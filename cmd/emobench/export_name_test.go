package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExport_RunNameRoundTrip: a run whose name a file name cannot spell
// ("noisy:0.3-retail" is written as noisy_0.3-retail.json) keeps its exact
// name through a τ-bench and a τ²-bench export ingested again: both files
// carry it. Every format says what it wrote.
func TestExport_RunNameRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	const name = "noisy:0.3-retail"
	mustRun(t, "--quiet", "--db", src, "run", "--domain", "retail", "--tasks", "2", "--condition", "with-emotions", "--agent", "noisy:0.3", "--name", name)
	for _, format := range []string{"taubench", "tau2"} {
		out := filepath.Join(dir, format)
		stdout := mustRun(t, "--db", src, "export", "--format", format, "--out", out)
		file := filepath.Join(out, "noisy_0.3-retail.json")
		if want := "wrote " + file + " (run 1, 2 trajectories)\n"; stdout != want {
			t.Fatalf("export --format %s printed %q, want %q", format, stdout, want)
		}
		back := filepath.Join(dir, format+".db")
		mustRun(t, "--quiet", "--db", back, "ingest", file)
		if got, want := sqlCSV(t, back, "SELECT name, condition FROM runs"), "name,condition\n"+name+",with-emotions\n"; got != want {
			t.Errorf("%s round trip: runs\n%s\nwant\n%s", format, got, want)
		}
	}
	for format, want := range map[string]string{
		"parquet": "trajectories.parquet (2 trajectories)",
		"csv":     "trajectories.csv (2 trajectories)",
		"jsonl":   "out.jsonl (1 run, 2 trajectories)",
	} {
		out := filepath.Join(dir, format+"-out")
		if format == "jsonl" {
			out = filepath.Join(dir, "out.jsonl")
		}
		if stdout := mustRun(t, "--db", src, "export", "--format", format, "--out", out); !strings.Contains(stdout, want) {
			t.Errorf("export --format %s printed %q, want it to say %q", format, stdout, want)
		}
	}
}
