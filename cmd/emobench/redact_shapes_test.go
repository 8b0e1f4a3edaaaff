package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The credential shapes of issue 8 item 12, in an imported file: none
// reaches the db or an export; a tool call's ordinary arguments stay as
// written, its credentials do not.
func TestIngest_CredentialShapesRedacted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "shapes-retail.json")
	in := `[{"task_id": 0, "reward": 0.0, "trial": 0,
		"info": {"reward_info": {"reward": 0.0},
			"env": [{"name": "OPENAI_API_KEY", "value": "sk-LEAK-A"}],
			"headers": [{"key": "Authorization", "value": "Bearer LEAK-B-1234"}],
			"argv": ["run.py", "--api-key", "sk-LEAK-C"],
			"db": {"pwd": "LEAK-D"},
			"traceback": "  File \"a.py\", line 3, in call\n    api_key = 'sk-LEAK-E'\nopenai.AuthenticationError: {\"api_key\": \"sk-LEAK-F\"}",
			"error": "headers={'Authorization': 'Bearer sk-LEAK-G'}; Received API Key = sk-LEAK-H, Key Hash"},
		"traj": [
			{"role": "assistant", "content": "calling with Bearer sk-LEAK-I-123456",
			 "tool_calls": [{"id": "c1", "function": {"name": "login", "arguments": "{\"password\": \"LEAK-ARG\", \"order_id\": \"kept-arg\"}"}}]},
			{"role": "tool", "tool_call_id": "c1", "name": "login", "content": "redirect to https://app.example/oauth/callback?code=LEAK-J&state=s"},
			{"role": "user", "content": "ok ###STOP###"}]}]`
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "e.db")
	mustRun(t, "--db", dbPath, "ingest", path)
	dump := csvQuery(t, dbPath, `SELECT (SELECT group_concat(COALESCE(extra, '') || COALESCE(reward_info, '') || COALESCE(error, '')) FROM trajectories)
		|| (SELECT group_concat(COALESCE(content, '') || COALESCE(tool_calls, '')) FROM messages)`)
	if strings.Contains(dump, "LEAK") {
		t.Errorf("a credential reached the db:\n%s", dump)
	}
	for _, kept := range []string{"kept-arg", "state=s", "Received API Key = [redacted]", "api_key = '[redacted]'", "'Authorization': 'Bearer [redacted]'", "calling with Bearer [redacted]"} {
		if !strings.Contains(dump, kept) {
			t.Errorf("the db lacks %q:\n%s", kept, dump)
		}
	}
	for _, format := range []string{"jsonl", "taubench", "tau2", "csv"} {
		out := filepath.Join(dir, "export-"+format)
		mustRun(t, "--db", dbPath, "export", "--format", format, "--out", out)
		if leaked := grepTree(t, out, "LEAK"); leaked != "" {
			t.Errorf("export --format %s holds a credential in %s", format, leaked)
		}
	}
}

// grepTree returns the first file at or under path that holds s, or "".
func grepTree(t *testing.T, path, s string) string {
	t.Helper()
	found := ""
	err := filepath.Walk(path, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || found != "" {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), s) {
			found = p
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// Messages an older emobench stored with credentials: export writes them
// redacted and the first writing command redacts them in place, once.
func TestScrubOlderMessages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	fixtureDB(t, old)
	plainSQL(t, old,
		`UPDATE messages SET content = 'token echoed: Bearer sk-LEAK-123456' WHERE id IN (SELECT id FROM messages ORDER BY id LIMIT 3)`,
		`DELETE FROM maintenance`)
	leaks := "SELECT COUNT(*) FROM messages WHERE instr(content, 'LEAK') > 0"
	out := filepath.Join(dir, "export.jsonl")
	mustRun(t, "--db", old, "export", "--format", "jsonl", "--out", out)
	if data, _ := os.ReadFile(out); strings.Contains(string(data), "LEAK") {
		t.Error("the export holds a credential")
	}
	r := runCLI(t, "", "--db", old, "migrate")
	if want := old + ": credentials redacted in the content of 3 messages stored by an older emobench"; r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Fatalf("migrate: exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
	if n := sqlInt(t, old, leaks); n != 0 {
		t.Errorf("%d messages still hold credentials after migrate", n)
	}
	if got := sqlCSV(t, old, "SELECT DISTINCT content FROM messages WHERE content LIKE 'token echoed%'"); !strings.Contains(got, "token echoed: Bearer [redacted]") {
		t.Errorf("content after redaction: %q", got)
	}
	if r := runCLI(t, "", "--db", old, "migrate"); r.stderr != "" {
		t.Errorf("second migrate: stderr %q, want nothing (done once)", r.stderr)
	}
}
