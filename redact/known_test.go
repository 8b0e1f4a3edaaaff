package redact_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/emobench/emobench/redact"
)

// Known finds a known secret however JSON writes it, and leaves text
// without it byte for byte.
func TestKnown(t *testing.T) {
	t.Parallel()
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
	// #20 item 11: the key JSON-escaped in text that is no JSON value of its
	// own: escapes with no quotes around them in arguments, in plain
	// content, in a cut-off fragment; a key with '"' and '\' once escaped;
	// an escaped slash; two layers down; after a surrogate pair.
	const odd = `sk-a"b\c12345`
	for _, tc := range []struct{ key, in, want string }{
		{key, `{"args":"{\"d\":\"\\\\u0073\\\\u006b\\\\u002dabc/DEF12345\"}"}`, `{"args":"{\"d\":\"[redacted]\"}"}`},
		{key, `{"content":"token: \"\\u0073\\u006b-abc/DEF12345\" done"}`, `{"content":"token: \"[redacted]\" done"}`},
		{key, `{"content":"log {\"auth\": \"\\u0073k-abc/DEF12345\""}`, `{"content":"log {\"auth\": \"[redacted]\""}`},
		{key, `log {"auth": "\u0073k-abc/DEF12345"`, `log {"auth": "[redacted]"`},
		{odd, `{"c":"key sk-a\\\"b\\\\c12345 end"}`, `{"c":"key [redacted] end"}`},
		{odd, `key sk-a\"b\\c12345 end`, `key [redacted] end`},
		{key, `{"c":"see sk-abc\\/DEF12345."}`, `{"c":"see [redacted]."}`},
		{key, `see sk-abc\/DEF12345.`, `see [redacted].`},
		{key, `x \\u0073k-abc/DEF12345 \q`, `x [redacted] \q`},
		{key, `\ud83d\ude00\u0073k-abc/DEF12345`, `\ud83d\ude00[redacted]`},
	} {
		got := redact.Known([]byte(tc.in), tc.key)
		if string(got) != tc.want {
			t.Errorf("Known(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if s, ok := unescapedHolding(string(got), tc.key); ok {
			t.Errorf("Known(%s) = %s: unescaped again and again it still holds the key in %q", tc.in, got, s)
		}
		if json.Valid([]byte(tc.in)) && !json.Valid(got) {
			t.Errorf("Known(%s) = %s: not JSON", tc.in, got)
		}
	}
	if got := string(redact.Known([]byte(`{"a":"sk-x"}`), "")); got != `{"a":"sk-x"}` {
		t.Errorf("Known with no secret changed the text: %s", got)
	}
}

// escapeSeq is one JSON escape sequence.
var escapeSeq = regexp.MustCompile(`\\(u[0-9a-fA-F]{4}|["\\/bfnrt])`)

// unescapedHolding decodes the JSON escapes in s, whatever surrounds
// them, again and again while any is left, and returns the first text
// holding key.
func unescapedHolding(s, key string) (string, bool) {
	for range 64 {
		if strings.Contains(s, key) {
			return s, true
		}
		next := escapeSeq.ReplaceAllStringFunc(s, func(seq string) string {
			var c string
			_ = json.Unmarshal([]byte(`"`+seq+`"`), &c)
			return c
		})
		if next == s {
			break
		}
		s = next
	}
	return "", false
}
