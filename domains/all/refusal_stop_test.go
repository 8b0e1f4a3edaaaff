package all_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// TestOracle_RefusalsAndTransfersEndWell runs the oracle against the
// scripted user on every test task of every domain whose answer is a
// refusal (a forbidden write, no transfer in the gold) or a transfer, in
// both conditions (under -short, shortPerKind tasks of each kind, spread
// over the kind). A refusal ends with the user's ###STOP### right after
// the oracle's refusal (sim.SaysRefusal), never ###UNSATISFIED### or the
// step cap; a transfer ends at the transfer call itself (termination
// transfer: the orchestrator ends the episode there, before the user's
// turn). Every episode passes.
func TestOracle_RefusalsAndTransfersEndWell(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			byKind := tasksByKind(dom, testTasks(dom))
			refusals, transfers := byKind[kindForbidden], byKind[kindTransfer]
			if testing.Short() {
				refusals, transfers = spread(refusals, shortPerKind), spread(transfers, shortPerKind)
			}
			counts := map[emobench.TerminationReason]int{}
			for _, task := range append(append([]*emobench.TaskSpec{}, refusals...), transfers...) {
				isTransfer := kindOf(dom, writeTools(dom), task) == kindTransfer ||
					len(task.Actions) > 0 && task.Actions[len(task.Actions)-1].Name == dom.TransferTool()
				want := emobench.TerminationUserStop
				if isTransfer {
					want = emobench.TerminationTransfer
				}
				for _, withEmotions := range []bool{true, false} {
					traj := scriptedEpisode(t, dom, task, sim.Oracle{}, withEmotions, 1)
					counts[traj.TerminationReason]++
					n := len(traj.Messages)
					if traj.TerminationReason != want || !traj.Passed() {
						t.Errorf("task %s (emotions %v): termination %s, reward %v, want %s and reward 1\nlast message: %q",
							task.ID, withEmotions, traj.TerminationReason, deref(traj.Reward), want, traj.Messages[n-1].Content)
						continue
					}
					if !isTransfer && (!strings.Contains(traj.Messages[n-1].Content, sim.StopMarker) || !sim.SaysRefusal(traj.Messages[n-2].Content)) {
						t.Errorf("task %s (emotions %v): the user's %q does not follow a refusal (%q)", task.ID, withEmotions, traj.Messages[n-1].Content, traj.Messages[n-2].Content)
					}
				}
			}
			if len(refusals) == 0 {
				t.Errorf("%s: no refusal test tasks", name)
			}
			t.Logf("%s: %d refusal and %d transfer test tasks, both conditions: terminations %v", name, len(refusals), len(transfers), counts)
		})
	}
}
