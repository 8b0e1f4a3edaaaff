package workbench

import (
	"context"
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// showDB is tagsDB with, in run 2 ("tuned"), task "7" at trials 0 and 1
// and task "8" at trial 0.
func showDB(t *testing.T) *db.DB {
	t.Helper()
	store := tagsDB(t)
	reward := 1.0
	for _, p := range []struct {
		task  string
		trial int
	}{{"7", 0}, {"7", 1}, {"8", 0}} {
		traj := &emobench.Trajectory{Task: emobench.Task{Domain: "retail", Key: p.task, Instruction: "task " + p.task}, Trial: p.trial,
			Reward: &reward, Evaluated: true, TerminationReason: emobench.TerminationReason("user_stop"),
			Messages: []emobench.Message{{Role: "user", Content: "hi"}}}
		if err := store.AppendTrajectory(context.Background(), 2, traj); err != nil {
			t.Fatal(err)
		}
	}
	return store
}

func TestTranscript_OK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := showDB(t)
	one := 1
	byRun, err := Transcript(ctx, store, TrajectoryRef{ByRun: true, Run: "tuned", Task: "7", Trial: &one}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if byRun.Run.Name != "tuned" || byRun.Task.Key != "7" || byRun.Trial != 1 || byRun.SystemLines != 3 {
		t.Fatalf("by run: run %q task %q trial %d lines %d, want tuned 7 1 3", byRun.Run.Name, byRun.Task.Key, byRun.Trial, byRun.SystemLines)
	}
	byID, err := Transcript(ctx, store, TrajectoryRef{ID: byRun.ID}, 0)
	if err != nil || byID.ID != byRun.ID || byID.Task.Key != "7" || byID.Trial != 1 {
		t.Fatalf("by id %d: %+v, %v", byRun.ID, byID, err)
	}
	only, err := Transcript(ctx, store, TrajectoryRef{ByRun: true, Run: "2", Task: "8"}, 0)
	if err != nil || only.Task.Key != "8" || only.Trial != 0 {
		t.Fatalf("task 8's only trial: %+v, %v", only, err)
	}
}

func TestTranscript_Err(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := showDB(t)
	minus := -1
	_, err := Transcript(ctx, store, TrajectoryRef{ByRun: true, Run: "tuned", Task: "7", Trial: &minus}, 0)
	if !errors.Is(err, emobench.ErrRequest) || err.Error() != "trial -1: trials are numbered from 0" {
		t.Errorf("trial -1: %v, want an EREQUEST error", err)
	}
	// Task 7 has two trials: naming none is the request's mistake.
	if _, err := Transcript(ctx, store, TrajectoryRef{ByRun: true, Run: "tuned", Task: "7"}, 0); !errors.Is(err, emobench.ErrRequest) {
		t.Errorf("task 7 without a trial: %v, want an EREQUEST error", err)
	}
	var noRun *db.RunNotFoundError
	if _, err := Transcript(ctx, store, TrajectoryRef{ByRun: true, Run: "nosuch", Task: "7"}, 0); !errors.As(err, &noRun) {
		t.Errorf("unknown run: %v, want a *db.RunNotFoundError", err)
	}
	if _, err := Transcript(ctx, store, TrajectoryRef{ID: 999}, 0); !errors.Is(err, emobench.ErrNotFound) || errors.Is(err, emobench.ErrRequest) {
		t.Errorf("trajectory 999: %v, want ErrNotFound", err)
	}
}
