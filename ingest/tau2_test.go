package ingest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// readTau2 reads a τ²-bench Results file or run directory completely.
func readTau2(tb testing.TB, path string) (*ingest.Tau2Reader, []*emobench.Trajectory, error) {
	tb.Helper()
	var rd *ingest.Tau2Reader
	var err error
	if info, statErr := os.Stat(path); statErr == nil && info.IsDir() {
		rd, err = ingest.Tau2Dir(os.DirFS(path))
	} else {
		data, readErr := os.ReadFile(path)
		if readErr != nil {
			tb.Fatal(readErr)
		}
		rd, err = ingest.Tau2(bytes.NewReader(data))
	}
	if err != nil {
		return nil, nil, err
	}
	trajs, err := collect(tb, rd.Trajectories())
	return rd, trajs, err
}

func TestTau2_Mapping(t *testing.T) {
	t.Parallel()
	rd, trajs, err := readTau2(t, filepath.Join("testdata", "tau2", "golden", "v0-mixed", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	info := rd.Info()
	if got, want := info, (ingest.Tau2Info{
		Timestamp: "2025-07-17T15:10:57.604036", AgentModel: "gpt-4.1-mini", AgentImplementation: "llm_agent",
		UserModel: "gpt-4.1", UserImplementation: "user_simulator", Domain: "telecom", Tasks: 2, Raw: info.Raw,
	}); !cmp.Equal(got, want) {
		t.Fatalf("Info() = %+v, want %+v", got, want)
	}
	if len(trajs) != 3 {
		t.Fatalf("got %d trajectories, want 3", len(trajs))
	}
	a, b, c := trajs[0], trajs[1], trajs[2]

	wantInstr := "Persona:\n\tPatient and\n\tfriendly.\nInstructions:\n\tDomain: telecom\n\tReason for call:\n\t\tYour data does not work.\n\n\t\tYou want it fixed.\n\tKnown info:\n\t\tYou are John Smith.\n\tTask instructions:\n\t\tTurn airplane mode off when asked."
	if diff := cmp.Diff(wantInstr, a.Task.Instruction); diff != "" {
		t.Errorf("structured instruction (-want +got):\n%s", diff)
	}
	if got, want := string(a.Task.Actions), `[{"name":"toggle_airplane_mode","kwargs":{},"requestor":"user"},{"name":"refuel_data","kwargs":{"line_id":"L1","gb_amount":2.0}}]`; got != want {
		t.Errorf("actions = %s, want %s", got, want)
	}
	if got, want := string(a.Task.Outputs), `["2 GB <added>"]`; got != want {
		t.Errorf("outputs = %s, want %s", got, want)
	}
	if got, want := b.Task.Instruction, "Instructions:\n\tAsk for a refund of order #W1."; got != want {
		t.Errorf("string instruction = %q, want %q", got, want)
	}
	if got, want := string(b.Task.Outputs), `["Agent refuses."]`; got != want {
		t.Errorf("nl_assertions outputs = %s, want %s", got, want)
	}
	if b.Task.Key != "7" || b.Trial != 1 || c.Task.Key != "7" || c.Trial != 0 {
		t.Errorf("numeric task_id and trial 1.0: got (%s, %d), (%s, %d)", b.Task.Key, b.Trial, c.Task.Key, c.Trial)
	}

	if a.TerminationReason != emobench.TerminationAgentStop || !a.Evaluated || !a.Passed() || a.UserCost != nil || a.AgentCost == nil || *a.AgentCost != 0.0348 {
		t.Errorf("sim-a outcome: %+v", a)
	}
	if c.Evaluated || c.Reward != nil || c.TerminationReason != emobench.TerminationTooManyErrors || c.AgentCost != nil {
		t.Errorf("sim-c: reward_info null must be not evaluated, nil reward, nil costs: %+v", c)
	}
	if b.Passed() || !b.Evaluated || b.Reward == nil || *b.Reward != 0 {
		t.Errorf("sim-b: evaluated failure expected: %+v", b)
	}

	// Messages: system, assistant, user (with a user tool call), tool, assistant
	// with two calls, the MultiToolMessage flattened, assistant with a legacy call.
	roles := ""
	for _, m := range a.Messages {
		roles += string(m.Role)[:1]
	}
	if roles != "sautatta" {
		t.Fatalf("roles = %s, want sautatta", roles)
	}
	user := a.Messages[2]
	if user.Content != "My data is ¡muy lento! 😀" || len(user.ToolCalls) != 1 || user.ToolCalls[0].ID != "u1" ||
		user.Usage == nil || user.Usage.PromptTokens != 417 || user.Usage.CompletionTokens != 19 || *user.Usage.Cost != 0.001 {
		t.Errorf("user message: %+v", user)
	}
	if tm := a.Messages[3]; tm.ToolCallID != "u1" || tm.ToolName != "check_status_bar" {
		t.Errorf("tool message: %+v", tm)
	}
	calls := a.Messages[4].ToolCalls
	if len(calls) != 2 || string(calls[1].Arguments) != `{"line_id":"L1","gb_amount":2.0}` || calls[1].ArgumentsMalformed {
		t.Errorf("object arguments not kept compact with their numbers as written: %+v", calls)
	}
	if m5, m6 := a.Messages[5], a.Messages[6]; m5.ToolCallID != "c1" || m5.ToolName != "get_line" || m6.ToolCallID != "c2" || m6.ToolName != "refuel_data" || m6.Content != "Error: not allowed" {
		t.Errorf("flattened tool messages: %+v %+v", m5, m6)
	}
	if legacy := a.Messages[7].ToolCalls; len(legacy) != 1 || legacy[0].Name != "legacy_call" || string(legacy[0].Arguments) != `{"x":1}` {
		t.Errorf("OpenAI-style call: %+v", legacy)
	}
	if got := a.Counts(); got.ToolCalls != 3 || got.ToolErrors != 1 || got.UserTurns != 1 {
		t.Errorf("counts = %+v", got)
	}

	var extra map[string]any
	if err := json.Unmarshal(c.Extra, &extra); err != nil {
		t.Fatal(err)
	}
	if extra["termination_reason"] != "too_many_errors" || extra["trial_null"] != true || extra["simulation_id"] != "sim-c" {
		t.Errorf("sim-c extra = %s", c.Extra)
	}
	if w := rd.Warnings(); len(w) != 1 || !strings.Contains(w[0], "1 simulation with trial null") || !strings.Contains(w[0], "simulations 2") {
		t.Errorf("warnings = %q, want one about simulation 2's null trial", w)
	}
}

func TestTau2_ErrorReasonsKept(t *testing.T) {
	_, trajs, err := readTau2(t, filepath.Join("testdata", "tau2", "golden", "v1-inline-errors", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range trajs {
		var extra struct {
			Reason string `json:"termination_reason"`
		}
		json.Unmarshal(tr.Extra, &extra)
		got = append(got, string(tr.TerminationReason)+"/"+tr.Error+"/"+extra.Reason)
	}
	want := []string{
		"error/agent_error/agent_error", "error/infrastructure_error/infrastructure_error",
		"error/timeout/timeout", "error/user_error/user_error",
		"error/context_window_exceeded/context_window_exceeded", "error/unexpected_error/unexpected_error",
		"max_steps//max_steps", "unknown//some_future_reason",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("reasons (-want +got):\n%s", diff)
	}
	if trajs[0].AgentCost != nil {
		t.Errorf("NaN agent_cost = %v, want nil", *trajs[0].AgentCost)
	}
	if trajs[1].Evaluated || !trajs[0].Evaluated {
		t.Errorf("evaluated follows reward_info: %v %v", trajs[0].Evaluated, trajs[1].Evaluated)
	}
	if m := trajs[0].Messages[1]; m.Content != "I need help." {
		t.Errorf("audio message content = %q, want its audio_script_gold", m.Content)
	}
}

func TestTau2_SimulationsBeforeHeader(t *testing.T) {
	t.Parallel()
	rd, trajs, err := readTau2(t, filepath.Join("testdata", "tau2", "golden", "simulations-first", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	if rd.Info().AgentModel != "m-agent" || rd.Info().Domain != "mock" {
		t.Errorf("info after simulations not read: %+v", rd.Info())
	}
	if len(trajs) != 1 || trajs[0].Task.Instruction != "Persona:\n\tTerse.\nInstructions:\n\tSay hi." || !trajs[0].Passed() {
		t.Fatalf("trajectories = %+v", trajs)
	}
	if got := string(trajs[0].Task.Actions); got != `[{"name":"noop","kwargs":{}}]` {
		t.Errorf("actions = %s", got)
	}
}

func TestTau2_Trimmed(t *testing.T) {
	t.Parallel()
	rd, trajs, err := readTau2(t, filepath.Join("testdata", "tau2", "golden", "trimmed", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(trajs) != 2 || trajs[0].TerminationReason != emobench.TerminationUnknown || trajs[0].Evaluated || trajs[1].Trial != 2 {
		t.Fatalf("trajectories = %+v", trajs)
	}
	if got := trajs[1].Messages[0].Content; got != "part one, part two" {
		t.Errorf("content parts = %q", got)
	}
	if w := strings.Join(rd.Warnings(), "\n"); !strings.Contains(w, "2 simulations of tasks not listed") || !strings.Contains(w, "trial null") {
		t.Errorf("warnings = %q", w)
	}
}

func TestTau2_DirLayout(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "tau2", "golden", "dir-index", "input")
	if !ingest.IsTau2Dir(os.DirFS(dir)) {
		t.Fatal("IsTau2Dir = false")
	}
	rd, trajs, err := readTau2(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(trajs) != 2 || trajs[0].Task.Key != "20" || trajs[1].Task.Key != "40" {
		t.Fatalf("want simulation_index order (20 then 40), got %+v", trajs)
	}
	voice := trajs[0]
	if voice.Evaluated || len(voice.Messages) != 0 || voice.Task.Instruction != "Instructions:\n\tReturn a lamp." {
		t.Errorf("voice simulation: %+v", voice)
	}
	var extra struct {
		Ticks int    `json:"ticks"`
		Mode  string `json:"mode"`
	}
	if err := json.Unmarshal(voice.Extra, &extra); err != nil || extra.Ticks != 3 || extra.Mode != "full_duplex" {
		t.Errorf("voice extra = %s (%v), want ticks 3, mode full_duplex", voice.Extra, err)
	}
	if rd.Info().AgentModel != "openai:gpt-realtime-2" {
		t.Errorf("info = %+v", rd.Info())
	}
	files, err := ingest.Tau2DirFiles(os.DirFS(dir))
	if want := []string{"results.json", "simulations/aa-text.json", "simulations/zz-voice.json"}; err != nil || !cmp.Equal(files, want) {
		t.Errorf("Tau2DirFiles = %v, %v; want %v", files, err, want)
	}
}

func TestTau2Dir_ErrIndexMismatch(t *testing.T) {
	t.Parallel()
	results := `{"info": {}, "tasks": [], "simulation_index": [{"id": "a"}, {"id": "b"}]}`
	sim := `{"task_id": "t", "trial": 0}`
	tests := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{"missing", fstest.MapFS{"results.json": {Data: []byte(results)}, "simulations/a.json": {Data: []byte(sim)}},
			"simulation_index[1] names simulations/b.json, which is missing"},
		{"extra", fstest.MapFS{"results.json": {Data: []byte(results)}, "simulations/a.json": {Data: []byte(sim)},
			"simulations/b.json": {Data: []byte(sim)}, "simulations/c.json": {Data: []byte(sim)}},
			"simulation_index does not list simulations/c.json"},
		{"traversal", fstest.MapFS{"results.json": {Data: []byte(`{"info": {}, "simulation_index": [{"id": "../x"}]}`)}, "simulations/a.json": {Data: []byte(sim)}},
			`id "../x" is not a file name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ingest.Tau2Dir(tt.files)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestTau2Dir_ErrBadSimulationFile(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"results.json":       {Data: []byte(`{"info": {}, "tasks": []}`)},
		"simulations/a.json": {Data: []byte(`{"task_id": "t", "trial": 0}`)},
		"simulations/b.json": {Data: []byte(`{"task_id": "t", "trial": "x"}`)},
	}
	rd, err := ingest.Tau2Dir(fsys)
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := collect(t, rd.Trajectories())
	var simErr *ingest.SimulationError
	if len(trajs) != 1 || !errors.As(err, &simErr) || simErr.Index != 1 || simErr.File != "simulations/b.json" ||
		!strings.Contains(err.Error(), "simulation 1 (simulations/b.json") || !strings.Contains(err.Error(), "trial is a string") {
		t.Fatalf("got %d trajectories, err %v", len(trajs), err)
	}
}

func TestTau2_ErrBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		header bool   // the error comes from Tau2 itself, before any simulation
		index  int    // else: the failing simulation's index
		want   string // a phrase of the error
	}{
		{"empty.json", true, 0, "empty file"},
		{"not-json.json", true, 0, "not JSON"},
		{"top-level-array.json", true, 0, "top level is an array (τ-bench's format)"},
		{"lone-simulation.json", true, 0, "single τ²-bench simulation"},
		{"tasks-not-array.json", true, 0, "tasks is an object, want an array"},
		{"simulations-object.json", true, 0, "simulations is an object, want an array"},
		{"truncated-mid-simulation.json", false, 0, "truncated file"},
		{"simulation-not-object.json", false, 1, "simulation is a number, want an object"},
		{"reward-string.json", false, 1, `reward_info.reward is a string ("1.0"), want a number`},
		{"trial-string.json", false, 0, `trial is a string ("first"), want an integer`},
		{"message-without-role.json", false, 0, "messages[0]: message without a role"},
		{"task-id-missing.json", false, 1, "missing task_id"},
		{"termination-number.json", false, 0, "termination_reason is a number, want a string"},
		{"content-object.json", false, 0, "content is an object, want a string"},
		{"reward-info-array.json", false, 0, "reward_info is an array, want an object"},
		{"action-match-string.json", false, 0, "reward_info.action_checks[0].action_match is a string, want true or false"},
		{"trailing-garbage.json", false, -1, "trailing data after the Results object"},
		{"truncated-after-simulations.json", false, -1, "truncated file"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "tau2", "bad", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			rd, err := ingest.Tau2(bytes.NewReader(data))
			if tt.header {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Tau2: err = %v, want %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Tau2: %v", err)
			}
			trajs, err := collect(t, rd.Trajectories())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			var simErr *ingest.SimulationError
			if tt.index >= 0 && (!errors.As(err, &simErr) || simErr.Index != tt.index || len(trajs) != tt.index) {
				t.Fatalf("err %v after %d trajectories, want a SimulationError at simulation %d", err, len(trajs), tt.index)
			}
		})
	}
}

func TestTau2_ReadOnce(t *testing.T) {
	t.Parallel()
	rd, err := ingest.Tau2(strings.NewReader(`{"info": {}, "tasks": [], "simulations": [{"task_id": "a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, rd.Trajectories()); err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, rd.Trajectories()); err == nil {
		t.Fatal("second iteration succeeded, want an error")
	}
}

// Stopping early must not read further, and must not panic.
func TestTau2_StopEarly(t *testing.T) {
	t.Parallel()
	data, _ := os.ReadFile(filepath.Join("testdata", "tau2", "golden", "v0-mixed", "input.json"))
	rd, err := ingest.Tau2(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for traj, err := range rd.Trajectories() {
		if err != nil || traj == nil {
			t.Fatal(err)
		}
		break
	}
}

func TestDetectFormat(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		`[{"task_id": 1}]`: ingest.FormatTauBench,
		"\ufeff  {\"timestamp\": 1, \"info\": {\"x\": [1, {}]}, \"tasks\": []}": ingest.FormatTau2,
		`{"simulations": []}`:                                 ingest.FormatTau2,
		`{"timestamp": NaN, "simulations": null}`:             ingest.FormatTau2,
		"\ufeff{\"model_name\": \"m\", \"results\": {}}":      ingest.FormatSubmission,
		`{"results": {}, "submission_date": "2025-01-01"}`:    ingest.FormatSubmission,
		`{"task_id": 1, "reward": 1, "info": {}, "traj": []}`: ingest.FormatTauBench,
		`{"id": "s", "task_id": "a", "messages": []}`:         ingest.FormatTauBench, // TauBench explains
		`{"info": {}}`:     ingest.FormatTauBench,
		`{"foo": 1}`:       ingest.FormatTauBench,
		`not json`:         ingest.FormatTauBench,
		``:                 ingest.FormatTauBench,
		`{"info": {"tasks`: ingest.FormatTauBench,
	}
	for in, want := range tests {
		if got := ingest.DetectFormat(strings.NewReader(in)); got != want {
			t.Errorf("DetectFormat(%q) = %s, want %s", in, got, want)
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Simulations are streamed: the first trajectory arrives long before the
// file has been read.
func TestTau2_Streams(t *testing.T) {
	t.Parallel()
	const n = 20000
	var b strings.Builder
	b.WriteString(`{"timestamp": "t", "info": {}, "tasks": [{"id": "a"}], "simulations": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"task_id": "a", "trial": %d, "termination_reason": "user_stop", "messages": [{"role": "user", "content": "%s"}]}`, i, strings.Repeat("x", 100))
	}
	b.WriteString(`]}`)
	cr := &countingReader{r: strings.NewReader(b.String())}
	rd, err := ingest.Tau2(cr)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, err := range rd.Trajectories() {
		if err != nil {
			t.Fatal(err)
		}
		if count == 0 && cr.n > int64(b.Len())/4 {
			t.Fatalf("first trajectory after reading %d of %d bytes", cr.n, b.Len())
		}
		count++
	}
	if count != n || cr.n != int64(b.Len()) {
		t.Fatalf("got %d trajectories after %d bytes, want %d after %d", count, cr.n, n, b.Len())
	}
}
