package emobench_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

func TestJSONDepth(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want int
	}{
		{``, 0},
		{`1`, 0},
		{`"[[["`, 0},
		{`[]`, 1},
		{`{"a": []}`, 2},
		{`{"a": "]]]", "b": [[1], {"c": "\"[["}]}`, 3},
		{`["\\", [2]]`, 2},
		{strings.Repeat("[", 1500) + strings.Repeat("]", 1500), 1500},
	} {
		if got := emobench.JSONDepth([]byte(tc.raw)); got != tc.want {
			t.Errorf("JSONDepth(%.40q) = %d, want %d", tc.raw, got, tc.want)
		}
	}
}

func TestCheckJSONDepth(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 1500) + "1" + strings.Repeat("}", 1500)
	err := emobench.CheckJSONDepth("info.reward_info", []byte(deep), emobench.MaxJSONDepth)
	if got, want := err.Error(), "field info.reward_info is nested 1500 deep; at most 1000"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	if err := emobench.CheckJSONDepth("x", []byte(`[[1]]`), emobench.MaxJSONDepth); err != nil {
		t.Errorf("a shallow value: %v", err)
	}
}

// FuzzJSONDepth holds JSONDepth, a byte scan, equal on valid JSON to the
// depth a json.Decoder's token walk sees.
func FuzzJSONDepth(f *testing.F) {
	for _, s := range []string{`{"a": "]\"[", "b": [[{}]]}`, `"\\"`, `[1, "[", {"k": ["}"]}]`, strings.Repeat("[", 1001) + strings.Repeat("]", 1001)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			emobench.JSONDepth(data) // must not panic
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		depth, want := 0, 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch tok {
			case json.Delim('['), json.Delim('{'):
				depth++
				want = max(want, depth)
			case json.Delim(']'), json.Delim('}'):
				depth--
			}
		}
		if got := emobench.JSONDepth(data); got != want {
			t.Fatalf("JSONDepth(%q) = %d, want %d", data, got, want)
		}
	})
}
