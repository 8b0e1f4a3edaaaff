package db_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/emobench/emobench/db"
)

// runs rm and merge refuse a run that a live process (here the test
// process) is writing, naming it and its command, and change nothing; a
// lock whose process is gone does not refuse.
func TestRunLock_RefusesRemoveAndMerge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	dst := openDBAt(t, filepath.Join(dir, "x.db"))
	mustAppend(t, dst, nativeRun("big", `{"seed":7}`), traj("1", 0, 1))
	src := openDBAt(t, filepath.Join(dir, "full.db"))
	mustAppend(t, src, nativeRun("big", `{"seed":7}`), traj("1", 0, 1), traj("2", 0, 1))

	_, unlock, err := dst.LockRunHere(ctx, 1, "emobench run --name big")
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	before := countsOf(t, dst)
	since := time.Now().UTC().Truncate(time.Second)
	check := func(what string, err error, refused string) {
		t.Helper()
		var locked *db.RunLockedError
		if !errors.As(err, &locked) {
			t.Fatalf("%s under a live lock: err = %v, want a *RunLockedError", what, err)
		}
		if locked.RunID != 1 || locked.Holder.PID != os.Getpid() || locked.Holder.Host != host || locked.Holder.Command != "emobench run --name big" || locked.Refused != refused {
			t.Errorf("%s: %+v, want run 1 held by process %d on %s running emobench run --name big, refused %q", what, locked, os.Getpid(), host, refused)
		}
		want := fmt.Sprintf("run 1 is being run by process %d on %s (emobench run --name big, since %s): %s under it; wait for it to finish or stop it",
			os.Getpid(), host, locked.Holder.Started.UTC().Format(time.RFC3339), refused)
		if locked.Error() != want {
			t.Errorf("%s: message %q, want %q", what, locked.Error(), want)
		}
		if d := locked.Holder.Started.Sub(since); d < -2*time.Second || d > 2*time.Second {
			t.Errorf("%s: holder started %v, want about %v", what, locked.Holder.Started, since)
		}
		if got := countsOf(t, dst); got != before {
			t.Errorf("%s changed the db:\n%s\nwant:\n%s", what, got, before)
		}
	}
	_, err = dst.DeleteRuns(ctx, []int64{1})
	check("runs rm", err, "runs rm would delete the run")
	_, err = dst.Merge(ctx, src, nil)
	check("merge", err, "merge would add (task, trial) pairs to run 1")
	unlock()

	// A holder on this host whose process is gone is stale: no refusal.
	dead := db.RunHolder{PID: 1 << 30, Host: host, Command: "emobench run --name big", Started: time.Unix(0, 0)}
	if _, err := dst.LockRun(ctx, 1, dead, func(db.RunHolder) bool { return false }); err != nil {
		t.Fatal(err)
	}
	rep, err := dst.Merge(ctx, src, nil)
	if err != nil || rep.RunsAdded != 0 || rep.RunsExtended != 1 || rep.Trajectories != 1 || rep.PairsSkipped != 1 || len(rep.Renamed) != 0 {
		t.Fatalf("merge under a stale lock = %+v, %v; want run 1 extended by 1 trajectory", rep, err)
	}
	if tasks, err := dst.DeleteRuns(ctx, []int64{1}); err != nil || tasks != 2 {
		t.Fatalf("runs rm under a stale lock = %d tasks, %v; want 2 tasks removed", tasks, err)
	}
	if got := queryText(t, dst, "SELECT count(*) FROM runs") + "|" + queryText(t, dst, "SELECT count(*) FROM run_locks"); got != "0|0" {
		t.Errorf("runs|run_locks after rm = %s, want 0|0", got)
	}
}
