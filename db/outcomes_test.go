package db_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// TestForEachAgentText_Batches stores more trajectories than one read batch
// holds: every agent text comes back once, in trajectory order.
func TestForEachAgentText_Batches(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	const n = 4096 + 5
	trajs := make([]*emobench.Trajectory, n)
	for i := range trajs {
		tr := traj(fmt.Sprintf("t%d", i), 0, 1)
		tr.Messages = append(tr.Messages, emobench.Message{Role: emobench.RoleAssistant, Content: fmt.Sprintf("reply %d", i)})
		trajs[i] = tr
	}
	mustIngest(t, store, run("many", "sha-many"), trajs...)

	var texts int
	last := int64(-1)
	err := store.ForEachAgentText(context.Background(), func(id int64, text string) {
		if id <= last {
			t.Fatalf("trajectory %d after %d: out of order or repeated", id, last)
		}
		last = id
		if want := fmt.Sprintf("reply %d", id-1); text != want {
			t.Fatalf("trajectory %d: text %q, want %q", id, text, want)
		}
		texts++
	})
	if err != nil {
		t.Fatal(err)
	}
	if texts != n {
		t.Fatalf("%d texts, want %d", texts, n)
	}
}

// Ids at the ends of the int64 range (files from others) are read too, and
// the batches end.
func TestForEachAgentText_ExtremeIDs(t *testing.T) {
	t.Parallel()
	store, path := MustOpenDB(t)
	var trajs []*emobench.Trajectory
	for i := range 3 {
		tr := traj(fmt.Sprintf("t%d", i), 0, 1)
		tr.Messages = append(tr.Messages, emobench.Message{Role: emobench.RoleAssistant, Content: fmt.Sprintf("reply %d", i)})
		trajs = append(trajs, tr)
	}
	mustIngest(t, store, run("extreme", "sha-extreme"), trajs...)
	plainExec(t, path,
		"UPDATE messages SET trajectory_id = 9223372036854775807 WHERE trajectory_id = 3",
		"UPDATE trajectories SET id = 9223372036854775807 WHERE id = 3",
		"UPDATE messages SET trajectory_id = -5 WHERE trajectory_id = 1",
		"UPDATE trajectories SET id = -5 WHERE id = 1")
	var got []string
	err := store.ForEachAgentText(context.Background(), func(id int64, text string) {
		got = append(got, fmt.Sprintf("%d:%s", id, text))
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "-5:reply 0 2:reply 1 9223372036854775807:reply 2"; strings.Join(got, " ") != want {
		t.Fatalf("texts %q, want %q", strings.Join(got, " "), want)
	}
}
