package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// This file reads a domain's tools declared as data: an embedded JSON file
// states each tool's name, description, whether it writes and its
// parameters' JSON schema, and the domain binds each name to the Go
// function that implements it. The schema is then written once, as the
// agent sees it, and the arguments the function gets are decoded by it.

// ToolCall is a tool's implementation before it knows its required
// parameters: ReadTools gives it those of the tool's schema. Typed makes
// one of a function over decoded arguments.
type ToolCall[S any] func(required []string) func(*S, json.RawMessage) (string, error)

// Typed returns the ToolCall of fn, whose arguments are decoded into A by
// TypedCall (unknown fields and missing required names are errors the
// agent sees).
func Typed[S, A any](fn func(*S, *A) (string, error)) ToolCall[S] {
	return func(required []string) func(*S, json.RawMessage) (string, error) {
		return TypedCall(required, fn)
	}
}

// toolDecl is one tool of a tools file.
type toolDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Writes      bool            `json:"writes"`
	Parameters  json.RawMessage `json:"parameters"`
}

// ReadTools decodes data, a JSON array of tools ({"name", "description",
// "writes", "parameters"}, the last an object schema whose "required"
// lists the parameters a call must give), and returns them in the file's
// order, each bound to calls[name]. The parameters are kept as written,
// compacted. A tool without an implementation, an implementation without
// a tool, a name given twice, an unknown field or a schema that is not an
// object is an error naming it.
func ReadTools[S any](data []byte, calls map[string]ToolCall[S]) ([]Tool[S], error) {
	var decls []toolDecl
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&decls); err != nil {
		return nil, fmt.Errorf("tools file: %w", err)
	}
	tools := make([]Tool[S], 0, len(decls))
	seen := map[string]bool{}
	for _, d := range decls {
		call, ok := calls[d.Name]
		switch {
		case seen[d.Name]:
			return nil, fmt.Errorf("tools file: tool %q is declared twice", d.Name)
		case !ok:
			return nil, fmt.Errorf("tools file: tool %q has no implementation", d.Name)
		}
		seen[d.Name] = true
		var schema struct {
			Type     string   `json:"type"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(d.Parameters, &schema); err != nil || schema.Type != "object" {
			return nil, fmt.Errorf("tools file: tool %q: parameters must be an object schema", d.Name)
		}
		var params bytes.Buffer
		if err := json.Compact(&params, d.Parameters); err != nil {
			return nil, fmt.Errorf("tools file: tool %q: %w", d.Name, err)
		}
		tools = append(tools, NewTool(d.Name, d.Description, d.Writes, params.Bytes(), call(schema.Required)))
	}
	for _, name := range slices.Sorted(maps.Keys(calls)) {
		if !seen[name] {
			return nil, fmt.Errorf("tools file: implementation %q has no tool", name)
		}
	}
	return tools, nil
}
