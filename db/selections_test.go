package db_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// selectionRun stores a native run of two trajectories, the first with a
// scenario; it returns the run id and the trajectories' ids.
func selectionRun(t *testing.T, store *db.DB) (int64, []int64) {
	t.Helper()
	ctx := context.Background()
	id, err := store.CreateRun(ctx, emobench.Run{Name: "native", SourceFormat: emobench.SourceNative, Domain: "retail", Condition: emobench.ConditionWithEmotions})
	if err != nil {
		t.Fatal(err)
	}
	a := traj("1", 0, 1)
	a.Task.Scenario = json.RawMessage(`{"facts":{"zip":"12345"},"requests":[{"text":"hi"}]}`)
	b := traj("2", 0, 0)
	a.Task.Domain, b.Task.Domain = "retail", "retail"
	for _, tr := range []*emobench.Trajectory{a, b} {
		if err := store.AppendTrajectory(ctx, id, tr); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := store.ListFilterTrajectories(ctx, []int64{id})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return id, ids
}

func TestSetRunTrajectoryDependence_OK(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	runID, ids := selectionRun(t, store)
	d := db.Dependence{UserTurnsPerFact: 1.5, QuestionsAlreadyAnswered: 1, QuestionsToolFindable: 2, FollowUpQuestions: 3, ToolCallShare: 0.25}
	if err := store.SetRunTrajectoryDependence(ctx, runID, "retail", "1", 0, d); err != nil {
		t.Fatal(err)
	}
	rows, err := store.ListFilterTrajectories(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rows), 2; got != want {
		t.Fatalf("%d rows, want %d", got, want)
	}
	if r := rows[0]; r.ID != ids[0] || r.UserTurnsPerFact == nil || *r.UserTurnsPerFact != 1.5 || !r.HasScenario || r.Family != "anger" || r.Condition != "with-emotions" {
		t.Fatalf("row 0 = %+v", r)
	}
	if r := rows[1]; r.UserTurnsPerFact != nil || r.HasScenario {
		t.Fatalf("row 1 = %+v, want no dependence and no scenario", r)
	}
	if got, want := queryInt(t, store, "SELECT questions_tool_findable + follow_up_questions FROM trajectories WHERE user_turns_per_fact IS NOT NULL"), 5; got != want {
		t.Fatalf("stored columns sum %d, want %d", got, want)
	}
	if err := store.SetRunTrajectoryDependence(ctx, runID, "retail", "9", 0, d); emobench.ErrorCode(err) != emobench.ENOTFOUND {
		t.Fatalf("unknown pair: %v, want not found", err)
	}
}

func TestCreateSelection_OK(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	_, ids := selectionRun(t, store)
	sel := db.Selection{Name: "kept", Criteria: json.RawMessage(`{"min_reward":1}`), Counts: json.RawMessage(`{"kept":1}`), TrajectoryIDs: ids[:1]}
	dep := map[int64]db.Dependence{ids[0]: {UserTurnsPerFact: 2}}
	if _, err := store.CreateSelection(ctx, sel, dep, false); err != nil {
		t.Fatal(err)
	}
	got, err := store.FindSelection(ctx, "kept")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.TrajectoryIDs, ids[:1]) || string(got.Counts) != `{"kept":1}` || got.CreatedAt.IsZero() {
		t.Fatalf("selection = %+v", got)
	}
	if n := queryInt(t, store, "SELECT COUNT(*) FROM trajectories WHERE user_turns_per_fact = 2"); n != 1 {
		t.Fatalf("dependence written to %d trajectories, want 1", n)
	}
	list, err := store.ListSelections(ctx)
	if err != nil || len(list) != 1 || list[0].Size != 1 {
		t.Fatalf("ListSelections = %+v, %v", list, err)
	}

	t.Run("ErrConflict", func(t *testing.T) {
		sel.TrajectoryIDs = ids
		if _, err := store.CreateSelection(ctx, sel, nil, false); emobench.ErrorCode(err) != emobench.ECONFLICT {
			t.Fatalf("second kept: %v, want a conflict", err)
		}
		if n := queryInt(t, store, "SELECT COUNT(*) FROM selection_trajectories"); n != 1 {
			t.Fatalf("%d selection rows after a refused create, want 1", n)
		}
	})
	t.Run("Replace", func(t *testing.T) {
		sel.TrajectoryIDs = ids
		if _, err := store.CreateSelection(ctx, sel, nil, true); err != nil {
			t.Fatal(err)
		}
		if n := queryInt(t, store, "SELECT COUNT(*) FROM selection_trajectories"); n != 2 {
			t.Fatalf("%d selection rows after replace, want 2", n)
		}
	})
	t.Run("ErrUnknownTrajectory", func(t *testing.T) {
		bad := db.Selection{Name: "bad", Criteria: json.RawMessage(`{}`), Counts: json.RawMessage(`{}`), TrajectoryIDs: []int64{ids[0], 999}}
		if _, err := store.CreateSelection(ctx, bad, map[int64]db.Dependence{ids[1]: {UserTurnsPerFact: 7}}, false); err == nil {
			t.Fatal("unknown trajectory: no error")
		}
		if n := queryInt(t, store, "SELECT COUNT(*) FROM selections WHERE name = 'bad'"); n != 0 {
			t.Fatal("half-written selection")
		}
		if n := queryInt(t, store, "SELECT COUNT(*) FROM trajectories WHERE user_turns_per_fact = 7"); n != 0 {
			t.Fatal("dependence written by a failed create")
		}
	})
	t.Run("CascadeOnRunDelete", func(t *testing.T) {
		if _, err := store.DeleteRuns(ctx, []int64{1}); err != nil {
			t.Fatal(err)
		}
		if n := queryInt(t, store, "SELECT COUNT(*) FROM selection_trajectories"); n != 0 {
			t.Fatalf("%d selection rows after the run is deleted, want 0", n)
		}
	})
}
