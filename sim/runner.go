package sim

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/emobench/emobench"
)

// Job is one episode to run: a task and a trial number.
type Job struct {
	Task  *emobench.TaskSpec
	Trial int
}

// RunnerConfig configures RunJobs.
type RunnerConfig struct {
	Domain       Domain
	Agent        Agent
	User         UserSimulator
	WithEmotions bool
	Seed         uint64 // the run's seed; each episode's seed derives from it
	Concurrency  int    // episodes in flight; 1 when 0
	MaxSteps     int
	MaxErrors    int
	// EpisodeTimeout bounds each episode (EpisodeConfig.Timeout).
	EpisodeTimeout time.Duration
	// Abandon is each episode's EpisodeConfig.Abandon.
	Abandon UserAbandon
	// Judge is each episode's EpisodeConfig.Judge; nil for none.
	Judge Judge
	// Protocol is each episode's EpisodeConfig.Protocol.
	Protocol Protocol
}

// Sink receives each finished trajectory. RunJobs calls it from one
// goroutine at a time, so a sink may write to SQLite directly.
type Sink func(ctx context.Context, traj *emobench.Trajectory) error

// EpisodeSeed derives an episode's seed from the run seed, the task id and
// the trial, so the same (task, trial) has the same seed in both conditions.
func EpisodeSeed(runSeed uint64, taskID string, trial int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", runSeed, taskID, trial)
	return h.Sum64()
}

// RunJobs runs jobs over a pool of workers and hands every finished
// trajectory to sink. It returns ctx's error when ctx is done: episodes in
// flight are then dropped, and those already handed to sink stay. A sink
// error stops the run and is returned.
func RunJobs(parent context.Context, cfg RunnerConfig, jobs []Job, sink Sink) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	workers := max(1, min(cfg.Concurrency, len(jobs))) // an idle worker is memory for nothing
	todo := make(chan Job)
	done := make(chan *emobench.Trajectory)
	failed := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range todo {
				traj, err := runJob(ctx, cfg, job)
				if err != nil {
					failed <- err
					cancel()
					return
				}
				select {
				case done <- traj:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, job := range jobs {
			select {
			case todo <- job:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	var sinkErr error
	for traj := range done {
		if sinkErr == nil {
			if sinkErr = sink(ctx, traj); sinkErr != nil {
				cancel()
			}
		}
	}
	if sinkErr != nil {
		return sinkErr
	}
	select {
	case err := <-failed:
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
	default:
	}
	return parent.Err()
}

func runJob(ctx context.Context, cfg RunnerConfig, job Job) (*emobench.Trajectory, error) {
	seed := EpisodeSeed(cfg.Seed, job.Task.ID, job.Trial)
	traj, err := RunEpisode(ctx, EpisodeConfig{
		Domain: cfg.Domain, Task: job.Task, Agent: cfg.Agent, User: cfg.User,
		WithEmotions: cfg.WithEmotions, Seed: seed, MaxSteps: cfg.MaxSteps, MaxErrors: cfg.MaxErrors,
		Timeout: cfg.EpisodeTimeout, Abandon: cfg.Abandon, Judge: cfg.Judge, Protocol: cfg.Protocol,
	})
	if err != nil {
		return nil, err
	}
	traj.Trial = job.Trial
	s := int64(seed)
	traj.Seed = &s
	return traj, nil
}
