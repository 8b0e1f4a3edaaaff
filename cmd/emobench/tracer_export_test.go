package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nativeRunDB stores an oracle run of two retail train tasks and its
// selection "kept" (both trajectories), and returns the db.
func nativeRunDB(t *testing.T) string {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--split", "train", "--tasks", "2", "--condition", "with-emotions",
		"--agent", "oracle", "--user", "scripted", "--name", "oracle-retail")
	mustRun(t, "--db", dbPath, "tracer", "filter", "--run", "oracle-retail", "--selection", "kept")
	return dbPath
}

func TestTracerExport_Run(t *testing.T) {
	t.Parallel()
	dbPath := nativeRunDB(t)
	dir := t.TempDir()
	out, stats := filepath.Join(dir, "train.jsonl"), filepath.Join(dir, "stats.json")
	stdout := mustRun(t, "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "sharegpt", "--out", out, "--stats", stats)
	if !strings.Contains(stdout, "2 records (sharegpt)") || !strings.Contains(stdout, "approximate") {
		t.Errorf("stdout:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2", len(lines))
	}
	for i, line := range lines {
		var rec struct {
			Conversations []struct{ From, Value string }
			System, Tools string
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil || len(rec.Conversations) == 0 || rec.System == "" || rec.Tools == "" {
			t.Errorf("line %d: %v: %.200s", i+1, err, line)
		}
	}
	var s struct {
		Records         int            `json:"records"`
		Bytes           int            `json:"bytes"`
		ByDomain        map[string]int `json:"by_domain"`
		ByEmotionFamily map[string]int `json:"by_emotion_family"`
		TokenRule       string         `json:"token_rule"`
	}
	b, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	families := 0
	for _, n := range s.ByEmotionFamily {
		families += n
	}
	if s.Records != 2 || s.Bytes != len(data) || s.ByDomain["retail"] != 2 || families != 2 || !strings.HasPrefix(s.TokenRule, "approximate") {
		t.Errorf("stats = %+v, want 2 retail records of %d bytes, approximate tokens", s, len(data))
	}

	// An existing --out or --stats is refused without --force, and kept.
	for _, args := range [][]string{{"--out", out}, {"--out", filepath.Join(dir, "new.jsonl"), "--stats", stats}} {
		r := runCLI(t, "", append([]string{"--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "openai"}, args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--force") {
			t.Errorf("export over an existing file: exit %d, stderr %q; want %d naming --force", r.code, r.stderr, exitUsage)
		}
	}
	if after, _ := os.ReadFile(out); string(after) != string(data) {
		t.Error("a refused export changed --out")
	}
	if _, err := os.Stat(filepath.Join(dir, "new.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a refused export wrote its --out: %v", err)
	}
	mustRun(t, "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "hermes", "--out", out, "--stats", stats, "--force")
	if after, _ := os.ReadFile(out); !strings.HasPrefix(string(after), `{"text":"<|im_start|>system\n`) {
		t.Errorf("--force did not overwrite --out with hermes records: %.80s", after)
	}
}

func TestTracerExport_ErrUsage(t *testing.T) {
	t.Parallel()
	dbPath := nativeRunDB(t)
	out := filepath.Join(t.TempDir(), "train.jsonl")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--selection", "kept", "--out", out}, exitUsage, "needs --format"},
		{[]string{"--selection", "kept", "--format", "alpaca", "--out", out}, exitUsage, `--format "alpaca" is not one of openai, sharegpt, hermes`},
		{[]string{"--selection", "kept", "--format", "openai"}, exitUsage, "needs --out"},
		{[]string{"--format", "openai", "--out", out}, exitUsage, "needs --selection NAME"},
		// --run is gone (it exported failed and test-split trajectories):
		// the error says what to run instead.
		{[]string{"--run", "1", "--run", "2", "--format", "openai", "--out", out}, exitUsage, "tracer export --run is gone: it wrote failed and test-split trajectories too; filter first: emobench tracer filter --run 1 --run 2 --selection NAME, then tracer export --selection NAME"},
		{[]string{"--selection", "nosuch", "--format", "openai", "--out", out}, exitFailure, `no selection named "nosuch"`},
	}
	for _, c := range cases {
		r := runCLI(t, "", append([]string{"--db", dbPath, "tracer", "export"}, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("tracer export %s: exit %d, stderr %q; want %d containing %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed export left %s: %v", out, err)
	}
}

func TestTracerExport_Tokenizer(t *testing.T) {
	t.Parallel()
	dbPath := nativeRunDB(t)
	dir := t.TempDir()
	tiny := filepath.Join("..", "..", "tracer", "sft", "testdata", "tokenizer", "tiny.json")
	stdout := mustRun(t, "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "openai", "--out", filepath.Join(dir, "a.jsonl"), "--tokenizer", tiny)
	if !strings.Contains(stdout, "tokens: exact: tiny.json") {
		t.Errorf("stdout does not say the tokens are exact by tiny.json:\n%s", stdout)
	}
	r := runCLI(t, "", "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "openai", "--out", filepath.Join(dir, "b.jsonl"), "--tokenizer", filepath.Join(dir, "missing.json"))
	if r.code != exitFailure || !strings.Contains(r.stderr, "--tokenizer") || !strings.Contains(r.stderr, "missing.json") {
		t.Errorf("missing --tokenizer: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.jsonl")); !os.IsNotExist(err) {
		t.Errorf("export with a bad --tokenizer wrote its --out: %v", err)
	}
}

func TestTracerExport_StatsPath(t *testing.T) {
	t.Parallel()
	dbPath := nativeRunDB(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "same.jsonl")
	for _, stats := range []string{out, filepath.Join(dir, ".", "same.jsonl"), filepath.Join(dir, "missing", "stats.json")} {
		r := runCLI(t, "", "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "openai", "--out", out, "--stats", stats)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--stats") {
			t.Errorf("--stats %s: exit %d, stderr %q; want %d naming --stats", stats, r.code, r.stderr, exitUsage)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("--stats %s: a refused export wrote --out: %v", stats, err)
		}
	}
	// A hard link to an existing --out is the same file too.
	if err := os.WriteFile(out, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Link(out, link); err != nil {
		t.Skip(err)
	}
	r := runCLI(t, "", "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "openai", "--out", out, "--stats", link, "--force")
	if r.code != exitUsage || !strings.Contains(r.stderr, "same file") {
		t.Errorf("hard-linked --stats: exit %d, stderr %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "keep\n" {
		t.Errorf("--out changed: %q", b)
	}
}

// runs rm of a run a selection covers names the selection, and tracer
// funnel and tracer export warn that it shrank.
func TestRunsRm_ShrinksSelection(t *testing.T) {
	t.Parallel()
	dbPath := nativeRunDB(t)
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--split", "train", "--tasks", "2", "--condition", "without-emotions",
		"--agent", "oracle", "--user", "scripted", "--name", "oracle-retail-2")
	mustRun(t, "--db", dbPath, "tracer", "filter", "--run", "1", "--run", "2", "--selection", "k1")
	if r := runCLI(t, "", "--db", dbPath, "tracer", "funnel", "--selection", "k1"); r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Fatalf("funnel of an intact selection: exit %d, stderr %q", r.code, r.stderr)
	}
	r := runCLI(t, "", "--db", dbPath, "runs", "rm", "oracle-retail-2")
	if r.code != 0 || !strings.Contains(r.stderr, "selection k1 loses 2 of its 4 trajectories") {
		t.Fatalf("runs rm: exit %d, stderr %q; want a note naming k1", r.code, r.stderr)
	}
	want := "warning: selection k1 was stored with 4 trajectories; 2 were deleted since (runs rm); re-run tracer filter"
	if r := runCLI(t, "", "--db", dbPath, "tracer", "funnel", "--selection", "k1"); r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("funnel: exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
	out := filepath.Join(t.TempDir(), "k1.jsonl")
	if r := runCLI(t, "", "--db", dbPath, "tracer", "export", "--selection", "k1", "--format", "openai", "--out", out); r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("export: exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
}
