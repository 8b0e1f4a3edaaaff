package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/emobench/emobench"
)

// FormatTranscript names emobench's own transcript JSON: what `emobench
// show --format json` prints (one record) and `emobench export --format
// jsonl` writes (one record a line). `emobench evaluate` reads it;
// `emobench ingest` refuses it as the analysis format it is.
const FormatTranscript = "emobench-transcript"

// transcriptRecord is one record of the transcript JSON, in the layout
// export.JSONLRecord writes: {run, task, trial, seed, reward, evaluated,
// termination_reason, agent_cost, user_cost, error, reward_info, extra,
// messages}. Fields the export derives (passed, strict_passed) are not
// read back.
type transcriptRecord struct {
	Run struct {
		Name       string `json:"name"`
		AgentModel string `json:"agent_model"`
		UserModel  string `json:"user_model"`
		Domain     string `json:"domain"`
		Condition  string `json:"condition"`
	} `json:"run"`
	Task *struct {
		Key         string                  `json:"key"`
		Domain      string                  `json:"domain"`
		Instruction string                  `json:"instruction"`
		UserID      string                  `json:"user_id"`
		Emotion     emobench.EmotionProfile `json:"emotion"`
		Actions     json.RawMessage         `json:"actions"`
		Outputs     json.RawMessage         `json:"outputs"`
		Split       string                  `json:"split"`
		Scenario    json.RawMessage         `json:"scenario"`
	} `json:"task"`
	Trial             int             `json:"trial"`
	Seed              *int64          `json:"seed"`
	Reward            *float64        `json:"reward"`
	Evaluated         *bool           `json:"evaluated"`
	TerminationReason string          `json:"termination_reason"`
	AgentCost         *float64        `json:"agent_cost"`
	UserCost          *float64        `json:"user_cost"`
	Error             string          `json:"error"`
	RewardInfo        json.RawMessage `json:"reward_info"`
	Extra             json.RawMessage `json:"extra"`
	Messages          []struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		ToolCalls []struct {
			ID                 string          `json:"id"`
			Name               string          `json:"name"`
			Arguments          json.RawMessage `json:"arguments"`
			ArgumentsMalformed bool            `json:"arguments_malformed"`
		} `json:"tool_calls"`
		ToolName   string `json:"tool_name"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
}

// IsTranscript reports whether prefix, the start of a file, is transcript
// JSON: an object, an array of objects or JSON Lines whose first object's
// first two keys are run and task. It reads tokens only as far as those
// keys.
func IsTranscript(prefix []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf"))))
	tok, err := dec.Token()
	if err == nil && tok == json.Delim('[') {
		tok, err = dec.Token()
	}
	if err != nil || tok != json.Delim('{') {
		return false
	}
	for _, want := range []string{"run", "task"} {
		key, err := dec.Token()
		if err != nil || key != want {
			return false
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return true
}

// Transcript is one record of transcript JSON: the trajectory, with its
// task as the record gives it, and the run the record names (name, models,
// domain, condition; "" where it gives none).
type Transcript struct {
	Run        emobench.Run
	Trajectory *emobench.Trajectory
}

// ReadTranscripts reads transcript JSON (see IsTranscript) and yields one
// Transcript per record, in order. Records of at
// most maxRecord bytes are read (DefaultMaxRecord when 0). It yields an
// error naming the record (from 0) for a record that is not an object, has
// no task or no task key, names an unknown role or termination reason, or
// has a tool call without a name or with arguments that are not JSON, and
// stops there. Credentials in the trajectory are redacted
// (RedactTrajectory), as every reader does.
func ReadTranscripts(r io.Reader, maxRecord int64) iter.Seq2[Transcript, error] {
	return func(yield func(Transcript, error) bool) {
		br := skipBOM(r)
		dec := newLimitedDecoder(br, maxRecord)
		array := false
		if firstNonSpace(br) == '[' {
			if _, err := dec.Token(); err != nil {
				yield(Transcript{}, fmt.Errorf("record 0: %w", err))
				return
			}
			array = true
		}
		for i := 0; ; i++ {
			if array && !dec.More() {
				if _, err := dec.Token(); err != nil { // the closing bracket
					yield(Transcript{}, fmt.Errorf("after record %d: %w", i-1, err))
				}
				return
			}
			var raw json.RawMessage
			err := dec.Decode(&raw)
			if !array && errors.Is(err, io.EOF) {
				if i == 0 {
					yield(Transcript{}, errors.New("no records: the file is empty"))
				}
				return
			}
			if err != nil {
				yield(Transcript{}, fmt.Errorf("record %d: %w", i, err))
				return
			}
			t, err := transcriptOf(raw)
			if err != nil {
				yield(Transcript{}, fmt.Errorf("record %d: %w", i, err))
				return
			}
			if !yield(t, nil) {
				return
			}
		}
	}
}

// transcriptOf decodes and checks one record.
func transcriptOf(raw json.RawMessage) (Transcript, error) {
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '{' {
		return Transcript{}, fmt.Errorf("is %s, want an object {run, task, messages, ...}", jsonKind(raw))
	}
	var rec transcriptRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return Transcript{}, err
	}
	if rec.Task == nil || rec.Task.Key == "" {
		return Transcript{}, errors.New("has no task key (task.key)")
	}
	reason := emobench.TerminationReason(rec.TerminationReason)
	if !knownTermination(reason) {
		return Transcript{}, fmt.Errorf("termination_reason %q is not one of emobench's", rec.TerminationReason)
	}
	t := rec.Task
	traj := &emobench.Trajectory{
		Task: emobench.Task{
			Domain: cmpOr(t.Domain, rec.Run.Domain), Key: t.Key, Instruction: t.Instruction, UserID: t.UserID,
			Emotion: t.Emotion, Actions: t.Actions, Outputs: t.Outputs, Split: emobench.Split(t.Split), Scenario: t.Scenario,
		},
		Trial: rec.Trial, Seed: rec.Seed, Reward: rec.Reward, Evaluated: rec.Evaluated != nil && *rec.Evaluated,
		TerminationReason: reason, AgentCost: rec.AgentCost, UserCost: rec.UserCost, Error: rec.Error,
		RewardInfo: rec.RewardInfo, Extra: rec.Extra,
	}
	if isNull(traj.RewardInfo) {
		traj.RewardInfo = nil
	}
	if isNull(traj.Extra) {
		traj.Extra = nil
	}
	for i, m := range rec.Messages {
		msg := emobench.Message{Role: emobench.Role(m.Role), Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		switch msg.Role {
		case emobench.RoleSystem, emobench.RoleUser, emobench.RoleAssistant, emobench.RoleTool:
		default:
			return Transcript{}, fmt.Errorf("messages[%d].role %q is not system, user, assistant or tool", i, m.Role)
		}
		for k, c := range m.ToolCalls {
			if c.Name == "" {
				return Transcript{}, fmt.Errorf("messages[%d].tool_calls[%d] has no name", i, k)
			}
			args := bytes.TrimSpace(c.Arguments)
			switch {
			case len(args) == 0 || isNull(args):
				args = json.RawMessage("{}")
			case c.ArgumentsMalformed && args[0] != '"':
				return Transcript{}, fmt.Errorf("messages[%d].tool_calls[%d].arguments is %s, want the raw text as a string (arguments_malformed)", i, k, jsonKind(args))
			}
			msg.ToolCalls = append(msg.ToolCalls, emobench.ToolCall{ID: c.ID, Name: c.Name, Arguments: args, ArgumentsMalformed: c.ArgumentsMalformed})
		}
		traj.Messages = append(traj.Messages, msg)
	}
	RedactTrajectory(traj) // credentials a model or tool echoed, as the other readers redact
	run := emobench.Run{Name: rec.Run.Name, AgentModel: rec.Run.AgentModel, UserModel: rec.Run.UserModel,
		Domain: rec.Run.Domain, Condition: emobench.Condition(rec.Run.Condition)}
	if _, err := emobench.ParseCondition(rec.Run.Condition); err != nil {
		run.Condition = ""
	}
	return Transcript{Run: run, Trajectory: traj}, nil
}

// knownTermination reports whether r is one of emobench's termination
// reasons.
func knownTermination(r emobench.TerminationReason) bool {
	switch r {
	case emobench.TerminationUserStop, emobench.TerminationUserUnsatisfied, emobench.TerminationTransfer,
		emobench.TerminationAgentStop, emobench.TerminationMaxSteps, emobench.TerminationTooManyErrors,
		emobench.TerminationError, emobench.TerminationUnknown, emobench.TerminationUserTransfer,
		emobench.TerminationUserOutOfScope:
		return true
	}
	return false
}
