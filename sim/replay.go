package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/emobench/emobench"
)

// Replay is what replaying a transcript's tool calls on a fresh
// environment gave: the state they leave and where a replayed result
// differs from the recorded one.
type Replay struct {
	// FinalHash is the environment's state hash after the last call: what
	// the DB check compares with the gold replay's.
	FinalHash string
	// Calls is the number of tool calls replayed.
	Calls int
	// Mismatches are the calls whose replayed result differs from the
	// recorded one (JSON compared by value: whitespace and key order do not
	// count), in call order; empty when every result matched.
	Mismatches []ToolResultMismatch
}

// ToolResultMismatch is one tool call whose replayed result differs from
// the result the transcript recorded for it.
type ToolResultMismatch struct {
	Call      int             `json:"call"`    // index among the transcript's tool calls, from 0
	Message   int             `json:"message"` // index of the assistant message that made it
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// Recorded is the result the transcript holds; "" with Missing when it
	// holds none for the call.
	Recorded string `json:"recorded"`
	Missing  bool   `json:"missing,omitempty"`
	Replayed string `json:"replayed"`
}

// ReplayError is a tool call of a transcript that the domain cannot run
// although the transcript records that it ran: a tool the domain does not
// have, or arguments that are not JSON, answered with a result that is not
// an error. The transcript is then not of this domain, or is corrupt.
type ReplayError struct {
	Call    int // index among the transcript's tool calls, from 0
	Message int // index of the assistant message that made it
	Name    string
	Err     error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("message %d, tool call %d (%s): %v", e.Message, e.Call, e.Name, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// ReplayTranscript runs the tool calls of msgs' assistant messages, in
// order, on a fresh environment of dom, as RunEpisode ran them: a tool
// error becomes the result "Error: <text>". Each replayed result is
// compared with the recorded one, the tool message answering the call (by
// tool_call_id, else by position among the tool messages that follow the
// assistant message). A call of a tool dom lacks, or with malformed
// arguments, replays as the error RunEpisode gives it when the transcript
// records an error result for it (the recording harness refused it too);
// otherwise it is a *ReplayError.
func ReplayTranscript(dom Domain, msgs []emobench.Message) (Replay, error) {
	env := dom.NewEnvironment()
	var r Replay
	for i, m := range msgs {
		if m.Role != emobench.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		recorded := recordedResults(msgs, i)
		for k, call := range m.ToolCalls {
			got, missing := recorded(k, call.ID)
			result, err := callEnvironment(env, call)
			if err != nil {
				var unrunnable *unrunnableCall
				if errors.As(err, &unrunnable) && (missing || !isErrorResult(got)) {
					return r, &ReplayError{Call: r.Calls, Message: i, Name: call.Name, Err: err}
				}
				result = "Error: " + err.Error()
			}
			if missing || !SameToolResult(got, result) {
				r.Mismatches = append(r.Mismatches, ToolResultMismatch{
					Call: r.Calls, Message: i, Name: call.Name, Arguments: call.Arguments,
					Recorded: got, Missing: missing, Replayed: result,
				})
			}
			r.Calls++
		}
	}
	r.FinalHash = env.Hash()
	return r, nil
}

// recordedResults returns the lookup of the results recorded for the calls
// of the assistant message at: the tool messages right after it, by call
// id when one answers that id, else the k-th of them. missing is set when
// no tool message answers call k.
func recordedResults(msgs []emobench.Message, at int) func(k int, id string) (result string, missing bool) {
	var answers []emobench.Message
	for _, m := range msgs[at+1:] {
		if m.Role != emobench.RoleTool {
			break
		}
		answers = append(answers, m)
	}
	used := make([]bool, len(answers))
	return func(k int, id string) (string, bool) {
		if id != "" {
			for j, a := range answers {
				if !used[j] && a.ToolCallID == id {
					used[j] = true
					return a.Content, false
				}
			}
		}
		if k < len(answers) && !used[k] {
			used[k] = true
			return answers[k].Content, false
		}
		return "", true
	}
}

// unrunnableCall is a call the environment cannot run at all: an unknown
// tool or malformed arguments.
type unrunnableCall struct{ msg string }

func (e *unrunnableCall) Error() string { return e.msg }

// callEnvironment runs call on env as the orchestrator does; the error's
// text is what the agent sees after "Error: ". A call that cannot run at
// all (unknown tool, arguments that are not JSON) is an *unrunnableCall.
func callEnvironment(env Environment, call emobench.ToolCall) (string, error) {
	if call.ArgumentsMalformed {
		var raw string
		_ = json.Unmarshal(call.Arguments, &raw)
		if json.Valid([]byte(raw)) {
			return "", &unrunnableCall{fmt.Sprintf("arguments are nested %d deep; at most %d", emobench.JSONDepth([]byte(raw)), emobench.MaxToolArgumentsDepth)}
		}
		return "", &unrunnableCall{fmt.Sprintf("arguments are not valid JSON: %q", raw)}
	}
	result, err := env.Call(call.Name, call.Arguments)
	if errors.Is(err, ErrUnknownTool) {
		return "", &unrunnableCall{fmt.Sprintf("unknown tool %q", call.Name)}
	}
	return result, err
}

// isErrorResult reports whether a recorded tool result reports an error,
// as emobench.Trajectory.Counts counts them: it starts with "error",
// case-insensitively.
func isErrorResult(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 5 && strings.EqualFold(s[:5], "error")
}

// SameToolResult reports whether two tool results say the same: equal
// JSON values when both are JSON (whitespace, key order and number
// spelling such as 1.0 and 1 do not count), else equal text once
// surrounding whitespace is trimmed.
func SameToolResult(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == b {
		return true
	}
	ca, okA := canonicalJSON(a)
	cb, okB := canonicalJSON(b)
	return okA && okB && bytes.Equal(ca, cb)
}

// canonicalJSON re-encodes s's JSON value with sorted keys and no
// whitespace; ok is false when s is not one JSON value.
func canonicalJSON(s string) ([]byte, bool) {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}
