package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

type toolFileState struct{ n int }

func TestReadTools(t *testing.T) {
	add := Typed(func(s *toolFileState, a *struct {
		By int `json:"by"`
	}) (string, error) {
		s.n += a.By
		return JSONResult(s.n)
	})
	data := []byte(`[{"name": "add", "description": "Add.", "writes": true,
		"parameters": {"type": "object", "properties": {"by": {"type": "integer"}}, "required": ["by"], "additionalProperties": false}}]`)
	tools, err := ReadTools(data, map[string]ToolCall[toolFileState]{"add": add})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"by":{"type":"integer"}},"required":["by"],"additionalProperties":false}`
	if len(tools) != 1 || tools[0].Name != "add" || !tools[0].Writes || string(tools[0].Parameters) != want {
		t.Fatalf("tools = %+v, want add (writes) with parameters %s", tools, want)
	}
	s := &toolFileState{n: 1}
	if got, err := tools[0].Call(s, json.RawMessage(`{"by":2}`)); got != "3" || err != nil {
		t.Errorf("add by 2 = %q, %v; want 3", got, err)
	}
	if _, err := tools[0].Call(s, json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), `missing required argument "by"`) {
		t.Errorf("add without by: err = %v, want the missing argument", err)
	}

	for _, c := range []struct{ name, data, want string }{
		{"no implementation", `[{"name":"sub","parameters":{"type":"object"}}]`, `tool "sub" has no implementation`},
		{"no tool", `[]`, `implementation "add" has no tool`},
		{"twice", `[{"name":"add","parameters":{"type":"object"}},{"name":"add","parameters":{"type":"object"}}]`, `tool "add" is declared twice`},
		{"not an object", `[{"name":"add","parameters":{"type":"string"}}]`, `parameters must be an object schema`},
		{"unknown field", `[{"name":"add","params":{}}]`, `unknown field "params"`},
	} {
		if _, err := ReadTools([]byte(c.data), map[string]ToolCall[toolFileState]{"add": add}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}
