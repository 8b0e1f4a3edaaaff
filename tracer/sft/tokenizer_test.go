package sft_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/emobench/emobench/tracer/sft"
)

func TestTokenizer_Count(t *testing.T) {
	tok, err := sft.LoadTokenizer(filepath.Join("testdata", "tokenizer", "tiny.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Hand counts under tiny.json: merges a+b (rank 0), ab+c (1), Ġ+ab (2);
	// Qwen's split regex; byte-level symbols otherwise.
	cases := []struct {
		text string
		want int
	}{
		{"", 0},
		{"abc", 1},         // a b c → ab c → abc
		{"abab", 2},        // ab ab: no merge of ab+ab
		{" ab", 1},         // one word " ab": Ġ a b → Ġ ab → Ġab
		{"x1", 2},          // words "x" and "1"
		{"12", 2},          // \p{N} takes one digit
		{"a  \n", 4},       // "a", then "  \n" (3 bytes)
		{"e\u0301", 2},     // NFC makes é: 2 bytes, one word
		{"<|x|>y", 1},      // the longer added token
		{"<|x|>z<|x|>", 3}, // added, z, added
		{"ab<|x|>abc", 3},  // ab, added, abc
		{"don't", 5},       // words "don" (3 bytes) and "'t" (2), no merges
	}
	for _, c := range cases {
		if got := tok.Count(c.text); got != c.want {
			t.Errorf("Count(%q) = %d, want %d", c.text, got, c.want)
		}
	}
	if tok.Name != "tiny.json" {
		t.Errorf("Name = %q, want tiny.json", tok.Name)
	}
}

func TestLoadTokenizer_ErrUnsupported(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "tokenizer", "tiny.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, from, to, want string }{
		{"wordpiece", `"type": "BPE"`, `"type": "WordPiece"`, "model WordPiece"},
		{"byte fallback", `"byte_fallback": false`, `"byte_fallback": true`, "byte_fallback true"},
		{"normalizer", `"type": "NFC"`, `"type": "Lowercase"`, "normalizer Lowercase"},
		{"pre-tokenizer", `"type": "Sequence"`, `"type": "Metaspace"`, "pre_tokenizer Metaspace"},
		{"stripped added token", `"lstrip": false`, `"lstrip": true`, `added token "<|x|>"`},
		{"not JSON", `{`, `[`, "tiny.json"},
		{"empty vocab", `"vocab": {`, `"vocab": {}, "x": {`, "model.vocab is missing or empty"},
		{"missing vocab", `"vocab": {`, `"vocabulary": {`, "model.vocab is missing or empty"},
		{"empty merges", `"merges": [`, `"merges": [], "y": [`, "model.merges is empty"},
		{"missing merges", `"merges": [`, `"merge_list": [`, "model.merges is missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tiny.json")
			if !strings.Contains(string(base), c.from) {
				t.Fatalf("tiny.json lacks %s", c.from)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(base), c.from, c.to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := sft.LoadTokenizer(path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("LoadTokenizer = %v, want an error naming %s and %q", err, path, c.want)
			}
		})
	}
	if _, err := sft.LoadTokenizer(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("LoadTokenizer of a missing file succeeded")
	}
}

func TestWriter_UseTokenizer(t *testing.T) {
	tok, err := sft.LoadTokenizer(filepath.Join("testdata", "tokenizer", "tiny.json"))
	if err != nil {
		t.Fatal(err)
	}
	w := sft.NewWriter(&strings.Builder{}, sft.FormatOpenAI)
	w.UseTokenizer(tok)
	want := 0
	for _, r := range fixtureRecords() {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		text, _ := sft.RenderQwen3(r)
		want += tok.Count(text)
	}
	if w.Stats.Tokens != want || !w.Stats.TokensExact || !strings.HasPrefix(w.Stats.TokenRule, "exact: tiny.json") {
		t.Errorf("tokens %d exact %v (%s), want %d exact by tiny.json", w.Stats.Tokens, w.Stats.TokensExact, w.Stats.TokenRule, want)
	}
}

// Count never panics, and every token holds at least one byte of the
// NFC-normalised text (invalid UTF-8 bytes read as U+FFFD, as Go's JSON
// encoder writes them): 0 < Count <= those bytes for non-empty text.
func FuzzTokenizerCount(f *testing.F) {
	tok, err := sft.LoadTokenizer(filepath.Join("testdata", "tokenizer", "tiny.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"abc", " ab <|x|>y", "don't\r\n\n  x", "e\u0301\u00a0你好😀", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		n := tok.Count(text)
		if text == "" && n != 0 || text != "" && n <= 0 {
			t.Fatalf("Count(%q) = %d", text, n)
		}
		if limit := len(norm.NFC.String(string([]rune(text)))); n > limit {
			t.Fatalf("Count(%q) = %d, more than %d bytes", text, n, limit)
		}
	})
}
