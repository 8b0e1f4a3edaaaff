package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// stats passk and stats balance on a run with no trajectories say so in a
// note instead of printing a bare header; csv keeps its header for the
// programs that read it.
func TestStats_NoTrajectoriesNote(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "empty.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "tau2", "empty-run-no-simulations.json"))
	const note = "note: run 1 (empty-run-no-simulations) holds no trajectories: there is nothing to compute\n"
	for _, args := range [][]string{{"passk"}, {"passk", "--strict"}, {"passk", "--run", "1"}, {"balance"}, {"balance", "--part", "regression"}} {
		r := runCLI(t, "", append([]string{"--db", dbPath, "stats"}, args...)...)
		if r.code != 0 || r.stdout != "" || r.stderr != note {
			t.Errorf("stats %s: exit %d, stdout %q, stderr %q; want exit 0, no table and the note %q",
				strings.Join(args, " "), r.code, r.stdout, r.stderr, note)
		}
	}
	r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--format", "csv")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "run_id,run,k,") || r.stderr != note {
		t.Errorf("stats passk --format csv: exit %d, stdout %q, stderr %q; want the csv header and the note", r.code, r.stdout, r.stderr)
	}
	// Beside a run with trajectories, the empty run keeps today's note.
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "gpt-4.1-retail.json"))
	r = runCLI(t, "", "--db", dbPath, "stats", "passk", "--k", "1")
	if r.code != 0 || strings.Contains(r.stderr, "nothing to compute") || !strings.Contains(r.stdout, "gpt-4.1-retail") {
		t.Errorf("stats passk with a run holding trajectories: exit %d, stderr %q, stdout:\n%s", r.code, r.stderr, r.stdout)
	}
}
