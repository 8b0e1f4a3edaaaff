package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/db"
)

// `runs rm` and `merge` refuse a run that a live process holds (here the
// test process, as `run` does), naming it, and leave the db as it was.
func TestRunsRmAndMerge_ErrRunHeld(t *testing.T) {
	dir := t.TempDir()
	x, full := filepath.Join(dir, "x.db"), filepath.Join(dir, "full.db")
	args := []string{"run", "--domain", "retail", "--agent", "oracle", "--tasks", "4", "--condition", "with-emotions", "--name", "big"}
	mustRun(t, append([]string{"--db", x}, append(args, "--shard", "0/2")...)...)
	mustRun(t, append([]string{"--db", full}, args...)...)

	ctx := context.Background()
	store, err := db.Open(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	_, unlock, err := store.LockRunHere(ctx, 1, "emobench run --resume 1")
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	held := fmt.Sprintf("run 1 is being run by process %d on %s (emobench run --resume 1, since ", os.Getpid(), host)
	before := tableCounts(t, x)
	for _, tt := range []struct {
		args    []string
		refused string
	}{
		{[]string{"runs", "rm", "1"}, "): runs rm would delete the run under it; wait for it to finish or stop it"},
		{[]string{"merge", full}, "): merge would add (task, trial) pairs to run 1 under it; wait for it to finish or stop it (nothing of it was stored)"},
	} {
		r := runCLI(t, "", append([]string{"--db", x}, tt.args...)...)
		if r.code != exitFailure || !strings.Contains(r.stderr, held) || !strings.Contains(r.stderr, tt.refused) {
			t.Errorf("%s under a live lock: exit %d, stderr %q; want 1 and %q…%q", tt.args, r.code, r.stderr, held, tt.refused)
		}
		if after := tableCounts(t, x); after != before {
			t.Errorf("%s under a live lock changed the db: %s -> %s", tt.args, before, after)
		}
	}
	unlock()
	mustRun(t, "--db", x, "merge", full)
	mustRun(t, "--db", x, "runs", "rm", "1")
	if n := sqlInt(t, x, "SELECT COUNT(*) FROM runs"); n != 0 {
		t.Errorf("%d runs after rm, want 0", n)
	}
}
