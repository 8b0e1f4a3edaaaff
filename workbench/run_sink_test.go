package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// An interrupt between the trajectory's commit and the sink's return (here
// the user-dependence update, which the cancelled context stops) still
// counts the trajectory the sink stored: the interrupted run's summary
// says what the db holds (#20 item 22e).
func TestRunSink_CountsWhatItCommitted(t *testing.T) {
	t.Parallel()
	store := tagsDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reward := 1.0
	traj := &emobench.Trajectory{Task: emobench.Task{Domain: "retail", Key: "9", Instruction: "task 9", Scenario: json.RawMessage(`{}`)},
		Reward: &reward, Evaluated: true, TerminationReason: emobench.TerminationReason("user_stop"),
		Messages: []emobench.Message{{Role: "user", Content: "hi"}}}
	var stored atomic.Int64
	err := runSink(store, 2, &stored)(ctx, traj)
	have, lerr := store.ListFinishedPairs(context.Background(), 2)
	if lerr != nil {
		t.Fatal(lerr)
	}
	if !errors.Is(err, context.Canceled) || !have[db.Pair{TaskKey: "9", Trial: 0}] {
		t.Fatalf("sink: %v, stored pairs %v; want the trajectory committed and then context.Canceled", err, have)
	}
	if got := stored.Load(); got != 1 {
		t.Errorf("counted %d stored trajectories, want 1 (the db holds it)", got)
	}
}
