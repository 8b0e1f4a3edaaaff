package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
)

// Markers τ-bench's user simulator writes to end a conversation.
const (
	stopMarker        = "###STOP###"
	unsatisfiedMarker = "###UNSATISFIED###"
)

// TauBench writes trajs as one τ-bench result file (Yao et al. 2024, as
// `emobench ingest` reads it): a JSON array with one record per line,
//
//	{task_id, reward, info: {task, source, user_cost, agent_cost, reward_info, ...}, traj, trial}
//
// task_id is a number when the task key is a canonical integer and a string
// otherwise; reward is the raw reward (null when absent). info.task holds
// user_id, actions, instruction, outputs and, when set, the τ-Emotion-Bench
// fields emotion_family, emotion_leaf, dimension_politeness,
// dimension_urgency and dimension_trust_in_agent; it is left out when the
// task has no content (τ-bench's error records). The keys of
// Trajectory.Extra (source, error, traceback, ...) return to info. traj
// holds OpenAI-style messages whose tool_calls carry function.arguments as a
// JSON string. Token usage and costs per message have no place in the
// format and are dropped.
//
// Termination reasons are written as the τ-bench signals the ingest reader
// derives them from: transfer sets info.source to the transfer tool called
// (transfer_to_human_agents when none); user_unsatisfied without a final
// ###UNSATISFIED### sets reward_info.info.reason to "user_abandoned";
// max_steps writes reward_info null (the stored reward_info, if any, goes
// to info.emobench_reward_info); error sets info.error. A reason those
// signals cannot express (agent_stop, too_many_errors, or an error with
// messages but no reward_info) is written to
// info.emobench_termination_reason. A trajectory τ²-bench could not
// evaluate (infrastructure_error, context_window_exceeded; Evaluable false)
// gets info.emobench_evaluable false, since its reward_info and raw reward
// are written as stored. ingest.TauBench reads these emobench keys back.
//
// The run's metadata, which τ-bench keeps only in its file names, goes to
// every record's info.emobench:
//
//	{"model": AgentModel, "user_model": UserModel, "domain": Domain, "condition": Condition, "run_name": Name}
//
// with empty and "unknown" values (condition "none") left out, and the key
// left out when nothing is known, so that a round trip keeps them. A run
// with no trajectories has no record to hold them: WriteFiles then sets
// Written.Warning (see tauBenchEmptyWarning).
//
// TauBench returns the number of records written and the first error of
// run.Trajectories or w.
func TauBench(w io.Writer, run Run) (int, error) {
	meta, err := tauMetaOf(&run.Run)
	if err != nil {
		return 0, err
	}
	return tauBench(w, run.Trajectories, meta)
}

// TauBenchMetaKey is the info key of the run metadata TauBench writes.
const TauBenchMetaKey = "emobench"

// TauBenchEvaluableKey is the info key that marks a record τ²-bench could
// not evaluate (false); absent means evaluable.
const TauBenchEvaluableKey = "emobench_evaluable"

// tauMeta is info.emobench.
type tauMeta struct {
	Model     string `json:"model,omitempty"`
	UserModel string `json:"user_model,omitempty"`
	Domain    string `json:"domain,omitempty"`
	Condition string `json:"condition,omitempty"`
	RunName   string `json:"run_name,omitempty"`
}

// tauMetaOf returns info.emobench for run, or nil when nothing is known.
func tauMetaOf(run *emobench.Run) (json.RawMessage, error) {
	known := func(s string) string {
		if s == "unknown" {
			return ""
		}
		return s
	}
	m := tauMeta{Model: known(run.AgentModel), UserModel: known(run.UserModel), Domain: known(run.Domain), RunName: run.Name}
	if run.Condition != emobench.ConditionNone {
		m.Condition = string(run.Condition)
	}
	if m == (tauMeta{}) {
		return nil, nil
	}
	return marshal(m)
}

// tauBenchEmptyWarning returns the warning for a τ-bench file of run with no
// trajectories: τ-bench keeps the metadata only in each record's
// info.emobench, so the file (an empty array) loses whatever of it is
// known. It returns "" when nothing is lost.
func tauBenchEmptyWarning(run *emobench.Run) string {
	var lost []string
	for _, f := range []struct{ name, v string }{
		{"model", run.AgentModel}, {"user model", run.UserModel}, {"domain", run.Domain},
	} {
		if f.v != "" && f.v != "unknown" {
			lost = append(lost, f.name+" "+strconv.Quote(f.v))
		}
	}
	if run.Condition != "" && run.Condition != emobench.ConditionNone {
		lost = append(lost, "condition "+strconv.Quote(string(run.Condition)))
	}
	if len(lost) == 0 {
		return ""
	}
	return fmt.Sprintf("run %d (%s) has no trajectories: a τ-bench file keeps a run's metadata only in its records, so ingesting this file will not read back its %s (--format tau2 keeps them)",
		run.ID, run.Name, strings.Join(lost, ", "))
}

func tauBench(w io.Writer, trajs iter.Seq2[*emobench.Trajectory, error], meta json.RawMessage) (int, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	n := 0
	for traj, err := range trajs {
		if err != nil {
			return n, err
		}
		rec, err := tauRecordOf(traj, meta)
		if err == nil {
			var b []byte
			if b, err = marshal(rec); err == nil {
				if n > 0 {
					bw.WriteString(",")
				}
				bw.WriteString("\n")
				_, err = bw.Write(b)
			}
		}
		if err != nil {
			return n, fmt.Errorf("record %d (task %s, trial %d): %w", n, traj.Task.Key, traj.Trial, err)
		}
		n++
	}
	bw.WriteString("\n]\n")
	return n, bw.Flush()
}

// tauRecord is one τ-bench result record, in τ-bench's key order.
type tauRecord struct {
	TaskID json.RawMessage            `json:"task_id"`
	Reward *float64                   `json:"reward"`
	Info   map[string]json.RawMessage `json:"info"`
	Traj   []tauMessage               `json:"traj"`
	Trial  int                        `json:"trial"`
}

type tauTask struct {
	UserID        string          `json:"user_id"`
	Actions       json.RawMessage `json:"actions"`
	Instruction   string          `json:"instruction"`
	Outputs       json.RawMessage `json:"outputs"`
	EmotionFamily string          `json:"emotion_family,omitempty"`
	EmotionLeaf   string          `json:"emotion_leaf,omitempty"`
	Politeness    string          `json:"dimension_politeness,omitempty"`
	Urgency       string          `json:"dimension_urgency,omitempty"`
	Trust         string          `json:"dimension_trust_in_agent,omitempty"`
}

// tauMessage is an OpenAI Chat Completions message as τ-bench stores it.
type tauMessage struct {
	Role       string        `json:"role"`
	Content    *string       `json:"content"` // null for an assistant message that only calls tools
	ToolCalls  []tauToolCall `json:"tool_calls,omitempty"`
	ToolCallID string        `json:"tool_call_id,omitempty"`
	Name       string        `json:"name,omitempty"`
}

type tauToolCall struct {
	ID       string      `json:"id"`
	Type     string      `json:"type"`
	Function tauFunction `json:"function"`
}

type tauFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text, as OpenAI sends it
}

func tauRecordOf(t *emobench.Trajectory, meta json.RawMessage) (*tauRecord, error) {
	rec := &tauRecord{TaskID: taskIDJSON(t.Task.Key), Reward: finite(t.Reward), Trial: t.Trial, Traj: tauMessages(t.Messages)}
	info := map[string]json.RawMessage{}
	for k, v := range extraMap(t.Extra) {
		info[k] = v
	}
	if meta != nil { // this run's, over what an earlier export wrote
		info[TauBenchMetaKey] = meta
	}
	if task := tauTaskOf(&t.Task); task != nil {
		b, err := marshal(task)
		if err != nil {
			return nil, fmt.Errorf("info.task: %w", err)
		}
		info["task"] = b
	}
	info["reward_info"] = rawOrNull(t.RewardInfo)
	setNumber(info, "user_cost", t.UserCost)
	setNumber(info, "agent_cost", t.AgentCost)
	if _, ok := info["error"]; !ok && t.Error != "" {
		info["error"], _ = marshal(t.Error)
	}
	if _, ok := info["seed"]; !ok && t.Seed != nil {
		info["seed"] = json.RawMessage(strconv.FormatInt(*t.Seed, 10))
	}
	if err := signalReason(t, info); err != nil {
		return nil, err
	}
	if !t.IsEvaluable() {
		// τ²-bench's non-evaluable endings keep their reward_info, which
		// τ-bench reads as evaluated: this key says otherwise.
		info[TauBenchEvaluableKey] = json.RawMessage("false")
	}
	rec.Info = info
	return rec, nil
}

// taskIDJSON writes a canonical integer key as a number (τ-bench's task
// indices) and anything else as a string.
func taskIDJSON(key string) json.RawMessage {
	if n, err := strconv.ParseInt(key, 10, 64); err == nil && strconv.FormatInt(n, 10) == key {
		return json.RawMessage(key)
	}
	b, _ := marshal(key)
	return b
}

// tauTaskOf returns info.task, or nil when the task has no content.
func tauTaskOf(t *emobench.Task) *tauTask {
	if t.Instruction == "" && t.UserID == "" && t.Emotion == (emobench.EmotionProfile{}) && emptyList(t.Actions) && emptyList(t.Outputs) {
		return nil
	}
	return &tauTask{
		UserID: t.UserID, Instruction: t.Instruction,
		Actions: orEmptyList(t.Actions), Outputs: orEmptyList(t.Outputs),
		EmotionFamily: t.Emotion.Family, EmotionLeaf: t.Emotion.Leaf,
		Politeness: t.Emotion.Politeness, Urgency: t.Emotion.Urgency, Trust: t.Emotion.Trust,
	}
}

func emptyList(raw json.RawMessage) bool {
	return isNull(raw) || strings.TrimSpace(string(raw)) == "[]"
}

func orEmptyList(raw json.RawMessage) json.RawMessage {
	if isNull(raw) {
		return json.RawMessage("[]")
	}
	return raw
}

func setNumber(info map[string]json.RawMessage, key string, v *float64) {
	if v == nil {
		return
	}
	if b, err := json.Marshal(*v); err == nil { // NaN and ±Inf have no JSON spelling: unknown
		info[key] = b
	}
}

func tauMessages(msgs []emobench.Message) []tauMessage {
	out := make([]tauMessage, len(msgs))
	for i, m := range msgs {
		content := m.Content
		tm := tauMessage{Role: string(m.Role), Content: &content, ToolCallID: m.ToolCallID}
		if m.Role == emobench.RoleTool {
			tm.Name = m.ToolName
		}
		for _, c := range m.ToolCalls {
			tm.ToolCalls = append(tm.ToolCalls, tauToolCall{
				ID: c.ID, Type: "function",
				Function: tauFunction{Name: c.Name, Arguments: argumentsText(c)},
			})
		}
		if len(m.ToolCalls) > 0 && content == "" {
			tm.Content = nil
		}
		out[i] = tm
	}
	return out
}

// signalReason edits info so that the ingest reader derives the
// trajectory's termination reason, falling back to
// info.emobench_termination_reason.
func signalReason(t *emobench.Trajectory, info map[string]json.RawMessage) error {
	reason := t.TerminationReason
	if reason == "" {
		reason = emobench.TerminationUnknown
	}
	lastUser := lastUserText(t.Messages)
	switch reason {
	case emobench.TerminationTransfer:
		if !strings.HasPrefix(jsonText(info["source"]), "transfer") {
			info["source"], _ = marshal(transferTool(t.Messages))
		}
	case emobench.TerminationUserUnsatisfied:
		if !abandoned(info["reward_info"]) && !strings.Contains(lastUser, unsatisfiedMarker) {
			if ri, ok := withAbandonedReason(info["reward_info"], t.Reward); ok {
				info["reward_info"] = ri
			}
		}
	case emobench.TerminationMaxSteps:
		if ri := info["reward_info"]; !isNull(ri) && len(t.Messages) > 0 {
			info["emobench_reward_info"] = ri
			info["reward_info"] = json.RawMessage("null")
		}
	case emobench.TerminationError:
		if jsonText(info["error"]) == "" {
			info["error"], _ = marshal(string(emobench.TerminationError))
		}
	}
	if derived := tauReason(len(t.Messages), info, lastUser); derived != reason {
		b, err := marshal(string(reason))
		if err != nil {
			return err
		}
		info["emobench_termination_reason"] = b
	}
	return nil
}

// tauReason is the termination reason the ingest reader derives from a
// τ-bench record (ingest.TauBench documents the rules).
func tauReason(nMessages int, info map[string]json.RawMessage, lastUser string) emobench.TerminationReason {
	errText := jsonText(info["error"])
	switch {
	case nMessages == 0 && errText != "":
		return emobench.TerminationError
	case abandoned(info["reward_info"]) || strings.Contains(lastUser, unsatisfiedMarker):
		return emobench.TerminationUserUnsatisfied
	case strings.HasPrefix(jsonText(info["source"]), "transfer"):
		return emobench.TerminationTransfer
	case isNull(info["reward_info"]) && nMessages > 0:
		return emobench.TerminationMaxSteps
	case strings.Contains(lastUser, stopMarker):
		return emobench.TerminationUserStop
	case errText != "":
		return emobench.TerminationError
	}
	return emobench.TerminationUnknown
}

// jsonText returns a JSON string's text, or other JSON as its text; "" when
// raw is absent.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// transferTool returns the name of the last transfer tool the agent called,
// or τ-bench's transfer_to_human_agents.
func transferTool(msgs []emobench.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		for j := len(msgs[i].ToolCalls) - 1; j >= 0; j-- {
			if name := msgs[i].ToolCalls[j].Name; strings.HasPrefix(name, "transfer") {
				return name
			}
		}
	}
	return "transfer_to_human_agents"
}

// abandoned reports whether reward_info.info.reason is "user_abandoned"
// (τ-Emotion-Bench's mark of a ###UNSATISFIED### ending).
func abandoned(rewardInfo json.RawMessage) bool {
	var ri struct {
		Info struct {
			Reason string `json:"reason"`
		} `json:"info"`
	}
	return !isNull(rewardInfo) && json.Unmarshal(rewardInfo, &ri) == nil && ri.Info.Reason == "user_abandoned"
}

// withAbandonedReason returns reward_info with info.reason set to
// "user_abandoned", creating {reward, info} when it is null. It reports
// false when reward_info is not an object.
func withAbandonedReason(raw json.RawMessage, reward *float64) (json.RawMessage, bool) {
	ri := map[string]json.RawMessage{}
	if !isNull(raw) {
		if json.Unmarshal(raw, &ri) != nil {
			return nil, false
		}
	} else {
		ri["reward"] = json.RawMessage("null")
		if reward != nil {
			ri["reward"], _ = json.Marshal(*reward)
		}
	}
	inner := map[string]json.RawMessage{}
	if v := ri["info"]; !isNull(v) && json.Unmarshal(v, &inner) != nil {
		return nil, false
	}
	inner["reason"] = json.RawMessage(`"user_abandoned"`)
	var err error
	if ri["info"], err = marshal(inner); err != nil {
		return nil, false
	}
	b, err := marshal(ri)
	return b, err == nil
}
