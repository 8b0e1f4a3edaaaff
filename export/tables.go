package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/emobench/emobench"
)

// TableWriter writes runs as related tables (csv, parquet). Trajectories
// get ids 1, 2, … in the order they are written, across runs; tasks are
// written once, keyed by task_sha256.
type TableWriter interface {
	// WriteRun writes the run's row and its trajectories, tasks and
	// messages, and returns the number of trajectories written.
	WriteRun(run Run) (int, error)
	// Close finishes every table (CSV buffers, Parquet footers). It does
	// not close the underlying writers.
	Close() error
}

// TableFiles returns the file names of a table format, in the order
// NewTables takes their writers; nil for other formats.
func TableFiles(format string) []string {
	switch format {
	case FormatCSV:
		return []string{"runs.csv", "trajectories.csv", "messages.csv"}
	case FormatParquet:
		return []string{"runs.parquet", "tasks.parquet", "trajectories.parquet", "messages.parquet"}
	}
	return nil
}

// NewTables returns the TableWriter of format (csv or parquet) writing
// TableFiles(format)[i] to ws[i]. Tasks are addressed by
// Task.ContentSHA256 and paired by Task.PairSHA256, as the db stores them.
func NewTables(format string, ws []io.Writer) (TableWriter, error) {
	if want := len(TableFiles(format)); want == 0 || len(ws) != want {
		return nil, fmt.Errorf("export: format %q takes %d writers, got %d", format, want, len(ws))
	}
	switch format {
	case FormatCSV:
		return NewCSV(ws[0], ws[1], ws[2])
	default:
		return NewParquet(ws[0], ws[1], ws[2], ws[3])
	}
}

// RunRow is a row of runs.parquet and runs.csv: the run as stored.
type RunRow struct {
	RunID         int64      `parquet:"run_id"`
	Name          string     `parquet:"name"`
	SourceFormat  string     `parquet:"source_format"`          // taubench, tau2, native
	SourcePath    *string    `parquet:"source_path,optional"`   // the file the run was read from
	SourceSHA256  *string    `parquet:"source_sha256,optional"` // hex sha256 of that file
	AgentModel    string     `parquet:"agent_model"`
	AgentStrategy string     `parquet:"agent_strategy"`
	UserModel     string     `parquet:"user_model"`
	UserStrategy  string     `parquet:"user_strategy"`
	Domain        string     `parquet:"domain"`
	Condition     string     `parquet:"condition"` // with-emotions, without-emotions, none
	CreatedAt     *time.Time `parquet:"created_at,optional,timestamp(millisecond)"`
	Config        *string    `parquet:"config,optional"` // JSON
}

// TaskRow is a row of tasks.parquet: one per distinct task.
type TaskRow struct {
	TaskSHA256    string  `parquet:"task_sha256"`          // content hash, as the db's tasks.content_sha256
	PairSHA256    *string `parquet:"pair_sha256,optional"` // pairs a task across conditions, as tasks.pair_sha256
	Domain        string  `parquet:"domain"`
	TaskKey       string  `parquet:"task_key"` // the source's task id, as text
	Instruction   string  `parquet:"instruction"`
	UserID        string  `parquet:"user_id"`
	EmotionFamily *string `parquet:"emotion_family,optional"`
	EmotionLeaf   *string `parquet:"emotion_leaf,optional"`
	Politeness    *string `parquet:"politeness,optional"`
	Urgency       *string `parquet:"urgency,optional"`
	Trust         *string `parquet:"trust,optional"`
	Actions       string  `parquet:"actions"` // JSON [{name, kwargs}]
	Outputs       string  `parquet:"outputs"` // JSON array of strings
	Split         *string `parquet:"split,optional"`
	Scenario      *string `parquet:"scenario,optional"` // JSON
}

// TrajectoryRow is a row of trajectories.parquet: one per episode.
type TrajectoryRow struct {
	TrajectoryID      int64    `parquet:"trajectory_id"` // 1, 2, … within the export
	RunID             int64    `parquet:"run_id"`
	TaskSHA256        string   `parquet:"task_sha256"`
	TaskKey           string   `parquet:"task_key"`
	Trial             int64    `parquet:"trial"`
	Seed              *int64   `parquet:"seed,optional"`
	Reward            *float64 `parquet:"reward,optional"` // raw
	Passed            int64    `parquet:"passed"`          // 0/1: reward within 1 ± 1e-6
	Evaluated         int64    `parquet:"evaluated"`       // 0/1
	StrictPassed      int64    `parquet:"strict_passed"`   // 0/1: passed, and every check reward_info records passed (stats passk --strict)
	TerminationReason string   `parquet:"termination_reason"`
	AgentCost         *float64 `parquet:"agent_cost,optional"` // USD; NULL = unknown
	UserCost          *float64 `parquet:"user_cost,optional"`  // USD; NULL = unknown
	NMessages         int64    `parquet:"n_messages"`
	NUserTurns        int64    `parquet:"n_user_turns"`
	NAgentTurns       int64    `parquet:"n_agent_turns"`
	NToolCalls        int64    `parquet:"n_tool_calls"`
	NToolErrors       int64    `parquet:"n_tool_errors"`
	Error             *string  `parquet:"error,optional"`
	RewardInfo        *string  `parquet:"reward_info,optional"` // JSON
	Extra             *string  `parquet:"extra,optional"`       // JSON
}

// MessageRow is a row of messages.parquet and messages.csv.
type MessageRow struct {
	TrajectoryID       int64    `parquet:"trajectory_id"`
	Idx                int64    `parquet:"idx"` // 0-based position in the trajectory
	Role               string   `parquet:"role"`
	Content            string   `parquet:"content"`
	ToolName           *string  `parquet:"tool_name,optional"`      // assistant: the first function called; tool: the tool that answered
	ToolCallID         *string  `parquet:"tool_call_id,optional"`   // the (first) call's id
	ToolArguments      *string  `parquet:"tool_arguments,optional"` // JSON: the first call's arguments
	ToolCalls          *string  `parquet:"tool_calls,optional"`     // JSON [{id, name, arguments}]
	ArgumentsMalformed int64    `parquet:"arguments_malformed"`     // 0/1
	PromptTokens       *int64   `parquet:"prompt_tokens,optional"`
	CompletionTokens   *int64   `parquet:"completion_tokens,optional"`
	Cost               *float64 `parquet:"cost,optional"` // USD
}

// rowBuilder turns runs and trajectories into table rows.
type rowBuilder struct {
	seen map[string]bool // task_sha256 of tasks already written
	next int64           // last trajectory id given
}

func newRowBuilder() *rowBuilder {
	return &rowBuilder{seen: map[string]bool{}}
}

func runRow(r *emobench.Run) RunRow {
	row := RunRow{
		RunID: r.ID, Name: r.Name, SourceFormat: r.SourceFormat,
		SourcePath: optString(r.SourcePath), SourceSHA256: optString(r.SourceSHA256),
		AgentModel: r.AgentModel, AgentStrategy: r.AgentStrategy, UserModel: r.UserModel, UserStrategy: r.UserStrategy,
		Domain: r.Domain, Condition: string(r.Condition), Config: optJSON(r.Config),
	}
	if !r.CreatedAt.IsZero() {
		t := r.CreatedAt.UTC()
		row.CreatedAt = &t
	}
	return row
}

// trajectory returns the rows of one trajectory; newTask reports whether
// its task was not written before.
func (b *rowBuilder) trajectory(runID int64, t *emobench.Trajectory) (task TaskRow, newTask bool, traj TrajectoryRow, msgs []MessageRow, err error) {
	if task, err = b.taskRow(&t.Task); err != nil {
		return task, false, traj, nil, fmt.Errorf("task %s: %w", t.Task.Key, err)
	}
	newTask = !b.seen[task.TaskSHA256]
	b.seen[task.TaskSHA256] = true
	b.next++
	c := t.Counts()
	traj = TrajectoryRow{
		TrajectoryID: b.next, RunID: runID, TaskSHA256: task.TaskSHA256, TaskKey: t.Task.Key,
		Trial: int64(t.Trial), Seed: t.Seed, Reward: finite(t.Reward),
		Passed: boolInt(t.Passed()), Evaluated: boolInt(t.Evaluated), StrictPassed: boolInt(t.StrictPassed()),
		TerminationReason: string(t.TerminationReason),
		AgentCost:         finite(t.AgentCost), UserCost: finite(t.UserCost),
		NMessages: int64(c.Messages), NUserTurns: int64(c.UserTurns), NAgentTurns: int64(c.AgentTurns),
		NToolCalls: int64(c.ToolCalls), NToolErrors: int64(c.ToolErrors),
		Error: optString(t.Error), RewardInfo: optJSON(t.RewardInfo), Extra: optJSON(t.Extra),
	}
	if traj.TerminationReason == "" {
		traj.TerminationReason = string(emobench.TerminationUnknown)
	}
	msgs = make([]MessageRow, len(t.Messages))
	for i, m := range t.Messages {
		if msgs[i], err = messageRow(b.next, i, m); err != nil {
			return task, newTask, traj, nil, fmt.Errorf("message %d: %w", i, err)
		}
	}
	return task, newTask, traj, msgs, nil
}

func (b *rowBuilder) taskRow(t *emobench.Task) (TaskRow, error) {
	sum, pair, err := t.Hashes()
	if err != nil {
		return TaskRow{}, err
	}
	row := TaskRow{
		TaskSHA256: sum, Domain: t.Domain, TaskKey: t.Key, Instruction: t.Instruction, UserID: t.UserID,
		EmotionFamily: optString(t.Emotion.Family), EmotionLeaf: optString(t.Emotion.Leaf),
		Politeness: optString(t.Emotion.Politeness), Urgency: optString(t.Emotion.Urgency), Trust: optString(t.Emotion.Trust),
		Actions: string(orEmptyList(t.Actions)), Outputs: string(orEmptyList(t.Outputs)),
		Split: optString(string(t.Split)), Scenario: optJSON(t.Scenario), PairSHA256: &pair,
	}
	return row, nil
}

// storedCall is a tool call as the db's messages.tool_calls stores it.
type storedCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Malformed bool            `json:"arguments_malformed,omitempty"`
}

func messageRow(trajID int64, idx int, m emobench.Message) (MessageRow, error) {
	row := MessageRow{
		TrajectoryID: trajID, Idx: int64(idx), Role: string(m.Role), Content: m.Content,
		ToolName: optString(m.ToolName), ToolCallID: optString(m.ToolCallID),
	}
	if len(m.ToolCalls) > 0 {
		calls := make([]storedCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			args := c.Arguments
			if isNull(args) {
				args = json.RawMessage("{}")
			}
			calls[i] = storedCall{ID: c.ID, Name: c.Name, Arguments: args, Malformed: c.ArgumentsMalformed}
			if c.ArgumentsMalformed {
				row.ArgumentsMalformed = 1
			}
		}
		b, err := marshal(calls)
		if err != nil {
			return row, err
		}
		s := string(b)
		row.ToolCalls = &s
		first := m.ToolCalls[0]
		row.ToolName, row.ToolCallID = optString(first.Name), optString(first.ID)
		row.ToolArguments = optJSON(calls[0].Arguments)
	}
	if u := m.Usage; u != nil {
		row.Cost = finite(u.Cost)
		if !u.TokensUnknown {
			p, c := int64(u.PromptTokens), int64(u.CompletionTokens)
			row.PromptTokens, row.CompletionTokens = &p, &c
		}
	}
	return row, nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optJSON returns raw compacted as a string, or nil when it is null.
func optJSON(raw json.RawMessage) *string {
	if isNull(raw) {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		s := string(raw)
		return &s
	}
	s := b.String()
	return &s
}
