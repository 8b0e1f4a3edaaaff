package main

import (
	"context"
	"database/sql"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun_ResumeMergedRunKeyFromCommandLine: a shard merged from a file
// someone else wrote (sealed on another machine) names an endpoint and a key variable
// (AWS_SECRET_ACCESS_KEY); `run --resume` of it sends that key nowhere:
// without an endpoint it is refused naming the flags, and with
// --agent-base-url the requests go there with OPENAI_API_KEY's key (#20
// item 10).
func TestRun_ResumeMergedRunKeyFromCommandLine(t *testing.T) {
	const awsSecret = "aws-LEAK-wJalrXUtnFEMI-K7MDENG"
	t.Setenv("OPENAI_API_KEY", testSecret)
	t.Setenv("AWS_SECRET_ACCESS_KEY", awsSecret)
	t.Setenv("OPENAI_BASE_URL", "")
	// The shard's run is interrupted at its first request: nothing stored.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	files := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) {
			cancel()
			c.fail(http.StatusBadRequest, map[string]string{"X-Should-Retry": "false"}, "gone")
		},
	})
	mine := newChatServer(t, map[string]func(c *chatCall){
		"fake-agent": func(c *chatCall) { c.text("Is there anything else?", 10, 5) },
	})
	dir := t.TempDir()
	shard, all := filepath.Join(dir, "shard.db"), filepath.Join(dir, "all.db")
	args := []string{"emobench", "--db", shard, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "llm:fake-agent", "--user", "scripted", "--base-url", files.baseURL(), "--agent-api-key-env", "AWS_SECRET_ACCESS_KEY", "--concurrency", "1"}
	var out, errOut strings.Builder
	if code := run(ctx, newApp(strings.NewReader(""), &out, &errOut), args, &errOut); code != exitFailure {
		t.Fatalf("interrupted shard run: exit %d, stderr %q", code, errOut.String())
	}
	// Someone else's file: its run was sealed on another machine.
	raw, err := sql.Open("sqlite", shard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE runs SET config = json_set(config, '$.origin_seal', ?)`, strings.Repeat("ab", 32)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	mustRun(t, "--db", all, "merge", shard)
	before := len(files.requests("fake-agent"))

	r := runCLI(t, "", "--db", all, "run", "--resume", "1")
	if r.code != exitUsage || !strings.Contains(r.stderr, "give the endpoint with base-url URL (or agent-base-url URL)") {
		t.Fatalf("resume of a merged run without an endpoint: exit %d, stderr %q", r.code, r.stderr)
	}
	mustRun(t, "--db", all, "run", "--resume", "1", "--agent-base-url", mine.baseURL())
	if n := len(files.requests("fake-agent")); n != before {
		t.Fatalf("the merged file's endpoint got %d more requests, want none", n-before)
	}
	reqs := mine.requests("fake-agent")
	if len(reqs) == 0 {
		t.Fatal("the command line's endpoint got no request")
	}
	for _, req := range reqs {
		if req.Auth != "Bearer "+testSecret {
			t.Fatalf("a request carried %q, want OPENAI_API_KEY's key", req.Auth)
		}
	}
}
