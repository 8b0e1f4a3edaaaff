package ingest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lastWins keeps the last value of a repeated key at its first place (as
// Python's json.loads does) and every other byte as written.
func TestLastWins(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		paths    []string
	}{
		{`{"a": 1, "b": 2, "a": 3}`, `{"a": 3, "b": 2}`, []string{"a"}},
		{`{"a":1,"a":2,"a":3}`, `{"a":3}`, []string{"a"}},
		{`{"a": 1, "\u0061": 2}`, `{"a": 2}`, []string{"a"}},
		{`{"x": {"k": 1, "k": [1, {"k": 0}]}, "y": [ {"k": "}\"", "k": "{"} ]}`, `{"x": {"k": [1, {"k": 0}]}, "y": [ {"k": "{"} ]}`, []string{"x.k", "y[0].k"}},
		{`{"": 1, "x": {"": 2, "": 3}, "": 4}`, `{"": 4, "x": {"": 3}}`, []string{`x.""`, `""`}},
		{`{"t": {"a": 1}, "t": {"b": 2}}`, `{"t": {"b": 2}}`, []string{"t"}},
		{"{\n  \"a\": { },\n  \"b\": [ ],\n  \"a\": null\n}", "{\n  \"a\": null,\n  \"b\": [ ]\n}", []string{"a"}},
		{", \n{\"r\": [1, 2], \"r\": true} ", `{"r": true}`, []string{"r"}},
		// Without repeated keys, nothing changes.
		{"{\"a\" : [1 , {\"b\":\"c\"}] ,\"d\":{ }}", "{\"a\" : [1 , {\"b\":\"c\"}] ,\"d\":{ }}", nil},
	} {
		var s dupKeyScanner
		if diff := cmp.Diff(tc.paths, s.duplicates([]byte(tc.in))); diff != "" {
			t.Errorf("duplicates(%s) (-want +got):\n%s", tc.in, diff)
		}
		if got := string(lastWins([]byte(tc.in))); got != tc.want {
			t.Errorf("lastWins(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestDuplicateNote(t *testing.T) {
	t.Parallel()
	paths := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{paths[:1], "key a appears more than once: the last value is kept"},
		{paths[:2], "keys a, b appear more than once: the last value of each is kept"},
		{paths, "keys a, b, c, d, e, f, g, h, i, j and 2 more appear more than once: the last value of each is kept"},
	} {
		if got := duplicateNote(tc.paths); got != tc.want {
			t.Errorf("duplicateNote(%q) = %q, want %q", tc.paths, got, tc.want)
		}
	}
}

// FuzzLastWins checks lastWins against encoding/json on any valid JSON:
// decoded into an any (where the last of repeated keys wins), its output
// is the input; it has no repeated keys left; and input without repeated
// keys comes back byte for byte.
func FuzzLastWins(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `[{"a":{"b":1,"b":2},"a":[]}]`, `{"\u0061":1,"a":{}}`, `"x"`, `{}`, `{"a":"\"}","a":"{"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var s dupKeyScanner
		paths := s.duplicates(b)
		out := lastWins(b)
		if !json.Valid(out) {
			t.Fatalf("lastWins(%q) = %q, not valid JSON", b, out)
		}
		want, err1 := decodeAny(b)
		got, err2 := decodeAny(out)
		if err1 != nil || err2 != nil {
			t.Fatalf("lastWins(%q) = %q: does not decode: %v, %v", b, out, err1, err2)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("lastWins(%q) = %q: decodes to %v, want %v", b, out, got, want)
		}
		if p := s.duplicates(out); p != nil {
			t.Fatalf("lastWins(%q) = %q: still repeats %v", b, out, p)
		}
		if paths == nil && !bytes.Equal(out, bytes.TrimSpace(b)) {
			t.Fatalf("lastWins(%q) = %q: changed input without repeated keys", b, out)
		}
	})
}

// decodeAny decodes b, numbers kept as written.
func decodeAny(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
