package db_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

func TestFindTrajectory(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	res, err := store.IngestRun(ctx, run("r", "s1"), seq(traj("7", 0, 1), traj("7", 1, 0), traj("8", 3, 1)), db.DuplicateRefuse)
	if err != nil {
		t.Fatal(err)
	}
	runID := res.RunID
	id, err := store.FindTrajectoryID(ctx, runID, "7", 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := store.FindTrajectory(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != id || got.RunID != runID || got.Task.Key != "7" || got.Trial != 1 || *got.Reward != 0 || len(got.Messages) != 4 || got.Messages[1].ToolCalls[0].Name != "cancel" {
		t.Fatalf("FindTrajectory(%d) = %+v, want task 7 trial 1 with its 4 messages", id, got)
	}
	if only, err := store.FindTrajectoryID(ctx, runID, "8", -1); err != nil || only == id {
		t.Fatalf("the only trajectory of task 8: %d, %v", only, err)
	}

	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := store.FindTrajectory(ctx, 999); !errors.Is(err, db.ErrNotFound) || err.Error() != "no trajectory with id 999" {
			t.Errorf("err = %v, want ErrNotFound", err)
		}
		for _, tt := range []struct {
			task  string
			trial int
			want  string
		}{
			{"7", 5, `has no trial 5 of task "7" (its trials: 0, 1)`},
			{"9", 0, `has no task "9"`},
		} {
			if _, err := store.FindTrajectoryID(ctx, runID, tt.task, tt.trial); !errors.Is(err, db.ErrNotFound) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("task %s trial %d: err = %v, want ErrNotFound %q", tt.task, tt.trial, err, tt.want)
			}
		}
	})
	t.Run("ErrSeveral", func(t *testing.T) {
		_, err := store.FindTrajectoryID(ctx, runID, "7", -1)
		if !errors.Is(err, emobench.ErrInvalid) || !strings.Contains(err.Error(), `2 trajectories of task "7" (trials 0, 1)`) {
			t.Errorf("err = %v, want EINVALID naming trials 0, 1", err)
		}
	})
}
