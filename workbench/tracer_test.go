package workbench_test

import (
	"context"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
)

// A native run stores each trajectory's user dependence as it stores the
// trajectory: equal to what tracer.Dependence computes from it.
func TestExecuteRun_StoresDependence(t *testing.T) {
	ctx := context.Background()
	store := openRunTestDB(t)
	var lines, notes []string
	plans := planOracleRuns(t, "oracle-dep", emobench.ConditionWithEmotions)
	if err := workbench.StartRuns(ctx, store, plans, nil, recordingOptions(&lines, &notes)); err != nil {
		t.Fatal(err)
	}
	rows, err := store.ListFilterTrajectories(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d trajectories, want 2", len(rows))
	}
	for _, r := range rows {
		if r.UserTurnsPerFact == nil {
			t.Fatalf("trajectory %d: no user dependence stored", r.ID)
		}
		in, err := store.DependenceInput(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		d, ok, err := tracer.Dependence(in)
		if err != nil || !ok {
			t.Fatalf("trajectory %d: %v %v", r.ID, ok, err)
		}
		if got, want := *r.UserTurnsPerFact, d.UserTurnsPerFact; got != want || got <= 0 {
			t.Fatalf("trajectory %d: stored user_turns_per_fact %v, want %v (> 0)", r.ID, got, want)
		}
	}
}
