package all_test

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// TestOracle_ConfirmsEveryWrite: the offline confirmation check
// (sim.ProcedureCheck, kind "confirmation") holds the oracle with the
// scripted user on every test task of every domain (under -short, a
// sample of each task kind: sampleTasks), in both conditions:
// the rule is sound for them, a precondition of recording it (#21). The
// number of episodes with a write is logged per domain.
func TestOracle_ConfirmsEveryWrite(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			episodes, wrote := 0, 0
			for _, task := range sampleTasks(t, dom, testTasks(dom)) {
				for _, withEmotions := range []bool{true, false} {
					traj := scriptedEpisode(t, dom, task, sim.Oracle{}, withEmotions, 1)
					var info sim.RewardInfo
					if err := json.Unmarshal(traj.RewardInfo, &info); err != nil {
						t.Fatalf("task %s: reward_info: %v", task.ID, err)
					}
					episodes++
					for _, c := range info.ProcedureChecks {
						if c.Kind == "confirmation" {
							wrote++
						}
						if !c.Met {
							t.Errorf("task %s (emotions %v): %s failed: %s", task.ID, withEmotions, c.Check, c.Detail)
						}
					}
				}
			}
			t.Logf("%s: %d oracle episodes, %d with a write, every procedure check met", name, episodes, wrote)
		})
	}
}
