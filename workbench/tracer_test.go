package workbench_test

import (
	"context"
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
)

// A native run stores each trajectory's user dependence as it stores the
// trajectory: equal to what tracer.Dependence computes from it.
func TestExecuteRun_StoresDependence(t *testing.T) {
	t.Parallel()
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

func TestTaskSource_CheckDomains(t *testing.T) {
	t.Parallel()
	src := &workbench.TaskSource{Kind: workbench.TaskSourceDB, Name: "mixed", Tasks: []emobench.TaskSpec{{Domain: "retail"}, {Domain: "airline"}, {Domain: "retail"}}}
	if err := src.CheckDomains(nil); err != nil {
		t.Fatalf("no --domain: %v", err)
	}
	if err := src.CheckDomains([]string{"airline", "retail"}); err != nil {
		t.Fatalf("held domains: %v", err)
	}
	err := src.CheckDomains([]string{"retail", "telecom"})
	if !errors.Is(err, emobench.ErrRequest) {
		t.Fatalf("CheckDomains(telecom) = %v, want an EREQUEST error", err)
	}
	if got, want := err.Error(), "task-set mixed holds only retail and airline tasks, none of domain telecom; choose domain retail,airline, or none to run them all"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}
