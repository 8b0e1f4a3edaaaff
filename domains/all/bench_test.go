package all_test

import (
	"context"
	"testing"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// BenchmarkEpisodes runs the oracle against the scripted user over every
// test task of a domain, in the with-emotions condition, on one goroutine:
// the engine's throughput with no LLM, in episodes/s.
func BenchmarkEpisodes(b *testing.B) {
	for _, name := range all.Names() {
		b.Run(name, func(b *testing.B) {
			dom, err := all.Find(name)
			if err != nil {
				b.Fatal(err)
			}
			tasks := dom.Tasks()
			ctx := context.Background()
			n := 0
			for b.Loop() {
				task := &tasks[n%len(tasks)]
				_, err := sim.RunEpisode(ctx, sim.EpisodeConfig{
					Domain: dom, Task: task, Agent: sim.Noisy{Rate: 0.3}, User: sim.ScriptedUser{},
					WithEmotions: true, Seed: uint64(n),
				})
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "episodes/s")
		})
	}
}
