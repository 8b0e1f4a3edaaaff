package sft_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/tracer/sft"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// writeAll writes records with a Writer of format f and returns the bytes.
func writeAll(t *testing.T, f sft.Format, recs []*sft.Record) ([]byte, sft.Stats) {
	t.Helper()
	var buf bytes.Buffer
	w := sft.NewWriter(&buf, f)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("%s: record %d: %v", f, r.TrajectoryID, err)
		}
	}
	return buf.Bytes(), w.Stats
}

func TestEncode_Golden(t *testing.T) {
	for _, f := range sft.Formats {
		t.Run(string(f), func(t *testing.T) {
			got, _ := writeAll(t, f, fixtureRecords())
			path := filepath.Join("testdata", string(f)+".jsonl")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s differs from %s (-want +got):\n%s", f, path, diff)
			}
		})
	}
}

// Every openai line parses, and every tool call is answered by exactly
// one tool message with its id, in order, before the next turn.
func TestEncode_OpenAILinesParseAndIDsPair(t *testing.T) {
	out, stats := writeAll(t, sft.FormatOpenAI, fixtureRecords())
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if got, want := len(lines), 3; got != want {
		t.Fatalf("lines = %d, want %d", got, want)
	}
	calls := 0
	for i, line := range lines {
		var rec struct {
			Messages []struct {
				Role      string `json:"role"`
				Content   string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
				ToolCallID string `json:"tool_call_id"`
				Weight     *int   `json:"weight"`
			} `json:"messages"`
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if got, want := len(rec.Tools), 3; got != want {
			t.Errorf("line %d: tools = %d, want %d", i+1, got, want)
		}
		if rec.Messages[0].Role != "system" || rec.Messages[0].Content != fixturePolicy {
			t.Errorf("line %d: first message %+v, want the policy as system", i+1, rec.Messages[0])
		}
		var pending []string
		seen := map[string]bool{}
		for j, m := range rec.Messages {
			if m.Role == "tool" {
				if len(pending) == 0 || pending[0] != m.ToolCallID {
					t.Fatalf("line %d: message %d answers %q, pending %v", i+1, j, m.ToolCallID, pending)
				}
				pending = pending[1:]
				continue
			}
			if len(pending) > 0 {
				t.Fatalf("line %d: message %d: calls %v unanswered", i+1, j, pending)
			}
			if m.Role == "assistant" && (m.Weight == nil || *m.Weight != 1) {
				t.Errorf("line %d: assistant message %d: weight %v, want 1", i+1, j, m.Weight)
			}
			for _, tc := range m.ToolCalls {
				calls++
				if tc.ID == "" || seen[tc.ID] || tc.Type != "function" || !json.Valid([]byte(tc.Function.Arguments)) {
					t.Errorf("line %d: bad tool call %+v", i+1, tc)
				}
				seen[tc.ID] = true
				pending = append(pending, tc.ID)
			}
		}
		if len(pending) > 0 {
			t.Errorf("line %d: calls %v unanswered at the end", i+1, pending)
		}
	}
	if got, want := calls, 6; got != want {
		t.Errorf("tool calls = %d, want %d", got, want)
	}
	if got, want := stats.ToolCalls, 6; got != want {
		t.Errorf("Stats.ToolCalls = %d, want %d", got, want)
	}
}

// LLaMA-Factory's converter wants human/observation at odd positions and
// gpt/function_call at even ones, and an even count.
func TestEncode_ShareGPTAlternates(t *testing.T) {
	out, _ := writeAll(t, sft.FormatShareGPT, fixtureRecords())
	for i, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		var rec struct {
			Conversations []struct{ From, Value string } `json:"conversations"`
			System        string                         `json:"system"`
			Tools         string                         `json:"tools"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var tools []map[string]any
		if err := json.Unmarshal([]byte(rec.Tools), &tools); err != nil || len(tools) != 3 {
			t.Errorf("line %d: tools %q: %d tools, %v", i+1, rec.Tools, len(tools), err)
		}
		if len(rec.Conversations)%2 != 0 {
			t.Errorf("line %d: %d turns, want an even count", i+1, len(rec.Conversations))
		}
		for j, turn := range rec.Conversations {
			odd := turn.From == "human" || turn.From == "observation"
			even := turn.From == "gpt" || turn.From == "function_call"
			if (j%2 == 0 && !odd) || (j%2 == 1 && !even) {
				t.Errorf("line %d: turn %d is %q", i+1, j, turn.From)
			}
			if turn.From == "function_call" && !json.Valid([]byte(turn.Value)) {
				t.Errorf("line %d: turn %d: function_call %q is not JSON", i+1, j, turn.Value)
			}
		}
	}
}

func TestNewRecord_Normalises(t *testing.T) {
	rec := fixtureRecords()[1]
	calls := rec.Messages[1].ToolCalls
	if got, want := calls[0].ID+","+calls[1].ID, "call_emobench_1_0,call_emobench_1_1"; got != want {
		t.Errorf("generated ids = %s, want %s", got, want)
	}
	if got, want := rec.Messages[2].ToolCallID+","+rec.Messages[3].ToolCallID, "call_emobench_1_0,call_emobench_1_1"; got != want {
		t.Errorf("tool messages answer %s, want %s", got, want)
	}
	if got, want := rec.Messages[3].ToolName, "lookup_order"; got != want {
		t.Errorf("tool name = %q, want %q (from its call)", got, want)
	}
	if got, want := string(rec.Messages[6].ToolCalls[1].Arguments), "{}"; got != want {
		t.Errorf("empty arguments = %s, want %s", got, want)
	}
	first := fixtureRecords()[0]
	if got, want := first.Messages[0].Role, emobench.RoleUser; got != want {
		t.Errorf("first message role = %s, want %s (stored system dropped)", got, want)
	}
	if got, want := first.Messages[len(first.Messages)-1].Content, "Order #R1 was delivered yesterday."; got != want {
		t.Errorf("last message = %q, want %q (trailing user turn dropped)", got, want)
	}
	if got, want := string(first.Messages[3].ToolCalls[0].Arguments), `{"order_id":"#R1"}`; got != want {
		t.Errorf("arguments = %s, want compact %s", got, want)
	}
}

func TestValidate_Reasons(t *testing.T) {
	ok := call("c1", "lookup_order", `{"order_id":"#R1"}`)
	cases := []struct {
		name string
		msgs []emobench.Message
		want sft.Reason
		at   int
	}{
		{"no assistant", []emobench.Message{}, sft.ReasonNoAssistantTurn, -1},
		{"assistant first", []emobench.Message{agent("Hello.")}, sft.ReasonRoleOrder, 0},
		{"two users", []emobench.Message{user("a"), user("b"), agent("c")}, sft.ReasonRoleOrder, 1},
		{"two assistants", []emobench.Message{user("a"), agent("b"), agent("c")}, sft.ReasonRoleOrder, 2},
		{"system inside", []emobench.Message{user("a"), {Role: emobench.RoleSystem, Content: "x"}, agent("c")}, sft.ReasonRoleOrder, 1},
		{"unknown role", []emobench.Message{user("a"), {Role: "critic", Content: "x"}}, sft.ReasonRoleOrder, 1},
		{"empty assistant", []emobench.Message{user("a"), agent("")}, sft.ReasonEmptyMessage, 1},
		{"duplicate id", []emobench.Message{user("a"), agent("", ok), result("c1", "lookup_order", "r"), agent("", ok), result("c1", "lookup_order", "r"), agent("d")}, sft.ReasonDuplicateCallID, 3},
		{"unanswered before user", []emobench.Message{user("a"), agent("", ok), user("b"), agent("c")}, sft.ReasonUnansweredCall, 2},
		{"unanswered at end", []emobench.Message{user("a"), agent("", ok)}, sft.ReasonUnansweredCall, 1},
		{"result of nothing", []emobench.Message{user("a"), agent("b"), result("c9", "lookup_order", "r"), agent("c")}, sft.ReasonUnexpectedToolResult, 2},
		{"results out of order", []emobench.Message{user("a"), agent("", ok, call("c2", "list_regions", `{}`)), result("c2", "list_regions", "r"), result("c1", "lookup_order", "r"), agent("d")}, sft.ReasonUnexpectedToolResult, 2},
		{"result of another tool", []emobench.Message{user("a"), agent("", ok), result("c1", "refund", "r"), agent("d")}, sft.ReasonUnexpectedToolResult, 2},
		{"tool after tool results", []emobench.Message{user("a"), agent("", ok), result("c1", "lookup_order", "r"), user("b"), agent("c")}, sft.ReasonRoleOrder, 3},
		{"unknown tool", []emobench.Message{user("a"), agent("", call("c1", "delete_everything", `{}`)), result("c1", "", "r"), agent("d")}, sft.ReasonUnknownTool, 1},
		{"malformed arguments", []emobench.Message{user("a"), agent("", emobench.ToolCall{ID: "c1", Name: "lookup_order", Arguments: json.RawMessage(`"{order_id: #R1"`), ArgumentsMalformed: true}), result("c1", "", "r"), agent("d")}, sft.ReasonMalformedArguments, 1},
		{"missing required", []emobench.Message{user("a"), agent("", call("c1", "refund", `{"order_id":"#R1"}`)), result("c1", "", "r"), agent("d")}, sft.ReasonArgumentsSchema, 1},
		{"wrong type", []emobench.Message{user("a"), agent("", call("c1", "refund", `{"order_id":"#R1","amount":"ten"}`)), result("c1", "", "r"), agent("d")}, sft.ReasonArgumentsSchema, 1},
		{"below minimum", []emobench.Message{user("a"), agent("", call("c1", "refund", `{"order_id":"#R1","amount":0.1}`)), result("c1", "", "r"), agent("d")}, sft.ReasonArgumentsSchema, 1},
		{"extra argument", []emobench.Message{user("a"), agent("", call("c1", "lookup_order", `{"order_id":"#R1","force":true}`)), result("c1", "", "r"), agent("d")}, sft.ReasonArgumentsSchema, 1},
		{"arguments not an object", []emobench.Message{user("a"), agent("", call("c1", "lookup_order", `["#R1"]`)), result("c1", "", "r"), agent("d")}, sft.ReasonArgumentsSchema, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := sft.NewRecord(42, "shop", "", fixturePolicy, fixtureTools, c.msgs)
			var buf bytes.Buffer
			w := sft.NewWriter(&buf, sft.FormatOpenAI)
			err := w.Write(rec)
			var ve *sft.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Write = %v, want a *ValidationError", err)
			}
			if ve.Reason != c.want || ve.Message != c.at || ve.TrajectoryID != 42 {
				t.Errorf("got %s at message %d of trajectory %d (%s), want %s at %d of 42", ve.Reason, ve.Message, ve.TrajectoryID, ve.Detail, c.want, c.at)
			}
			if !strings.HasPrefix(err.Error(), "trajectory 42: ") {
				t.Errorf("error %q does not name the trajectory", err)
			}
			if buf.Len() != 0 || w.Stats.Records != 0 {
				t.Errorf("a failing record was written: %q", buf.String())
			}
			if got := w.Stats.Invalid[c.want]; got != 1 {
				t.Errorf("Stats.Invalid[%s] = %d, want 1", c.want, got)
			}
			if len(w.Stats.Failures) != 1 || w.Stats.Failures[0] != err.Error() {
				t.Errorf("Stats.Failures = %q, want [%q]", w.Stats.Failures, err)
			}
		})
	}
}

func TestValidate_BadToolSchema(t *testing.T) {
	tools := append(fixtureTools[:1:1], fixtureTools[0])
	tools[1].Name, tools[1].Parameters = "broken", json.RawMessage(`{"type":"object","properties":{"x":{"type":"nonsense"}}}`)
	rec := sft.NewRecord(7, "broken-domain", "", "p", tools, []emobench.Message{user("a"), agent("b")})
	err := sft.NewValidator().Validate(rec)
	var ve *sft.ValidationError
	if err == nil || errors.As(err, &ve) || !strings.Contains(err.Error(), "tool broken") {
		t.Fatalf("Validate = %v, want a schema error naming tool broken", err)
	}
}

func TestStats(t *testing.T) {
	_, s := writeAll(t, sft.FormatHermes, fixtureRecords())
	// Hand count over fixtureRecords: user+assistant messages 5, 5, 3.
	if s.Records != 3 || s.Turns != 13 || s.ToolCalls != 6 {
		t.Errorf("records, turns, tool calls = %d, %d, %d, want 3, 13, 6", s.Records, s.Turns, s.ToolCalls)
	}
	// Messages with the system prompt: 7, 10, 5.
	if got, want := s.Messages, 22; got != want {
		t.Errorf("messages = %d, want %d", got, want)
	}
	if diff := cmp.Diff(map[string]int{"anger": 1, "fear": 1, "none": 1}, s.ByEmotionFamily); diff != "" {
		t.Errorf("by emotion family (-want +got):\n%s", diff)
	}
	if got, want := s.ByDomain["shop"], 3; got != want {
		t.Errorf("by domain shop = %d, want %d", got, want)
	}
	tokens := 0
	for _, r := range fixtureRecords() {
		text, err := sft.RenderQwen3(r)
		if err != nil {
			t.Fatal(err)
		}
		tokens += (len(text) + 3) / 4
	}
	if s.Tokens != tokens || s.TokenRule != sft.TokenRule || !strings.HasPrefix(s.TokenRule, "approximate") {
		t.Errorf("tokens = %d (%s), want %d, approximate", s.Tokens, s.TokenRule, tokens)
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "3 records (hermes)") || !strings.Contains(text.String(), "approximate") {
		t.Errorf("WriteText:\n%s", text.String())
	}
}

func TestParseFormat(t *testing.T) {
	if f, err := sft.ParseFormat("sharegpt"); err != nil || f != sft.FormatShareGPT {
		t.Errorf("ParseFormat(sharegpt) = %q, %v", f, err)
	}
	if _, err := sft.ParseFormat("alpaca"); err == nil || !strings.Contains(err.Error(), "openai, sharegpt, hermes") {
		t.Errorf("ParseFormat(alpaca) = %v, want an error naming the formats", err)
	}
}

// Python's str.strip('\n'), as Jinja2 runs Qwen3's template, strips
// newlines only: spaces around </think> stay (hand-rendered from the
// template).
func TestRenderQwen3_ThinkStripsNewlinesOnly(t *testing.T) {
	rec := sft.NewRecord(1, "shop", "", "P", nil, []emobench.Message{user("q"), agent("<think>\n r \n</think>\n\n a")})
	got, err := sft.RenderQwen3(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := "<|im_start|>system\nP<|im_end|>\n<|im_start|>user\nq<|im_end|>\n<|im_start|>assistant\n<think>\n r \n</think>\n\n a<|im_end|>\n"
	if got != want {
		t.Errorf("RenderQwen3 = %q, want %q", got, want)
	}
}

// A record made from a trajectory that stored its system message names a
// failing message by its stored index, as emobench show numbers it (#N):
// one more than its index in Record.Messages.
func TestValidate_StoredNumbering(t *testing.T) {
	msgs := []emobench.Message{
		{Role: emobench.RoleSystem, Content: "stored policy"},
		user("a"),
		agent("", call("c1", "refund", `{"order_id":"#R1"}`)),
		result("c1", "", "r"),
		agent("d"),
	}
	rec := sft.NewRecord(42, "shop", "", fixturePolicy, fixtureTools, msgs)
	if got, want := rec.Offset, 1; got != want {
		t.Fatalf("Offset = %d, want %d", got, want)
	}
	err := sft.NewValidator().Validate(rec)
	var ve *sft.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate = %v, want a *ValidationError", err)
	}
	if got, want := ve.Message, 2; got != want {
		t.Errorf("Message = %d, want %d (the stored index of the refund call)", got, want)
	}
	if got, want := err.Error(), "trajectory 42: message #2: arguments_schema: "; !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want prefix %q", got, want)
	}
}
