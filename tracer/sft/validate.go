package sft

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Reason names why a record failed validation; Stats counts failures by it.
type Reason string

// The reasons a record fails validation.
const (
	// ReasonNoAssistantTurn: the record has no assistant message to learn.
	ReasonNoAssistantTurn Reason = "no_assistant_turn"
	// ReasonRoleOrder: a message's role may not follow the one before it
	// (the conversation opens with the user, then user and assistant
	// alternate, with tool messages only after an assistant's tool calls;
	// no system message after the start).
	ReasonRoleOrder Reason = "role_order"
	// ReasonEmptyMessage: an assistant message with neither text nor calls.
	ReasonEmptyMessage Reason = "empty_message"
	// ReasonDuplicateCallID: two tool calls share an id.
	ReasonDuplicateCallID Reason = "duplicate_tool_call_id"
	// ReasonUnansweredCall: a tool call has no tool message with its id
	// before the next user or assistant message.
	ReasonUnansweredCall Reason = "unanswered_tool_call"
	// ReasonUnexpectedToolResult: a tool message answers no call, not the
	// next one in order, or names another tool than its call.
	ReasonUnexpectedToolResult Reason = "unexpected_tool_result"
	// ReasonUnknownTool: a call names a tool the record does not offer.
	ReasonUnknownTool Reason = "unknown_tool"
	// ReasonMalformedArguments: a call's arguments were not JSON.
	ReasonMalformedArguments Reason = "malformed_arguments"
	// ReasonArgumentsSchema: a call's arguments do not match its tool's
	// JSON schema.
	ReasonArgumentsSchema Reason = "arguments_schema"
)

// ValidationError is why one record may not be written.
type ValidationError struct {
	TrajectoryID int64
	// Message is the message's index in the stored trajectory, as
	// `emobench show` numbers it (#N): its index in Record.Messages plus
	// Record.Offset; -1 for the record as a whole.
	Message int
	Reason  Reason
	Detail  string
}

func (e *ValidationError) Error() string {
	if e.Message < 0 {
		return fmt.Sprintf("trajectory %d: %s: %s", e.TrajectoryID, e.Reason, e.Detail)
	}
	return fmt.Sprintf("trajectory %d: message #%d: %s: %s", e.TrajectoryID, e.Message, e.Reason, e.Detail)
}

// Validator checks records against their tools' JSON schemas, compiling
// each domain's schemas once. The zero value is not usable: use
// NewValidator. It is not safe for concurrent use.
type Validator struct {
	compiled map[string]map[string]*jsonschema.Schema // domain → tool → schema
}

// NewValidator returns an empty Validator.
func NewValidator() *Validator {
	return &Validator{compiled: map[string]map[string]*jsonschema.Schema{}}
}

// Validate returns nil when rec may be written, a *ValidationError naming
// the first broken rule otherwise, or another error when a tool's own
// schema does not compile (a domain bug). Schemas are cached by
// rec.Domain: records of one domain must offer the same tools.
func (v *Validator) Validate(rec *Record) error {
	schemas, err := v.schemas(rec.Domain, rec.Tools)
	if err != nil {
		return err
	}
	fail := func(i int, r Reason, format string, args ...any) error {
		if i >= 0 {
			i += rec.Offset
		}
		return &ValidationError{TrajectoryID: rec.TrajectoryID, Message: i, Reason: r, Detail: fmt.Sprintf(format, args...)}
	}
	seen := map[string]bool{}
	var pending []emobench.ToolCall
	prev := emobench.RoleSystem
	assistants := 0
	for i, m := range rec.Messages {
		if len(pending) > 0 && m.Role != emobench.RoleTool {
			return fail(i, ReasonUnansweredCall, "tool call %s (%s) has no result before this %s message", pending[0].ID, pending[0].Name, m.Role)
		}
		switch m.Role {
		case emobench.RoleUser:
			if prev != emobench.RoleSystem && prev != emobench.RoleAssistant {
				return fail(i, ReasonRoleOrder, "user message after a %s message", prev)
			}
		case emobench.RoleAssistant:
			if prev != emobench.RoleUser && prev != emobench.RoleTool {
				return fail(i, ReasonRoleOrder, "assistant message after a %s message", roleName(prev))
			}
			assistants++
			if m.Content == "" && len(m.ToolCalls) == 0 {
				return fail(i, ReasonEmptyMessage, "assistant message with neither text nor tool calls")
			}
			for _, tc := range m.ToolCalls {
				if seen[tc.ID] {
					return fail(i, ReasonDuplicateCallID, "tool call id %q is used twice", tc.ID)
				}
				seen[tc.ID] = true
				if err := checkArguments(schemas, tc); err != nil {
					err.TrajectoryID, err.Message = rec.TrajectoryID, i+rec.Offset
					return err
				}
			}
			pending = append([]emobench.ToolCall(nil), m.ToolCalls...)
		case emobench.RoleTool:
			if len(pending) == 0 {
				return fail(i, ReasonUnexpectedToolResult, "tool message (tool_call_id %q) answers no pending tool call", m.ToolCallID)
			}
			if m.ToolCallID != pending[0].ID {
				return fail(i, ReasonUnexpectedToolResult, "tool message answers %q, want the next call %q (%s)", m.ToolCallID, pending[0].ID, pending[0].Name)
			}
			if m.ToolName != "" && m.ToolName != pending[0].Name {
				return fail(i, ReasonUnexpectedToolResult, "tool message of %s answers call %q of %s", m.ToolName, m.ToolCallID, pending[0].Name)
			}
			pending = pending[1:]
		default:
			return fail(i, ReasonRoleOrder, "%s message inside the conversation", roleName(m.Role))
		}
		prev = m.Role
	}
	if len(pending) > 0 {
		return fail(len(rec.Messages)-1, ReasonUnansweredCall, "tool call %s (%s) has no result", pending[0].ID, pending[0].Name)
	}
	if assistants == 0 {
		return fail(-1, ReasonNoAssistantTurn, "no assistant message in %d messages", len(rec.Messages))
	}
	return nil
}

func roleName(r emobench.Role) string {
	if r == "" {
		return `""`
	}
	return string(r)
}

// checkArguments validates one call's arguments against its tool's schema;
// the caller fills in where.
func checkArguments(schemas map[string]*jsonschema.Schema, tc emobench.ToolCall) *ValidationError {
	sch, ok := schemas[tc.Name]
	if !ok {
		return &ValidationError{Reason: ReasonUnknownTool, Detail: fmt.Sprintf("call %s names tool %q, which the domain does not offer", tc.ID, tc.Name)}
	}
	if tc.ArgumentsMalformed {
		return &ValidationError{Reason: ReasonMalformedArguments, Detail: fmt.Sprintf("call %s (%s): arguments are not JSON: %s", tc.ID, tc.Name, clip(string(tc.Arguments)))}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(tc.Arguments))
	if err != nil {
		return &ValidationError{Reason: ReasonMalformedArguments, Detail: fmt.Sprintf("call %s (%s): arguments are not JSON: %v", tc.ID, tc.Name, err)}
	}
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		detail := err.Error()
		if errors.As(err, &ve) {
			detail = strings.Join(strings.Fields(ve.Error()), " ")
		}
		return &ValidationError{Reason: ReasonArgumentsSchema, Detail: fmt.Sprintf("call %s (%s): %s", tc.ID, tc.Name, detail)}
	}
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// noLoader refuses every reference outside the tool's own schema: a tool
// schema that points at a file or URL is a domain bug, never fetched.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema reference %s is not loaded: tool schemas must be self-contained", url)
}

// schemas returns the compiled argument schemas of domain's tools.
func (v *Validator) schemas(domain string, tools []sim.ToolSchema) (map[string]*jsonschema.Schema, error) {
	if s, ok := v.compiled[domain]; ok {
		return s, nil
	}
	out := make(map[string]*jsonschema.Schema, len(tools))
	for _, t := range tools {
		c := jsonschema.NewCompiler()
		c.UseLoader(noLoader{})
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(parameters(t)))
		if err != nil {
			return nil, fmt.Errorf("domain %s: tool %s: parameters: %w", domain, t.Name, err)
		}
		url := "mem:///" + t.Name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("domain %s: tool %s: parameters: %w", domain, t.Name, err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("domain %s: tool %s: parameters: %w", domain, t.Name, err)
		}
		out[t.Name] = sch
	}
	v.compiled[domain] = out
	return out, nil
}

// marshalNoEscape encodes v as JSON without HTML escaping and without the
// encoder's trailing newline.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
