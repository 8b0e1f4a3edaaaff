package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A run whose tags do not check (an unknown base run, a mistyped or empty
// train domain) stores nothing, so the same command, corrected, starts
// run 1 afresh; a run that starts is stored with its tags; --resume does
// not take tags it would drop.
func TestRun_ErrTagsStoreNothing(t *testing.T) {
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
