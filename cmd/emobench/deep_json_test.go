package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// deepArray is JSON nested n deep: more than SQLite's json_valid takes
// (1000), less than Go's decoder does (10,000).
func deepArray(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// An agent's tool call whose arguments are nested 2,000 deep is malformed
// arguments: the episode goes on, the run finishes and its trajectory is
// stored with the call flagged (#20 item 3).
func TestRun_DeepToolArguments(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testSecret)
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) {
			if c.n == 0 {
				c.reply(map[string]any{"content": nil, "tool_calls": []any{map[string]any{
					"id": "call_deep", "type": "function",
					"function": map[string]any{"name": "get_order_details", "arguments": `{"order_id": ` + deepArray(2000) + `}`},
				}}}, 10, 10)
				return
			}
			c.text("Could you tell me your order id?", 10, 10)
		},
		"fake-user": func(c *chatCall) {
			if c.n == 0 {
				c.text("Hi, I want to cancel an order.", 10, 10)
				return
			}
			c.text("###STOP###", 10, 10)
		},
	})
	dbPath := filepath.Join(t.TempDir(), "deep.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "llm:fake-agent", "--user", "llm:fake-user", "--base-url", srv.baseURL(),
		"--concurrency", "1")
	if r.code != 0 {
		t.Fatalf("run: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT termination_reason, n_tool_calls, n_tool_errors FROM trajectories"),
		"termination_reason,n_tool_calls,n_tool_errors\nuser_stop,1,1\n"; got != want {
		t.Errorf("trajectory:\n%s\nwant:\n%s", got, want)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT arguments_malformed, json_type(tool_arguments) AS type, length(json_extract(tool_arguments, '$')) AS n FROM messages WHERE tool_call_id = 'call_deep' AND role = 'assistant'"),
		fmt.Sprintf("arguments_malformed,type,n\n1,text,%d\n", len(`{"order_id": `)+4000+1); got != want {
		t.Errorf("the deep call:\n%s\nwant it flagged, its raw text kept as a string:\n%s", got, want)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT content FROM messages WHERE role = 'tool'"),
		"content\nError: arguments are nested 2001 deep; at most 998\n"; got != want {
		t.Errorf("tool result:\n%s\nwant:\n%s", got, want)
	}
}

// A τ-bench file whose tool-call arguments are nested too deep is stored
// with the call flagged malformed; one whose reward_info is nested too deep
// is refused with the file, record, task, trial, field and limit named
// (#20 item 3).
func TestIngest_DeepJSON(t *testing.T) {
	t.Parallel()
	record := func(rewardInfo, args string) string {
		return fmt.Sprintf(`{"task_id": 12, "reward": 1.0, "info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []}, "reward_info": %s},`+
			` "traj": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": %s}}]}], "trial": 0}`,
			rewardInfo, args)
	}
	ok := `{"reward": 1.0, "info": {}}`
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "deep.db")
	for _, args := range []string{`"` + deepArray(2000) + `"`, `{"a": ` + deepArray(2000) + `}`} {
		path := writeFile(t, "args-retail.json", "["+record(ok, args)+"]")
		mustRun(t, "--db", dbPath, "ingest", path)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT arguments_malformed, json_type(tool_arguments) AS type FROM messages WHERE role = 'assistant'"),
		"arguments_malformed,type\n1,text\n1,text\n"; got != want {
		t.Errorf("deep arguments (as a string, as an object):\n%s\nwant both flagged and kept as a string:\n%s", got, want)
	}

	path := writeFile(t, "reward-retail.json", "["+record(ok, `"{}"`)+", "+record(`{"reward": 1.0, "x": `+deepArray(1499)+`}`, `"{}"`)+"]")
	r := runCLI(t, "", "--db", dbPath, "ingest", path)
	if r.code != exitFailure || !strings.Contains(r.stderr, path+": record 1 (") ||
		!strings.Contains(r.stderr, "task 12, trial 0: field info.reward_info is nested 1500 deep; at most 1000") {
		t.Errorf("ingest: exit %d, stderr %q: want the file, record 1, task 12, trial 0, the field and the limit", r.code, r.stderr)
	}
	path = writeFile(t, "extra-retail.json", "["+strings.Replace(record(ok, `"{}"`), `"info": {`, `"info": {"trace": `+deepArray(1000)+`, `, 1)+"]")
	r = runCLI(t, "", "--db", dbPath, "ingest", path)
	if !strings.Contains(r.stderr, "field info.trace is nested 1000 deep; at most 999") {
		t.Errorf("ingest of a deep info key: exit %d, stderr %q", r.code, r.stderr)
	}
}
