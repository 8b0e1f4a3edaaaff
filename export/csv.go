package export

import (
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/internal/csvsafe"
)

// CSV writes the csv format: runs.csv (the columns of RunRow),
// trajectories.csv (the columns of the db's trajectory_outcomes view, with
// task_sha256 in place of the db's task row id) and messages.csv (the
// columns of MessageRow). A NULL is an empty cell; 0/1 columns are 0 or 1;
// floats are written in full precision; times in RFC 3339. A text cell
// that a spreadsheet would read as a formula gets a leading quote
// (csvsafe).
type CSV struct {
	runs, trajs, msgs *csvsafe.Writer
	rows              *rowBuilder
}

var (
	csvRunColumns = []string{"run_id", "name", "source_format", "source_path", "source_sha256",
		"agent_model", "agent_strategy", "user_model", "user_strategy", "domain", "condition", "created_at", "config"}
	csvTrajectoryColumns = slices.Concat([]string{"trajectory_id", "run_id", "run", "agent_model", "user_model", "domain", "condition",
		"task_sha256", "task_key"}, emobench.EmotionDimensions, []string{
		"trial", "reward", "passed", "evaluated", "strict_passed", "termination_reason", "agent_cost", "user_cost",
		"n_messages", "n_user_turns", "n_agent_turns", "n_tool_calls", "n_tool_errors"})
	csvMessageColumns = []string{"trajectory_id", "idx", "role", "content", "tool_name", "tool_call_id",
		"tool_arguments", "tool_calls", "arguments_malformed", "prompt_tokens", "completion_tokens", "cost"}
)

// NewCSV returns a CSV writer and writes each file's header.
func NewCSV(runs, trajectories, messages io.Writer) (*CSV, error) {
	c := &CSV{runs: csvsafe.NewWriter(runs), trajs: csvsafe.NewWriter(trajectories), msgs: csvsafe.NewWriter(messages), rows: newRowBuilder()}
	c.runs.Write(csvRunColumns)
	c.trajs.Write(csvTrajectoryColumns)
	if err := c.msgs.Write(csvMessageColumns); err != nil {
		return nil, err
	}
	return c, nil
}

// WriteRun implements TableWriter.
func (c *CSV) WriteRun(run Run) (int, error) {
	r := runRow(&run.Run)
	created := ""
	if r.CreatedAt != nil {
		created = r.CreatedAt.Format(time.RFC3339)
	}
	err := c.runs.Write([]string{i64(r.RunID), r.Name, r.SourceFormat, str(r.SourcePath), str(r.SourceSHA256),
		r.AgentModel, r.AgentStrategy, r.UserModel, r.UserStrategy, r.Domain, r.Condition, created, str(r.Config)})
	if err != nil {
		return 0, err
	}
	n := 0
	for traj, err := range run.Trajectories {
		if err != nil {
			return n, err
		}
		task, _, t, msgs, err := c.rows.trajectory(run.ID, traj)
		if err != nil {
			return n, err
		}
		c.trajs.Write([]string{i64(t.TrajectoryID), i64(t.RunID), r.Name, r.AgentModel, r.UserModel, r.Domain, r.Condition,
			t.TaskSHA256, t.TaskKey, str(task.EmotionFamily), str(task.EmotionLeaf), str(task.Politeness), str(task.Urgency), str(task.Trust),
			i64(t.Trial), f64(t.Reward), i64(t.Passed), i64(t.Evaluated), i64(t.StrictPassed), t.TerminationReason, f64(t.AgentCost), f64(t.UserCost),
			i64(t.NMessages), i64(t.NUserTurns), i64(t.NAgentTurns), i64(t.NToolCalls), i64(t.NToolErrors)})
		for _, m := range msgs {
			c.msgs.Write([]string{i64(m.TrajectoryID), i64(m.Idx), m.Role, m.Content, str(m.ToolName), str(m.ToolCallID),
				str(m.ToolArguments), str(m.ToolCalls), i64(m.ArgumentsMalformed), i64p(m.PromptTokens), i64p(m.CompletionTokens), f64(m.Cost)})
		}
		if err := c.msgs.Error(); err != nil {
			return n, err
		}
		if err := c.trajs.Error(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Close implements TableWriter.
func (c *CSV) Close() error {
	for _, w := range []*csvsafe.Writer{c.runs, c.trajs, c.msgs} {
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
	}
	return nil
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func i64p(n *int64) string {
	if n == nil {
		return ""
	}
	return i64(*n)
}

func f64(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
