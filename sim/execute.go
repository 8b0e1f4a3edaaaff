package sim

import (
	"context"
	"fmt"
	"time"

	"github.com/emobench/emobench"
)

// Tally counts the finished episodes of a run.
type Tally struct {
	Done, Passed int
	Abandoned    int    // ended user_unsatisfied
	Errors       int    // ended in error
	FirstError   string // the error of the first episode that ended in error
}

// Add counts one finished episode.
func (t *Tally) Add(traj *emobench.Trajectory) {
	t.Done++
	if traj.Passed() {
		t.Passed++
	}
	switch traj.TerminationReason {
	case emobench.TerminationUserUnsatisfied:
		t.Abandoned++
	case emobench.TerminationError:
		if t.Errors == 0 {
			t.FirstError = traj.Error
		}
		t.Errors++
	}
}

// PassRate is Passed/Done, in [0, 1]; 0 before any episode.
func (t Tally) PassRate() float64 {
	if t.Done == 0 {
		return 0
	}
	return float64(t.Passed) / float64(t.Done)
}

// FailFastErrors is how many episodes beyond those in flight may end in
// error, with none finishing well, before Execute stops: a dead endpoint
// or a wrong key fails every episode.
const FailFastErrors = 4

// AllFailedError is returned by Execute when the first Episodes episodes
// (Concurrency + FailFastErrors) all ended in error.
type AllFailedError struct {
	Episodes int
	First    string // the first episode's error
}

func (e *AllFailedError) Error() string {
	return fmt.Sprintf("the first %d episodes all ended in error (first: %s)", e.Episodes, e.First)
}

// DefaultMaxConsecutiveErrors is how many episodes in a row may end in
// error before Execute stops a run (Execution.MaxConsecutiveErrors): an
// endpoint that died mid-run fails every episode after it, each after its
// retries, and each counts as a failure of the agent it never reached.
const DefaultMaxConsecutiveErrors = 8

// ConsecutiveErrorsError is returned by Execute when the last Episodes
// finished episodes all ended in error (an LLM endpoint or the harness
// failed), after others had not: the circuit breaker of a run whose
// endpoint died mid-run.
type ConsecutiveErrorsError struct {
	Episodes int
	Last     string // the last episode's error
}

func (e *ConsecutiveErrorsError) Error() string {
	return fmt.Sprintf("the last %d episodes in a row ended in error (last: %s)", e.Episodes, e.Last)
}

// Execution is one run to carry out: its spec, its domain and the
// participants built for it (NewParticipants).
type Execution struct {
	Domain      Domain
	Spec        emobench.RunSpec
	Agent       Agent
	User        UserSimulator
	Judge       Judge // NewJudge; nil leaves NL assertions not checked
	Concurrency int   // episodes in flight; 1 when < 1
	// EpisodeTimeout bounds each episode when the spec records no
	// timeout (a config written before RunSpec.EpisodeTimeout);
	// DefaultEpisodeTimeout when 0, none when negative.
	EpisodeTimeout time.Duration
	// OnEpisode, when not nil, sees the tally after each trajectory the
	// sink took (for a progress bar).
	OnEpisode func(Tally)
	// MaxConsecutiveErrors is how many finished episodes in a row may end
	// in error before the run stops with *ConsecutiveErrorsError;
	// DefaultMaxConsecutiveErrors when 0, never when negative.
	MaxConsecutiveErrors int
}

// Execute runs jobs (MissingJobs) with the spec's settings and hands each
// finished trajectory to sink, counting them. It returns the tally with
// ctx's error when ctx ends (the trajectories handed over stay), a sink
// error (wrapped, naming the trajectory's task and trial), an episode's
// harness error, *AllFailedError, or *ConsecutiveErrorsError. The
// trajectory that trips either is stored first.
func Execute(ctx context.Context, x Execution, jobs []Job, sink Sink) (Tally, error) {
	abandon, _ := ParseUserAbandon(x.Spec.UserAbandon) // as NewParticipants read it
	timeout, err := SpecEpisodeTimeout(x.Spec)
	if err != nil {
		return Tally{}, err
	}
	if timeout == 0 {
		timeout = x.EpisodeTimeout
	}
	protocol, err := SpecProtocol(x.Spec)
	if err != nil {
		return Tally{}, err
	}
	cfg := RunnerConfig{
		Protocol: protocol,
		Domain:   x.Domain, Agent: x.Agent, User: x.User, Seed: x.Spec.Seed,
		WithEmotions: x.Spec.Condition == string(emobench.ConditionWithEmotions),
		Concurrency:  max(1, x.Concurrency), MaxSteps: x.Spec.MaxSteps, MaxErrors: x.Spec.MaxErrors,
		EpisodeTimeout: timeout, Abandon: abandon, Judge: x.Judge,
	}
	breaker := x.MaxConsecutiveErrors
	if breaker == 0 {
		breaker = DefaultMaxConsecutiveErrors
	}
	var tally Tally
	inARow := 0 // episodes ended in error since the last that did not
	err = RunJobs(ctx, cfg, jobs, func(ctx context.Context, traj *emobench.Trajectory) error {
		if err := sink(ctx, traj); err != nil {
			return fmt.Errorf("task %s, trial %d: %w", traj.Task.Key, traj.Trial, err)
		}
		tally.Add(traj)
		if x.OnEpisode != nil {
			x.OnEpisode(tally)
		}
		if n := cfg.Concurrency + FailFastErrors; tally.Errors >= n && tally.Errors == tally.Done {
			return &AllFailedError{Episodes: tally.Done, First: tally.FirstError}
		}
		inARow++
		if traj.TerminationReason != emobench.TerminationError {
			inARow = 0
		}
		if breaker > 0 && inARow >= breaker {
			return &ConsecutiveErrorsError{Episodes: inARow, Last: traj.Error}
		}
		return nil
	})
	return tally, err
}
