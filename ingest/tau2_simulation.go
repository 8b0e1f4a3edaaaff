package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/emobench/emobench"
)

// tau2Simulation is one τ²-bench SimulationRun. Fields that vary between
// versions stay raw until checked; unknown keys are ignored.
type tau2Simulation struct {
	ID                json.RawMessage `json:"id"`
	TaskID            json.RawMessage `json:"task_id"`
	Timestamp         json.RawMessage `json:"timestamp"`
	StartTime         json.RawMessage `json:"start_time"`
	EndTime           json.RawMessage `json:"end_time"`
	Duration          json.RawMessage `json:"duration"`
	TerminationReason json.RawMessage `json:"termination_reason"`
	AgentCost         json.RawMessage `json:"agent_cost"`
	UserCost          json.RawMessage `json:"user_cost"`
	RewardInfo        json.RawMessage `json:"reward_info"`
	Messages          []tau2Message   `json:"messages"`
	Ticks             tickCount       `json:"ticks"`
	Trial             json.RawMessage `json:"trial"`
	Seed              json.RawMessage `json:"seed"`
	Mode              json.RawMessage `json:"mode"`
	Info              json.RawMessage `json:"info"` // emobench's export: emobench_termination_reason, error
}

// tau2Message is a τ²-bench message: system, user, assistant, tool, or a
// MultiToolMessage (role tool with tool_messages).
type tau2Message struct {
	Role            string          `json:"role"`
	Content         tauContent      `json:"content"`
	ToolCalls       []tau2ToolCall  `json:"tool_calls"`
	ID              json.RawMessage `json:"id"` // tool messages: the call answered
	ToolMessages    []tau2Message   `json:"tool_messages"`
	IsAudio         json.RawMessage `json:"is_audio"`
	AudioScriptGold json.RawMessage `json:"audio_script_gold"`
	Usage           json.RawMessage `json:"usage"`
	Cost            json.RawMessage `json:"cost"`
}

// tau2ToolCall is a τ²-bench ToolCall, whose arguments are a JSON object;
// an OpenAI-style {function: {name, arguments}} is read too.
type tau2ToolCall struct {
	ID        json.RawMessage `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Function  *tauFunction    `json:"function"`
}

// tickCount counts the ticks of a full-duplex simulation without keeping
// them.
type tickCount struct {
	n       int
	present bool
}

func (c *tickCount) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || b[0] != '[' {
		return fmt.Errorf("ticks is %s, want an array", jsonKind(b))
	}
	*c = tickCount{n: countElements(b), present: true}
	return nil
}

// countElements counts the elements of the JSON array b, which a decoder
// has already checked.
func countElements(b []byte) int {
	if len(bytes.TrimSpace(b[1:len(b)-1])) == 0 {
		return 0
	}
	commas := 0
	emobench.WalkJSONStructure(b, func(c byte, depth int) {
		if c == ',' && depth == 1 {
			commas++
		}
	})
	return commas + 1
}

// nonEvaluable reports τ²-bench's non-evaluable termination reasons, those
// its own metrics leave out: the simulation could not be run to an end.
func nonEvaluable(reason string) bool {
	return reason == "infrastructure_error" || reason == "context_window_exceeded"
}

// tau2Termination maps a τ²-bench termination reason; isError reports a
// reason that maps to error and is kept as the trajectory's error.
func tau2Termination(reason string) (r emobench.TerminationReason, isError bool) {
	switch reason {
	case "user_stop":
		return emobench.TerminationUserStop, false
	case "agent_stop":
		return emobench.TerminationAgentStop, false
	case "max_steps":
		return emobench.TerminationMaxSteps, false
	case "too_many_errors":
		return emobench.TerminationTooManyErrors, false
	case "timeout", "agent_error", "user_error", "infrastructure_error",
		"context_window_exceeded", "unexpected_error":
		return emobench.TerminationError, true
	}
	return emobench.TerminationUnknown, false
}

func (t *Tau2Reader) trajectory(sim *tau2Simulation, i int) (*emobench.Trajectory, error) {
	key, err := tau2Key(sim.TaskID, "task_id")
	if err != nil {
		return nil, err
	}
	traj := &emobench.Trajectory{}
	if task, ok := t.tasks[key]; ok {
		traj.Task = *task
		if t.simulated == nil {
			t.simulated = map[string]bool{}
		}
		t.simulated[key] = true
	} else {
		traj.Task = emobench.Task{Key: key}
		if t.unlisted == 0 {
			t.firstUnlist = key
		}
		t.unlisted++
	}
	extra := map[string]json.RawMessage{}
	if isNull(sim.Trial) {
		t.trialNull = append(t.trialNull, i)
		extra["trial_null"] = json.RawMessage("true")
	} else if traj.Trial, err = trial(sim.Trial); err != nil {
		return nil, err
	}
	if !isNull(sim.TerminationReason) && sim.TerminationReason[0] != '"' {
		return nil, fmt.Errorf("termination_reason is %s, want a string", jsonKind(sim.TerminationReason))
	}
	reason := stringOf(sim.TerminationReason)
	var isError bool
	traj.TerminationReason, isError = tau2Termination(reason)
	if isError {
		traj.Error = reason
	}
	if r, ok := emobenchReason(jsonPath(sim.Info, "emobench_termination_reason")); ok {
		// emobench's export: the reason τ²-bench's own could not say.
		traj.TerminationReason, traj.Error = r, ""
		if r == emobench.TerminationError {
			traj.Error = stringOf(jsonPath(sim.Info, "error"))
		}
	}
	if err := applyRewardInfo(traj, sim.RewardInfo); err != nil {
		return nil, err
	}
	if r := jsonPath(sim.Info, "reward"); traj.RewardInfo == nil && !isNull(r) {
		// emobench's export: the raw reward of an unevaluated trajectory,
		// which τ²-bench's null reward_info cannot hold.
		v, err := reward(r)
		if err != nil {
			return nil, fmt.Errorf("info.%w", err)
		}
		traj.Reward = v
	}
	if nonEvaluable(reason) {
		traj.Evaluable = new(bool)
	}
	if traj.Evaluated && nonEvaluable(reason) {
		// τ²-bench's NON_EVALUABLE_TERMINATION_REASONS: whatever reward_info
		// says, the simulation was not evaluated, so it never passes.
		traj.Evaluated = false
		if traj.Reward != nil && *traj.Reward != 0 {
			t.warn("simulation %d: ended in %s with reward %v: τ²-bench does not evaluate such a simulation, so it is stored unevaluated and never passes (stats --infra-errors exclude leaves it out)", i, reason, *traj.Reward)
		}
	}
	for _, n := range checkReward(traj) {
		t.warn("simulation %d (task %s, trial %d): %s", i, traj.Task.Key, traj.Trial, n)
	}
	var note string
	if traj.AgentCost, note = cost(sim.AgentCost); note != "" {
		t.warn("simulation %d: agent_cost %s", i, note)
	}
	if traj.UserCost, note = cost(sim.UserCost); note != "" {
		t.warn("simulation %d: user_cost %s", i, note)
	}
	names := map[string]string{} // tool call id → tool name
	for j := range sim.Messages {
		if traj.Messages, err = sim.Messages[j].appendTo(traj.Messages, names); err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", j, err)
		}
		if _, note := cost(sim.Messages[j].Cost); note != "" {
			t.warn("simulation %d: messages[%d].cost %s", i, j, note)
		}
	}
	// τ²-bench writes user_stop for its three user stops (its issue #517).
	traj.TerminationReason = traj.UserStopReason()
	for k, v := range map[string]json.RawMessage{
		"simulation_id": sim.ID, "termination_reason": sim.TerminationReason,
		"seed": sim.Seed, "duration": sim.Duration, "timestamp": sim.Timestamp,
		"start_time": sim.StartTime, "end_time": sim.EndTime, "mode": sim.Mode,
	} {
		if !isNull(v) {
			extra[k] = v
		}
	}
	if sim.Ticks.present {
		extra["ticks"] = json.RawMessage(strconv.Itoa(sim.Ticks.n))
	}
	if traj.Extra, err = json.Marshal(extra); err != nil {
		return nil, err
	}
	if err := checkDepths(traj, depthFields{rewardInfo: "reward_info", actions: "task evaluation_criteria.actions", outputs: "task evaluation_criteria.communicate_info"}); err != nil {
		return nil, err
	}
	RedactTrajectory(traj)
	return traj, nil
}

// applyRewardInfo keeps reward_info as given and its reward as the raw
// reward. A null or absent reward_info means not evaluated.
func applyRewardInfo(traj *emobench.Trajectory, raw json.RawMessage) error {
	if isNull(raw) {
		return nil
	}
	if raw[0] != '{' {
		return fmt.Errorf("reward_info is %s, want an object", jsonKind(raw))
	}
	// The checks are read where the db stores strict_passed
	// (Trajectory.StrictPassed); a check of another shape is refused here,
	// naming its field, rather than read as a strict fail.
	if _, err := emobench.RewardChecks(raw); err != nil {
		return err
	}
	traj.RewardInfo = raw
	traj.Evaluated = true
	r := jsonPath(raw, "reward")
	if isNull(r) {
		return nil
	}
	v, err := reward(r)
	if err != nil {
		return fmt.Errorf("reward_info.%w", err)
	}
	traj.Reward = v
	return nil
}

// tau2Key returns the text of an id that is a string or a number.
func tau2Key(raw json.RawMessage, field string) (string, error) {
	if isNull(raw) {
		return "", fmt.Errorf("missing %s", field)
	}
	switch raw[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		key, err := taskKey(raw)
		if err != nil {
			return "", fmt.Errorf("%s is an empty string", field)
		}
		return key, nil
	}
	return "", fmt.Errorf("%s is %s, want a string", field, jsonKind(raw))
}

// idText returns an id given as a string or a number, or "".
func idText(raw json.RawMessage) string {
	if key, err := tau2Key(raw, "id"); err == nil {
		return key
	}
	return ""
}

// appendTo appends m to out, flattening a MultiToolMessage into its tool
// messages in order. names maps the ids of earlier tool calls to their
// tools, so tool results get the name of the tool that answered.
func (m *tau2Message) appendTo(out []emobench.Message, names map[string]string) ([]emobench.Message, error) {
	if len(m.ToolMessages) > 0 {
		for k := range m.ToolMessages {
			tm := &m.ToolMessages[k]
			if tm.Role == "" {
				tm.Role = string(emobench.RoleTool)
			}
			var err error
			if out, err = tm.appendTo(out, names); err != nil {
				return out, fmt.Errorf("tool_messages[%d]: %w", k, err)
			}
		}
		return out, nil
	}
	if m.Role == "" {
		return out, errors.New("message without a role")
	}
	content, err := contentText(m.Content)
	if err != nil {
		return out, err
	}
	if string(m.IsAudio) == "true" {
		content = stringOf(m.AudioScriptGold) // content holds base64 audio
	}
	msg := emobench.Message{Role: emobench.Role(m.Role), Content: content}
	if msg.Role == emobench.RoleTool {
		msg.ToolCallID = idText(m.ID)
		msg.ToolName = names[msg.ToolCallID]
		return append(out, msg), nil
	}
	for _, c := range m.ToolCalls {
		f := tauFunction{Name: c.Name, Arguments: c.Arguments}
		if c.Name == "" && c.Function != nil {
			f = *c.Function
		}
		call := toolCall(idText(c.ID), f)
		if call.ID != "" {
			names[call.ID] = call.Name
		}
		msg.ToolCalls = append(msg.ToolCalls, call)
	}
	if msg.Role == emobench.RoleUser || msg.Role == emobench.RoleAssistant {
		msg.Usage = tau2Usage(m.Usage, m.Cost)
	}
	return append(out, msg), nil
}

// tau2Usage reads a message's usage {prompt_tokens, completion_tokens} and
// cost; nil when it has neither.
func tau2Usage(usage, costRaw json.RawMessage) *emobench.Usage {
	c, _ := cost(costRaw)
	prompt, okP := integral(jsonPath(usage, "prompt_tokens"))
	completion, okC := integral(jsonPath(usage, "completion_tokens"))
	if c == nil && !okP && !okC {
		return nil
	}
	return &emobench.Usage{PromptTokens: int(prompt), CompletionTokens: int(completion), Cost: c, TokensUnknown: !okP && !okC}
}
