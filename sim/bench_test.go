package sim_test

import (
	"context"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// BenchmarkRunEpisode_Toy measures the engine's own overhead per episode
// (orchestrator, scripted user, oracle, evaluation) on the toy domain. The
// domain benchmarks in domains/all include each domain's state costs.
func BenchmarkRunEpisode_Toy(b *testing.B) {
	task := toyTask(angrySkeptic)
	ctx := context.Background()
	n := 0
	for b.Loop() {
		traj, err := sim.RunEpisode(ctx, sim.EpisodeConfig{
			Domain: toyDomain{}, Task: &task, Agent: sim.Oracle{}, User: sim.ScriptedUser{},
			WithEmotions: true, Seed: uint64(n),
		})
		if err != nil || traj.TerminationReason != emobench.TerminationUserStop {
			b.Fatalf("episode %d: %v %v", n, err, traj)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "episodes/s")
}
