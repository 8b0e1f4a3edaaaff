package all_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// episodeKey names one scripted-user episode: the same key always gives
// the same trajectory (the simulators are deterministic in their seed).
type episodeKey struct {
	domain, split, task string
	agent               string // the agent's type and fields, e.g. "sim.Careless{}"
	withEmotions        bool
	seed                uint64
}

// episodeResult is one episode, run once.
type episodeResult struct {
	once sync.Once
	traj *emobench.Trajectory
	err  error
}

// episodes holds every episode scriptedEpisode ran, by episodeKey.
var episodes sync.Map

// scriptedEpisode runs agent against the scripted user on task of dom, in
// the condition and with the seed given (other settings the defaults),
// once per test binary: the oracle's episodes on every test task (and the
// careless agent's on every refusal task) are what several tests check,
// each its own property, and they share one run. The trajectory is
// shared: callers read it and never change it. Safe for parallel tests;
// a second caller of a key waits for the first one's episode.
func scriptedEpisode(t *testing.T, dom sim.Domain, task *emobench.TaskSpec, agent sim.Agent, withEmotions bool, seed uint64) *emobench.Trajectory {
	t.Helper()
	key := episodeKey{
		domain: dom.Name(), split: string(task.Split), task: task.ID,
		agent: fmt.Sprintf("%#v", agent), withEmotions: withEmotions, seed: seed,
	}
	v, _ := episodes.LoadOrStore(key, &episodeResult{})
	r := v.(*episodeResult)
	r.once.Do(func() {
		r.traj, r.err = sim.RunEpisode(context.Background(), sim.EpisodeConfig{
			Domain: dom, Task: task, Agent: agent, User: sim.ScriptedUser{},
			WithEmotions: withEmotions, Seed: seed,
		})
	})
	if r.err != nil {
		t.Fatalf("%s task %s (agent %s, emotions %v, seed %d): %v", key.domain, task.ID, key.agent, withEmotions, seed, r.err)
	}
	return r.traj
}
