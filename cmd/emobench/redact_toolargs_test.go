package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Credentials in tool-call arguments are redacted at ingest: the stored
// arguments (messages.tool_arguments, messages.tool_calls) and every export
// hold Placeholder, stay valid JSON, and keep ordinary arguments.
func TestIngest_RedactsToolCallArguments(t *testing.T) {
	t.Parallel()
	secrets := []string{"sk-proj-AAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Hunter2Pass", "plainpw123", "eyJhbGciOiJIUzI1NiJ9"}
	args1 := `{"token":"sk-proj-AAAAAAAAAAAAAAAAAAAAAAAAAAAA","url":"https://bob:Hunter2Pass@host/x"}`
	args2 := `{"password":"plainpw123","auth":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"}`
	args3 := `{"order_id":"#W2378156","email":"mia.li@example.com","amount":150.5}`
	call := func(id, args string) map[string]any {
		return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "login", "arguments": args}}
	}
	rec := []map[string]any{{
		"task_id": 0, "reward": 1.0, "trial": 0,
		"info": map[string]any{"task": map[string]any{"user_id": "u", "instruction": "i", "actions": []any{}, "outputs": []any{}}, "reward_info": map[string]any{"reward": 1.0}},
		"traj": []any{
			map[string]any{"role": "user", "content": "hi"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call("c1", args1), call("c2", args2), call("c3", args3)}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "name": "login", "content": "ok"},
			map[string]any{"role": "user", "content": "###STOP###"},
		},
	}}
	dir := t.TempDir()
	file := filepath.Join(dir, "creds.json")
	data, _ := json.Marshal(rec)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "c.db")
	mustRun(t, "--quiet", "--db", dbPath, "ingest", file)
	got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT tool_arguments, tool_calls FROM messages WHERE tool_arguments IS NOT NULL ORDER BY id")
	want := "tool_arguments,tool_calls\n" +
		`"{""token"":""[redacted]"",""url"":""https://bob:[redacted]@host/x""}",` +
		`"[{""id"":""c1"",""name"":""login"",""arguments"":{""token"":""[redacted]"",""url"":""https://bob:[redacted]@host/x""}},` +
		`{""id"":""c2"",""name"":""login"",""arguments"":{""auth"":""[redacted]"",""password"":""[redacted]""}},` +
		`{""id"":""c3"",""name"":""login"",""arguments"":{""order_id"":""#W2378156"",""email"":""mia.li@example.com"",""amount"":150.5}}]"` + "\n"
	if got != want {
		t.Errorf("stored tool_arguments:\n%s\nwant:\n%s", got, want)
	}
	outs := map[string]string{"jsonl": filepath.Join(dir, "a.jsonl"), "taubench": filepath.Join(dir, "t.json"), "tau2": filepath.Join(dir, "t2.json"), "csv": filepath.Join(dir, "csv")}
	dumps := []string{mustRun(t, "--db", dbPath, "sql", "--format", "json", "SELECT * FROM messages"), mustRun(t, "--db", dbPath, "show", "--run", "creds", "--task", "0", "--full")}
	for format, out := range outs {
		mustRun(t, "--quiet", "--db", dbPath, "export", "--format", format, "--out", out)
		if format == "csv" {
			out = filepath.Join(out, "messages.csv")
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		dumps = append(dumps, string(b))
	}
	for i, d := range dumps {
		for _, s := range secrets {
			if strings.Contains(d, s) {
				t.Errorf("output %d holds %q", i, s)
			}
		}
		if i > 1 && !strings.Contains(d, "mia.li@example.com") {
			t.Errorf("output %d lost the ordinary arguments", i)
		}
	}
}
