package db_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// withInfo gives t the reward_info ri.
func withInfo(t *emobench.Trajectory, ri string) *emobench.Trajectory {
	t.RewardInfo = []byte(ri)
	return t
}

// strictCases are reward_infos beside a reward of 1, each with whether
// the trajectory passes strictly (emobench.Trajectory.StrictPassed).
var strictCases = []struct {
	rewardInfo string
	strict     bool
}{
	{`{"reward": 1.0, "db_check": {"db_match": true}, "action_checks": null, "nl_assertions": null, "communicate_checks": [{"info": "x", "met": true}]}`, true},
	{`{"reward": 1.0, "db_check": {"db_match": true}, "nl_assertions": [{"nl_assertion": "refuse", "met": false}], "reward_basis": ["DB"]}`, false},
	{`{"reward": 1.0, "db_check": {"db_match": true}, "action_checks": [{"action": {"name": "a"}, "action_match": false}]}`, false},
	{`{"reward": 1.0, "db_check": {"db_match": true}, "forbidden_checks": [{"action": {"name": "a"}, "called": false}], "refusal_check": {"met": true}}`, true},
	{`{"reward": 1.0, "forbidden_checks": [{"action": {"name": "a"}, "called": true}]}`, false},
	{`{"reward": 1.0, "refusal_check": {"met": false}}`, false},
	{`{"reward": 1.0, "nl_assertions": [{"nl_assertion": "x", "met": null}]}`, false},
	{`{"reward": 1.0, "db_check": null, "env_assertions": [], "communicate_checks": []}`, true},
	{`{"reward": 1.0, "info": {"r_actions": 1.0}}`, true},
	{`{"reward": 1.0, "db_check": {"db_match": 1}}`, false},
	{`{"reward": 1.0, "action_checks": {"action_match": true}}`, false},
	{`{"reward": 1.0, "action_checks": [null]}`, false},
	{`[1]`, false},
}

// Every write keeps strict_passed and strict_passes as StrictPassed counts.
func TestStrictPasses_EveryWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := MustOpenDB(t)
	var trajs []*emobench.Trajectory
	want := 0
	for i, c := range strictCases {
		trajs = append(trajs, withInfo(traj("1", i, 1), c.rewardInfo))
		if c.strict {
			want++
		}
	}
	trajs = append(trajs, withInfo(traj("2", 0, 0), strictCases[0].rewardInfo))
	mustIngest(t, store, run("a", "s1"), trajs...)
	mustConsistentOutcomes(t, store, "ingest")
	var flags []string
	for i, c := range strictCases {
		flags = append(flags, fmt.Sprintf("%d|%d", i, boolInt(c.strict)))
	}
	if got, want := queryText(t, store, "SELECT trial, strict_passed FROM trajectories WHERE task_id = 1 ORDER BY trial"), strings.Join(flags, "\n"); got != want {
		t.Fatalf("strict_passed\n%s\nwant\n%s", got, want)
	}
	if got, want := queryText(t, store, "SELECT task_id, passes, strict_passes FROM run_task_outcomes ORDER BY task_id"), fmt.Sprintf("1|%d|%d\n2|0|0", len(strictCases), want); got != want {
		t.Fatalf("outcomes %s, want %s", got, want)
	}
	gated, err := store.ListTaskTrials(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	strict, err := store.ListStrictTaskTrials(ctx, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(gated) != 2 || len(strict) != 2 || gated[0].Passes != len(strictCases) || strict[0].Passes != want || strict[0].Trials != gated[0].Trials {
		t.Fatalf("gated %+v strict %+v", gated, strict)
	}

	// A native run: appends recount the touched task.
	native, err := store.CreateRun(ctx, nativeRun("sim", `{"seed":1}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range strictCases[:3] {
		if err := store.AppendTrajectory(ctx, native, withInfo(traj("1", i, 1), c.rewardInfo)); err != nil {
			t.Fatal(err)
		}
		mustConsistentOutcomes(t, store, "append")
	}
	if got, want := queryText(t, store, fmt.Sprintf("SELECT passes, strict_passes FROM run_task_outcomes WHERE run_id = %d", native)), "3|1"; got != want {
		t.Fatalf("native passes|strict_passes %s, want %s", got, want)
	}

	// Merge recomputes strict_passed from the reward_info it copies.
	dst, _ := MustOpenDB(t)
	if _, err := dst.Merge(ctx, store, nil); err != nil {
		t.Fatal(err)
	}
	mustConsistentOutcomes(t, dst, "merge")
	if got, want := queryText(t, dst, "SELECT SUM(passes), SUM(strict_passes) FROM run_task_outcomes"), fmt.Sprintf("%d|%d", len(strictCases)+3, want+1); got != want {
		t.Fatalf("after merge passes|strict_passes %s, want %s", got, want)
	}
}

// Check reports strict passes that no longer match the trajectories.
func TestCheck_ErrStaleStrictPasses(t *testing.T) {
	t.Parallel()
	store, path := MustOpenDB(t)
	mustIngest(t, store, run("a", "s1"), traj("1", 0, 1))
	store.Close()
	plainExec(t, path, "UPDATE trajectories SET strict_passed = 0")
	rep, err := openRO(t, path).Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "1 strict passes stored, trajectories count 0") {
		t.Fatalf("problems %q, want one naming the strict passes", rep.Problems)
	}
}

// Migration 11's SQL backfill agrees with StrictPassed on every case.
func TestMigrate_BackfillsStrictPasses(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v10.db")
	store := openDBAt(t, path)
	var trajs []*emobench.Trajectory
	for i, c := range strictCases {
		trajs = append(trajs, withInfo(traj("1", i, 1), c.rewardInfo))
	}
	mustIngest(t, store, run("a", "s1"), trajs...)
	store.Close()
	plainExec(t, path, undoMigration12...)
	plainExec(t, path, "ALTER TABLE trajectories DROP COLUMN strict_passed",
		"ALTER TABLE run_task_outcomes DROP COLUMN strict_passes", "PRAGMA user_version = 10")

	store = openDBAt(t, path)
	mustConsistentOutcomes(t, store, "migration")
	var flags []string
	want := 0
	for i, c := range strictCases {
		flags = append(flags, fmt.Sprintf("%d|%d", i, boolInt(c.strict)))
		if c.strict {
			want++
		}
	}
	if got, want := queryText(t, store, "SELECT trial, strict_passed FROM trajectories ORDER BY trial"), strings.Join(flags, "\n"); got != want {
		t.Fatalf("strict_passed backfilled as\n%s\nwant\n%s", got, want)
	}
	if got := queryInt(t, store, "SELECT strict_passes FROM run_task_outcomes"); got != want {
		t.Fatalf("strict_passes backfilled as %d, want %d", got, want)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// undoMigration12 takes a current database back to schema version 11.
var undoMigration12 = []string{
	"DROP TABLE selection_trajectories", "DROP TABLE selections", "DROP TABLE task_set_tasks", "DROP TABLE task_sets",
	"ALTER TABLE trajectories DROP COLUMN user_turns_per_fact", "ALTER TABLE trajectories DROP COLUMN questions_already_answered",
	"ALTER TABLE trajectories DROP COLUMN questions_tool_findable", "ALTER TABLE trajectories DROP COLUMN follow_up_questions",
	"ALTER TABLE trajectories DROP COLUMN tool_call_share", "PRAGMA user_version = 11",
}
