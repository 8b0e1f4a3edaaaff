package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/emobench/emobench"
)

// Settings of LLMAgent.ParallelToolCalls.
const (
	// ParallelToolCallsAllow lets the model make several tool calls in one
	// message; the orchestrator runs them in order, one step each.
	ParallelToolCallsAllow = "allow"
	// ParallelToolCallsFirst asks for one call per message
	// (parallel_tool_calls false) and, as τ-bench's tool-calling agent
	// does, keeps only the first call of a message that has several: the
	// others are dropped from the transcript, never run and never answered.
	ParallelToolCallsFirst = "first"
)

// LLMAgent is an Agent played by a chat model with function calling: the
// policy is its system prompt, the transcript its history and the domain's
// tools its functions.
type LLMAgent struct {
	client *LLMClient
	// ParallelToolCalls is ParallelToolCallsAllow (also when empty) or
	// ParallelToolCallsFirst.
	ParallelToolCalls string
}

// NewLLMAgent returns an agent that asks client for each message and
// allows parallel tool calls.
func NewLLMAgent(client *LLMClient) *LLMAgent {
	return &LLMAgent{client: client, ParallelToolCalls: ParallelToolCallsAllow}
}

// AgentRole and UserRole name the two roles in RequestSeed.
const (
	AgentRole = "agent"
	UserRole  = "user"
)

// Next returns the agent's next assistant message: text, tool calls or
// both, with Usage set. The request offers the episode's tools with
// tool_choice "auto" and parallel_tool_calls per ParallelToolCalls, and
// carries RequestSeed(ep.Seed, AgentRole, len(ep.Messages)). A tool call
// whose argument string is not JSON, or is nested deeper than
// emobench.MaxToolArgumentsDepth, keeps the raw text as a JSON string
// with ArgumentsMalformed set; a call without an id, or with one already
// used in the episode, gets a generated one (call_emobench_M_I for call I
// of transcript message M), which the tool reply then answers. Errors are
// *LLMError, or a plain error for a tool schema that is not JSON.
func (a *LLMAgent) Next(ctx context.Context, ep *Episode) (emobench.Message, error) {
	params := openai.ChatCompletionNewParams{Seed: openai.Int(RequestSeed(ep.Seed, AgentRole, len(ep.Messages)))}
	if ep.Policy != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(ep.Policy))
	}
	for i, m := range ep.Messages {
		msg, ok, err := agentMessageParam(m)
		if err != nil {
			return emobench.Message{}, fmt.Errorf("llm agent: message %d: %w", i, err)
		}
		if ok {
			params.Messages = append(params.Messages, msg)
		}
	}
	for _, t := range ep.Tools {
		def := openai.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &def.Parameters); err != nil {
				return emobench.Message{}, fmt.Errorf("llm agent: tool %s: parameters: %w", t.Name, err)
			}
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(def))
	}
	first := a.ParallelToolCalls == ParallelToolCallsFirst
	if len(params.Tools) > 0 { // both fields are refused without tools
		params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")}
		params.ParallelToolCalls = openai.Bool(!first)
	}

	reply, usage, err := a.client.Complete(ctx, params)
	if err != nil {
		return emobench.Message{}, err
	}
	out := emobench.Message{Role: emobench.RoleAssistant, Content: reply.Content, Usage: &usage}
	if out.Content == "" && reply.Refusal != "" {
		out.Content = reply.Refusal
	}
	used := usedToolCallIDs(ep.Messages)
	for _, tc := range reply.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue // custom tools are never offered
		}
		args, malformed := parseToolArguments(tc.Function.Arguments)
		id := tc.ID
		if strings.TrimSpace(id) == "" || used[id] {
			// OpenAI rejects an empty id, and a repeated one would pair a
			// tool reply with the wrong call.
			id = newToolCallID(used, len(ep.Messages), len(out.ToolCalls))
		}
		used[id] = true
		out.ToolCalls = append(out.ToolCalls, emobench.ToolCall{
			ID: id, Name: tc.Function.Name, Arguments: args, ArgumentsMalformed: malformed,
		})
		if first {
			break
		}
	}
	return out, nil
}

// usedToolCallIDs returns the ids of the tool calls in msgs.
func usedToolCallIDs(msgs []emobench.Message) map[string]bool {
	used := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			used[tc.ID] = true
		}
	}
	return used
}

// newToolCallID returns an id for call i of transcript message m that used
// does not hold: deterministic, so equal seeds give equal transcripts.
func newToolCallID(used map[string]bool, m, i int) string {
	id := fmt.Sprintf("call_emobench_%d_%d", m, i)
	for n := 1; used[id]; n++ {
		id = fmt.Sprintf("call_emobench_%d_%d_%d", m, i, n)
	}
	return id
}

// parseToolArguments returns the model's argument string as compact JSON,
// or, when it is not JSON or is nested deeper than the store takes
// (emobench.MaxToolArgumentsDepth), as a JSON string literal of the raw
// text and true. An empty string means no arguments: {}.
func parseToolArguments(raw string) (json.RawMessage, bool) {
	if strings.TrimSpace(raw) == "" {
		return json.RawMessage("{}"), false
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(raw)); err == nil && emobench.JSONDepth(buf.Bytes()) <= emobench.MaxToolArgumentsDepth {
		return buf.Bytes(), false
	}
	lit, _ := json.Marshal(raw) // a string always marshals
	return lit, true
}

// agentMessageParam maps a transcript message to the agent's view of it.
func agentMessageParam(m emobench.Message) (openai.ChatCompletionMessageParamUnion, bool, error) {
	switch m.Role {
	case emobench.RoleSystem:
		return openai.SystemMessage(m.Content), true, nil
	case emobench.RoleUser:
		return openai.UserMessage(m.Content), true, nil
	case emobench.RoleTool:
		p := openai.ChatCompletionToolMessageParam{ToolCallID: m.ToolCallID}
		p.Content.OfString = openai.String(m.Content)
		if m.ToolName != "" {
			// Not in the SDK's type, but in τ-bench's requests and accepted
			// by OpenAI; some chat templates need it.
			p.SetExtraFields(map[string]any{"name": m.ToolName})
		}
		return openai.ChatCompletionMessageParamUnion{OfTool: &p}, true, nil
	case emobench.RoleAssistant:
		var p openai.ChatCompletionAssistantMessageParam
		if m.Content != "" || len(m.ToolCalls) == 0 {
			p.Content.OfString = openai.String(m.Content)
		}
		for _, tc := range m.ToolCalls {
			p.ToolCalls = append(p.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID: tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name: tc.Name, Arguments: toolArgumentString(tc),
					},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &p}, true, nil
	}
	return openai.ChatCompletionMessageParamUnion{}, false, fmt.Errorf("unknown role %q", m.Role)
}

// toolArgumentString is the argument string the model wrote: the raw text
// of malformed arguments, the JSON otherwise.
func toolArgumentString(tc emobench.ToolCall) string {
	if tc.ArgumentsMalformed {
		var raw string
		if json.Unmarshal(tc.Arguments, &raw) == nil {
			return raw
		}
	}
	if len(tc.Arguments) == 0 {
		return "{}"
	}
	return string(tc.Arguments)
}
