package db_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

func TestDecideStored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	mustIngest(t, store, run("r1", "aa"), traj("t1", 0, 1))
	d, err := store.DecideStored(ctx, "bb", false)
	if err != nil || d.Skip || d.Replace != 0 {
		t.Fatalf("unknown sha256: %+v, %v; want no skip", d, err)
	}
	d, err = store.DecideStored(ctx, "aa", true)
	if err != nil || !d.Skip || !d.Hint || d.Replace != 0 || d.Message != "skipped, already ingested as run 1 (r1)" {
		t.Errorf("ingested sha256: %+v, %v; want a skip with a hint, even under reingest", d, err)
	}
}

func TestStoreInput_DistinctName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	mustIngest(t, store, run("r1", "aa"), traj("t1", 0, 1))
	got, err := store.StoreInput(ctx, db.Input{Path: "x.json", Run: run("r1", "bb"), Trajectories: seq(traj("t1", 0, 0)), OnDuplicate: db.DuplicateRefuse})
	if err != nil || got.Run.Name != "r1-2" || got.Clash != 1 || got.Trajectories != 1 || got.Skip != nil {
		t.Errorf("StoreInput = %+v, %v; want r1-2, clash with run 1, 1 trajectory", got, err)
	}
	name, clash, err := store.DistinctRunName(ctx, "r1", 0)
	if err != nil || name != "r1-3" || clash != 1 {
		t.Errorf("DistinctRunName(r1) = %q, %d, %v; want r1-3, 1", name, clash, err)
	}
	if name, clash, err := store.DistinctRunName(ctx, "r1", 1); err != nil || name != "r1" || clash != 0 {
		t.Errorf("DistinctRunName(r1, except run 1) = %q, %d, %v; want r1, 0", name, clash, err)
	}
	if name, clash, err := store.DistinctRunName(ctx, "other", 0); err != nil || name != "other" || clash != 0 {
		t.Errorf("DistinctRunName(other) = %q, %d, %v; want other, 0", name, clash, err)
	}
	// A name --run would read as an id (a file named 8.json) gets a word.
	if name, _, err := store.DistinctRunName(ctx, "8", 0); err != nil || name != "run-8" || db.NameReadsAsID(name) {
		t.Errorf("DistinctRunName(8) = %q, %v; want run-8", name, err)
	}
}

func TestStoreInput_StreamAlreadyStored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	mustIngest(t, store, run("r1", "aa"), traj("t1", 0, 1))
	got, err := store.StoreInput(ctx, db.Input{Path: "-", Run: run("s", ""), Trajectories: seq(traj("t1", 0, 0)),
		OnDuplicate: db.DuplicateRefuse, Finish: func() (string, error) { return "aa", nil }})
	if err != nil || got.Skip == nil || !got.Skip.Skip || got.Skip.RunID != 1 {
		t.Fatalf("StoreInput of a stored stream = %+v, %v; want a skip naming run 1", got, err)
	}
	if n := queryInt(t, store, "SELECT count(*) FROM runs"); n != 1 {
		t.Errorf("%d runs stored, want 1", n)
	}
}

func TestRunNotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	unevaluated := traj("t2", 0, 0)
	unevaluated.Evaluated, unevaluated.Reward = false, nil
	partial := traj("t3", 0, 0.5)
	mustIngest(t, store, run("r1", "aa"), traj("t1", 0, 1), unevaluated, partial)
	notes := store.RunNotes(ctx, 1)
	if len(notes) != 2 || !strings.HasPrefix(notes[0], "1 of 3 trajectories are not evaluated") || !strings.HasPrefix(notes[1], "1 of 3 rewards are partial") {
		t.Errorf("RunNotes = %q", notes)
	}
	if notes := store.RunNotes(ctx, 99); len(notes) != 0 {
		t.Errorf("RunNotes of a missing run = %q, want none", notes)
	}
}

func TestProvenanceLines(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	mustIngest(t, store, run("r1", "aa"), traj("t1", 0, 1))
	lines, err := store.ProvenanceLines(context.Background())
	if err != nil || len(lines) != 1 || lines[0] != "provenance: 1 ingested, 0 native, 0 merged, 0 unknown" {
		t.Errorf("ProvenanceLines = %q, %v", lines, err)
	}
}

func TestFindOrCreateRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	r := emobench.Run{Name: "demo-x", Domain: "retail", Condition: emobench.ConditionWithEmotions}
	id, err := store.FindOrCreateRun(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := store.FindOrCreateRun(ctx, r); err != nil || again != id {
		t.Errorf("second FindOrCreateRun = %d, %v; want %d", again, err, id)
	}
}

func TestLockRunHere_TakesOverDeadProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	id, err := store.CreateRun(ctx, emobench.Run{Name: "n", Domain: "retail", Condition: emobench.ConditionWithEmotions})
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	dead := db.RunHolder{PID: 1 << 30, Host: host, Command: "emobench run", Started: time.Unix(0, 0)}
	if _, err := store.LockRun(ctx, id, dead, func(db.RunHolder) bool { return true }); err != nil {
		t.Fatal(err)
	}
	stale, unlock, err := store.LockRunHere(ctx, id, "emobench run --resume 1")
	if err != nil || stale == nil || stale.PID != dead.PID {
		t.Fatalf("LockRunHere = %v, %v; want the dead holder as stale", stale, err)
	}
	_, _, err = store.LockRunHere(ctx, id, "emobench run --resume 1")
	if locked := new(db.RunLockedError); !errors.As(err, &locked) || locked.Holder.PID != os.Getpid() {
		t.Errorf("second LockRunHere: %v; want a *RunLockedError naming this process", err)
	}
	unlock()
	if _, unlock, err := store.LockRunHere(ctx, id, "emobench run"); err != nil {
		t.Errorf("LockRunHere after unlock: %v", err)
	} else {
		unlock()
	}
}

func TestScrub_Clean(t *testing.T) {
	t.Parallel()
	store, path := MustOpenDB(t)
	mustIngest(t, store, run("r1", "aa"), traj("t1", 0, 1))
	notes, err := store.Scrub(context.Background(), path, func(*emobench.Trajectory) {})
	if err != nil || len(notes) != 0 {
		t.Errorf("Scrub of a clean db = %q, %v; want no notes", notes, err)
	}
}

func TestCheckNewRunName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	mustIngest(t, store, run("r1", "aa"), traj("t1", 0, 1))
	if err := store.CheckNewRunName(ctx, "fresh"); err != nil {
		t.Errorf("fresh name: %v", err)
	}
	for _, name := range []string{"r1", "42"} {
		if err := store.CheckNewRunName(ctx, name); emobench.ErrorCode(err) != emobench.EINVALID {
			t.Errorf("CheckNewRunName(%q) = %v; want an EINVALID error", name, err)
		}
	}
}

func TestCheckVacuumTarget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	existing := dir + "/have.db"
	if err := os.WriteFile(existing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{existing, "file:x.db", "x.db?mode=ro"} {
		if err := db.CheckVacuumTarget(path); emobench.ErrorCode(err) != emobench.EINVALID {
			t.Errorf("CheckVacuumTarget(%q) = %v; want an EINVALID error", path, err)
		}
	}
	if err := db.CheckVacuumTarget(dir + "/new.db"); err != nil {
		t.Errorf("new file: %v", err)
	}
}
