package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// importedRunDB stores one imported τ-bench run (run 1) and returns the db.
func importedRunDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	mustRun(t, "--db", dbPath, "ingest", writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json"))
	return dbPath
}

// An export that writes no record (every trajectory of an imported run is
// skipped) is a failure of the data: exit 1, naming the skips, without the
// usage hint.
func TestTracerExport_ErrNoRecords(t *testing.T) {
	t.Parallel()
	dbPath := importedRunDB(t)
	out := filepath.Join(t.TempDir(), "train.jsonl")
	mustRun(t, "--db", dbPath, "tracer", "filter", "--run", "1", "--selection", "kept")
	r := runCLI(t, "", "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "openai", "--out", out)
	if got, want := r.code, exitFailure; got != want {
		t.Fatalf("exit %d, want %d; stderr %q", got, want, r.stderr)
	}
	if !strings.Contains(r.stderr, "no record written (0 failed validation, ") || strings.Contains(r.stderr, "--help") {
		t.Errorf("stderr %q: want the no-record error without the usage hint", r.stderr)
	}
}

// tracer export --stats counts a selection's records per emotion family as
// tracer funnel counts its kept trajectories: a without-emotions
// trajectory is family none, not its task's family.
func TestTracerExport_FamiliesMatchFunnel(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "tracer.db")
	tasks, _ := writeTasksFile(t, "retail", 3)
	mustRun(t, "--db", dbPath, "tracer", "collect", "--tasks-file", tasks, "--agent", "oracle", "--user", "scripted", "--trials", "1", "--concurrency", "1")
	mustRun(t, "--db", dbPath, "tracer", "filter", "--selection", "kept")
	kept := map[string]int{}
	for _, r := range parseFunnel(t, mustRun(t, "--db", dbPath, "tracer", "funnel", "--selection", "kept", "--format", "json")) {
		if r.Domain != "all" && r.Kept > 0 {
			kept[r.Family] += r.Kept
		}
	}
	if kept["none"] == 0 || len(kept) < 2 {
		t.Fatalf("funnel kept %v: want none and at least one emotion family", kept)
	}
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.json")
	mustRun(t, "--db", dbPath, "tracer", "export", "--selection", "kept", "--format", "openai", "--out", filepath.Join(dir, "train.jsonl"), "--stats", stats)
	b, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		ByEmotionFamily map[string]int `json:"by_emotion_family"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(kept, s.ByEmotionFamily); diff != "" {
		t.Errorf("export by_emotion_family (-funnel kept +export):\n%s", diff)
	}
}

// tracer generate --task-set NAME refuses a task set NAME --db already holds
// before generating anything: exit 2, naming --replace, nothing printed
// of a generation.
func TestTracerGenerate_ErrNameStoredFirst(t *testing.T) {
	t.Parallel()
	domain := catalogDomain(t)
	dbPath := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, "--db", dbPath, "tracer", "generate", "--domain", domain, "--n", "3", "--split", "train", "--task-set", "small")
	r := runCLI(t, "", "--db", dbPath, "tracer", "generate", "--domain", domain, "--n", "3", "--split", "train", "--task-set", "small")
	if got, want := r.code, exitUsage; got != want {
		t.Fatalf("exit %d, want %d; stderr %q", got, want, r.stderr)
	}
	want := `task set "small" already exists in ` + dbPath + " (3 " + domain + " tasks, stored "
	if !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "--replace replaces it, or --task-set names another") {
		t.Errorf("stderr %q, want %q ... naming --replace and --task-set", r.stderr, want)
	}
	if r.stdout != "" {
		t.Errorf("generated before refusing the name:\n%s", r.stdout)
	}
}

// tracer audit --task-set NAME audits the task set stored in --db as
// --tasks audits the same tasks written to a file; a name not stored is a
// usage error naming it.
func TestTracerAudit_TaskSet(t *testing.T) {
	t.Parallel()
	domain := catalogDomain(t)
	dir := t.TempDir()
	dbPath, file := filepath.Join(dir, "t.db"), filepath.Join(dir, "tasks.json")
	gen := []string{"tracer", "generate", "--domain", domain, "--n", "3", "--seed", "5"}
	mustRun(t, append([]string{"--db", dbPath}, append(gen, "--task-set", "small")...)...)
	mustRun(t, append(gen, "--out", file)...)
	fromFile := runCLI(t, "", "tracer", "audit", "--tasks-file", file, "--format", "json")
	fromSet := runCLI(t, "", "--db", dbPath, "tracer", "audit", "--task-set", "small", "--format", "json")
	if fromSet.code != fromFile.code {
		t.Fatalf("--task-set exit %d, --tasks exit %d; stderr %q", fromSet.code, fromFile.code, fromSet.stderr)
	}
	var out struct {
		Tasks int `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(fromSet.stdout), &out); err != nil || out.Tasks != 3 {
		t.Fatalf("--task-set audited %d tasks (%v), want 3:\n%s", out.Tasks, err, fromSet.stdout)
	}
	if diff := cmp.Diff(fromFile.stdout, fromSet.stdout); diff != "" {
		t.Errorf("audit (-tasks file +task set):\n%s", diff)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--task-set", "nosuch"}, `no task set named "nosuch" in ` + dbPath},
		{[]string{"--task-set", "small", "--domain", domain}, "give one of --tasks-file, --task-set or --domain"},
	} {
		r := runCLI(t, "", append([]string{"--db", dbPath, "tracer", "audit"}, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("tracer audit %s: exit %d, stderr %q; want %d containing %q", strings.Join(c.args, " "), r.code, r.stderr, exitUsage, c.want)
		}
	}
}

// run --tasks-file of retail tasks with --domain airline says what the file
// holds and the --domain to pass, instead of "domain airline has no test
// tasks"; without --domain the file's own domain is run.
func TestRun_TasksFileOtherDomain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath, file := filepath.Join(dir, "t.db"), filepath.Join(dir, "retail-tasks.json")
	writeTasks(t, file, fileTasks(t, 2))
	r := runCLI(t, "", "--db", dbPath, "run", "--tasks-file", file, "--domain", "airline", "--agent", "oracle", "--condition", "with-emotions")
	want := "--tasks-file " + file + " holds only retail tasks, none of domain airline; choose domain retail"
	if r.code != exitUsage || !strings.Contains(r.stderr, want) {
		t.Fatalf("exit %d, stderr %q; want %d containing %q", r.code, r.stderr, exitUsage, want)
	}
	if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
		t.Errorf("a refused run created %s: %v", dbPath, err)
	}
	mustRun(t, "--db", dbPath, "run", "--tasks-file", file, "--agent", "oracle", "--condition", "with-emotions")
	if got, want := runConfig(t, dbPath).Domain, "retail"; got != want {
		t.Errorf("run without --domain: domain %s, want %s (the file's)", got, want)
	}
}

// tracer filter over an imported run warns that tracer export will skip
// its kept trajectories, and the report's funnel caption calls its tasks
// "tasks", not "generated tasks".
func TestTracerFilter_ImportedRunWarns(t *testing.T) {
	t.Parallel()
	dbPath := importedRunDB(t)
	r := runCLI(t, "", "--db", dbPath, "--quiet", "tracer", "filter", "--run", "1", "--selection", "imp", "--format", "json")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	rows := parseFunnel(t, r.stdout)
	total := rows[len(rows)-1]
	if total.Kept == 0 {
		t.Fatalf("funnel %+v keeps nothing: the fixture needs a passed trajectory", total)
	}
	want := "warning: run 1 is imported, and trajectories of it are kept: tracer export will skip them: their agent saw another harness's prompt and tools\n"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	report := filepath.Join(t.TempDir(), "report.html")
	mustRun(t, "--db", dbPath, "report", "--out", report)
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if want := "The trajectories were collected on " + strconv.Itoa(total.Generated) + " tasks;"; !strings.Contains(string(page), want) || strings.Contains(string(page), "generated tasks") {
		t.Errorf("report caption: want %q and no \"generated tasks\"", want)
	}
}
