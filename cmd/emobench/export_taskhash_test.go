package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/export"
)

// runTaskHashes lists, per run, the task key and content hash of every
// trajectory's task: the pairs a re-ingested run must keep to pair with
// the original one.
func runTaskHashes(t *testing.T, dbPath string) string {
	t.Helper()
	return mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		`SELECT DISTINCT r.agent_model, r.domain, r.condition, k.task_key, k.content_sha256
		 FROM trajectories tr JOIN runs r ON r.id = tr.run_id JOIN tasks k ON k.id = tr.task_id
		 ORDER BY 1, 2, 3, 4, 5`)
}

// τ-bench runs exported to τ²-bench and read again keep their tasks'
// instructions, and so their content hashes: the export does not leave the
// "Instructions:\n\t" that τ²-bench's rendering of a user_scenario adds.
func TestExport_Tau2RoundTripTauBenchTaskHashes(t *testing.T) {
	t.Parallel()
	src := realRunsTauBenchDB(t)
	dst := roundTrip(t, src, export.FormatTau2)
	if diff := cmp.Diff(runTaskHashes(t, src), runTaskHashes(t, dst)); diff != "" {
		t.Errorf("task hashes changed (-before +after):\n%s", diff)
	}
	q := "SELECT DISTINCT domain, task_key, instruction FROM tasks ORDER BY 1, 2, 3"
	if diff := cmp.Diff(mustRun(t, "--db", src, "sql", "--format", "csv", q), mustRun(t, "--db", dst, "sql", "--format", "csv", q)); diff != "" {
		t.Errorf("instructions changed (-before +after):\n%s", diff)
	}
}
