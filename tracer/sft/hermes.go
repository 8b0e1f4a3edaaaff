package sft

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/emobench/emobench"
)

// Qwen3's chat template, as text: the fixed parts RenderQwen3 writes.
const (
	qwen3ToolsHeader = "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
		"You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
	qwen3ToolsFooter = "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
		"<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n"
)

// RenderQwen3 returns the openai record of rec as Qwen3's chat template
// (Qwen3's tokenizer_config.json chat_template) renders it with its tools
// and add_generation_prompt false:
//   - the system block holds the policy, then the tools, one JSON object a
//     line (the template's tojson: ", " and ": " separators) inside
//     <tools></tools>;
//   - an assistant tool call is <tool_call>\n{"name": N, "arguments": A}\n</tool_call>
//     with A the call's arguments as the template's tojson prints them
//     (qwen3Arguments): a server such as vLLM parses each stored
//     arguments string into a mapping before it applies the template, so
//     this is the text the model meets when it serves;
//   - consecutive tool results are <tool_response> blocks in one user turn;
//   - assistant turns after the last real user query go through the
//     template's <think> handling: the last message, or one that holds
//     reasoning (text before </think>), gets a <think> block, empty when
//     there is no reasoning.
//
// String methods follow Python's Jinja2, as transformers' apply_chat_template
// (and so TRL and vLLM) runs the template: strip('\n') strips newlines only.
// @huggingface/jinja 0.5 strips all whitespace there, so its rendering
// differs only for an assistant message with spaces around </think>.
//
// It fails only when a tool's parameters are not JSON.
func RenderQwen3(rec *Record) (string, error) {
	system, err := qwen3System(rec)
	if err != nil {
		return "", err
	}
	return renderQwen3(rec, system), nil
}

// qwen3System returns the template's system block of rec: its policy and
// tools.
func qwen3System(rec *Record) (string, error) {
	if len(rec.Tools) == 0 {
		return "<|im_start|>system\n" + rec.System + "<|im_end|>\n", nil
	}
	var b strings.Builder
	b.WriteString("<|im_start|>system\n")
	b.WriteString(rec.System + "\n\n")
	b.WriteString(qwen3ToolsHeader)
	for _, t := range openAITools(rec.Tools) {
		js, err := marshalNoEscape(t)
		if err != nil {
			return "", fmt.Errorf("trajectory %d: tool %s: %w", rec.TrajectoryID, t.Function.Name, err)
		}
		tj, err := templateJSON(js)
		if err != nil {
			return "", fmt.Errorf("trajectory %d: tool %s: %w", rec.TrajectoryID, t.Function.Name, err)
		}
		b.WriteString("\n" + tj)
	}
	b.WriteString(qwen3ToolsFooter)
	return b.String(), nil
}

// renderQwen3 is RenderQwen3 with rec's system block already rendered.
func renderQwen3(rec *Record, system string) string {
	var b strings.Builder
	b.WriteString(system)
	msgs := rec.Messages
	// The template's indices count the system message as message 0.
	lastQuery := len(msgs) // messages|length - 1, counting the system message
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == emobench.RoleUser && !(strings.HasPrefix(m.Content, "<tool_response>") && strings.HasSuffix(m.Content, "</tool_response>")) {
			lastQuery = i + 1
			break
		}
	}
	for i, m := range msgs {
		idx := i + 1
		last := i == len(msgs)-1
		switch m.Role {
		case emobench.RoleUser, emobench.RoleSystem:
			b.WriteString("<|im_start|>" + string(m.Role) + "\n" + m.Content + "<|im_end|>\n")
		case emobench.RoleAssistant:
			content, reasoning := m.Content, ""
			if strings.Contains(m.Content, "</think>") {
				parts := strings.Split(m.Content, "</think>")
				content = strings.TrimLeft(parts[len(parts)-1], "\n")
				before := strings.TrimRight(parts[0], "\n")
				th := strings.Split(before, "<think>")
				reasoning = strings.TrimLeft(th[len(th)-1], "\n")
			}
			if idx > lastQuery && (last || reasoning != "") {
				b.WriteString("<|im_start|>assistant\n<think>\n" + strings.Trim(reasoning, "\n") + "\n</think>\n\n" + strings.TrimLeft(content, "\n"))
			} else {
				b.WriteString("<|im_start|>assistant\n" + content)
			}
			for j, tc := range m.ToolCalls {
				if (j == 0 && content != "") || j > 0 {
					b.WriteString("\n")
				}
				b.WriteString("<tool_call>\n{\"name\": \"" + tc.Name + "\", \"arguments\": " + qwen3Arguments(tc) + "}\n</tool_call>")
			}
			b.WriteString("<|im_end|>\n")
		case emobench.RoleTool:
			if i == 0 || msgs[i-1].Role != emobench.RoleTool {
				b.WriteString("<|im_start|>user")
			}
			b.WriteString("\n<tool_response>\n" + m.Content + "\n</tool_response>")
			if last || msgs[i+1].Role != emobench.RoleTool {
				b.WriteString("<|im_end|>\n")
			}
		}
	}
	return b.String()
}

// qwen3Arguments returns a tool call's arguments as Qwen3's template prints
// them when served: vLLM parses the arguments string into a mapping ("" to
// {}) and the template prints a mapping with tojson, so a JSON object is
// re-encoded by templateJSON, keys in their stored order with ", " and ": ".
// Arguments that are not a JSON object (malformed, or another JSON value)
// stay the string they were stored as.
func qwen3Arguments(tc emobench.ToolCall) string {
	args := bytes.TrimSpace(tc.Arguments)
	if len(args) == 0 {
		return "{}"
	}
	if tc.ArgumentsMalformed || args[0] != '{' {
		return string(tc.Arguments)
	}
	s, err := templateJSON(args)
	if err != nil {
		return string(tc.Arguments)
	}
	return s
}
