package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run whose tags do not check (an unknown base run, a mistyped or empty
// train domain) stores nothing, so the same command, corrected, starts
// run 1 afresh; a run that starts is stored with its tags; --resume does
// not take tags it would drop.
func TestRun_ErrTagsStoreNothing(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "tags.db")
	args := []string{"--db", dbPath, "run", "--domain", "retail", "--agent", "oracle", "--condition", "with-emotions", "--tasks", "2"}
	for range 2 { // the second time is not refused as a name clash
		r := runCLI(t, "", append(args, "--base-run", "99")...)
		if n := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs"); n != 0 {
			t.Fatalf("--base-run 99 stored %d runs, want 0; stderr %q", n, r.stderr)
		}
		if r.code != 1 || !strings.Contains(r.stderr, `--base-run: no run with id or name "99"`) {
			t.Fatalf("--base-run 99: exit %d, stderr %q", r.code, r.stderr)
		}
	}
	mustRun(t, append(args, "--name", "base")...)
	for _, bad := range []struct{ flag, value, want string }{
		{"--train-domains", "retial", `--train-domains: no domain "retial"`},
		{"--train-domains", " , ", "--train-domains is empty"},
	} {
		r := runCLI(t, "", append(args, "--base-run", "base", bad.flag, bad.value)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, bad.want) {
			t.Fatalf("%s %q: exit %d, stderr %q, want exit 2 and %q", bad.flag, bad.value, r.code, r.stderr, bad.want)
		}
		if n := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs"); n != 1 {
			t.Fatalf("%s %q: %d runs stored, want the base run alone", bad.flag, bad.value, n)
		}
	}
	mustRun(t, append(args, "--base-run", "base", "--train-domains", "retail,airline,retail")...)
	got := sqlCSV(t, dbPath, "SELECT id, name, train_domains, base_run_id, (SELECT COUNT(*) FROM trajectories WHERE run_id = runs.id) AS n FROM runs ORDER BY id")
	want := "id,name,train_domains,base_run_id,n\n1,base,,,2\n2,oracle-retail-with-emotions,\"[\"\"retail\"\",\"\"airline\"\"]\",1,2\n"
	if got != want {
		t.Fatalf("runs:\n%s\nwant:\n%s", got, want)
	}
	for _, flag := range []string{"--base-run", "--train-domains"} {
		r := runCLI(t, "", "--db", dbPath, "run", "--resume", "2", flag, "1")
		if r.code != exitUsage || !strings.Contains(r.stderr, "--resume does not tag a run: drop "+flag) {
			t.Fatalf("--resume 2 %s 1: exit %d, stderr %q", flag, r.code, r.stderr)
		}
	}
}

// An llm: agent whose endpoint refuses connections ends its episode in
// error well within the episode time limit: the refusal, with the
// endpoint, is what is stored and printed, not the limit.
func TestRun_RefusedEndpointIsTheError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	dbPath := filepath.Join(t.TempDir(), "refused.db")
	r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--agent", "llm:x", "--base-url", "http://"+addr+"/v1", "--timeout", "2s", "--concurrency", "1")
	cause := `llm x: no HTTP response: Post "http://` + addr + `/v1/chat/completions": dial tcp ` + addr + `: connect: connection refused`
	if r.code != 1 || !strings.Contains(r.stderr, "(first: agent: "+cause) || strings.Contains(r.stderr, "time limit") {
		t.Fatalf("exit %d, stderr %q, want exit 1 naming %q and no time limit", r.code, r.stderr, cause)
	}
	stored := "agent: " + cause + " (after 5 attempts)"
	if got, want := sqlCSV(t, dbPath, "SELECT error FROM trajectories"), "error\n\""+strings.ReplaceAll(stored, `"`, `""`)+"\"\n"; got != want {
		t.Fatalf("stored errors (CSV):\n%s\nwant:\n%s", got, want)
	}
}

// A price file that cannot be read or parsed is a usage error naming it,
// whatever the agents (offline ones never read it), for a new run and for
// --resume; so is a --timeout that is not positive. None creates the db.
func TestRun_ErrPriceFileAndTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"m": {"prompt_per_mtok": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "never.db")
	run := []string{"--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--agent", "oracle", "--price-file", missing}, "--price-file " + missing + ": no such file or directory"},
		{[]string{"--agent", "oracle", "--price-file", broken}, "--price-file " + broken + `: price table: model "m": missing completion_per_mtok`},
		{[]string{"--agent", "llm:x", "--base-url", "http://127.0.0.1:1/v1", "--price-file", missing}, "--price-file " + missing + ": no such file or directory"},
		{[]string{"--agent", "oracle", "--timeout", "0s"}, "--timeout 0s: need a positive duration"},
		{[]string{"--agent", "oracle", "--timeout", "-1s"}, "--timeout -1s: need a positive duration"},
	} {
		r := runCLI(t, "", append(run, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
		if _, err := os.Stat(dbPath); err == nil {
			t.Fatalf("%v created %s", c.args, dbPath)
		}
	}
	mustRun(t, append(run, "--agent", "oracle")...)
	before := tableCounts(t, dbPath)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--price-file", missing}, "--price-file " + missing + ": no such file or directory"},
		{[]string{"--timeout", "0s"}, "--timeout 0s: need a positive duration"},
	} {
		r := runCLI(t, "", append([]string{"--db", dbPath, "run", "--resume", "1"}, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("--resume 1 %v: exit %d, stderr %q, want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if after := tableCounts(t, dbPath); after != before {
		t.Errorf("refused resumes changed the db: %s -> %s", before, after)
	}
}
