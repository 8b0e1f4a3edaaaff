package retail

import (
	"context"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestEpisodeClone_EqualsDeepCopy: the copy-on-write environments of New
// give the same tool results, call by call, and final state hashes as
// deep copies, over every task's episodes by the oracle, the careless agent
// and each noisy fault (every write the tools make on the way), and
// leave the shared snapshot as generated.
func TestEpisodeClone_EqualsDeepCopy(t *testing.T) {
	dom := New()
	agents := []sim.Agent{sim.Oracle{}, sim.Careless{}}
	faults := map[sim.Fault]bool{}
	for seed := uint64(1); len(faults) < 5 && seed < 1000; seed++ {
		if f := (sim.Noisy{Rate: 1}).FaultFor(seed); !faults[f] {
			faults[f] = true
			agents = append(agents, seedAgent{sim.Noisy{Rate: 1}, seed})
		}
	}
	tasks := dom.Tasks()
	calls := 0
	for i := range tasks {
		for k, agent := range agents {
			if testing.Short() && (i%10 != 0 || i/10%len(agents) != k) {
				continue // every tenth task, with one agent in turn
			}
			seed := uint64(1)
			if a, ok := agent.(seedAgent); ok {
				seed = a.seed
			}
			traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
				Domain: dom, Task: &tasks[i], Agent: agent, User: sim.ScriptedUser{}, WithEmotions: true, Seed: seed,
			})
			if err != nil {
				t.Fatal(err)
			}
			cow, deep := dom.NewEnvironment(), newEnv(GenerateDB(Seed))
			for _, m := range traj.Messages {
				for _, c := range m.ToolCalls {
					calls++
					got, gotErr := cow.Call(c.Name, c.Arguments)
					want, wantErr := deep.Call(c.Name, c.Arguments)
					if got != want || (gotErr == nil) != (wantErr == nil) {
						t.Fatalf("task %s, %s(%s): copy-on-write gives %q, %v; a deep copy %q, %v",
							tasks[i].ID, c.Name, c.Arguments, got, gotErr, want, wantErr)
					}
				}
			}
			if got, want := cow.Hash(), deep.Hash(); got != want {
				t.Fatalf("task %s: copy-on-write state hash %s, deep copy %s", tasks[i].ID, got, want)
			}
		}
	}
	t.Logf("%d tool calls compared", calls)
	if err := dom.(sim.TaskSetDomain).VerifyInitial(); err != nil {
		t.Fatal(err)
	}
}

// seedAgent is agent with the seed its episode runs under.
type seedAgent struct {
	sim.Agent
	seed uint64
}

func (a seedAgent) Next(ctx context.Context, ep *sim.Episode) (emobench.Message, error) {
	return a.Agent.Next(ctx, ep)
}
