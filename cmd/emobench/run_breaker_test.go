package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// An endpoint that dies mid-run (200 for the first requests, then 500
// for ever) trips the circuit breaker: the run stops after 8 episodes in
// a row ended in error, with the count and a resume hint, having stored
// what finished; the requests served are bounded; runs and stats passk
// then note the error trajectories instead of a silent 0 (#20 item 19).
func TestRun_CircuitBreaker(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testSecret)
	const healthy = 3 // episode 1: user, agent, user (###STOP###)
	var served atomic.Int64
	answer := func(c *chatCall, text string) {
		if served.Add(1) > healthy {
			c.fail(http.StatusInternalServerError, map[string]string{"Retry-After-Ms": "1"}, "upstream is gone")
			return
		}
		c.text(text, 10, 10)
	}
	srv := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) { answer(c, "Could you tell me your order id?") },
		"fake-user": func(c *chatCall) {
			if c.n == 0 {
				answer(c, "Hi, I want to cancel an order.")
			} else {
				answer(c, "###STOP###")
			}
		},
	})
	dbPath := filepath.Join(t.TempDir(), "breaker.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "10", "--trials", "4", "--condition", "with-emotions",
		"--agent", "llm:fake-agent", "--user", "llm:fake-user", "--base-url", srv.baseURL(), "--concurrency", "1")
	if r.code != exitFailure {
		t.Fatalf("run: exit %d, want 1\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"the last 8 episodes in a row ended in error", "HTTP 500", "9 episodes of run 1 stored, 8 of them in error", "emobench run --resume 1"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	// 40 episodes without the breaker: 3 + 39 × 5 attempts. With it: the
	// first episode, 8 failed ones of 5 attempts each, and what the next
	// episode, begun while the 8th was stored, asked before the stop.
	if got, max := served.Load(), int64(healthy+(8+1)*5); got > max {
		t.Errorf("the server answered %d requests, want at most %d", got, max)
	}
	if got, want := sqlCSV(t, dbPath, "SELECT termination_reason, COUNT(*) AS n FROM trajectories GROUP BY 1 ORDER BY 1"),
		"termination_reason,n\nerror,8\nuser_stop,1\n"; got != want {
		t.Errorf("stored:\n%s\nwant:\n%s", got, want)
	}

	note := "run 1 (llm:fake-agent-retail-with-emotions): 8 trajectories ended in an infrastructure error"
	for _, args := range [][]string{{"runs"}, {"stats", "passk"}, {"stats", "gap"}, {"stats", "emotions"}, {"stats", "abandonment"}, {"stats", "balance"}, {"stats", "generalization"}} {
		r := runCLI(t, "", append([]string{"--db", dbPath}, args...)...)
		if r.code != 0 || !strings.Contains(r.stderr, note) || !strings.Contains(r.stderr, "counted as failures; run them again with `emobench run --resume 1`") {
			t.Errorf("%s: exit %d, stderr %q: want the note %q", args, r.code, r.stderr, note)
		}
	}
}
