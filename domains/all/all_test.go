package all_test

import (
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// Each domain must be big enough to be a benchmark: τ-bench's smallest
// domain (airline) has 50 test tasks and 13 tools.
const (
	minTestTasks = 40
	minTools     = 12
)

func TestFind_ErrUnknown(t *testing.T) {
	if _, err := all.Find("nosuch"); err == nil {
		t.Fatal(`Find("nosuch") returned no error`)
	}
	if got, want := all.Names(), []string{"airline", "retail", "telecom", "telehealth"}; !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
}

func TestDomains_Size(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(testTasks(dom)); got < minTestTasks {
			t.Errorf("%s: %d test tasks, want at least %d", name, got, minTestTasks)
		}
		if got := len(dom.NewEnvironment().Tools()); got < minTools {
			t.Errorf("%s: %d tools, want at least %d", name, got, minTools)
		}
		t.Logf("%s: %d test tasks, %d tools", name, len(testTasks(dom)), len(dom.NewEnvironment().Tools()))
	}
}

// TestOracle_SolvesEveryTask runs the oracle against the scripted user on
// every task of every split of every domain (under -short, a fixed sample
// of each task kind), in both conditions: every trajectory must pass
// (pass^1 = 1.0), ending with ###STOP### or, for a task whose gold actions
// end in a transfer, with the transfer.
func TestOracle_SolvesEveryTask(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[emobench.TerminationReason]int{}
			splits := map[emobench.Split]int{}
			episodes, passed := 0, 0
			for _, task := range sampleTasks(t, dom, allTasks(dom)) {
				splits[task.Split]++
				wantReason := emobench.TerminationUserStop
				if n := len(task.Actions); n > 0 && task.Actions[n-1].Name == dom.TransferTool() {
					wantReason = emobench.TerminationTransfer
				}
				for _, withEmotions := range []bool{true, false} {
					traj := scriptedEpisode(t, dom, task, sim.Oracle{}, withEmotions, 1)
					episodes++
					counts[traj.TerminationReason]++
					if traj.Passed() {
						passed++
					}
					if !traj.Passed() || traj.TerminationReason != wantReason {
						t.Errorf("task %s (emotions %v): termination %s, reward %v, want %s and reward 1\nreward_info: %s\nlast message: %q",
							task.ID, withEmotions, traj.TerminationReason, deref(traj.Reward), wantReason,
							traj.RewardInfo, traj.Messages[len(traj.Messages)-1].Content)
					}
				}
			}
			t.Logf("%s: oracle pass^1 = %.3f over %d episodes, tasks by split %v, terminations %v",
				name, float64(passed)/float64(episodes), episodes, splits, counts)
		})
	}
}

func testTasks(dom sim.Domain) []*emobench.TaskSpec {
	tasks := dom.Tasks()
	var out []*emobench.TaskSpec
	for i := range tasks {
		if tasks[i].Split == emobench.SplitTest {
			out = append(out, &tasks[i])
		}
	}
	return out
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// TestTasks_DistinctContentHashes: no two embedded tasks of a domain share
// a content hash, so no two share a tasks row and get pooled as one task
// (the hash leaves out Forbidden, NLAssertions and RewardBasis; see
// emobench.TaskSpec).
func TestTasks_DistinctContentHashes(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, spec := range allTasks(dom) {
			task := spec.Task()
			sum, err := task.ContentSHA256()
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[sum]; ok {
				t.Errorf("%s: tasks %s and %s share content hash %s", name, other, spec.ID, sum)
			}
			seen[sum] = spec.ID
		}
	}
}
