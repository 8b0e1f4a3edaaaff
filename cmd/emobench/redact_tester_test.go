package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The credential shapes an adversarial tester found past the rules, in a
// τ-bench and a τ²-bench file: none reaches the db (configs, trajectories,
// messages, task instructions, tool-call arguments) or any export format;
// actions and a tool call's ordinary arguments stay as written; a task's content hash is taken after
// redaction, so ingesting the τ-bench export again finds the same task row.
func TestIngest_TesterCredentialShapesRedacted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	taubench := filepath.Join(dir, "tester-retail.json")
	tau := `[{"task_id": 0, "reward": 0.0, "trial": 0,
		"info": {"reward_info": {"reward": 0.0, "actions": [{"name": "login", "kwargs": {"password": "kept-action"}}]},
			"task": {"user_id": "u1", "instruction": "Log in with api_key=sk-LEAK-T1 and send Bearer LEAK-T2-abcdef123.", "actions": [{"name": "login", "kwargs": {"password": "kept-task-action"}}], "outputs": []},
			"error": "python run.py --api-key \"sk-proj-LEAK-T3\" failed: Incorrect API key provided: sk-proj-LEAK-T4.",
			"env": [{"Name": "OPENAI_API_KEY", "Value": "LEAK-T5"}],
			"llm": {"kwargs": {"api_key": "LEAK-T6"}}},
		"traj": [
			{"role": "assistant", "content": "calling", "tool_calls": [{"id": "c1", "function": {"name": "login", "arguments": "{\"api_key\": \"LEAK-ARG1\", \"order_id\": \"kept-arg\"}"}}]},
			{"role": "tool", "tool_call_id": "c1", "name": "login", "content": "config loaded: api_key: \"LEAK-T7\"; headers [('api_key', 'LEAK-T8')]; token ghx-LEAK-T9-0123"},
			{"role": "user", "content": "Credentials: MD, FAAN. My key is sk-LEAKT10aaaaaaaaaaaaaaaaaaaaa ###STOP###"}]}]`
	tau2 := filepath.Join(dir, "tester-tau2.json")
	t2 := `{"timestamp": "2025-01-02T03:04:05",
		"info": {"agent_info": {"llm": "m-agent", "llm_args": {"kwargs": {"api_key": "sk-LEAK-U1"}}}, "user_info": {"llm": "m-user"}, "environment_info": {"domain_name": "mock"}},
		"tasks": [{"id": "t1", "user_scenario": {"persona": "Terse.", "instructions": "Use token sk-LEAKU2aaaaaaaaaaaaaaaaaaaaa and Bearer LEAK-U3-abcdef123."},
			"evaluation_criteria": {"actions": [{"action_id": "a1", "name": "login", "arguments": {"api_key": "kept-tau2-action"}}]}}],
		"simulations": [{"id": "s1", "task_id": "t1", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1},
			"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "name": "login", "arguments": {"password": "LEAK-ARG2", "user_id": "kept-tau2-arg"}}]},
				{"role": "tool", "id": "c1", "content": "('api_key', 'LEAK-U4')"},
				{"role": "user", "content": "hi ###STOP###"}]}]}`
	for path, data := range map[string]string{taubench: tau, tau2: t2} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dbPath := filepath.Join(dir, "e.db")
	mustRun(t, "--db", dbPath, "ingest", taubench, tau2)
	dump := csvQuery(t, dbPath, `SELECT (SELECT group_concat(COALESCE(config, '')) FROM runs)
		|| (SELECT group_concat(COALESCE(extra, '') || COALESCE(reward_info, '') || COALESCE(error, '')) FROM trajectories)
		|| (SELECT group_concat(COALESCE(content, '') || COALESCE(tool_calls, '')) FROM messages)
		|| (SELECT group_concat(instruction || actions) FROM tasks)`)
	if strings.Contains(dump, "LEAK") {
		t.Errorf("a credential reached the db:\n%s", dump)
	}
	kept := []string{"kept-action", "kept-task-action", "kept-arg", "kept-tau2-action", "kept-tau2-arg", "Credentials: MD, FAAN"}
	for _, s := range kept {
		if !strings.Contains(dump, s) {
			t.Errorf("the db lacks %q:\n%s", s, dump)
		}
	}
	tasks := sqlInt(t, dbPath, "SELECT COUNT(*) FROM tasks")
	for _, format := range []string{"jsonl", "taubench", "tau2", "csv", "parquet"} {
		out := filepath.Join(dir, "export-"+format)
		mustRun(t, "--db", dbPath, "export", "--format", format, "--out", out)
		if leaked := grepTree(t, out, "LEAK"); leaked != "" {
			t.Errorf("export --format %s holds a credential in %s", format, leaked)
		}
		if format != "parquet" && grepTree(t, out, "kept-arg") == "" {
			t.Errorf("export --format %s lost a tool call's arguments", format)
		}
	}
	// The τ-bench run's export read back: its task hashes as the stored row.
	again := filepath.Join(dir, "again")
	mustRun(t, "--db", dbPath, "export", "--format", "taubench", "--run", "tester-retail", "--out", again)
	mustRun(t, "--db", dbPath, "ingest", again)
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs"); got != 3 {
		t.Errorf("%d runs, want 3 (the export ingested as its own run)", got)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM tasks"); got != tasks {
		t.Errorf("%d tasks after ingesting the τ-bench export, want %d (the same rows)", got, tasks)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(DISTINCT task_id) FROM trajectories t JOIN tasks k ON k.id = t.task_id WHERE k.domain = 'retail'"); got != 1 {
		t.Errorf("the τ-bench trajectories use %d task rows, want 1", got)
	}
}

// A file whose messages an emobench before these rules already redacted
// (redact-messages-1 done) still loses the shapes the new rules cover, at
// its first writing command.
func TestScrubOlderMessages_NewRules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	fixtureDB(t, old)
	plainSQL(t, old,
		`UPDATE messages SET content = 'config loaded: api_key: "LEAK-1"' WHERE id IN (SELECT id FROM messages ORDER BY id LIMIT 2)`,
		`DELETE FROM maintenance`,
		`INSERT INTO maintenance (task, done_at) VALUES ('redact-trajectories-2', '2026-01-01T00:00:00Z'), ('redact-messages-1', '2026-01-01T00:00:00Z')`)
	r := runCLI(t, "", "--db", old, "migrate")
	if want := old + ": credentials redacted in the content of 2 messages stored by an older emobench"; r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Fatalf("migrate: exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
	if n := sqlInt(t, old, "SELECT COUNT(*) FROM messages WHERE instr(content, 'LEAK') > 0"); n != 0 {
		t.Errorf("%d messages still hold credentials after migrate", n)
	}
}

// The real result files hold no credential: the redaction rules, the
// provider key formats among them, change nothing in them (a guard against
// false positives; it passes on main too).
func TestIngest_RealRunsNothingRedacted(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "real.db")
	args := []string{"--db", dbPath, "ingest", filepath.Join(realRuns, "taubench"), filepath.Join(realRuns, "tau2")}
	if testing.Short() { // a sample of each folder's files; the full suite reads them all
		args = args[:3]
		for _, dir := range []string{"taubench", "tau2"} {
			files, _ := filepath.Glob(filepath.Join(realRuns, dir, "*.json"))
			args = append(args, shortSample(t, files)...)
		}
	}
	files, _ := filepath.Glob(filepath.Join(realRuns, "*.json"))
	r := runCLI(t, "", append(args, shortSample(t, files)...)...)
	if r.code != 0 || strings.Contains(r.stderr, "held a credential") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	n := sqlInt(t, dbPath, `SELECT (SELECT COUNT(*) FROM messages WHERE instr(content, '[redacted]') > 0)
		+ (SELECT COUNT(*) FROM trajectories WHERE instr(COALESCE(extra, '') || COALESCE(reward_info, '') || COALESCE(error, ''), '[redacted]') > 0)
		+ (SELECT COUNT(*) FROM tasks WHERE instr(instruction, '[redacted]') > 0)
		+ (SELECT COUNT(*) FROM runs WHERE instr(COALESCE(config, ''), '[redacted]') > 0)`)
	if n != 0 {
		t.Errorf("%d rows of the real files were redacted, want none", n)
	}
}
