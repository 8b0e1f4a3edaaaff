package all_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// noisyRate is the validity figure's fault rate: noisy:0.3.
const noisyRate = 0.3

// faultSeeds returns, for agent, the smallest seed of each fault it can
// make (no fault included), in seed order: running every task under these
// seeds gives every fault on every task.
func faultSeeds(agent sim.Noisy) []uint64 {
	seen := map[sim.Fault]bool{}
	var seeds []uint64
	for seed := uint64(1); len(seen) < 6 && seed < 10_000; seed++ {
		if f := agent.FaultFor(seed); !seen[f] {
			seen[f] = true
			seeds = append(seeds, seed)
		}
	}
	return seeds
}

// failureCauses returns why a failed episode failed, from its reward_info
// as the evaluator writes it (τ²-bench's layout, read by
// emobench.RewardChecks): each failed check's kind, and "termination:R"
// when the termination reason R decided the reward. An empty result means
// reward_info does not explain the failure.
func failureCauses(traj *emobench.Trajectory) ([]string, error) {
	checks, err := emobench.RewardChecks(traj.RewardInfo)
	if err != nil {
		return nil, err
	}
	var causes []string
	for _, c := range checks {
		if c.Status == emobench.CheckFailed && !slices.Contains(causes, string(c.Kind)) {
			causes = append(causes, string(c.Kind))
		}
	}
	switch traj.TerminationReason {
	case emobench.TerminationUserUnsatisfied, emobench.TerminationMaxSteps, emobench.TerminationTooManyErrors, emobench.TerminationError:
		causes = append(causes, "termination:"+string(traj.TerminationReason))
	}
	return causes, nil
}

// kindFigures are the noisy figures of one task kind.
type kindFigures struct {
	tasks, episodes, failures int
	causes                    map[string]int // failed episodes by cause (failureCauses)
}

// shortNoisyPerKind bounds the tasks per kind TestNoisy_FailsEveryKind
// runs under -short.
const shortNoisyPerKind = 4

// TestNoisy_FailsEveryKind: noisy:0.3 against the scripted user, over the
// test split (under -short, shortNoisyPerKind tasks of each kind), the seeds that give each of its
// faults and both conditions, fails tasks of every kind the domain has (forbidden, transfer, write, read: kindOf),
// and every failed episode's reward_info says which check failed or the
// termination reason that decided it. The figures are logged per domain
// and kind.
func TestNoisy_FailsEveryKind(t *testing.T) {
	t.Parallel()
	agent := sim.Noisy{Rate: noisyRate}
	seeds := faultSeeds(agent)
	if len(seeds) != 6 {
		t.Fatalf("noisy:%v: seeds %v give %d faults, want 6 (five faults and none)", noisyRate, seeds, len(seeds))
	}
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			byKind := tasksByKind(dom, sampleTasks(t, dom, testTasks(dom)))
			if testing.Short() {
				// 12 episodes a task (6 seeds, 2 conditions): 4 tasks of
				// each kind give every fault on every kind.
				for kind, tasks := range byKind {
					byKind[kind] = spread(tasks, shortNoisyPerKind)
				}
			}
			figures := map[taskKind]*kindFigures{}
			for _, kind := range taskKinds {
				if len(byKind[kind]) == 0 {
					continue
				}
				f := &kindFigures{tasks: len(byKind[kind]), causes: map[string]int{}}
				figures[kind] = f
				for _, task := range byKind[kind] {
					for _, seed := range seeds {
						for _, withEmotions := range []bool{true, false} {
							traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
								Domain: dom, Task: task, Agent: agent, User: sim.ScriptedUser{},
								WithEmotions: withEmotions, Seed: seed,
							})
							if err != nil {
								t.Fatalf("task %s seed %d (emotions %v): %v", task.ID, seed, withEmotions, err)
							}
							f.episodes++
							if traj.Passed() {
								continue
							}
							f.failures++
							causes, err := failureCauses(traj)
							if err != nil {
								t.Fatalf("task %s seed %d: %v", task.ID, seed, err)
							}
							if len(causes) == 0 {
								t.Errorf("task %s seed %d (fault %s, emotions %v): failed (%s, reward %v) but reward_info records no failed check: %s",
									task.ID, seed, agent.FaultFor(seed), withEmotions, traj.TerminationReason, deref(traj.Reward), traj.RewardInfo)
							}
							for _, c := range causes {
								f.causes[c]++
							}
						}
					}
				}
				if f.failures == 0 {
					t.Errorf("%s: noisy:%v fails no %s task (%d tasks, %d episodes)", name, noisyRate, kind, f.tasks, f.episodes)
				}
			}
			t.Logf("%s: noisy:%v over seeds %v, both conditions:\n%s", name, noisyRate, seeds, figuresTable(figures))
		})
	}
}

// figuresTable lays out the figures per kind: tasks, episodes, failures
// and failed episodes by cause.
func figuresTable(figures map[taskKind]*kindFigures) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "kind\ttasks\tepisodes\tfailures\tfailed checks")
	for _, kind := range taskKinds {
		f, ok := figures[kind]
		if !ok {
			continue
		}
		var causes []string
		for _, c := range sortedKeys(f.causes) {
			causes = append(causes, fmt.Sprintf("%s %d", c, f.causes[c]))
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%s\n", kind, f.tasks, f.episodes, f.failures, strings.Join(causes, ", "))
	}
	w.Flush()
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestFailureCauses(t *testing.T) {
	t.Parallel()
	traj := &emobench.Trajectory{
		TerminationReason: emobench.TerminationUserUnsatisfied,
		RewardInfo: []byte(`{"db_check":{"db_match":false},"action_checks":[{"action":{"name":"a"},"action_match":true}],
			"forbidden_checks":[{"action":{"name":"cancel"},"called":true}],"communicate_checks":[{"info":"x","met":false},{"info":"y","met":false}]}`),
	}
	got, err := failureCauses(traj)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"DB", "FORBIDDEN", "COMMUNICATE", "termination:user_unsatisfied"}; !slices.Equal(got, want) {
		t.Fatalf("causes = %v, want %v", got, want)
	}
	passedChecks := &emobench.Trajectory{TerminationReason: emobench.TerminationTransfer, RewardInfo: []byte(`{"db_check":{"db_match":true}}`)}
	if got, err := failureCauses(passedChecks); err != nil || len(got) != 0 {
		t.Fatalf("causes of passing checks = %v, %v; want none", got, err)
	}
}
