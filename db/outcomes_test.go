package db_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/emobench/emobench"
)

// TestForEachAgentText_Batches stores more trajectories than one read batch
// holds: every agent text comes back once, in trajectory order.
func TestForEachAgentText_Batches(t *testing.T) {
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
