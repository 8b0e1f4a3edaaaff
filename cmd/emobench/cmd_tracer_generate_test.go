package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// catalogDomain returns a registered domain with an intent catalog, or
// skips: the retail and airline catalogs come from their own streams.
func catalogDomain(t *testing.T) string {
	t.Helper()
	for _, name := range all.Names() {
		d, _ := all.Find(name)
		if _, ok := d.(sim.CatalogDomain); ok {
			return name
		}
	}
	t.Skip("no registered domain has an intent catalog yet")
	return ""
}

func TestTracerGenerate_ErrFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--n", "3"}, "--domain is needed: one of"},
		{[]string{"--domain", "retail"}, "needs --n N"},
		{[]string{"--domain", "nowhere", "--n", "3"}, `no domain "nowhere"`},
		{[]string{"--domain", "retail", "--n", "3", "--split", "dev"}, `--split "dev"`},
		{[]string{"--domain", "retail", "--n", "3", "--walk-steps", "1,2"}, `--walk-steps "1,2"`},
		{[]string{"--domain", "retail", "--n", "3", "--intents", "1,x"}, `--intents "1,x"`},
		{[]string{"--domain", "retail", "--n", "3", "--intents-dist", "1,2"}, "2 weights for 3 values"},
		{[]string{"--domain", "retail", "--n", "3", "--walk-steps-dist", "0,0,0"}, "every weight is 0"},
		{[]string{"--domain", "retail", "--n", "3", "--forbidden", "1.5"}, "--forbidden 1.5"},
		{[]string{"--domain", "retail", "--n", "3", "--forbidden", "0.6", "--transfer", "0.5"}, "exceed 1"},
		{[]string{"--domain", "retail", "--n", "3", "--emotions", "rage=1"}, `unknown emotion family "rage"`},
		{[]string{"--domain", "retail", "--n", "3", "--paraphrase", "gpt-4.1"}, "is not llm:MODEL"},
		{[]string{"--domain", "retail", "--n", "3", "--paraphrase", "llm:m", "--paraphrase-api-key-env", "sk-123 456"}, "not the key"},
		{[]string{"--domain", "retail", "--n", "3", "--paraphrase", "llm:m", "--paraphrase-base-url", "", "--paraphrase-api-key-env", "EMOBENCH_TEST_UNSET_KEY"},
			"--paraphrase llm:m talks to https://api.openai.com/v1, which needs EMOBENCH_TEST_UNSET_KEY"},
		{[]string{"--domain", "retail", "--n", "3", "--exclude", filepath.Join(dir, "none.json")}, "--exclude"},
		{[]string{"--domain", "retail", "--n", "3", "--out", filepath.Join(dir, "x.json"), "--replace"}, "drop them with --out"},
	} {
		r := runCLI(t, "", append([]string{"--db", filepath.Join(dir, "t.db"), "tracer", "generate"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "t.db")); err == nil {
		t.Fatal("a refused generate created the database")
	}
}

func TestTracerGenerate_ErrNoCatalog(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		d, _ := all.Find(name)
		if _, ok := d.(sim.CatalogDomain); ok {
			continue
		}
		r := runCLI(t, "", "tracer", "generate", "--domain", name, "--n", "2", "--out", filepath.Join(t.TempDir(), "x.json"))
		if r.code != 2 || !strings.Contains(r.stderr, "--domain "+name+" has no intent catalog") {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
}

func TestTracerGenerate_Out(t *testing.T) {
	t.Parallel()
	domain := catalogDomain(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	out := mustRun(t, "tracer", "generate", "--domain", domain, "--n", "12", "--seed", "3", "--out", a)
	for _, want := range []string{"kept 12 tasks", "kinds: write", "writes per task", "leakage: 0", "wrote 12 tasks to " + a} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	mustRun(t, "tracer", "generate", "--domain", domain, "--n", "12", "--seed", "3", "--out", b)
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if string(ab) != string(bb) {
		t.Fatal("the same seed wrote different files")
	}
	tasks, err := sim.DecodeTasks(ab)
	if err != nil || len(tasks) != 12 || tasks[0].ID != domain+"-test-000" {
		t.Fatalf("decoded %d tasks (%v)", len(tasks), err)
	}
}

func TestTracerGenerate_DB(t *testing.T) {
	t.Parallel()
	domain := catalogDomain(t)
	dbPath := filepath.Join(t.TempDir(), "t.db")
	out := mustRun(t, "--db", dbPath, "tracer", "generate", "--domain", domain, "--n", "6", "--split", "train", "--task-set", "small")
	if !strings.Contains(out, "stored 6 tasks as task set small") {
		t.Fatalf("output:\n%s", out)
	}
	r := runCLI(t, "", "--db", dbPath, "tracer", "generate", "--domain", domain, "--n", "6", "--split", "train", "--task-set", "small")
	if r.code != 2 || !strings.Contains(r.stderr, `task set "small" already exists`) {
		t.Fatalf("second store: exit %d, stderr %q", r.code, r.stderr)
	}
	mustRun(t, "--db", dbPath, "tracer", "generate", "--domain", domain, "--n", "4", "--split", "train", "--task-set", "small", "--replace")
	got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT s.name, s.split, COUNT(*) FROM task_sets s JOIN task_set_tasks t ON t.task_set_id = s.id GROUP BY s.id")
	if !strings.Contains(got, "small,train,4") {
		t.Fatalf("task sets:\n%s", got)
	}
}

func TestTracerGenerate_ErrOut(t *testing.T) {
	t.Parallel()
	domain := catalogDomain(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "tasks.json")
	if err := os.WriteFile(existing, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{existing, "exists (use --force"},
		{dir, "is a directory"},
		{filepath.Join(dir, "missing", "tasks.json"), "does not exist"},
	} {
		r := runCLI(t, "", "tracer", "generate", "--domain", domain, "--n", "2", "--out", c.out)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stdout, "kept") {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q; want %d before generating, naming %q", c.out, r.code, r.stdout, r.stderr, exitUsage, c.want)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep" {
		t.Fatalf("a refused generate changed --out: %q", b)
	}
	mustRun(t, "tracer", "generate", "--domain", domain, "--n", "2", "--out", existing, "--force")
	if b, _ := os.ReadFile(existing); string(b) == "keep" {
		t.Fatal("--force did not overwrite --out")
	}
}
