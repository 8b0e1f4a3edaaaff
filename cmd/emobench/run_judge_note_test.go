package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --judge on tasks without NL assertions says that nothing is judged
// (#20 item 22f).
func TestRun_JudgeNothingToJudgeNoted(t *testing.T) {
	t.Setenv("JUDGE_KEY", testSecret)
	srv := newChatServer(t, nil) // any request is an error: no task needs the judge
	dbPath := filepath.Join(t.TempDir(), "judge.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "oracle", "--judge", "llm:fake-judge", "--judge-api-key-env", "JUDGE_KEY", "--base-url", srv.baseURL())
	want := "note: --judge llm:fake-judge: no task to run has NL assertions (nl_assertions), so nothing is judged"
	if r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("run: exit %d, stderr %q; want 0 and %q", r.code, r.stderr, want)
	}
}
