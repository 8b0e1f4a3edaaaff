package ingest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench"
)

// TestTau2_UserStopsKept: τ²-bench writes user_stop for ###TRANSFER### and
// ###OUT-OF-SCOPE### too; the reader keeps them apart by the last user
// message. The counts are those of grep over the file's last user messages.
func TestTau2_UserStopsKept(t *testing.T) {
	t.Parallel()
	path := filepath.Join(realRuns, "tau2", "airline-qwen2.5-7b-agent-errors.json")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not found: real-run tests need the shared folder", path)
	}
	_, trajs, err := readTau2(t, path)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[emobench.TerminationReason]int{}
	for _, traj := range trajs {
		counts[traj.TerminationReason]++
	}
	if got, want := counts[emobench.TerminationUserTransfer], 9; got != want {
		t.Errorf("user_transfer: %d trajectories, want %d (all: %v)", got, want, counts)
	}
	if got, want := counts[emobench.TerminationUserOutOfScope], 2; got != want {
		t.Errorf("user_out_of_scope: %d trajectories, want %d (all: %v)", got, want, counts)
	}
}
