package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// fileTasks returns n of retail's test tasks renamed retail-test-90I, so
// that a run of them can only have come from the file.
func fileTasks(t *testing.T, n int) []emobench.TaskSpec {
	t.Helper()
	dom, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	var out []emobench.TaskSpec
	for _, task := range dom.Tasks() {
		if task.Split == emobench.SplitTest && len(out) < n {
			task.ID = "retail-test-90" + string(rune('0'+len(out)))
			out = append(out, task)
		}
	}
	return out
}

func writeTasks(t *testing.T, path string, tasks []emobench.TaskSpec) {
	t.Helper()
	b, err := sim.EncodeTasks(tasks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func runConfig(t *testing.T, dbPath string) emobench.RunSpec {
	t.Helper()
	out := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT config FROM runs ORDER BY id DESC LIMIT 1")
	_, raw, _ := strings.Cut(strings.TrimSpace(out), "\n")
	var cfg string
	if strings.HasPrefix(raw, `"`) {
		raw = strings.ReplaceAll(strings.Trim(raw, `"`), `""`, `"`)
	}
	cfg = raw
	spec, err := emobench.DecodeRunSpec(json.RawMessage(cfg))
	if err != nil {
		t.Fatalf("config %q: %v", cfg, err)
	}
	return spec
}

func TestRun_TasksFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath, file := filepath.Join(dir, "t.db"), filepath.Join(dir, "tasks.json")
	writeTasks(t, file, fileTasks(t, 3))
	out := mustRun(t, "--db", dbPath, "run", "--tasks-file", file, "--agent", "oracle", "--condition", "with-emotions")
	if !strings.Contains(out, "3 episodes to run") {
		t.Fatalf("output:\n%s", out)
	}
	spec := runConfig(t, dbPath)
	if spec.TaskSource != "file" || spec.TaskSet != file || len(spec.TaskSetSHA256) != 64 || spec.Domain != "retail" ||
		strings.Join(spec.Tasks, ",") != "retail-test-900,retail-test-901,retail-test-902" {
		t.Fatalf("spec %+v", spec)
	}
	got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT COUNT(*), SUM(passed) FROM trajectory_outcomes")
	if !strings.Contains(got, "3,3") {
		t.Fatalf("outcomes:\n%s", got)
	}
	// --tasks and --shard select among the file's tasks.
	mustRun(t, "--db", dbPath, "run", "--tasks-file", file, "--tasks", "retail-test-901", "--agent", "oracle", "--condition", "with-emotions", "--name", "one")
	if spec := runConfig(t, dbPath); strings.Join(spec.Tasks, ",") != "retail-test-901" {
		t.Fatalf("--tasks: %v", spec.Tasks)
	}
	r := runCLI(t, "", "--db", dbPath, "run", "--tasks-file", file, "--tasks", "retail-test-000", "--agent", "oracle")
	if r.code != 2 || !strings.Contains(r.stderr, `no test task "retail-test-000"`) {
		t.Fatalf("a task not in the file: exit %d, %q", r.code, r.stderr)
	}
	// Resume reads the file again, and refuses it once it changed.
	if out := mustRun(t, "--db", dbPath, "run", "--resume", "1"); !strings.Contains(out, "0 episodes to run (3 already stored)") {
		t.Fatalf("resume:\n%s", out)
	}
	writeTasks(t, file, fileTasks(t, 2))
	r = runCLI(t, "", "--db", dbPath, "run", "--resume", "1")
	if r.code != 2 || !strings.Contains(r.stderr, "has changed since") {
		t.Fatalf("resume over a changed file: exit %d, %q", r.code, r.stderr)
	}
	r = runCLI(t, "", "--db", dbPath, "run", "--resume", "1", "--tasks-file", file)
	if r.code != 2 || !strings.Contains(r.stderr, "drop --tasks-file") {
		t.Fatalf("resume with --tasks-file: exit %d, %q", r.code, r.stderr)
	}
}

func TestRun_TasksFileErr(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	tasks := fileTasks(t, 2)
	tasks[1].Instruction = ""
	writeTasks(t, bad, tasks)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tasks-file", filepath.Join(dir, "none.json")}, "--tasks-file: open"},
		{[]string{"--tasks-file", bad}, "--tasks-file " + bad + ": decode tasks: task 1: task retail-test-901: no instruction"},
		{[]string{"--tasks-file", bad, "--task-set", "x"}, "not both"},
		{[]string{"--task-set", "x"}, "--task-set x: no database at"},
	} {
		r := runCLI(t, "", append([]string{"--db", filepath.Join(dir, "t.db"), "run", "--agent", "oracle"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "t.db")); err == nil {
		t.Fatal("a refused run created the database")
	}
}

func TestRun_TaskSet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "t.db")
	store, err := db.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	tasks := fileTasks(t, 2)
	_, err = store.CreateTaskSet(ctx, db.TaskSet{Name: "two", Domain: "retail", Split: emobench.SplitTest, GeneratorVersion: "1", CreatedAt: time.Now()}, tasks, false)
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", dbPath, "run", "--task-set", "nope", "--agent", "oracle")
	if r.code != 2 || !strings.Contains(r.stderr, `no task set named "nope"`) {
		t.Fatalf("unknown set: exit %d, %q", r.code, r.stderr)
	}
	out := mustRun(t, "--db", dbPath, "run", "--task-set", "two", "--agent", "oracle", "--condition", "without-emotions")
	if !strings.Contains(out, "2 episodes to run") {
		t.Fatalf("output:\n%s", out)
	}
	spec := runConfig(t, dbPath)
	if spec.TaskSource != "db" || spec.TaskSet != "two" || len(spec.TaskSetSHA256) != 64 || strings.Join(spec.Tasks, ",") != "retail-test-900,retail-test-901" {
		t.Fatalf("spec %+v", spec)
	}
	if out := mustRun(t, "--db", dbPath, "run", "--resume", "1"); !strings.Contains(out, "0 episodes to run") {
		t.Fatalf("resume:\n%s", out)
	}
}

// A tasks file is checked whole before any run is created: a duplicate id
// or a gold action that cannot replay leaves no database behind.
func TestRun_TasksFileCheckedWhole(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(tasks []emobench.TaskSpec)
		want string
	}{
		{"duplicate id", func(ts []emobench.TaskSpec) { ts[1].ID = ts[0].ID }, `task 0 and task 1 share the id "retail-test-900"`},
		{"unknown tool", func(ts []emobench.TaskSpec) { ts[1].Actions[0].Name = "launch_rocket" }, `task retail-test-901: gold action 0 calls "launch_rocket", which is no retail tool`},
		{"missing order", func(ts []emobench.TaskSpec) {
			ts[1].Actions = append(ts[1].Actions, emobench.Action{Name: "get_order_details", Arguments: json.RawMessage(`{"order_id":"#W0000000"}`)})
		}, "task retail-test-901: gold action"},
		{"wrong argument type", func(ts []emobench.TaskSpec) {
			ts[1].Actions = append(ts[1].Actions, emobench.Action{Name: "get_order_details", Arguments: json.RawMessage(`{"order_id":7}`)})
		}, "task retail-test-901: gold action"},
		{"unknown domain", func(ts []emobench.TaskSpec) { ts[1].Domain = "mars" }, `task retail-test-901: no domain "mars"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			tasks := fileTasks(t, 2)
			for i := range tasks { // the embedded specs' slices are shared: edit copies
				tasks[i].Actions = slices.Clone(tasks[i].Actions)
			}
			c.edit(tasks)
			path := filepath.Join(dir, "tasks.json")
			writeTasks(t, path, tasks)
			dbPath := filepath.Join(dir, "runs.db")
			r := runCLI(t, "", "--db", dbPath, "run", "--tasks-file", path, "--condition", "with-emotions", "--agent", "oracle", "--user", "scripted")
			if r.code != exitUsage || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, path) {
				t.Errorf("exit %d, stderr %q; want %d naming %s and %q", r.code, r.stderr, exitUsage, path, c.want)
			}
			if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
				t.Errorf("a refused tasks file created the database: %v", err)
			}
		})
	}
}
