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

// LLMAgent is an Agent played by a chat model with function calling: the
// policy is its system prompt, the transcript its history and the domain's
// tools its functions.
type LLMAgent struct {
	client *LLMClient
}

// NewLLMAgent returns an agent that asks client for each message.
func NewLLMAgent(client *LLMClient) *LLMAgent { return &LLMAgent{client: client} }

// Next returns the agent's next assistant message: text, tool calls or
// both, with Usage set. A tool call whose argument string is not JSON keeps
// the raw text as a JSON string with ArgumentsMalformed set. Errors are
// *LLMError, or a plain error for a tool schema that is not JSON.
func (a *LLMAgent) Next(ctx context.Context, ep *Episode) (emobench.Message, error) {
	var params openai.ChatCompletionNewParams
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

	reply, usage, err := a.client.Complete(ctx, params)
	if err != nil {
		return emobench.Message{}, err
	}
	out := emobench.Message{Role: emobench.RoleAssistant, Content: reply.Content, Usage: &usage}
	if out.Content == "" && reply.Refusal != "" {
		out.Content = reply.Refusal
	}
	for _, tc := range reply.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue // custom tools are never offered
		}
		args, malformed := parseToolArguments(tc.Function.Arguments)
		out.ToolCalls = append(out.ToolCalls, emobench.ToolCall{
			ID: tc.ID, Name: tc.Function.Name, Arguments: args, ArgumentsMalformed: malformed,
		})
	}
	return out, nil
}

// parseToolArguments returns the model's argument string as compact JSON,
// or, when it is not JSON, as a JSON string literal of the raw text and
// true. An empty string means no arguments: {}.
func parseToolArguments(raw string) (json.RawMessage, bool) {
	if strings.TrimSpace(raw) == "" {
		return json.RawMessage("{}"), false
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(raw)); err == nil {
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
		return openai.ToolMessage(m.Content, m.ToolCallID), true, nil
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
