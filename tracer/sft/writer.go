package sft

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// TokenRule says how Stats.Tokens is counted without a Tokenizer.
const TokenRule = "approximate: ceil(UTF-8 bytes of the Qwen3-rendered text / 4)"

// Stats sums what a Writer wrote and what it refused.
type Stats struct {
	Format    Format `json:"format"`
	Records   int    `json:"records"`
	Bytes     int64  `json:"bytes"`    // JSONL bytes written, newlines included
	Messages  int    `json:"messages"` // every message of the written records, system prompts included
	Turns     int    `json:"turns"`    // user and assistant messages
	ToolCalls int    `json:"tool_calls"`
	// Tokens is the records' token count over the text Qwen3's template
	// renders (whatever Format is, so that formats compare): exact when
	// TokensExact (Writer.UseTokenizer), else under TokenRule. TokenRule
	// says which.
	Tokens      int    `json:"tokens"`
	TokensExact bool   `json:"tokens_exact"`
	TokenRule   string `json:"token_rule"`
	// ByDomain and ByEmotionFamily count written records; records without an
	// emotion family count under "none".
	ByDomain        map[string]int `json:"by_domain"`
	ByEmotionFamily map[string]int `json:"by_emotion_family"`
	// Invalid counts the records that failed validation, by reason, and
	// Failures names each (trajectory id, message, reason, detail).
	Invalid  map[Reason]int `json:"invalid"`
	Failures []string       `json:"failures"`
	// Skipped counts trajectories the caller left out before making a
	// record, by the caller's reason (Writer.Skip).
	Skipped map[string]int `json:"skipped"`
}

// Writer validates records and writes them as JSON lines of one Format,
// keeping Stats. Records of one Domain must share their policy and tools:
// the Writer compiles and renders them once per domain. It is not safe for
// concurrent use.
type Writer struct {
	w io.Writer
	f Format
	v *Validator
	// systems caches each domain's rendered Qwen3 system block (policy and
	// tools), which every record of the domain shares.
	systems   map[string]string
	tokenizer *Tokenizer
	Stats     Stats
}

// NewWriter returns a Writer of format f onto w.
func NewWriter(w io.Writer, f Format) *Writer {
	return &Writer{w: w, f: f, v: NewValidator(), systems: map[string]string{}, Stats: Stats{
		Format: f, TokenRule: TokenRule,
		ByDomain: map[string]int{}, ByEmotionFamily: map[string]int{},
		Invalid: map[Reason]int{}, Failures: []string{}, Skipped: map[string]int{},
	}}
}

// Write validates rec and writes it as one line. A record that fails
// validation is not written: it is counted in Stats.Invalid and its
// *ValidationError returned. Any other error (a tool schema that does not
// compile, a write error) should stop the export.
func (w *Writer) Write(rec *Record) error {
	if err := w.v.Validate(rec); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			w.Stats.Invalid[ve.Reason]++
			w.Stats.Failures = append(w.Stats.Failures, ve.Error())
		}
		return err
	}
	system, ok := w.systems[rec.Domain]
	if !ok {
		var err error
		if system, err = qwen3System(rec); err != nil {
			return err
		}
		w.systems[rec.Domain] = system
	}
	text := renderQwen3(rec, system)
	var line []byte
	var err error
	if w.f == FormatHermes {
		line, err = marshalNoEscape(struct {
			Text string `json:"text"`
		}{text})
	} else {
		line, err = Encode(w.f, rec)
	}
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if _, err := w.w.Write(line); err != nil {
		return err
	}
	s := &w.Stats
	s.Records++
	s.Bytes += int64(len(line))
	s.Messages += len(rec.Messages) + 1
	for _, m := range rec.Messages {
		switch m.Role {
		case emobench.RoleUser, emobench.RoleAssistant:
			s.Turns++
		}
		s.ToolCalls += len(m.ToolCalls)
	}
	if w.tokenizer != nil {
		s.Tokens += w.tokenizer.Count(text)
	} else {
		s.Tokens += ApproxTokens(text)
	}
	s.ByDomain[rec.Domain]++
	family := rec.EmotionFamily
	if family == "" {
		family = "none"
	}
	s.ByEmotionFamily[family]++
	return nil
}

// UseTokenizer makes Stats.Tokens exact: t counts each record's rendered
// text. Call it before the first Write.
func (w *Writer) UseTokenizer(t *Tokenizer) {
	w.tokenizer = t
	w.Stats.TokensExact = true
	w.Stats.TokenRule = "exact: " + t.Name + " (Hugging Face tokenizer.json; the Qwen3-rendered text, no special tokens added)"
}

// Skip counts one trajectory left out for reason, without a record.
func (w *Writer) Skip(reason string) { w.Stats.Skipped[reason]++ }

// ApproxTokens is TokenRule's count of text.
func ApproxTokens(text string) int { return (len(text) + 3) / 4 }

// WriteText prints s for a person: the totals, then one line per domain,
// emotion family, failure reason and skip reason, sorted by name.
func (s *Stats) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d records (%s), %d bytes, %d turns, %d tool calls, %d tokens\n  tokens: %s\n",
		s.Records, s.Format, s.Bytes, s.Turns, s.ToolCalls, s.Tokens, s.TokenRule)
	section := func(title string, m map[string]int) {
		if len(m) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s:\n", title)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(&b, "  %-24s %d\n", k, m[k])
		}
	}
	section("by domain", s.ByDomain)
	section("by emotion family", s.ByEmotionFamily)
	invalid := map[string]int{}
	for r, n := range s.Invalid {
		invalid[string(r)] = n
	}
	section("not written (failed validation)", invalid)
	section("skipped", s.Skipped)
	_, err := io.WriteString(w, b.String())
	return err
}
