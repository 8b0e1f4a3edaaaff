package sft

import (
	"encoding/json"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// openAIMessage is one message of the chat fine-tuning format. Content is
// always a string ("" beside tool calls), so that chat templates never meet
// null.
type openAIMessage struct {
	Role       string           `json:"role"`
	Content    string           `json:"content"`
	ToolCalls  []openAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
	Name       string           `json:"name,omitempty"`
	// Weight is 1 on every assistant message: all of the agent's turns of a
	// kept trajectory are learned, those before a tool error too (the
	// filter, not the export, decides what is worth learning).
	Weight *int `json:"weight,omitempty"`
}

type openAIToolCall struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // the JSON arguments as a string
}

type openAITool struct {
	Type     string             `json:"type"`
	Function openAIToolFunction `json:"function"`
}

type openAIToolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type openAIRecordJSON struct {
	Messages []openAIMessage `json:"messages"`
	Tools    []openAITool    `json:"tools"`
}

func openAITools(tools []sim.ToolSchema) []openAITool {
	out := make([]openAITool, len(tools))
	for i, t := range tools {
		out[i] = openAITool{Type: "function", Function: openAIToolFunction{Name: t.Name, Description: t.Description, Parameters: parameters(t)}}
	}
	return out
}

func openAIRecord(rec *Record) openAIRecordJSON {
	one := 1
	msgs := make([]openAIMessage, 0, len(rec.Messages)+1)
	msgs = append(msgs, openAIMessage{Role: "system", Content: rec.System})
	for _, m := range rec.Messages {
		om := openAIMessage{Role: string(m.Role), Content: m.Content}
		switch m.Role {
		case emobench.RoleAssistant:
			om.Weight = &one
			for _, tc := range m.ToolCalls {
				om.ToolCalls = append(om.ToolCalls, openAIToolCall{ID: tc.ID, Type: "function", Function: openAIFunction{Name: tc.Name, Arguments: string(tc.Arguments)}})
			}
		case emobench.RoleTool:
			om.ToolCallID, om.Name = m.ToolCallID, m.ToolName
		}
		msgs = append(msgs, om)
	}
	return openAIRecordJSON{Messages: msgs, Tools: openAITools(rec.Tools)}
}
