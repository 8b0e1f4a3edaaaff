package sft

import (
	"encoding/json"
	"fmt"

	"github.com/emobench/emobench"
)

// shareGPTTurn is one turn of LLaMA-Factory's ShareGPT layout.
type shareGPTTurn struct {
	From  string `json:"from"` // human, gpt, function_call or observation
	Value string `json:"value"`
}

type shareGPTRecordJSON struct {
	Conversations []shareGPTTurn `json:"conversations"`
	System        string         `json:"system"`
	Tools         string         `json:"tools"` // a JSON array of function definitions, as a string
}

// shareGPTCall is a function_call's value: the call's name and its
// arguments as a JSON object (not a string), as LLaMA-Factory's examples
// write it.
type shareGPTCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// shareGPTRecord maps rec to LLaMA-Factory's layout, whose converter wants
// human/observation turns at odd positions and gpt/function_call turns at
// even ones, ending on an even one. So:
//   - an assistant message with tool calls becomes one function_call turn:
//     one call as a JSON object, several as a JSON array of them (which
//     LLaMA-Factory's function formatter accepts); text the assistant wrote
//     beside its calls is dropped, as the layout has no place for it;
//   - the tool messages answering it become one observation turn: the
//     result text for one call, a JSON array of the result texts, in call
//     order, for several;
//   - a trailing observation is dropped, so the record ends on the agent's
//     last turn (the call is learned; its result is not a model turn).
func shareGPTRecord(rec *Record) (shareGPTRecordJSON, error) {
	var turns []shareGPTTurn
	var results []string
	flush := func() error {
		if results == nil {
			return nil
		}
		value := results[0]
		if len(results) > 1 {
			b, err := marshalNoEscape(results)
			if err != nil {
				return err
			}
			value = string(b)
		}
		turns = append(turns, shareGPTTurn{From: "observation", Value: value})
		results = nil
		return nil
	}
	for _, m := range rec.Messages {
		if m.Role != emobench.RoleTool {
			if err := flush(); err != nil {
				return shareGPTRecordJSON{}, err
			}
		}
		switch m.Role {
		case emobench.RoleUser:
			turns = append(turns, shareGPTTurn{From: "human", Value: m.Content})
		case emobench.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				turns = append(turns, shareGPTTurn{From: "gpt", Value: m.Content})
				continue
			}
			calls := make([]shareGPTCall, len(m.ToolCalls))
			for i, tc := range m.ToolCalls {
				calls[i] = shareGPTCall{Name: tc.Name, Arguments: tc.Arguments}
			}
			var v any = calls
			if len(calls) == 1 {
				v = calls[0]
			}
			b, err := marshalNoEscape(v)
			if err != nil {
				return shareGPTRecordJSON{}, fmt.Errorf("trajectory %d: tool calls: %w", rec.TrajectoryID, err)
			}
			turns = append(turns, shareGPTTurn{From: "function_call", Value: string(b)})
		case emobench.RoleTool:
			results = append(results, m.Content)
		}
	}
	results = nil // a trailing observation is dropped
	tools := make([]openAIToolFunction, len(rec.Tools))
	for i, t := range openAITools(rec.Tools) {
		tools[i] = t.Function
	}
	b, err := marshalNoEscape(tools)
	if err != nil {
		return shareGPTRecordJSON{}, fmt.Errorf("trajectory %d: tools: %w", rec.TrajectoryID, err)
	}
	return shareGPTRecordJSON{Conversations: turns, System: rec.System, Tools: string(b)}, nil
}
