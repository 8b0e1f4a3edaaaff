package ingest_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
	"github.com/google/go-cmp/cmp"
)

// metaOf is the metadata part of run, to compare.
func metaOf(run emobench.Run) ingest.Metadata {
	return ingest.Metadata{Name: run.Name, Model: run.AgentModel, AgentStrategy: run.AgentStrategy, UserModel: run.UserModel,
		UserStrategy: run.UserStrategy, Domain: run.Domain, Condition: run.Condition}
}

// openFile writes data to dir/name and opens it with hints h.
func openFile(t *testing.T, dir, name, data string, h ingest.Hints) (*ingest.Opened, []*emobench.Trajectory) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return openPath(t, path, h)
}

func openPath(t *testing.T, path string, h ingest.Hints) (*ingest.Opened, []*emobench.Trajectory) {
	t.Helper()
	src, err := ingest.OpenSource(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(src.Close)
	o, err := ingest.Open(src, h)
	if err != nil {
		t.Fatal(err)
	}
	var trajs []*emobench.Trajectory
	for traj, err := range o.Trajectories {
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		trajs = append(trajs, traj)
	}
	return o, trajs
}

func TestResolve(t *testing.T) {
	t.Parallel()
	flags := ingest.Metadata{Model: "flag-model"}
	content := ingest.Metadata{Model: "content-model", UserModel: "content-user", Condition: emobench.ConditionWithoutEmotions}
	name := ingest.Metadata{Name: "file", Model: "name-model", UserModel: "name-user", Domain: "retail", Condition: emobench.ConditionWithEmotions}
	got := ingest.Resolve(flags, content, name)
	want := ingest.Metadata{Name: "file", Model: "flag-model", UserModel: "content-user", Domain: "retail", Condition: emobench.ConditionWithoutEmotions}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Resolve (-want +got):\n%s", diff)
	}
}

// emobenchRecord is a τ-bench record as emobench's τ-bench export writes
// it, run metadata in info.emobench.
const emobenchRecord = `[{"task_id": 0, "reward": 1.0, "trial": 0, "traj": [{"role": "user", "content": "hi"}],
 "info": {"task": {"user_id": "u1", "instruction": "i"}, "reward_info": {"reward": 1.0},
  "emobench": {"model": "content-model", "user_model": "content-user", "domain": "", "condition": "without-emotions", "run_name": "content-name"}}}]`

// Flags beat the file's content (info.emobench), which beats its name.
func TestOpen_TauBenchMetadataPrecedence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := ingest.Hints{Flags: ingest.Metadata{Model: "flag-model"}, OnDuplicate: "refuse"}
	o, trajs := openFile(t, dir, "gpt-4o-retail-with-emotions.json", emobenchRecord, h)
	want := ingest.Metadata{Name: "content-name", Model: "flag-model", UserModel: "content-user", Domain: "retail", Condition: emobench.ConditionWithoutEmotions}
	if diff := cmp.Diff(want, metaOf(o.Run)); diff != "" {
		t.Errorf("run metadata (-want +got):\n%s", diff)
	}
	if got, want := len(trajs), 1; got != want {
		t.Fatalf("%d trajectories, want %d", got, want)
	}
	if strings.Contains(string(trajs[0].Extra), "content-model") {
		t.Errorf("info.emobench kept in extra: %s", trajs[0].Extra)
	}
	if got, want := o.Run.SourceFormat, ingest.FormatTauBench; got != want {
		t.Errorf("source format %q, want %q", got, want)
	}
	var config struct{ Ingest map[string]string }
	if err := json.Unmarshal(o.Run.Config, &config); err != nil || config.Ingest["on_duplicate"] != "refuse" {
		t.Errorf("config %s (%v): want ingest.on_duplicate refuse", o.Run.Config, err)
	}

	// Without info.emobench, the name gives what the flags do not.
	plain := strings.Replace(emobenchRecord, `"emobench"`, `"other"`, 1)
	o, _ = openFile(t, dir, "gpt-4o-retail-with-emotions-2.json", plain, ingest.Hints{Flags: ingest.Metadata{UserModel: "flag-user"}})
	want = ingest.Metadata{Name: "gpt-4o-retail-with-emotions-2", Model: "gpt-4o", UserModel: "flag-user", Domain: "retail", Condition: emobench.ConditionWithEmotions}
	if diff := cmp.Diff(want, metaOf(o.Run)); diff != "" {
		t.Errorf("run metadata without content (-want +got):\n%s", diff)
	}
}

func TestOpen_Tau2MetadataPrecedence(t *testing.T) {
	t.Parallel()
	results := `{"timestamp": "2026-01-02T03:04:05", "info": {"agent_info": {"llm": "content-model", "implementation": "llm_agent"},
		"user_info": {"llm": "content-user"}}, "tasks": [{"id": "t0"}],
		"simulations": [{"id": "s0", "task_id": "t0", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1}, "messages": []}]}`
	o, trajs := openFile(t, t.TempDir(), "gpt-4o-airline-with-emotions.json", results, ingest.Hints{Flags: ingest.Metadata{UserModel: "flag-user"}})
	want := ingest.Metadata{Name: "gpt-4o-airline-with-emotions", Model: "content-model", AgentStrategy: "llm_agent", UserModel: "flag-user",
		Domain: "airline", Condition: emobench.ConditionWithEmotions}
	if diff := cmp.Diff(want, metaOf(o.Run)); diff != "" {
		t.Errorf("run metadata (-want +got):\n%s", diff)
	}
	if got, want := o.Run.CreatedAt.Format("2006-01-02T15:04:05"), "2026-01-02T03:04:05"; got != want {
		t.Errorf("created at %s, want the Results timestamp %s", got, want)
	}
	if got, want := len(trajs), 1; got != want {
		t.Errorf("%d trajectories, want %d", got, want)
	}
}

// A run directory is named after its folder; its info gives the domain.
func TestOpen_Tau2DirMetadataPrecedence(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "qwen3-run")
	if err := os.MkdirAll(filepath.Join(dir, ingest.Tau2SimulationsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	results := `{"timestamp": "2026-01-01T00:00:00", "info": {"environment_info": {"domain_name": "telecom"}}, "tasks": [{"id": "t0"}]}`
	sim := `{"id": "s0", "task_id": "t0", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1}, "messages": []}`
	for name, data := range map[string]string{ingest.Tau2ResultsFile: results, "simulations/s0.json": sim} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o, trajs := openPath(t, dir, ingest.Hints{Flags: ingest.Metadata{Model: "flag-model", Condition: emobench.ConditionWithEmotions}})
	want := ingest.Metadata{Name: "qwen3-run", Model: "flag-model", Domain: "telecom", Condition: emobench.ConditionWithEmotions}
	if diff := cmp.Diff(want, metaOf(o.Run)); diff != "" {
		t.Errorf("run metadata (-want +got):\n%s", diff)
	}
	if o.Run.SourceSHA256 == "" || len(trajs) != 1 {
		t.Errorf("sha256 %q, %d trajectories; want a sha256 and 1", o.Run.SourceSHA256, len(trajs))
	}
}

// A name that begins with a benchmark's name gives no model: a note says
// so, unless another layer gives the model.
func TestOpen_HarnessNameGivesNoModel(t *testing.T) {
	t.Parallel()
	plain := strings.Replace(emobenchRecord, `"emobench"`, `"other"`, 1)
	dir := t.TempDir()
	o, _ := openFile(t, dir, "tau2-gpt-4.1-retail.json", plain, ingest.Hints{})
	if got, want := metaOf(o.Run), (ingest.Metadata{Name: "tau2-gpt-4.1-retail", Domain: "retail", Condition: emobench.ConditionNone}); got != want {
		t.Errorf("run metadata %+v, want %+v", got, want)
	}
	if got := strings.Join(o.Notes(), "\n"); !strings.Contains(got, "begins with a benchmark's name (tau2)") || !strings.Contains(got, "model unknown") {
		t.Errorf("notes %q: want one saying the model is unknown", got)
	}
	o, _ = openFile(t, dir, "tau2-gpt-4.1-airline.json", plain, ingest.Hints{Flags: ingest.Metadata{Model: "gpt-4.1"}})
	if got := o.Notes(); len(got) != 0 || o.Run.AgentModel != "gpt-4.1" {
		t.Errorf("with --model: model %q, notes %q; want gpt-4.1 and none", o.Run.AgentModel, got)
	}
}

func TestOpen_ErrJSONLExport(t *testing.T) {
	t.Parallel()
	line := `{"run": {"id": 1, "name": "r"}, "task": {"key": "k"}, "trial": 0, "reward": 1, "messages": []}` + "\n"
	path := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(path, []byte(line+line), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := ingest.OpenSource(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	_, err = ingest.Open(src, ingest.Hints{})
	if !errors.Is(err, ingest.ErrAnalysisFormat) || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), "an analysis format, not a results format") {
		t.Errorf("error %v: want ErrAnalysisFormat naming %s", err, path)
	}
}

func TestDetectFormat_Registry(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		`{"run": {"id": 1}, "task": {}, "trial": 0}`:          ingest.FormatJSONLExport,
		`{"task": {}, "run": {"id": 1}}`:                      ingest.FormatTauBench, // not the export's key order
		`[{"run": {}, "task": {}}]`:                           ingest.FormatTauBench,
		`[{"id": "s", "ticks": []}]`:                          ingest.FormatTau2,
		`[{"id": "s", "info": {}, "messages": []}]`:           ingest.FormatTauBench, // info decides first
		`{"tasks": [], "x": 1, "info": {}}`:                   ingest.FormatTau2,
		`{"info": {}, "model_name": "m"}`:                     ingest.FormatSubmission,
		`{"info": {}, "task_id": 1, "tasks": []}`:             ingest.FormatTauBench,
		`[{"model_name": "m"}]`:                               ingest.FormatTauBench,
		`{"submitting_organization": "o", "simulations": []}`: ingest.FormatSubmission,
	}
	for in, want := range tests {
		if got := ingest.DetectFormat(strings.NewReader(in)); got != want {
			t.Errorf("DetectFormat(%s) = %s, want %s", in, got, want)
		}
	}
	for _, name := range ingest.FormatNames() {
		if name == ingest.FormatJSONLExport {
			t.Errorf("FormatNames lists %s, which is only refused", name)
		}
	}
}

// A file changed between Hash and parsing yields an error after its last
// trajectory, so a transaction storing them keeps nothing.
func TestSource_ErrChangedAfterHash(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "m-retail.json")
	if err := os.WriteFile(path, []byte(emobenchRecord), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := ingest.OpenSource(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	sum, err := src.Hash()
	if err != nil || len(sum) != 64 {
		t.Fatalf("Hash = %q, %v", sum, err)
	}
	changed := strings.Replace(emobenchRecord, `"hi"`, `"ho"`, 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := ingest.Open(src, ingest.Hints{})
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for _, err := range o.Trajectories {
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "changed while it was read") {
		t.Errorf("last error %v, want the file changed while it was read", last)
	}
}

// A stream's sha256 is that of every byte read, known at Finish.
func TestSource_StreamFinish(t *testing.T) {
	t.Parallel()
	src := ingest.StreamSource(t.Context(), "pipe", strings.NewReader(emobenchRecord))
	defer src.Close()
	if _, err := src.Hash(); err == nil {
		t.Error("Hash of a stream: want an error")
	}
	o, err := ingest.Open(src, ingest.Hints{})
	if err != nil {
		t.Fatal(err)
	}
	if o.Run.SourceSHA256 != "" {
		t.Errorf("a stream's run has sha256 %q before it is read", o.Run.SourceSHA256)
	}
	for _, err := range o.Trajectories {
		if err != nil {
			t.Fatal(err)
		}
	}
	sum, err := src.Finish()
	if want := sha256Hex(emobenchRecord); err != nil || sum != want {
		t.Errorf("Finish = %s, %v; want %s", sum, err, want)
	}
}

func TestCollect(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"a.json": "[]", "notes.txt": "x", "sub/c.JSONL": "", "run/results.json": "{}", "run/simulations/s.json": "{}",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	missing := filepath.Join(dir, "missing.json")
	inputs, errs, notes := ingest.Collect([]string{dir, ingest.StdinArg, missing, filepath.Join(dir, "run", "results.json")})
	want := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "run"), filepath.Join(dir, "sub", "c.JSONL"), ingest.StdinArg, filepath.Join(dir, "run")}
	if diff := cmp.Diff(want, inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), missing+": ") {
		t.Errorf("errors %v: want one naming %s", errs, missing)
	}
	if len(notes) != 1 || notes[0].Path != fifo || !strings.HasPrefix(notes[0].Text, "skipped, a named pipe") {
		t.Errorf("notes %q: want one skipping %s", notes, fifo)
	}
	if _, errs, _ := ingest.Collect([]string{filepath.Join(dir, "sub", "nothing")}); len(errs) != 1 {
		t.Errorf("a missing directory: errors %v, want 1", errs)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, errs, _ := ingest.Collect([]string{empty}); len(errs) != 1 || !strings.Contains(errs[0].Error(), "no *.json or *.jsonl file") {
		t.Errorf("an empty directory: errors %v, want one saying it holds nothing to read", errs)
	}
}

func TestNotes_Lines(t *testing.T) {
	t.Parallel()
	var n ingest.Notes
	n.Add("a.json", "partial rewards")
	n.Add("", "whole command")
	n.Add("b.json", "partial rewards")
	n.Add("b.json", "partial rewards") // the same note of the same file counts once
	n.Add("c.json", "own note")
	for i := range 6 {
		n.Add(string(rune('p'+i))+".json", "many")
	}
	want := []string{
		"partial rewards (2 sources: a.json, b.json)",
		"whole command",
		"c.json: own note",
		"many (6 sources: p.json, q.json, r.json, s.json, t.json and 1 more)",
	}
	if diff := cmp.Diff(want, n.Lines()); diff != "" {
		t.Errorf("Lines (-want +got):\n%s", diff)
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
