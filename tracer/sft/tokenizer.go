package sft

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/dlclark/regexp2"
	"golang.org/x/text/unicode/norm"
)

// Tokenizer counts tokens exactly as a Hugging Face tokenizer.json of the
// byte-level BPE kind (Qwen2/Qwen3, GPT-2 style) encodes text without
// special tokens added: added tokens are matched first in the raw text
// (longest first), the rest is NFC-normalised when the file says so, split
// by its Split regex (Isolated) or the GPT-2 pattern, mapped to byte-level
// characters and merged by BPE rank. Use LoadTokenizer. It is not safe for
// concurrent use (it caches word counts).
type Tokenizer struct {
	Name  string // the file's base name, for the stats
	nfc   bool
	split *regexp2.Regexp
	added []string // added tokens' contents, longest first
	ranks map[[2]string]int
	cache map[string]int
}

// tokenizerFile is the part of tokenizer.json a Tokenizer reads.
type tokenizerFile struct {
	AddedTokens []struct {
		Content        string `json:"content"`
		LStrip, RStrip bool
		SingleWord     bool `json:"single_word"`
		Normalized     bool `json:"normalized"`
	} `json:"added_tokens"`
	Normalizer   *tokenizerStep `json:"normalizer"`
	PreTokenizer *tokenizerStep `json:"pre_tokenizer"`
	Model        struct {
		Type         string          `json:"type"`
		Dropout      *float64        `json:"dropout"`
		ByteFallback bool            `json:"byte_fallback"`
		Vocab        map[string]int  `json:"vocab"`
		Merges       json.RawMessage `json:"merges"`
	} `json:"model"`
}

type tokenizerStep struct {
	Type           string                  `json:"type"`
	Pattern        *struct{ Regex string } `json:"pattern"`
	Behavior       string                  `json:"behavior"`
	Invert         bool                    `json:"invert"`
	UseRegex       *bool                   `json:"use_regex"`
	AddPrefixSpace bool                    `json:"add_prefix_space"`
	Steps          []tokenizerStep         `json:"pretokenizers"`
}

// gpt2Pattern is ByteLevel's own split when use_regex is true.
const gpt2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

// LoadTokenizer reads a Hugging Face tokenizer.json. It fails, naming the
// file and the part, on anything but a byte-level BPE tokenizer: another
// model type, BPE dropout or byte fallback, a normalizer other than NFC,
// a pre-tokenizer other than Split (Isolated) then ByteLevel or ByteLevel
// alone, added tokens with strip or single-word rules.
func LoadTokenizer(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f tokenizerFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: unsupported tokenizer: %s (only byte-level BPE tokenizers such as Qwen3's are)", path, fmt.Sprintf(format, args...))
	}
	t := &Tokenizer{Name: baseName(path), cache: map[string]int{}}
	if f.Model.Type != "BPE" || f.Model.Dropout != nil || f.Model.ByteFallback {
		return nil, bad("model %s (dropout %v, byte_fallback %v)", f.Model.Type, f.Model.Dropout != nil, f.Model.ByteFallback)
	}
	if n := f.Normalizer; n != nil {
		if n.Type != "NFC" {
			return nil, bad("normalizer %s", n.Type)
		}
		t.nfc = true
	}
	pattern, err := splitPattern(f.PreTokenizer)
	if err != nil {
		return nil, bad("%v", err)
	}
	if t.split, err = regexp2.Compile(pattern, regexp2.None); err != nil {
		return nil, fmt.Errorf("%s: pre_tokenizer regex: %w", path, err)
	}
	for _, a := range f.AddedTokens {
		if a.LStrip || a.RStrip || a.SingleWord || a.Normalized {
			return nil, bad("added token %q with lstrip, rstrip, single_word or normalized", a.Content)
		}
		t.added = append(t.added, a.Content)
	}
	sort.SliceStable(t.added, func(i, j int) bool { return len(t.added[i]) > len(t.added[j]) })
	if len(f.Model.Vocab) == 0 {
		return nil, fmt.Errorf("%s: model.vocab is missing or empty: not a usable tokenizer", path)
	}
	if len(f.Model.Merges) == 0 || string(f.Model.Merges) == "null" {
		return nil, fmt.Errorf("%s: model.merges is missing: not a usable tokenizer", path)
	}
	merges, err := parseMerges(f.Model.Merges)
	if err != nil {
		return nil, fmt.Errorf("%s: model.merges: %w", path, err)
	}
	if len(merges) == 0 {
		return nil, fmt.Errorf("%s: model.merges is empty: not a usable tokenizer", path)
	}
	t.ranks = make(map[[2]string]int, len(merges))
	for i, m := range merges {
		if _, dup := t.ranks[m]; !dup {
			t.ranks[m] = i
		}
	}
	return t, nil
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// splitPattern returns the regex that splits text into words.
func splitPattern(p *tokenizerStep) (string, error) {
	if p == nil {
		return "", fmt.Errorf("no pre_tokenizer")
	}
	switch p.Type {
	case "ByteLevel":
		if p.AddPrefixSpace || (p.UseRegex != nil && !*p.UseRegex) {
			return "", fmt.Errorf("ByteLevel pre_tokenizer with add_prefix_space or without its regex")
		}
		return gpt2Pattern, nil
	case "Sequence":
		if len(p.Steps) == 2 && p.Steps[0].Type == "Split" && p.Steps[0].Pattern != nil && p.Steps[0].Pattern.Regex != "" &&
			p.Steps[0].Behavior == "Isolated" && !p.Steps[0].Invert &&
			p.Steps[1].Type == "ByteLevel" && !p.Steps[1].AddPrefixSpace && p.Steps[1].UseRegex != nil && !*p.Steps[1].UseRegex {
			return p.Steps[0].Pattern.Regex, nil
		}
	}
	return "", fmt.Errorf("pre_tokenizer %s", p.Type)
}

// parseMerges reads merges as ["a b", ...] or [["a","b"], ...].
func parseMerges(raw json.RawMessage) ([][2]string, error) {
	var pairs [][2]string
	if err := json.Unmarshal(raw, &pairs); err == nil {
		return pairs, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return nil, err
	}
	pairs = make([][2]string, len(lines))
	for i, l := range lines {
		a, b, ok := strings.Cut(l, " ")
		if !ok {
			return nil, fmt.Errorf("merge %d %q is not two symbols", i, l)
		}
		pairs[i] = [2]string{a, b}
	}
	return pairs, nil
}

// Count returns the number of tokens text encodes to.
func (t *Tokenizer) Count(text string) int {
	n := 0
	for len(text) > 0 {
		at, token := t.nextAdded(text)
		n += t.countPlain(text[:at])
		if token == "" {
			break
		}
		n++
		text = text[at+len(token):]
	}
	return n
}

// nextAdded returns where the first added token of text starts and which
// (the longest at that place), or len(text) and "".
func (t *Tokenizer) nextAdded(text string) (int, string) {
	best, token := len(text), ""
	for _, a := range t.added {
		if a == "" {
			continue
		}
		if i := strings.Index(text[:min(len(text), best+len(a))], a); i >= 0 && (i < best || (i == best && len(a) > len(token))) {
			best, token = i, a
		}
	}
	return best, token
}

func (t *Tokenizer) countPlain(text string) int {
	if text == "" {
		return 0
	}
	if t.nfc {
		text = norm.NFC.String(text)
	}
	n := 0
	runes := []rune(text)
	pos := 0
	m, _ := t.split.FindRunesMatch(runes)
	for m != nil {
		if m.Index > pos {
			n += t.countWord(string(runes[pos:m.Index]))
		}
		n += t.countWord(m.String())
		pos = m.Index + m.Length
		m, _ = t.split.FindNextMatch(m)
	}
	if pos < len(runes) {
		n += t.countWord(string(runes[pos:]))
	}
	return n
}

// byteChars is GPT-2's byte-to-unicode table: printable bytes stand for
// themselves, the others for code points from 256 up.
var byteChars = func() [256]string {
	var out [256]string
	next := 256
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			out[b] = string(rune(b))
		} else {
			out[b] = string(rune(next))
			next++
		}
	}
	return out
}()

// countWord is the number of BPE symbols word's bytes merge into: the
// lowest-ranked adjacent pair is merged, everywhere left to right, until no
// pair has a rank.
func (t *Tokenizer) countWord(word string) int {
	if n, ok := t.cache[word]; ok {
		return n
	}
	syms := make([]string, len(word))
	for i := 0; i < len(word); i++ {
		syms[i] = byteChars[word[i]]
	}
	for len(syms) > 1 {
		best, rank := -1, 0
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := t.ranks[[2]string{syms[i], syms[i+1]}]; ok && (best < 0 || r < rank) {
				best, rank = i, r
			}
		}
		if best < 0 {
			break
		}
		pair := [2]string{syms[best], syms[best+1]}
		out := syms[:0:0]
		for i := 0; i < len(syms); i++ {
			if i+1 < len(syms) && syms[i] == pair[0] && syms[i+1] == pair[1] {
				out = append(out, pair[0]+pair[1])
				i++
				continue
			}
			out = append(out, syms[i])
		}
		syms = out
	}
	t.cache[word] = len(syms)
	return len(syms)
}
