package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIngest_UnevaluatedNeverPasses: a τ-bench record with reward 1.0 but no
// reward information (absent, null, or an error record with an empty traj) is
// stored unevaluated and counts as a failure in stats passk and runs, while its
// raw reward stays stored.
func TestIngest_UnevaluatedNeverPasses(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "u.db")
	file := filepath.Join(dir, "gpt-4o-retail.json")
	records := `[
 {"task_id": 0, "trial": 0, "reward": 1.0, "info": {}, "traj": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "done"}]},
 {"task_id": 1, "trial": 0, "reward": 1.0, "info": {"reward_info": null}, "traj": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "done"}]},
 {"task_id": 2, "trial": 0, "reward": 1.0, "info": {"error": "boom", "traceback": "x"}, "traj": []},
 {"task_id": 3, "trial": 0, "reward": 1.0, "info": {"reward_info": {"reward": 1.0, "info": {}}}, "traj": [{"role": "user", "content": "hi"}]}
]`
	if err := os.WriteFile(file, []byte(records), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", file)

	if got := sqlInt(t, dbPath, "SELECT SUM(passed) FROM trajectories"); got != 1 {
		t.Errorf("stored passes = %d, want 1 (only the evaluated record)", got)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE reward = 1.0"); got != 4 {
		t.Errorf("raw rewards of 1.0 kept = %d, want 4", got)
	}
	rows := statsJSON(t, "--db", dbPath, "stats", "passk", "--k", "1")
	if len(rows) != 1 || rows[0].PassHatK != 0.25 {
		t.Fatalf("stats passk rows = %+v, want one row with pass^1 = 0.25", rows)
	}
	out := mustRun(t, "--db", dbPath, "runs", "--format", "csv")
	if !strings.Contains(out, "0.2500") && !strings.Contains(out, ",0.25,") {
		t.Errorf("runs does not show pass^1 0.25:\n%s", out)
	}
}

// A file an older emobench wrote, with passed = 1 stored beside evaluated = 0,
// is corrected by the migration; the raw reward stays.
func TestMigrate_UnevaluatedPassesCleared(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "old.db")
	file := filepath.Join(dir, "gpt-4o-retail.json")
	if err := os.WriteFile(file, []byte(`[{"task_id": 0, "trial": 0, "reward": 1.0, "info": {}, "traj": []}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", file)
	plainSQL(t, dbPath, olderSQL("UPDATE trajectories SET passed = 1", "PRAGMA user_version = 5")...)
	mustRun(t, "--db", dbPath, "migrate")
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE passed = 0 AND evaluated = 0 AND reward = 1.0"); got != 1 {
		t.Errorf("after migrate, unevaluated rows with passed = 0 and reward 1.0 = %d, want 1", got)
	}
}
