// Package emobench holds the shared domain types of the emobench workbench:
// runs, tasks, trajectories and messages, as every source (native simulation
// or imported result file) describes them. It imports nothing from the
// project; every other package speaks through these types.
package emobench

import (
	"encoding/json"
	"strings"
	"time"
)

// Condition says whether the user simulator of a run received the task's
// emotion instruction.
type Condition string

// The conditions of τ-Emotion-Bench. ConditionNone marks runs that are not
// part of an emotion experiment (plain τ-bench runs, or unknown).
const (
	ConditionWithEmotions    Condition = "with-emotions"
	ConditionWithoutEmotions Condition = "without-emotions"
	ConditionNone            Condition = "none"
)

// ParseCondition returns the Condition spelled s, or an error naming the
// accepted spellings.
func ParseCondition(s string) (Condition, error) {
	switch c := Condition(s); c {
	case ConditionWithEmotions, ConditionWithoutEmotions, ConditionNone:
		return c, nil
	}
	return "", &Error{Code: EINVALID, Message: "condition " + quote(s) + " is not one of with-emotions, without-emotions, none"}
}

// TerminationReason says why an episode ended.
type TerminationReason string

// Termination reasons shared by native and imported trajectories.
const (
	TerminationUserStop        TerminationReason = "user_stop"        // the user sent ###STOP###
	TerminationUserUnsatisfied TerminationReason = "user_unsatisfied" // the user sent ###UNSATISFIED###
	TerminationTransfer        TerminationReason = "transfer"         // the agent transferred to a human
	TerminationAgentStop       TerminationReason = "agent_stop"       // the agent ended the episode
	TerminationMaxSteps        TerminationReason = "max_steps"        // the step cap was reached
	TerminationTooManyErrors   TerminationReason = "too_many_errors"  // consecutive tool errors
	TerminationError           TerminationReason = "error"            // the harness or an LLM failed
	TerminationUnknown         TerminationReason = "unknown"          // the source does not say
)

// The user's own stops besides ###STOP###, as τ²-bench's user simulator
// writes them (τ²-bench records all three as user_stop; its issue #517).
// They are scored as user_stop is: the task's checks decide the reward.
const (
	TerminationUserTransfer   TerminationReason = "user_transfer"     // the user sent ###TRANSFER###: it says it was transferred
	TerminationUserOutOfScope TerminationReason = "user_out_of_scope" // the user sent ###OUT-OF-SCOPE###: its scenario does not say how to go on
)

// UserStopReason refines a user_stop by the user's last message, where
// τ²-bench keeps the distinction (and db files of schema versions before
// 10, whose termination_reason CHECK predated the two reasons):
// ###TRANSFER### gives TerminationUserTransfer and ###OUT-OF-SCOPE###
// TerminationUserOutOfScope. Any other reason is returned unchanged.
func (t *Trajectory) UserStopReason() TerminationReason {
	if t.TerminationReason != TerminationUserStop {
		return t.TerminationReason
	}
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if t.Messages[i].Role != RoleUser {
			continue
		}
		switch {
		case strings.Contains(t.Messages[i].Content, "###TRANSFER###"):
			return TerminationUserTransfer
		case strings.Contains(t.Messages[i].Content, "###OUT-OF-SCOPE###"):
			return TerminationUserOutOfScope
		}
		break
	}
	return TerminationUserStop
}

// Run is one evaluation run: one agent against one user simulator on one
// domain and condition, over a set of tasks and trials.
type Run struct {
	ID            int64
	Name          string
	SourceFormat  string // "taubench", "native", ...
	SourcePath    string // the file the run was read from; empty for native runs
	SourceSHA256  string // hex sha256 of the source file; empty for native runs
	AgentModel    string
	AgentStrategy string
	UserModel     string
	UserStrategy  string
	Domain        string
	Condition     Condition
	CreatedAt     time.Time // zero when unknown
	Config        json.RawMessage
}

// EmotionProfile is the emotional conditioning of a task's user: an Atlas of
// Emotions family and leaf state, and three dimensions. Empty strings mean
// the source gave no profile.
type EmotionProfile struct {
	Family     string `json:"family,omitempty"`     // enjoyment, sadness, fear, anger, disgust
	Leaf       string `json:"leaf,omitempty"`       // e.g. anxiety, frustration
	Politeness string `json:"politeness,omitempty"` // warm, neutral, cold
	Urgency    string `json:"urgency,omitempty"`    // low, moderate, high
	Trust      string `json:"trust,omitempty"`      // trusting, cautious, skeptical
}

// Action is one ground-truth tool call of a task.
type Action struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"kwargs"`
	// CompareArgs names the arguments a call must match to count as this
	// action (τ²-bench's compare_args); nil means all of them, empty means
	// the name alone.
	CompareArgs []string `json:"compare_args,omitempty"`
}

// Task is what a user wants done, identified across runs by its content.
type Task struct {
	Domain      string
	Key         string // the source's task id, as text
	Instruction string
	UserID      string
	Emotion     EmotionProfile
	Actions     json.RawMessage // JSON array of ground-truth actions, as given
	Outputs     json.RawMessage // JSON array of required output strings, as given
	Split       Split           // native tasks: test or train; empty when imported
	Scenario    json.RawMessage // native tasks: the user's facts and requests, and any emotion_instruction (see TaskSpec.Task)
}

// ToolCall is one function call made by an agent.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage // parsed JSON; a JSON string of the raw text when ArgumentsMalformed
	// ArgumentsMalformed is set when the source's argument string was not JSON.
	ArgumentsMalformed bool
}

// Role is who wrote a message.
type Role string

// Message roles, as in the Chat Completions protocol.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one turn of a trajectory.
type Message struct {
	Role       Role
	Content    string
	ToolCalls  []ToolCall // assistant messages only
	ToolName   string     // tool messages: the tool that answered
	ToolCallID string     // tool messages: the call answered
	Usage      *Usage     // LLM-written messages: tokens and cost; nil otherwise
}

// Usage is the token usage and cost of one LLM call.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	Cost             *float64 // USD; nil when the model's price is unknown
	// TokensUnknown is set when the source gave no plausible token counts
	// (none, null, negative, fractional or absurdly large; the counts above
	// are then 0 and stored as NULL).
	TokensUnknown bool
}

// Trajectory is one episode: a task attempted once (one trial) and its outcome.
type Trajectory struct {
	Task  Task
	Trial int
	Seed  *int64 // episode seed of native runs; nil when imported
	// Reward is the raw reward as the source stored it; nil when absent.
	Reward *float64
	// Evaluated is false when the source holds no reward information.
	Evaluated bool
	// Evaluable is false when the source could not evaluate the trajectory
	// at all: τ²-bench's NON_EVALUABLE_TERMINATION_REASONS
	// (infrastructure_error, context_window_exceeded), which stats
	// --infra-errors exclude leaves out of every denominator. Nil means
	// evaluable, which every other source is (and is left out of JSON).
	Evaluable         *bool `json:",omitempty"`
	TerminationReason TerminationReason
	AgentCost         *float64 // USD; nil when unknown
	UserCost          *float64 // USD; nil when unknown
	Error             string   // the harness's error message, if any
	RewardInfo        json.RawMessage
	Extra             json.RawMessage // source fields with no column of their own
	Messages          []Message
}

// PassTolerance is the distance from 1 within which a reward counts as a
// pass, as in τ-bench's is_successful.
const PassTolerance = 1e-6

// Passed reports whether the trajectory was evaluated and its reward lies
// within 1 ± PassTolerance. An unevaluated trajectory never passes, whatever
// raw reward its source wrote (τ-bench writes reward 1.0 beside an error).
func (t *Trajectory) Passed() bool {
	return t.Evaluated && t.Reward != nil && *t.Reward >= 1-PassTolerance && *t.Reward <= 1+PassTolerance
}

// IsEvaluable reports whether the trajectory could be evaluated (Evaluable
// nil or true).
func (t *Trajectory) IsEvaluable() bool { return t.Evaluable == nil || *t.Evaluable }

// TurnCounts summarises a trajectory's messages.
type TurnCounts struct {
	Messages   int
	UserTurns  int // messages with role user
	AgentTurns int // messages with role assistant
	ToolCalls  int // function calls in assistant messages
	// ToolErrors counts tool results that report an error: content starting
	// with "Error" (τ-bench's tools answer "Error: ..."), case-insensitively.
	ToolErrors int
}

// Counts returns the trajectory's TurnCounts.
func (t *Trajectory) Counts() TurnCounts {
	c := TurnCounts{Messages: len(t.Messages)}
	for _, m := range t.Messages {
		switch m.Role {
		case RoleUser:
			c.UserTurns++
		case RoleAssistant:
			c.AgentTurns++
			c.ToolCalls += len(m.ToolCalls)
		case RoleTool:
			if len(m.Content) >= 5 && strings.EqualFold(m.Content[:5], "error") {
				c.ToolErrors++
			}
		}
	}
	return c
}
