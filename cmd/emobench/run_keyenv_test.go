package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A key pasted into --agent-api-key-env or --user-api-key-env is a usage
// error that neither shows the value nor creates the database.
func TestRun_ErrKeyInKeyEnvFlag(t *testing.T) {
	t.Parallel()
	const pasted = "sk-proj-Zq81xVb2Lm93Kd04Tr5Hs6"
	for _, flag := range []string{"agent-api-key-env", "user-api-key-env"} {
		t.Run(flag, func(t *testing.T) {
			dbPath := filepath.Join(t.TempDir(), "key.db")
			r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--agent", "llm:m", "--user", "llm:u",
				"--base-url", "http://127.0.0.1:9/v1", "--"+flag, pasted)
			if r.code != exitUsage {
				t.Fatalf("exit %d, want 2\nstderr: %s", r.code, r.stderr)
			}
			want := "--" + flag + " takes the name of the environment variable holding the key ([A-Za-z_][A-Za-z0-9_]*, e.g. OPENAI_API_KEY), not the key: the value given is not a name (it is not shown)"
			if !strings.Contains(r.stderr, want) {
				t.Errorf("stderr %q lacks %q", r.stderr, want)
			}
			if strings.Contains(r.stdout+r.stderr, "Zq81x") {
				t.Errorf("the value was echoed: stdout %q, stderr %q", r.stdout, r.stderr)
			}
			if _, err := os.Stat(dbPath); err == nil {
				t.Errorf("the refused run created %s", dbPath)
			}
		})
	}
}

// An llm: agent whose key variable is empty, on a local endpoint, runs
// without an Authorization header, and says so in a note.
func TestRun_NoteOnEmptyKeyEnv(t *testing.T) {
	t.Setenv("LOCAL_KEY", "")
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) { c.text("Is there anything else?", 10, 5) },
	})
	dbPath := filepath.Join(t.TempDir(), "local.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "llm:fake-agent", "--user", "scripted", "--base-url", srv.baseURL(), "--agent-api-key-env", "LOCAL_KEY", "--concurrency", "1")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	want := "note: --agent llm:fake-agent: LOCAL_KEY is unset or empty, so its requests to " + srv.baseURL() +
		" go without an Authorization header (fine for a local server such as vLLM or Ollama; set LOCAL_KEY if the endpoint needs a key)\n"
	if strings.Count(r.stderr, want) != 1 {
		t.Errorf("stderr %q, want the note %q once", r.stderr, want)
	}
	reqs := srv.requests("fake-agent")
	if len(reqs) == 0 {
		t.Fatal("the agent made no request")
	}
	for i, req := range reqs {
		if req.Auth != "" {
			t.Errorf("request %d: Authorization %q, want none", i, req.Auth)
		}
	}
	if got := sqlCSV(t, dbPath, "SELECT json_extract(config, '$.agent_llm.key_env') AS k FROM runs"); got != "k\nLOCAL_KEY\n" {
		t.Errorf("recorded key_env:\n%s", got)
	}
}
