package redact_test

import (
	"testing"

	"github.com/emobench/emobench/redact"
)

// Known finds a known secret however JSON writes it, and leaves text
// without it byte for byte.
func TestKnown(t *testing.T) {
	const key = "sk-abc/DEF12345"
	for _, tc := range []struct{ in, want string }{
		{`{"a":"x sk-abc/DEF12345 y"}`, `{"a":"x [redacted] y"}`},
		{`{"a":"sk-abc\/DEF12345"}`, `{"a":"[redacted]"}`},
		{`{"a":"\u0073k-abc/DEF12345","n":1.50}`, `{"a":"[redacted]","n":1.50}`},
		{`{"sk-abc\/DEF12345":1}`, `{"[redacted]":1}`},
		{`{"args":"{\"k\":\"\\u0073k-abc/DEF12345\"}"}`, `{"args":"{\"k\":\"[redacted]\"}"}`},
		{`{"a":"plain\nline","b":"<&>"}`, `{"a":"plain\nline","b":"<&>"}`},
		{`not json sk-abc/DEF12345 \n`, `not json [redacted] \n`},
	} {
		if got := string(redact.Known([]byte(tc.in), key)); got != tc.want {
			t.Errorf("Known(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := string(redact.Known([]byte(`{"a":"sk-x"}`), "")); got != `{"a":"sk-x"}` {
		t.Errorf("Known with no secret changed the text: %s", got)
	}
}
