package telecom

import (
	"context"
	"testing"

	"github.com/emobench/emobench/sim"
)

// BenchmarkEpisodes runs the oracle with the scripted user on the test
// tasks and reports episodes/s (each episode also replays the gold
// actions to score the database).
func BenchmarkEpisodes(b *testing.B) {
	dom := New()
	tasks := dom.Tasks()[:NumTestTasks]
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		task := tasks[i%len(tasks)]
		if _, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{Domain: dom, Task: &task, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, WithEmotions: true, Seed: uint64(i)}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "episodes/s")
}
