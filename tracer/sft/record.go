// Package sft turns trajectories into supervised fine-tuning records and
// writes them as JSON lines in three formats: OpenAI chat fine-tuning
// (FormatOpenAI, what TRL's SFTTrainer and ms-swift read), LLaMA-Factory's
// ShareGPT layout (FormatShareGPT) and Qwen3's rendered chat text
// (FormatHermes). Every record is validated before it is written
// (Validator), and Stats sums what was written. It knows nothing of
// storage: callers hand it a trajectory's messages with its domain's policy
// and tool schemas.
package sft

import (
	"bytes"
	"encoding/json"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Record is one training example: a trajectory's conversation with the
// system policy and the tools its agent was offered.
type Record struct {
	TrajectoryID  int64  // the trajectory the record was made from, for reports
	Domain        string // the domain whose policy and tools are given
	EmotionFamily string // the task's emotion family; "" when it has none
	System        string // the system prompt: the domain's policy
	Tools         []sim.ToolSchema
	// Messages is the conversation without a system message: user,
	// assistant and tool messages in order.
	Messages []emobench.Message
	// Offset is the stored index of Messages[0]: 1 when NewRecord dropped
	// the trajectory's leading system message, else 0. Messages[i] is
	// message #(i+Offset) of `emobench show`.
	Offset int
}

// NewRecord returns the record of one trajectory's messages under policy and
// tools. It copies msgs and normalises them so that the formats agree:
//   - a leading system message (the stored copy of the prompt the agent
//     saw) is dropped: the record's System is policy;
//   - a tool call without an id gets one from sim.NewToolCallID, and a tool
//     message without a tool_call_id answers the next unanswered call of
//     the assistant message before it, taking that call's tool name when it
//     has none;
//   - tool-call arguments are compacted JSON;
//   - trailing user messages are dropped: the user's closing turn
//     (###STOP###) is nothing the agent learns.
//
// It does not validate: Validator.Validate does.
func NewRecord(trajectoryID int64, domain, emotionFamily, policy string, tools []sim.ToolSchema, msgs []emobench.Message) *Record {
	rec := &Record{TrajectoryID: trajectoryID, Domain: domain, EmotionFamily: emotionFamily, System: policy, Tools: tools}
	if len(msgs) > 0 && msgs[0].Role == emobench.RoleSystem {
		msgs = msgs[1:]
		rec.Offset = 1
	}
	used := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.ID != "" {
				used[tc.ID] = true
			}
		}
	}
	out := make([]emobench.Message, 0, len(msgs))
	var pending []emobench.ToolCall // the last assistant message's calls not yet answered
	for i, m := range msgs {
		m.Usage = nil
		switch m.Role {
		case emobench.RoleAssistant:
			if len(m.ToolCalls) > 0 {
				calls := make([]emobench.ToolCall, len(m.ToolCalls))
				for j, tc := range m.ToolCalls {
					if tc.ID == "" {
						tc.ID = sim.NewToolCallID(used, i, j)
						used[tc.ID] = true
					}
					if !tc.ArgumentsMalformed {
						tc.Arguments = compactArguments(tc.Arguments)
					}
					calls[j] = tc
				}
				m.ToolCalls = calls
			}
			pending = append([]emobench.ToolCall(nil), m.ToolCalls...)
		case emobench.RoleTool:
			if m.ToolCallID == "" && len(pending) > 0 {
				m.ToolCallID = pending[0].ID
			}
			for k, tc := range pending {
				if tc.ID == m.ToolCallID {
					if m.ToolName == "" {
						m.ToolName = tc.Name
					}
					pending = append(pending[:k:k], pending[k+1:]...)
					break
				}
			}
		default:
			pending = nil
		}
		out = append(out, m)
	}
	for len(out) > 0 && out[len(out)-1].Role == emobench.RoleUser {
		out = out[:len(out)-1]
	}
	rec.Messages = out
	return rec
}

// compactArguments returns args as compact JSON, {} when empty, or args
// unchanged when it is not JSON (Validate then reports it).
func compactArguments(args json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(args)) == 0 {
		return json.RawMessage("{}")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, args); err != nil {
		return args
	}
	return buf.Bytes()
}

// emptyParameters is the JSON schema of a tool that takes no arguments.
var emptyParameters = json.RawMessage(`{"type":"object","properties":{}}`)

// parameters returns t's JSON-schema parameters, emptyParameters when unset.
func parameters(t sim.ToolSchema) json.RawMessage {
	if len(bytes.TrimSpace(t.Parameters)) == 0 {
		return emptyParameters
	}
	return t.Parameters
}
