package all_test

import (
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// TestCareless_FailsEveryRefusalAndTransfer: on every test task of every
// domain that holds a refusal (a forbidden list) or a transfer, in both
// conditions, the careless agent, which never refuses and never hands
// the user over, fails (issue 21's validity figure).
func TestCareless_FailsEveryRefusalAndTransfer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("every refusal and transfer task in both conditions takes about 12 s: run without -short")
	}
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, task := range testTasks(dom) {
				transfers := slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return a.Name == dom.TransferTool() })
				if len(task.Forbidden) == 0 && !transfers {
					continue
				}
				checked++
				for _, withEmotions := range []bool{true, false} {
					traj := scriptedEpisode(t, dom, task, sim.Careless{}, withEmotions, 1)
					if traj.Reward != nil && *traj.Reward == 1 {
						t.Errorf("%s (forbidden %d, transfer %v, with emotions %v): careless passed", task.ID, len(task.Forbidden), transfers, withEmotions)
					}
				}
			}
			if checked == 0 {
				t.Fatalf("%s: no refusal or transfer test task", name)
			}
			t.Logf("%s: careless fails all %d refusal and transfer test tasks in both conditions", name, checked)
		})
	}
}
