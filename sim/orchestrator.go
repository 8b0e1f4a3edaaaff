package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/emobench/emobench"
)

// Limits of one episode.
const (
	DefaultMaxSteps  = 30 // agent steps (messages or tool calls) per episode
	DefaultMaxErrors = 5  // consecutive tool errors before the episode ends
	// DefaultEpisodeTimeout bounds one episode's wall-clock time, LLM
	// retries included.
	DefaultEpisodeTimeout = 10 * time.Minute
)

// errEpisodeTimeLimit is the cause of an episode's context ending at
// EpisodeConfig.Timeout.
var errEpisodeTimeLimit = errors.New("episode time limit reached")

// EpisodeConfig configures RunEpisode.
type EpisodeConfig struct {
	Domain       Domain
	Task         *emobench.TaskSpec
	Agent        Agent
	User         UserSimulator
	WithEmotions bool
	Seed         uint64
	MaxSteps     int // DefaultMaxSteps when 0; Protocol.StepCount says what a step is
	MaxErrors    int // DefaultMaxErrors when 0; Protocol.ErrorCount says how they add up
	// Timeout bounds the episode: when it passes, the episode ends with
	// termination reason error and an Error naming the limit.
	// DefaultEpisodeTimeout when 0; negative means no bound.
	Timeout time.Duration
	// Abandon is the run's --user-abandon: where it does not allow
	// abandoning under WithEmotions, UnsatisfiedMarker is taken out of a
	// user message and does not end the episode. "" takes the marker
	// whatever the condition (the simulator decides).
	Abandon UserAbandon
	// Judge decides the task's NL assertions (Evaluator.Judge); nil leaves
	// them not checked.
	Judge Judge
	// Protocol is what the step limit counts, how tool errors end the
	// episode, who opens it, and the reward of an abandoned episode; the
	// zero Protocol is emobench's.
	Protocol Protocol
}

// RunEpisode runs one episode to a termination reason and scores it: the
// user speaks first (the agent first with its greeting under OpeningAgent),
// then user and agent take turns; the agent's tool calls run against a
// fresh environment of the domain. Under StepCountAgent every tool call is
// one step toward MaxSteps, as τ-bench counts actions, and so is a message
// without calls; calls of a message beyond the budget are not run and are
// dropped from it. Under StepCountMessages every message is one step, a
// batch of tool results too, as τ²-bench counts them. Failures of the agent or user (an LLM error after
// retries) and the passing of cfg.Timeout end the episode with termination
// reason error and the message in Trajectory.Error; RunEpisode itself only fails
// when ctx is done or the task's gold actions do not replay (a task bug).
func RunEpisode(ctx context.Context, cfg EpisodeConfig) (*emobench.Trajectory, error) {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.MaxErrors <= 0 {
		cfg.MaxErrors = DefaultMaxErrors
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultEpisodeTimeout
	}
	env := cfg.Domain.NewEnvironment()
	ep := &Episode{
		Task: cfg.Task, Policy: cfg.Domain.Policy(), Tools: env.Tools(),
		WithEmotions: cfg.WithEmotions, Seed: cfg.Seed,
	}
	o := &orchestrator{cfg: cfg, env: env, ep: ep, writes: writeTools(ep.Tools)}
	switch cfg.Protocol.Opening {
	case OpeningUserGreeted:
		ep.UserOpening = cmp.Or(cfg.Protocol.Greeting, DefaultGreeting)
	case OpeningAgent:
		ep.Messages = append(ep.Messages, emobench.Message{Role: emobench.RoleAssistant, Content: cmp.Or(cfg.Protocol.Greeting, DefaultGreeting)})
		o.countMessage()
	}
	ectx, cancel := ctx, context.CancelFunc(func() {})
	if cfg.Timeout > 0 {
		ectx, cancel = context.WithTimeoutCause(ctx, cfg.Timeout, errEpisodeTimeLimit)
	}
	reason, errText := o.run(ectx)
	// Read before cancel, which would end ectx whatever ended the episode:
	// only the episode's own timer names the limit; any other error (a
	// refused connection) is stored as it is.
	timedOut := errors.Is(context.Cause(ectx), errEpisodeTimeLimit)
	cancel()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if timedOut && reason == emobench.TerminationError {
		errText = fmt.Sprintf("episode time limit %v reached after %d messages: %s", cfg.Timeout, len(ep.Messages), errText)
	}
	traj := &emobench.Trajectory{
		Task:              cfg.Task.Task(),
		TerminationReason: reason,
		Error:             errText,
		Messages:          append([]emobench.Message{{Role: emobench.RoleSystem, Content: ep.Policy}}, ep.Messages...),
	}
	traj.AgentCost = totalCost(traj.Messages, emobench.RoleAssistant)
	traj.UserCost = totalCost(traj.Messages, emobench.RoleUser)
	if err := (&Evaluator{Judge: cfg.Judge, UnsatisfiedReward: cfg.Protocol.UnsatisfiedReward}).Evaluate(ctx, cfg.Domain, cfg.Task, env.Hash(), traj); err != nil {
		return nil, err
	}
	return traj, nil
}

// totalCost sums the cost of role's LLM-written messages: nil when none
// was written by an LLM, any cost is unknown (unknown is never 0) or the
// sum is not finite.
func totalCost(msgs []emobench.Message, role emobench.Role) *float64 {
	var sum float64
	seen := false
	for _, m := range msgs {
		if m.Role != role || m.Usage == nil {
			continue
		}
		if m.Usage.Cost == nil {
			return nil
		}
		sum += *m.Usage.Cost
		seen = true
	}
	if !seen {
		return nil
	}
	return finiteOrNil(sum)
}

// finiteOrNil is &x, or nil when x is NaN or infinite: a cost is unknown,
// never infinite.
func finiteOrNil(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

type orchestrator struct {
	cfg    EpisodeConfig
	env    Environment
	ep     *Episode
	writes map[string]bool
	steps  int // steps taken, as Protocol.StepCount counts them
	errors int // tool errors, as Protocol.ErrorCount counts them
}

// countsMessages reports whether every message is a step (τ²-bench).
func (o *orchestrator) countsMessages() bool { return o.cfg.Protocol.StepCount == StepCountMessages }

// countMessage counts a user message, a greeting or a batch of tool
// results as a step when every message is one.
func (o *orchestrator) countMessage() {
	if o.countsMessages() {
		o.steps++
	}
}

func writeTools(tools []ToolSchema) map[string]bool {
	w := map[string]bool{}
	for _, t := range tools {
		w[t.Name] = t.Writes
	}
	return w
}

// run alternates user and agent turns until a termination reason.
func (o *orchestrator) run(ctx context.Context) (emobench.TerminationReason, string) {
	for {
		if ctx.Err() != nil {
			return emobench.TerminationError, ctx.Err().Error()
		}
		msg, err := o.cfg.User.Next(ctx, o.ep)
		if err != nil {
			return emobench.TerminationError, "user simulator: " + err.Error()
		}
		msg.Role = emobench.RoleUser
		if o.cfg.Abandon != "" && !o.cfg.Abandon.Allows(o.cfg.WithEmotions) && strings.Contains(msg.Content, UnsatisfiedMarker) {
			// Abandoning is not allowed here: the message is what it is without the marker.
			msg.Content = strings.TrimSpace(strings.ReplaceAll(msg.Content, UnsatisfiedMarker, ""))
		}
		o.ep.Messages = append(o.ep.Messages, msg)
		o.countMessage()
		switch {
		case strings.Contains(msg.Content, UnsatisfiedMarker):
			return emobench.TerminationUserUnsatisfied, ""
		case strings.Contains(msg.Content, TransferMarker):
			return emobench.TerminationUserTransfer, ""
		case strings.Contains(msg.Content, OutOfScopeMarker):
			return emobench.TerminationUserOutOfScope, ""
		case strings.Contains(msg.Content, StopMarker):
			return emobench.TerminationUserStop, ""
		}
		if reason, errText, done := o.agentTurn(ctx); done {
			return reason, errText
		}
	}
}

// agentTurn lets the agent act until it writes to the user; done is set
// when the episode ended during the turn.
func (o *orchestrator) agentTurn(ctx context.Context) (reason emobench.TerminationReason, errText string, done bool) {
	for {
		if o.steps >= o.cfg.MaxSteps {
			return emobench.TerminationMaxSteps, "", true
		}
		msg, err := o.cfg.Agent.Next(ctx, o.ep)
		if err != nil {
			return emobench.TerminationError, "agent: " + err.Error(), true
		}
		msg.Role = emobench.RoleAssistant
		o.ep.Messages = append(o.ep.Messages, msg)
		if len(msg.ToolCalls) == 0 {
			o.steps++
			return "", "", false
		}
		if o.countsMessages() {
			// The agent's message is one step and its calls' results
			// another, however many calls it makes.
			o.steps++
			for _, call := range msg.ToolCalls {
				if reason, done := o.runTool(call); done {
					return reason, "", true
				}
			}
			o.steps++
			continue
		}
		at := len(o.ep.Messages) - 1
		for i, call := range msg.ToolCalls {
			if o.steps >= o.cfg.MaxSteps {
				// The transcript shows only calls that ran: an unanswered
				// call would read as made.
				o.ep.Messages[at].ToolCalls = msg.ToolCalls[:i:i]
				return emobench.TerminationMaxSteps, "", true
			}
			o.steps++
			if reason, done := o.runTool(call); done {
				return reason, "", true
			}
		}
	}
}

// runTool executes one call and records its result.
func (o *orchestrator) runTool(call emobench.ToolCall) (emobench.TerminationReason, bool) {
	result, err := o.callTool(call)
	if err != nil {
		result = "Error: " + err.Error()
		o.errors++
	} else if o.cfg.Protocol.ErrorCount != ErrorCountTotal {
		o.errors = 0 // consecutive errors only
	}
	o.ep.Messages = append(o.ep.Messages, emobench.Message{
		Role: emobench.RoleTool, Content: result, ToolName: call.Name, ToolCallID: call.ID,
	})
	switch {
	case err == nil && call.Name == o.cfg.Domain.TransferTool():
		return emobench.TerminationTransfer, true
	case o.errors >= o.cfg.MaxErrors && o.cfg.Protocol.ErrorCount != ErrorCountNone:
		return emobench.TerminationTooManyErrors, true
	}
	return "", false
}

// callTool runs call as ReplayTranscript replays it (callEnvironment).
func (o *orchestrator) callTool(call emobench.ToolCall) (string, error) {
	return callEnvironment(o.env, call)
}
