package sft

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench"

	"github.com/google/go-cmp/cmp"
)

func TestTemplateJSON(t *testing.T) {
	// Expected strings are what @huggingface/jinja's tojson prints for the
	// same JSON (JSON.parse then toJSON), checked by hand against its
	// source: ", " and ": " separators, JSON.stringify escapes.
	cases := []struct{ in, want string }{
		{`{"a":1,"b":[true,null,"x"]}`, `{"a": 1, "b": [true, null, "x"]}`},
		{`{"z":1,"a":2}`, `{"z": 1, "a": 2}`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`{"n":100.0,"f":0.50,"big":1e21,"small":1.5e-8,"neg":-3,"z":-0}`, `{"n": 100, "f": 0.5, "big": 1e+21, "small": 1.5e-8, "neg": -3, "z": 0}`},
		// A repeated key: first place, last value (json.loads, JSON.parse).
		{`{"a":1,"b":2,"a":{"c":3,"c":4}}`, `{"a": {"c": 4}, "b": 2}`},
		{`"<b>&\u2028\u00e9\"\\\n\t\u0001"`, "\"<b>&\u2028é\\\"\\\\\\n\\t\\u0001\""},
	}
	for _, c := range cases {
		got, err := templateJSON([]byte(c.in))
		if err != nil {
			t.Fatalf("templateJSON(%s): %v", c.in, err)
		}
		if got != c.want {
			t.Errorf("templateJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	if _, err := templateJSON([]byte(`{"a":1} x`)); err == nil {
		t.Error("templateJSON accepted trailing data")
	}
}

// The template's JSON means the same value as its input.
func FuzzTemplateJSON(f *testing.F) {
	f.Add(`{"type":"object","properties":{"x":{"type":"integer","minimum":0}}}`)
	f.Add(`[1.5e300, -0, "\ud800", "é"]`)
	f.Fuzz(func(t *testing.T, in string) {
		var want any
		if json.Unmarshal([]byte(in), &want) != nil {
			return
		}
		out, err := templateJSON([]byte(in))
		if err != nil {
			t.Fatalf("templateJSON(%q): %v", in, err)
		}
		var got any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("templateJSON(%q) = %q, not JSON: %v", in, out, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("templateJSON(%q) = %q changes the value:\n%s", in, out, diff)
		}
	})
}

// A call's arguments are printed as the served template prints them: vLLM
// parses the string into a mapping, which tojson prints with ", " and ": "
// in the stored key order; what is not a JSON object stays the string.
func TestQwen3Arguments(t *testing.T) {
	cases := []struct {
		args      string
		malformed bool
		want      string
	}{
		{`{"email":"x","name":"Zoë"}`, false, `{"email": "x", "name": "Zoë"}`},
		{`{"z":[1,{"b":2.50}],"a":null}`, false, `{"z": [1, {"b": 2.5}], "a": null}`},
		{``, false, `{}`},
		{`"{\"email\": x"`, true, `"{\"email\": x"`},
		{`[1,2]`, false, `[1,2]`},
		{`{"a":1`, false, `{"a":1`},
	}
	for _, c := range cases {
		tc := emobench.ToolCall{Name: "f", Arguments: json.RawMessage(c.args), ArgumentsMalformed: c.malformed}
		if got := qwen3Arguments(tc); got != c.want {
			t.Errorf("qwen3Arguments(%s) = %s, want %s", c.args, got, c.want)
		}
	}
}
