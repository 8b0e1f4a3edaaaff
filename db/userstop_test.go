package db_test

import (
	"context"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// TestIngestRun_UserStops: user_transfer and user_out_of_scope are stored
// as user_stop (the column's CHECK predates them) and read back from the
// marker in the last user message.
func TestIngestRun_UserStops(t *testing.T) {
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	transfer, outOfScope := traj("7", 0, 1), traj("8", 0, 0)
	transfer.TerminationReason, transfer.Messages[3].Content = emobench.TerminationUserTransfer, "###TRANSFER###"
	outOfScope.TerminationReason, outOfScope.Messages[3].Content = emobench.TerminationUserOutOfScope, "I can't say. ###OUT-OF-SCOPE###"
	res, err := store.IngestRun(ctx, run("r", "s1"), seq(transfer, outOfScope, traj("9", 0, 1)), db.DuplicateRefuse)
	if err != nil {
		t.Fatal(err)
	}
	if got := queryInt(t, store, "SELECT COUNT(*) FROM trajectories WHERE termination_reason = 'user_stop'"); got != 3 {
		t.Fatalf("%d rows with user_stop, want 3", got)
	}
	want := map[string]emobench.TerminationReason{"7": emobench.TerminationUserTransfer, "8": emobench.TerminationUserOutOfScope, "9": emobench.TerminationUserStop}
	for traj, err := range store.Trajectories(ctx, res.RunID) {
		if err != nil {
			t.Fatal(err)
		}
		if got := traj.TerminationReason; got != want[traj.Task.Key] {
			t.Errorf("task %s: read back %s, want %s", traj.Task.Key, got, want[traj.Task.Key])
		}
	}
}
