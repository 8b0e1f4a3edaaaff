package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRun_RedactsEchoedCredentials: credentials a model writes into its
// messages (an agent quoting a header, a user pasting a JWT) are redacted
// before a native run stores them, as ingest redacts a file's.
func TestRun_RedactsEchoedCredentials(t *testing.T) {
	const (
		token = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		jwt   = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	)
	t.Setenv("OPENAI_API_KEY", testSecret)
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) {
			c.text("I called the API with Authorization: Bearer "+token+"; what is your order id?", 10, 10)
		},
		"fake-user": func(c *chatCall) {
			switch c.n {
			case 0:
				c.text("Hi, my session is jwt="+jwt+", please help.", 10, 10)
			default:
				c.text("###STOP###", 10, 10)
			}
		},
	})
	dbPath := filepath.Join(t.TempDir(), "redact.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1",
		"--agent", "llm:fake-agent", "--user", "llm:fake-user", "--base-url", srv.baseURL(), "--concurrency", "1")
	if r.code != 0 {
		t.Fatalf("run: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	contents := sqlCSV(t, dbPath, "SELECT content FROM messages WHERE role IN ('user', 'assistant') ORDER BY idx")
	for _, want := range []string{"Authorization: Bearer [redacted]; what is your order id?", "jwt=[redacted], please help."} {
		if !strings.Contains(contents, want) {
			t.Errorf("messages:\n%s\nwant %q among them", contents, want)
		}
	}
	requireNoSecret(t, dbPath, token)
	requireNoSecret(t, dbPath, "dozjgNryP4J3jVmNHl0w5N")
}
