package redact_test

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench/redact"
)

func TestField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"no hint", `{"a": 1,  "b":"x"}`, `{"a": 1,  "b":"x"}`},
		{"hint but no credential", `{"token_usage": 12, "k": "monkey"}`, `{"token_usage": 12, "k": "monkey"}`},
		{"credential", `{"api_key": "sk-1", "n": 1.50}`, `{"api_key":"[redacted]","n":1.50}`},
		{"not JSON", `{"api_key": `, `{"api_key": `},
		{"empty", ``, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := string(redact.Field(json.RawMessage(tc.in))), tc.want; got != want {
				t.Fatalf("Field(%s) = %s, want %s", tc.in, got, want)
			}
		})
	}
	// Kept fields are the caller's bytes, not a copy.
	raw := json.RawMessage(`{"plain": true}`)
	if got := redact.Field(raw); &got[0] != &raw[0] {
		t.Errorf("Field copied a field without credentials")
	}
}

// redact is a leaf: the standard library only (DESIGN.md), so every
// package may use it.
func TestRedact_ImportsStandardLibraryOnly(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				t.Errorf("%s imports %s: redact may import the standard library only", f, path)
			}
		}
	}
}
