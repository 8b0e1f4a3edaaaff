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
		// #20 item 11: arguments that are a JSON string literal, the key
		// fully escaped; one layer deeper; the key as a key in inner text;
		// a number or word kept in a string is left alone.
		{`{"args":"\"\\u0073\\u006b\\u002d\\u0061bc/DEF12345\""}`, `{"args":"\"[redacted]\""}`},
		{`{"args":"\"{\\\"k\\\":\\\"\\\\u0073k-abc/DEF12345\\\"}\""}`, `{"args":"\"{\\\"k\\\":\\\"[redacted]\\\"}\""}`},
		{`{"args":"{\"\\u0073k-abc/DEF12345\":[\"\\\"s\\\\u006b-abc/DEF12345\\\"\"]}"}`, `{"args":"{\"[redacted]\":[\"\\\"[redacted]\\\"\"]}"}`},
		{`{"\"\\u0073k-abc/DEF12345\"":1}`, `{"\"[redacted]\"":1}`},
		{`{"a":"s\u006b-abc/DEF12345","n":"1.5\\"}`, `{"a":"[redacted]","n":"1.5\\"}`},
		{`{"a":"plain\nline","b":"<&>"}`, `{"a":"plain\nline","b":"<&>"}`},
		{`not json sk-abc/DEF12345 \n`, `not json [redacted] \n`},
	} {
		if got := string(redact.Known([]byte(tc.in), key)); got != tc.want {
			t.Errorf("Known(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{`{"a":"\"\\u0073k\""}`, `{"a":"[\"x\\n\", 1.50]"}`, `{"a":"{\"b\":\"\\u0073k-abc/DEF1234\"}"}`} {
		if got := string(redact.Known([]byte(in), key)); got != in {
			t.Errorf("Known(%s) = %s, want it as written", in, got)
		}
	}
	if got := string(redact.Known([]byte(`{"a":"sk-x"}`), "")); got != `{"a":"sk-x"}` {
		t.Errorf("Known with no secret changed the text: %s", got)
	}
}
