package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --user-strategy verify: every user message is drafted, then checked by
// a second request; the strategy is recorded in the run's config and
// runs.user_strategy, shown by runs --format json, and kept by --resume.
func TestRun_UserStrategyVerify(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testSecret)
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-user": func(c *chatCall) {
			switch {
			case c.n%2 == 1: // the check of the draft before it
				c.text("yes", 5, 1)
			case c.n == 0:
				c.text("Hi, I want to cancel an order.", 20, 8)
			default:
				c.text("###STOP###", 20, 2)
			}
		},
	})
	dbPath := filepath.Join(t.TempDir(), "verify.db")
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "oracle", "--user", "llm:fake-user", "--user-strategy", "verify", "--base-url", srv.baseURL(), "--concurrency", "1")

	reqs := srv.requests("fake-user")
	if len(reqs) < 4 || len(reqs)%2 != 0 {
		t.Fatalf("%d user requests, want a draft and a check per message", len(reqs))
	}
	check := reqs[1].Body["messages"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.Contains(check, "Answer with one word") {
		t.Fatalf("second request is not a check:\n%s", check)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT user_model, user_strategy, json_extract(config, '$.user_strategy') FROM runs"),
		"user_model,user_strategy,\"json_extract(config, '$.user_strategy')\"\nfake-user,verify,verify\n"; got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT content FROM messages WHERE role = 'user' ORDER BY idx"), "content\n\"Hi, I want to cancel an order.\"\n###STOP###\n"; got != want {
		t.Fatalf("user messages:\n%s\nwant:\n%s", got, want)
	}
	rows := jsonObjects(t, "--db", dbPath, "runs")
	if len(rows) != 1 || rows[0]["user_strategy"] != "verify" || rows[0]["user_model"] != "fake-user" {
		t.Fatalf("runs --format json: %v", rows)
	}
	r := runCLI(t, "", "--db", dbPath, "run", "--resume", "1", "--user-strategy", "react")
	if r.code != exitUsage || !strings.Contains(r.stderr, "drop --user-strategy") {
		t.Fatalf("resume with --user-strategy: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestRun_ErrUserStrategy(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--user-strategy", "human"}, `--user-strategy "human" is not one of llm, react, verify, reflection`},
		{[]string{"--user", "scripted", "--user-strategy", "react"}, `--user-strategy react needs an llm:MODEL user, not "scripted"`},
	} {
		dbPath := filepath.Join(t.TempDir(), "usage.db")
		r := runCLI(t, "", append([]string{"--db", dbPath, "run", "--domain", "retail", "--agent", "oracle"}, tt.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
}

// TestRun_ScriptedUserStrategy: the scripted user has no strategy: its
// run records none in the config, runs.user_strategy is "scripted" (as a
// built-in agent's strategy is its name), and the help says so.
func TestRun_ScriptedUserStrategy(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "scripted.db")
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions", "--agent", "noisy:0.3")
	if got, want := sqlCSV(t, dbPath, "SELECT agent_strategy, user_model, user_strategy, json_extract(config, '$.user_strategy') IS NULL AS none FROM runs"),
		"agent_strategy,user_model,user_strategy,none\nnoisy,scripted,scripted,1\n"; got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
	if help := mustRun(t, "run", "--help"); !strings.Contains(help, "the scripted user has no strategy: it takes only llm, and runs.user_strategy records scripted") {
		t.Fatalf("run --help does not say what the scripted user's strategy is:\n%s", help)
	}
}
