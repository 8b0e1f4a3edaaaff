package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
)

// Tau2 writes run as one τ²-bench Results object (sierra-research/tau2-bench,
// Barres et al. 2025), in the key order τ²-bench writes and the ingest
// reader streams:
//
//	{timestamp, info: {git_commit, num_trials, max_steps, max_errors, user_info: {implementation, llm},
//	 agent_info: {implementation, llm}, environment_info: {domain_name, policy}, seed},
//	 tasks: [{id, user_scenario: {persona, instructions}, evaluation_criteria: {actions, communicate_info}}],
//	 simulations: [{id, task_id, start_time, end_time, duration, termination_reason, agent_cost, user_cost,
//	  reward_info, messages: [{role, content, tool_calls: [{id, name, arguments, requestor}], turn_idx, ...}],
//	  trial, seed, info}]}
//
// It ranges over run.Trajectories twice: first for the distinct tasks (in
// order of first appearance; the first task of a key wins) and the number of
// trials, then for the simulations. A task's instruction becomes
// user_scenario.instructions, its actions evaluation_criteria.actions
// ({action_id, requestor, name, arguments}) and its outputs
// communicate_info; its user id and emotion profile, which τ²-bench tasks do
// not have, go to an extra "emobench" object that τ²-bench ignores, and so
// does the instruction itself when user_scenario does not render back to it
// (a τ-bench instruction, which τ²-bench's rendering would prefix with
// "Instructions:\n\t"), so that ingest reads the same instruction and hash.
// max_steps, max_errors and seed come from the run's config when it has
// them, else 0 and absent.
//
// termination_reason is τ²-bench's: user_stop, agent_stop, max_steps and
// too_many_errors as they are; error as the original τ²-bench reason kept in
// Trajectory.Extra when there is one, else unexpected_error; user_unsatisfied
// and transfer as user_stop (τ²-bench's user simulator ends both with a stop
// token); unknown as user_stop after a user message, else agent_stop. When
// that loses the reason, simulation info.emobench_termination_reason holds it
// (and info.error the error message); ingest's τ²-bench reader reads these
// and the tasks' emobench objects back. reward_info is written with its
// reward set to the raw reward; a trajectory without reward_info is written
// with reward_info null and its reward, if any, in info.reward.
//
// Tau2 returns the number of simulations written and the first error of the
// trajectories or w.
func Tau2(w io.Writer, run Run) (int, error) {
	tasks, trials, err := tau2Tasks(run)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	head, err := tau2Head(run.Run, trials)
	if err != nil {
		return 0, err
	}
	bw.Write(head)
	bw.WriteString(`,"tasks":[`)
	for i, t := range tasks {
		b, err := marshal(tau2TaskOf(t))
		if err != nil {
			return 0, fmt.Errorf("task %s: %w", t.Key, err)
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		bw.Write(b)
	}
	bw.WriteString("\n],\"simulations\":[")
	n := 0
	for traj, err := range run.Trajectories {
		if err != nil {
			return n, err
		}
		b, err := marshal(tau2SimulationOf(traj))
		if err != nil {
			return n, fmt.Errorf("simulation %d (task %s, trial %d): %w", n, traj.Task.Key, traj.Trial, err)
		}
		if n > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		if _, err := bw.Write(b); err != nil {
			return n, err
		}
		n++
	}
	bw.WriteString("\n]}\n")
	return n, bw.Flush()
}

// tau2Tasks returns the run's distinct tasks in order of first appearance
// and its number of distinct trials.
func tau2Tasks(run Run) ([]*emobench.Task, int, error) {
	var tasks []*emobench.Task
	seen := map[string]bool{}
	trials := map[int]bool{}
	for traj, err := range run.Trajectories {
		if err != nil {
			return nil, 0, err
		}
		trials[traj.Trial] = true
		if !seen[traj.Task.Key] {
			seen[traj.Task.Key] = true
			if tauTaskOf(&traj.Task) == nil {
				continue // no content: left unlisted, as τ²-bench leaves unknown tasks
			}
			task := traj.Task
			task.Scenario = nil
			tasks = append(tasks, &task)
		}
	}
	return tasks, len(trials), nil
}

type tau2Results struct {
	Timestamp string   `json:"timestamp,omitempty"`
	Info      tau2Info `json:"info"`
}

type tau2Info struct {
	GitCommit       string          `json:"git_commit"`
	NumTrials       int             `json:"num_trials"`
	MaxSteps        int             `json:"max_steps"`
	MaxErrors       int             `json:"max_errors"`
	UserInfo        tau2Participant `json:"user_info"`
	AgentInfo       tau2Participant `json:"agent_info"`
	EnvironmentInfo tau2Environment `json:"environment_info"`
	Seed            *int64          `json:"seed,omitempty"`
	// EmobenchCondition carries the run's condition (with-emotions,
	// without-emotions), which τ²-bench has no field for; ingest reads it.
	EmobenchCondition string `json:"emobench_condition,omitempty"`
	// EmobenchRunName carries the run's name, which the file name
	// (FileName) may not spell exactly ("noisy:0.3-retail" is written as
	// noisy_0.3-retail.json); ingest names the run by it.
	EmobenchRunName string `json:"emobench_run_name,omitempty"`
}

type tau2Participant struct {
	Implementation string `json:"implementation"`
	LLM            string `json:"llm,omitempty"`
}

type tau2Environment struct {
	DomainName string `json:"domain_name"`
	Policy     string `json:"policy"`
}

// tau2Head returns the Results object up to the tasks, without its closing
// brace.
func tau2Head(run emobench.Run, trials int) ([]byte, error) {
	var cfg struct {
		MaxSteps  int    `json:"max_steps"`
		MaxErrors int    `json:"max_errors"`
		Seed      *int64 `json:"seed"`
	}
	if !isNull(run.Config) {
		json.Unmarshal(run.Config, &cfg) // a config without these keys leaves them zero
	}
	res := tau2Results{Info: tau2Info{
		NumTrials: trials, MaxSteps: cfg.MaxSteps, MaxErrors: cfg.MaxErrors, Seed: cfg.Seed,
		UserInfo:        tau2Participant{Implementation: run.UserStrategy, LLM: run.UserModel},
		AgentInfo:       tau2Participant{Implementation: run.AgentStrategy, LLM: run.AgentModel},
		EnvironmentInfo: tau2Environment{DomainName: run.Domain},
	}}
	if run.Condition != emobench.ConditionNone {
		res.Info.EmobenchCondition = string(run.Condition)
	}
	res.Info.EmobenchRunName = run.Name
	if !run.CreatedAt.IsZero() {
		res.Timestamp = run.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000")
	}
	b, err := marshal(res)
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil
}

type tau2Task struct {
	ID                 string        `json:"id"`
	UserScenario       tau2Scenario  `json:"user_scenario"`
	EvaluationCriteria tau2Criteria  `json:"evaluation_criteria"`
	Emobench           *tau2Emobench `json:"emobench,omitempty"`
}

type tau2Scenario struct {
	Persona      *string `json:"persona"`
	Instructions string  `json:"instructions"`
}

type tau2Criteria struct {
	Actions         []tau2Action `json:"actions"`
	CommunicateInfo []string     `json:"communicate_info"`
}

type tau2Action struct {
	ActionID  string          `json:"action_id"`
	Requestor string          `json:"requestor"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// tau2Emobench holds the task fields τ²-bench has no place for.
type tau2Emobench struct {
	UserID string `json:"user_id,omitempty"`
	// Instruction is the stored instruction when user_scenario does not
	// render back to it (an instruction not read from τ²-bench, such as a
	// τ-bench one), so that re-ingest reads the same instruction.
	Instruction *string                  `json:"instruction,omitempty"`
	Emotion     *emobench.EmotionProfile `json:"emotion,omitempty"`
}

func tau2TaskOf(t *emobench.Task) tau2Task {
	out := tau2Task{ID: t.Key, UserScenario: scenarioOf(t.Instruction)}
	var instruction *string
	if renderScenario(out.UserScenario) != t.Instruction {
		instruction = &t.Instruction
	}
	var actions []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"kwargs"`
		Requestor string          `json:"requestor"`
	}
	json.Unmarshal(orEmptyList(t.Actions), &actions) // actions of another shape are left out
	out.EvaluationCriteria.Actions = make([]tau2Action, len(actions))
	for i, a := range actions {
		requestor := a.Requestor
		if requestor == "" {
			requestor = "assistant"
		}
		args := a.Arguments
		if isNull(args) {
			args = json.RawMessage("{}")
		}
		out.EvaluationCriteria.Actions[i] = tau2Action{
			ActionID: a.Name + "_" + strconv.Itoa(i), Requestor: requestor, Name: a.Name, Arguments: args,
		}
	}
	out.EvaluationCriteria.CommunicateInfo = []string{}
	var outputs []any
	json.Unmarshal(orEmptyList(t.Outputs), &outputs)
	for _, o := range outputs {
		if s, ok := o.(string); ok {
			out.EvaluationCriteria.CommunicateInfo = append(out.EvaluationCriteria.CommunicateInfo, s)
		} else if b, err := marshal(o); err == nil {
			out.EvaluationCriteria.CommunicateInfo = append(out.EvaluationCriteria.CommunicateInfo, string(b))
		}
	}
	if t.UserID != "" || t.Emotion != (emobench.EmotionProfile{}) || instruction != nil {
		out.Emobench = &tau2Emobench{UserID: t.UserID, Instruction: instruction}
		if t.Emotion != (emobench.EmotionProfile{}) {
			e := t.Emotion
			out.Emobench.Emotion = &e
		}
	}
	return out
}

// scenarioOf returns the user_scenario whose rendering by τ²-bench's
// UserScenario.__str__ (which the ingest reader stores as the instruction)
// is instruction: an instruction read from τ²-bench comes back as its
// persona and instructions; any other is the instructions as they are.
func scenarioOf(instruction string) tau2Scenario {
	rest, ok := strings.CutPrefix(instruction, "Persona:\n")
	var persona *string
	if ok {
		p, after, found := strings.Cut(rest, "\nInstructions:\n")
		if !found {
			return tau2Scenario{Instructions: instruction}
		}
		p = unindent(p)
		persona, rest = &p, after
	} else if rest, ok = strings.CutPrefix(instruction, "Instructions:\n"); !ok {
		return tau2Scenario{Instructions: instruction}
	}
	sc := tau2Scenario{Persona: persona, Instructions: unindent(rest)}
	if renderScenario(sc) != instruction {
		return tau2Scenario{Instructions: instruction}
	}
	return sc
}

// renderScenario is τ²-bench's UserScenario.__str__ for string instructions.
func renderScenario(sc tau2Scenario) string {
	var lines []string
	if sc.Persona != nil {
		lines = append(lines, "Persona:", indent(*sc.Persona))
	}
	lines = append(lines, "Instructions:", indent(sc.Instructions))
	return strings.Join(lines, "\n")
}

// indent prefixes every line that is not blank with a tab, as Python's
// textwrap.indent does.
func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = "\t" + l
		}
	}
	return strings.Join(lines, "")
}

// unindent removes one leading tab from every line.
func unindent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "")
}

type tau2Simulation struct {
	ID                string          `json:"id"`
	TaskID            string          `json:"task_id"`
	Timestamp         json.RawMessage `json:"timestamp,omitempty"`
	StartTime         json.RawMessage `json:"start_time"`
	EndTime           json.RawMessage `json:"end_time"`
	Duration          json.RawMessage `json:"duration"`
	TerminationReason string          `json:"termination_reason"`
	AgentCost         *float64        `json:"agent_cost"`
	UserCost          *float64        `json:"user_cost"`
	RewardInfo        json.RawMessage `json:"reward_info"`
	Messages          []tau2Message   `json:"messages"`
	Trial             int             `json:"trial"`
	Seed              json.RawMessage `json:"seed,omitempty"`
	Mode              json.RawMessage `json:"mode,omitempty"`
	Info              map[string]any  `json:"info,omitempty"`
}

type tau2Message struct {
	Role      string          `json:"role"`
	Content   *string         `json:"content"`
	ToolCalls []tau2ToolCall  `json:"tool_calls,omitempty"`
	ID        string          `json:"id,omitempty"`        // tool messages: the call answered
	Requestor string          `json:"requestor,omitempty"` // tool messages: who called
	Error     *bool           `json:"error,omitempty"`     // tool messages
	TurnIdx   int             `json:"turn_idx"`
	Cost      *float64        `json:"cost,omitempty"`
	Usage     *tau2UsageCount `json:"usage,omitempty"`
}

type tau2ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Requestor string          `json:"requestor"`
}

type tau2UsageCount struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// tau2Errors are τ²-bench's termination reasons that emobench stores as
// error, with the reason as the trajectory's error.
var tau2Errors = map[string]bool{
	"timeout": true, "agent_error": true, "user_error": true, "infrastructure_error": true,
	"context_window_exceeded": true, "unexpected_error": true,
}

// tau2Reason returns τ²-bench's termination reason for t and whether it
// says exactly what t's reason (and error) do.
func tau2Reason(t *emobench.Trajectory, extra map[string]json.RawMessage) (string, bool) {
	original := jsonText(extra["termination_reason"])
	switch r := t.TerminationReason; r {
	case emobench.TerminationUserStop, emobench.TerminationAgentStop, emobench.TerminationMaxSteps, emobench.TerminationTooManyErrors:
		return string(r), true
	case emobench.TerminationError:
		switch {
		case tau2Errors[t.Error]:
			return t.Error, true
		case tau2Errors[original]:
			return original, false
		}
		return "unexpected_error", false
	case emobench.TerminationUserTransfer, emobench.TerminationUserOutOfScope:
		// τ²-bench's user_stop: exact when the last user message holds the
		// marker the reader derives the reason from.
		stop := *t
		stop.TerminationReason = emobench.TerminationUserStop
		return "user_stop", stop.UserStopReason() == r
	case emobench.TerminationUserUnsatisfied, emobench.TerminationTransfer:
		return "user_stop", false
	}
	if n := len(t.Messages); n > 0 && t.Messages[n-1].Role == emobench.RoleUser {
		return "user_stop", false
	}
	return "agent_stop", false
}

func tau2SimulationOf(t *emobench.Trajectory) *tau2Simulation {
	extra := extraMap(t.Extra)
	sim := &tau2Simulation{
		ID: jsonText(extra["simulation_id"]), TaskID: t.Task.Key, Trial: t.Trial,
		Timestamp: extra["timestamp"], StartTime: extra["start_time"], EndTime: extra["end_time"],
		Duration: extra["duration"], Mode: extra["mode"], Seed: extra["seed"],
		AgentCost: finite(t.AgentCost), UserCost: finite(t.UserCost),
		RewardInfo: json.RawMessage("null"),
	}
	if sim.ID == "" {
		sim.ID = fmt.Sprintf("%s-trial-%d", t.Task.Key, t.Trial)
	}
	if t.Seed != nil {
		sim.Seed = json.RawMessage(strconv.FormatInt(*t.Seed, 10))
	}
	for _, f := range []*json.RawMessage{&sim.StartTime, &sim.EndTime} {
		if isNull(*f) {
			*f = json.RawMessage(`""`)
		}
	}
	if isNull(sim.Duration) {
		sim.Duration = json.RawMessage("0")
	}
	var info map[string]any
	note := func(k string, v any) {
		if info == nil {
			info = map[string]any{}
		}
		info[k] = v
	}
	reason, exact := tau2Reason(t, extra)
	sim.TerminationReason = reason
	if !exact {
		note("emobench_termination_reason", string(t.TerminationReason))
		if t.Error != "" {
			note("error", t.Error)
		}
	}
	if ri, ok := rewardInfoWithReward(t.RewardInfo, t.Reward); ok {
		sim.RewardInfo = ri
	} else if !isNull(t.RewardInfo) {
		note("reward_info", t.RewardInfo) // not an object: τ²-bench's RewardInfo cannot hold it
	}
	if isNull(sim.RewardInfo) && finite(t.Reward) != nil {
		note("reward", *t.Reward)
	}
	sim.Info = info
	sim.Messages = tau2Messages(t.Messages)
	return sim
}

// rewardInfoWithReward returns reward_info with its reward set to the raw
// reward, or false when reward_info is null or not an object.
func rewardInfoWithReward(raw json.RawMessage, reward *float64) (json.RawMessage, bool) {
	if isNull(raw) {
		return nil, false
	}
	var ri map[string]json.RawMessage
	if json.Unmarshal(raw, &ri) != nil {
		return nil, false
	}
	r := json.RawMessage("null")
	v := finite(reward)
	if v != nil {
		r, _ = json.Marshal(*v)
	}
	var stored *float64
	if json.Unmarshal(ri["reward"], &stored) == nil && (stored == nil) == (v == nil) && (v == nil || *stored == *v) {
		return raw, true // 1.0 and 1 are the same reward
	}
	ri["reward"] = r
	b, err := marshal(ri)
	return b, err == nil
}

func finite(v *float64) *float64 {
	if v == nil {
		return nil
	}
	if _, err := json.Marshal(*v); err != nil {
		return nil
	}
	return v
}

func tau2Messages(msgs []emobench.Message) []tau2Message {
	out := make([]tau2Message, len(msgs))
	requestors := map[string]string{} // tool call id → role that made the call
	for i, m := range msgs {
		content := m.Content
		tm := tau2Message{Role: string(m.Role), Content: &content, TurnIdx: i}
		switch m.Role {
		case emobench.RoleTool:
			tm.ID = m.ToolCallID
			tm.Requestor = requestors[m.ToolCallID]
			if tm.Requestor == "" {
				tm.Requestor = string(emobench.RoleAssistant)
			}
			isErr := len(content) >= 5 && strings.EqualFold(content[:5], "error")
			tm.Error = &isErr
		default:
			for _, c := range m.ToolCalls {
				args := c.Arguments
				if isNull(args) {
					args = json.RawMessage("{}")
				}
				tm.ToolCalls = append(tm.ToolCalls, tau2ToolCall{ID: c.ID, Name: c.Name, Arguments: args, Requestor: string(m.Role)})
				if c.ID != "" {
					requestors[c.ID] = string(m.Role)
				}
			}
			if len(m.ToolCalls) > 0 && content == "" {
				tm.Content = nil
			}
			if u := m.Usage; u != nil {
				if !u.TokensUnknown {
					tm.Usage = &tau2UsageCount{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
				}
				tm.Cost = finite(u.Cost)
			}
		}
		out[i] = tm
	}
	return out
}
