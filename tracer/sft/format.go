package sft

import (
	"fmt"
	"strings"
)

// Format is an SFT output format.
type Format string

// The formats Encode writes.
const (
	// FormatOpenAI is the chat fine-tuning format: {"messages", "tools"},
	// weight 1 on every assistant message, tool calls with string
	// arguments, tool messages with tool_call_id and name.
	FormatOpenAI Format = "openai"
	// FormatShareGPT is LLaMA-Factory's ShareGPT layout for tool use:
	// {"conversations", "system", "tools" (a JSON string)}.
	FormatShareGPT Format = "sharegpt"
	// FormatHermes is {"text"}: the openai record as Qwen3's chat template
	// renders it.
	FormatHermes Format = "hermes"
)

// Formats lists the formats in the order the CLI names them.
var Formats = []Format{FormatOpenAI, FormatShareGPT, FormatHermes}

// ParseFormat returns the Format spelled s, or an error naming the formats.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("format %q is not one of %s", s, strings.Join(names, ", "))
}

// Encode returns rec as one JSON line of format f, without the newline.
// rec should have passed Validator.Validate; Encode fails only on an
// unknown format or a tool whose parameters are not JSON.
func Encode(f Format, rec *Record) ([]byte, error) {
	switch f {
	case FormatOpenAI:
		return marshalNoEscape(openAIRecord(rec))
	case FormatShareGPT:
		r, err := shareGPTRecord(rec)
		if err != nil {
			return nil, err
		}
		return marshalNoEscape(r)
	case FormatHermes:
		text, err := RenderQwen3(rec)
		if err != nil {
			return nil, err
		}
		return marshalNoEscape(struct {
			Text string `json:"text"`
		}{text})
	}
	return nil, fmt.Errorf("unknown format %q", f)
}
