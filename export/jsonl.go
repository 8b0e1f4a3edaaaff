package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/emobench/emobench"
)

// JSONLRecord is one line of the jsonl format: a trajectory with its run and
// task. Missing values are null: reward when the source had none, costs when
// unknown (never 0 for unknown), seed for imported runs, reward_info when
// the trajectory was not evaluated.
type JSONLRecord struct {
	Run               JSONLRun        `json:"run"`
	Task              JSONLTask       `json:"task"`
	Trial             int             `json:"trial"`
	Seed              *int64          `json:"seed"`
	Reward            *float64        `json:"reward"`             // raw, as the source stored it
	Passed            bool            `json:"passed"`             // reward within 1 ± 1e-6
	Evaluated         bool            `json:"evaluated"`          // false when the source had no reward information
	StrictPassed      bool            `json:"strict_passed"`      // passed, and every check reward_info records passed (stats passk --strict)
	TerminationReason string          `json:"termination_reason"` // user_stop, user_unsatisfied, transfer, ...
	AgentCost         *float64        `json:"agent_cost"`         // USD
	UserCost          *float64        `json:"user_cost"`          // USD
	Error             string          `json:"error,omitempty"`
	RewardInfo        json.RawMessage `json:"reward_info"`     // the source's reward details, as given
	Extra             json.RawMessage `json:"extra,omitempty"` // other fields of the source
	Messages          []JSONLMessage  `json:"messages"`
}

// JSONLRun describes the run of a JSONLRecord.
type JSONLRun struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	AgentModel string `json:"agent_model"`
	UserModel  string `json:"user_model"`
	Domain     string `json:"domain"`
	Condition  string `json:"condition"`
}

// JSONLTask is the task of a JSONLRecord; actions, outputs and scenario are
// JSON as stored.
type JSONLTask struct {
	Key         string                   `json:"key"`
	Domain      string                   `json:"domain"`
	Instruction string                   `json:"instruction"`
	UserID      string                   `json:"user_id"`
	Emotion     *emobench.EmotionProfile `json:"emotion,omitempty"` // {family, leaf, politeness, urgency, trust}
	Actions     json.RawMessage          `json:"actions"`
	Outputs     json.RawMessage          `json:"outputs"`
	Split       string                   `json:"split,omitempty"`
	Scenario    json.RawMessage          `json:"scenario,omitempty"`
}

// JSONLMessage is one message; tool call arguments are parsed JSON.
type JSONLMessage struct {
	Role       string          `json:"role"` // system, user, assistant, tool
	Content    string          `json:"content"`
	ToolCalls  []JSONLToolCall `json:"tool_calls,omitempty"`
	ToolName   string          `json:"tool_name,omitempty"`    // tool messages: the tool that answered
	ToolCallID string          `json:"tool_call_id,omitempty"` // tool messages: the call answered
	Usage      *JSONLUsage     `json:"usage,omitempty"`        // LLM-written messages of native runs
}

// JSONLToolCall is one function call; Arguments is a JSON string of the raw
// text when ArgumentsMalformed.
type JSONLToolCall struct {
	ID                 string          `json:"id,omitempty"`
	Name               string          `json:"name"`
	Arguments          json.RawMessage `json:"arguments"`
	ArgumentsMalformed bool            `json:"arguments_malformed,omitempty"`
}

// JSONLUsage is a message's token usage and cost (USD); each is null when
// unknown.
type JSONLUsage struct {
	PromptTokens     *int     `json:"prompt_tokens"`
	CompletionTokens *int     `json:"completion_tokens"`
	Cost             *float64 `json:"cost"`
}

// JSONL writes run's trajectories as JSON Lines, one JSONLRecord per line.
// Runs written one after another to the same w make one valid file. It
// returns the number of lines written and the first error of the
// trajectories or w.
func JSONL(w io.Writer, run Run) (int, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	n := 0
	for traj, err := range run.Trajectories {
		if err != nil {
			return n, err
		}
		b, err := marshal(jsonlRecordOf(&run.Run, traj))
		if err != nil {
			return n, fmt.Errorf("trajectory %d (task %s, trial %d): %w", n, traj.Task.Key, traj.Trial, err)
		}
		bw.Write(b)
		if err := bw.WriteByte('\n'); err != nil {
			return n, err
		}
		n++
	}
	return n, bw.Flush()
}

// JSONLRecordOf is trajectory t of run as one record of the jsonl format:
// also what `emobench show --format json` prints, and what `emobench
// evaluate` reads back (ingest.ReadTranscripts).
func JSONLRecordOf(run *emobench.Run, t *emobench.Trajectory) *JSONLRecord {
	return jsonlRecordOf(run, t)
}

func jsonlRecordOf(run *emobench.Run, t *emobench.Trajectory) *JSONLRecord {
	rec := &JSONLRecord{
		Run: JSONLRun{
			ID: run.ID, Name: run.Name, AgentModel: run.AgentModel, UserModel: run.UserModel,
			Domain: run.Domain, Condition: string(run.Condition),
		},
		Task: JSONLTask{
			Key: t.Task.Key, Domain: t.Task.Domain, Instruction: t.Task.Instruction, UserID: t.Task.UserID,
			Actions: orEmptyList(t.Task.Actions), Outputs: orEmptyList(t.Task.Outputs),
			Split: string(t.Task.Split), Scenario: t.Task.Scenario,
		},
		Trial: t.Trial, Seed: t.Seed, Reward: finite(t.Reward), Passed: t.Passed(), Evaluated: t.Evaluated, StrictPassed: t.StrictPassed(),
		TerminationReason: string(t.TerminationReason), AgentCost: finite(t.AgentCost), UserCost: finite(t.UserCost),
		Error: t.Error, RewardInfo: rawOrNull(t.RewardInfo), Extra: t.Extra,
		Messages: make([]JSONLMessage, len(t.Messages)),
	}
	if isNull(rec.Extra) {
		rec.Extra = nil
	}
	if isNull(rec.Task.Scenario) {
		rec.Task.Scenario = nil
	}
	if e := t.Task.Emotion; e != (emobench.EmotionProfile{}) {
		rec.Task.Emotion = &e
	}
	for i, m := range t.Messages {
		jm := JSONLMessage{Role: string(m.Role), Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			args := c.Arguments
			if isNull(args) {
				args = json.RawMessage("{}")
			}
			jm.ToolCalls = append(jm.ToolCalls, JSONLToolCall{ID: c.ID, Name: c.Name, Arguments: args, ArgumentsMalformed: c.ArgumentsMalformed})
		}
		if u := m.Usage; u != nil {
			jm.Usage = &JSONLUsage{Cost: finite(u.Cost)}
			if !u.TokensUnknown {
				jm.Usage.PromptTokens, jm.Usage.CompletionTokens = &u.PromptTokens, &u.CompletionTokens
			}
		}
		rec.Messages[i] = jm
	}
	return rec
}
