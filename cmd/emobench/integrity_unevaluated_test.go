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
	t.Parallel()
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
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "old.db")
	file := filepath.Join(dir, "gpt-4o-retail.json")
	if err := os.WriteFile(file, []byte(`[{"task_id": 0, "trial": 0, "reward": 1.0, "info": {}, "traj": []}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", file)
	downgrade(t, dbPath, 5, "UPDATE trajectories SET passed = 1")
	mustRun(t, "--db", dbPath, "migrate")
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE passed = 0 AND evaluated = 0 AND reward = 1.0"); got != 1 {
		t.Errorf("after migrate, unevaluated rows with passed = 0 and reward 1.0 = %d, want 1", got)
	}
}

// A τ²-bench simulation that ended in a non-evaluable reason never passes,
// even with reward 1.0 (so --infra-errors fail counts it as a failure, as its
// note says), and a τ-bench error record with messages but no reward_info
// ends in error, not in the step cap.
func TestIngest_NonEvaluableEndingsNeverPass(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "n.db")
	tau2 := filepath.Join(dir, "infra.json")
	if err := os.WriteFile(tau2, []byte(`{"info": {"agent_info": {"llm": "m"}, "environment_info": {"domain_name": "airline"}},
 "tasks": [{"id": "1"}, {"id": "2"}],
 "simulations": [
  {"id": "s0", "task_id": "1", "trial": 0, "termination_reason": "context_window_exceeded", "reward_info": {"reward": 1.0}, "messages": []},
  {"id": "s1", "task_id": "2", "trial": 0, "termination_reason": "agent_stop", "reward_info": {"reward": 1.0}, "messages": []}
 ]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", dbPath, "ingest", tau2)
	if r.code != 0 {
		t.Fatalf("ingest: exit %d: %s", r.code, r.stderr)
	}
	wantWarn := "simulation 0: ended in context_window_exceeded with reward 1: τ²-bench does not evaluate such a simulation, so it is stored unevaluated and never passes (stats --infra-errors exclude leaves it out)"
	if !strings.Contains(r.stderr, wantWarn) {
		t.Errorf("stderr %q lacks %q", r.stderr, wantWarn)
	}
	if rows := statsJSON(t, "--db", dbPath, "stats", "passk", "--k", "1"); len(rows) != 1 || rows[0].PassHatK != 0.5 {
		t.Errorf("stats passk (infra errors fail) = %+v, want pass^1 0.5", rows)
	}
	if rows := statsJSON(t, "--db", dbPath, "stats", "passk", "--k", "1", "--infra-errors", "exclude"); len(rows) != 1 || rows[0].PassHatK != 1 || rows[0].Tasks != 1 {
		t.Errorf("stats passk --infra-errors exclude = %+v, want pass^1 1 over 1 task", rows)
	}

	tau := filepath.Join(dir, "m-retail.json")
	if err := os.WriteFile(tau, []byte(`[{"task_id": 0, "trial": 0, "reward": 0.0, "info": {"error": "boom"}, "traj": [{"role": "user", "content": "hi"}]}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", tau)
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories t JOIN runs r ON r.id = t.run_id WHERE r.name = 'm-retail' AND t.termination_reason = 'error' AND t.error = 'boom'"); got != 1 {
		t.Errorf("error record with messages: %d rows with termination error, want 1", got)
	}
}

// An unevaluated trajectory keeps its raw reward through a τ²-bench export
// and back, and still does not pass.
func TestExport_Tau2KeepsUnevaluatedRawReward(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "gpt-4o-retail.json")
	if err := os.WriteFile(file, []byte(`[{"task_id": 0, "trial": 0, "reward": 1.0, "info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []}}, "traj": [{"role": "user", "content": "hi"}]}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(dir, "a.db")
	mustRun(t, "--db", first, "ingest", file)
	out := filepath.Join(dir, "run.json")
	mustRun(t, "--db", first, "export", "--format", "tau2", "--out", out)
	second := filepath.Join(dir, "b.db")
	mustRun(t, "--db", second, "ingest", out)
	if got := sqlInt(t, second, "SELECT COUNT(*) FROM trajectories WHERE reward = 1.0 AND evaluated = 0 AND passed = 0"); got != 1 {
		t.Errorf("after the round trip, %d trajectories keep reward 1.0 unevaluated, want 1", got)
	}
}
