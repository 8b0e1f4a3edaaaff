package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
	"github.com/google/go-cmp/cmp"
)

// writeTasksFile writes the first n train tasks of domain as a tasks file
// and returns its path and sha256 (train: tracer filter keeps test-split
// tasks out of a selection).
func writeTasksFile(t *testing.T, domain string, n int) (string, string) {
	t.Helper()
	dom, err := all.Find(domain)
	if err != nil {
		t.Fatal(err)
	}
	var tasks []emobench.TaskSpec
	for _, task := range dom.Tasks() {
		if task.Split == emobench.SplitTrain && len(tasks) < n {
			tasks = append(tasks, task)
		}
	}
	if len(tasks) < n {
		t.Fatalf("%s has %d train tasks, want %d", domain, len(tasks), n)
	}
	data, err := json.Marshal(tasks)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tasks.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return path, hex.EncodeToString(sum[:])
}

// funnelJSON is a row of the funnel table in json.
type funnelJSON struct {
	Domain, Family                                               string
	Generated, Collected, Passed, NotAbandoned, WithinDependence int
	Kept, DependenceUnknown                                      int
}

func parseFunnel(t *testing.T, out string) []funnelJSON {
	t.Helper()
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("funnel json: %v\n%s", err, out)
	}
	rows := make([]funnelJSON, len(raw))
	for i, r := range raw {
		n := func(k string) int { return int(r[k].(float64)) }
		rows[i] = funnelJSON{Domain: r["domain"].(string), Family: r["family"].(string), Generated: n("generated"), Collected: n("collected"),
			Passed: n("passed"), NotAbandoned: n("not_abandoned"), WithinDependence: n("within_dependence"), Kept: n("kept"), DependenceUnknown: n("dependence_unknown")}
	}
	return rows
}

// TestTracer_CollectFilter collects a small tasks file with noisy:0.3 and
// the scripted user, 2 samples, then filters it.
func TestTracer_CollectFilter(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "tracer.db")
	tasks, sum := writeTasksFile(t, "retail", 3)
	out := mustRun(t, "--db", dbPath, "tracer", "collect", "--tasks-file", tasks, "--agent", "noisy:0.3", "--user", "scripted", "--trials", "2", "--concurrency", "1")
	if !strings.Contains(out, "emobench tracer filter --run 1 --run 2 --selection NAME") {
		t.Fatalf("collect output does not say how to filter:\n%s", out)
	}
	// 3 tasks × 2 samples × 2 conditions.
	if got, want := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories"), 12; got != want {
		t.Fatalf("%d trajectories, want %d", got, want)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE user_turns_per_fact IS NULL OR tool_call_share IS NULL"); got != 0 {
		t.Fatalf("%d trajectories without user dependence after collect", got)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs WHERE json_extract(config, '$.task_set_sha256') = '"+sum+"' AND json_extract(config, '$.trials') = 2"); got != 2 {
		t.Fatalf("%d runs tagged with the tasks file's sha256, want 2", got)
	}

	t.Run("DryRunStoresNothing", func(t *testing.T) {
		out := mustRun(t, "--db", dbPath, "tracer", "filter", "--dry-run", "--max-user-dependence", "3")
		if !strings.Contains(out, "nothing stored") {
			t.Fatalf("dry run output:\n%s", out)
		}
		if got := sqlInt(t, dbPath, "SELECT (SELECT COUNT(*) FROM selections) + (SELECT COUNT(*) FROM selection_trajectories)"); got != 0 {
			t.Fatalf("dry run stored %d rows", got)
		}
	})
	t.Run("StoredEqualsPrinted", func(t *testing.T) {
		printed := parseFunnel(t, mustRun(t, "--db", dbPath, "tracer", "filter", "--run", "1", "--run", "2", "--selection", "sft", "--format", "json"))
		stored := parseFunnel(t, mustRun(t, "--db", dbPath, "tracer", "funnel", "--selection", "sft", "--format", "json"))
		if diff := cmp.Diff(printed, stored); diff != "" {
			t.Fatalf("funnel (-filter +funnel):\n%s", diff)
		}
		total := printed[len(printed)-1]
		if total.Domain != "all" || total.Collected != 12 || total.Generated != 3 {
			t.Fatalf("total = %+v, want 12 collected of 3 tasks", total)
		}
		if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM selection_trajectories"); got != total.Kept {
			t.Fatalf("%d selected rows, funnel says %d kept", got, total.Kept)
		}
	})
	t.Run("ErrNameClash", func(t *testing.T) {
		r := runCLI(t, "", "--db", dbPath, "tracer", "filter", "--selection", "sft")
		if r.code != 1 || !strings.Contains(r.stderr, "--replace") {
			t.Fatalf("second filter --selection sft: exit %d, stderr %s", r.code, r.stderr)
		}
		mustRun(t, "--db", dbPath, "tracer", "filter", "--selection", "sft", "--replace", "--keep-unsatisfied")
	})
	t.Run("ErrUsage", func(t *testing.T) {
		for _, args := range [][]string{
			{"tracer", "filter"}, // no --selection, no --dry-run
			{"tracer", "filter", "--dry-run", "--selection", "x"},
			{"tracer", "filter", "--dry-run", "--format", "csv"},
			{"tracer", "filter", "--dry-run", "--max-user-dependence", "-1"},
			{"tracer", "filter", "--dry-run", "--keep-unsatisfied", "--drop-unsatisfied"},
			{"tracer", "collect", "--agent", "oracle"},
			{"tracer", "collect", "--tasks-file", tasks, "--agent", "oracle", "--trials", "0"},
			{"tracer", "collect", "--task-set", "x", "--tasks-file", tasks, "--agent", "oracle"},
		} {
			if r := runCLI(t, "", append([]string{"--db", dbPath}, args...)...); r.code != 2 {
				t.Errorf("emobench %s: exit %d, want 2\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
			}
		}
	})
}

// collect --task-set NAME runs a task set stored in the db; the funnel's
// generated counts are then the set's tasks, per family and in total.
func TestTracerCollect_Generated(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "set.db")
	path, _ := writeTasksFile(t, "retail", 5)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := sim.DecodeTasks(data)
	if err != nil {
		t.Fatal(err)
	}
	store, err := db.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	set := db.TaskSet{Name: "set7", Domain: "retail", Split: emobench.SplitTrain, GeneratorVersion: "test", Seed: 7}
	if _, err := store.CreateTaskSet(t.Context(), set, tasks, false); err != nil {
		t.Fatal(err)
	}
	store.Close()
	if r := runCLI(t, "", "--db", dbPath, "tracer", "collect", "--task-set", "nosuch", "--agent", "oracle"); r.code != 2 || !strings.Contains(r.stderr, "nosuch") {
		t.Fatalf("unknown task set: exit %d, stderr %s", r.code, r.stderr)
	}
	mustRun(t, "--db", dbPath, "tracer", "collect", "--task-set", "set7", "--agent", "oracle", "--user", "scripted", "--condition", "without-emotions")
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs WHERE json_extract(config, '$.task_set') = 'set7' AND json_extract(config, '$.task_set_sha256') = '"+tracer.TaskSetSHA256(tasks)+"'"); got != 1 {
		t.Fatalf("%d runs tagged with the task set, want 1", got)
	}
	rows := parseFunnel(t, mustRun(t, "--db", dbPath, "tracer", "filter", "--dry-run", "--format", "json"))
	if len(rows) != 2 || rows[0].Family != "none" || rows[0].Generated != 5 || rows[1].Generated != 5 || rows[1].Collected != 5 {
		t.Fatalf("funnel rows %+v: want one row none of 5 generated and collected, and the total", rows)
	}
}

func TestTracerCollect_ErrBadTasksFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`[{"id":"x","domain":"retail","split":"train"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "t.db")
	r := runCLI(t, "", "--db", dbPath, "tracer", "collect", "--tasks-file", bad, "--agent", "oracle")
	if r.code != 2 || !strings.Contains(r.stderr, bad) || !strings.Contains(r.stderr, "task 0") { // as run --tasks-file: nothing was done
		t.Fatalf("bad tasks file: exit %d, stderr %s", r.code, r.stderr)
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Fatal("a bad tasks file created the database")
	}
}

// TestTracer_EndToEndShort is the short loop: 20 tasks, noisy:0.3
// and the scripted user, 2 samples, then filter: the kept count lies
// strictly between 0 and the collected count.
func TestTracer_EndToEndShort(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("80 episodes")
	}
	dbPath := filepath.Join(t.TempDir(), "e2e.db")
	tasks, _ := writeTasksFile(t, "retail", 20)
	mustRun(t, "--db", dbPath, "tracer", "collect", "--tasks-file", tasks, "--agent", "noisy:0.3", "--user", "scripted", "--trials", "2", "--concurrency", "2")
	rows := parseFunnel(t, mustRun(t, "--db", dbPath, "tracer", "filter", "--selection", "e2e", "--max-user-dependence", "2", "--format", "json"))
	total := rows[len(rows)-1]
	if total.Collected != 80 || total.Kept <= 0 || total.Kept >= total.Collected {
		t.Fatalf("funnel total %+v: want 80 collected and 0 < kept < 80", total)
	}
	t.Logf("funnel total: %+v", total)
}

// merge, check, vacuum and runs rm work with selections present; merge
// says it does not carry them (they name the other file's trajectories),
// and the merged trajectories' dependence is computed by the next filter.
func TestTracer_MaintenanceWithSelections(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	tasks, _ := writeTasksFile(t, "retail", 2)
	mustRun(t, "--db", src, "tracer", "collect", "--tasks-file", tasks, "--agent", "oracle", "--user", "scripted", "--condition", "with-emotions")
	mustRun(t, "--db", src, "tracer", "filter", "--selection", "sft")
	mustRun(t, "--db", src, "check")
	compact := filepath.Join(dir, "compact.db")
	mustRun(t, "--db", src, "vacuum", "--out", compact)
	if got := sqlInt(t, compact, "SELECT COUNT(*) FROM selection_trajectories"); got != 2 {
		t.Fatalf("vacuumed copy holds %d selected trajectories, want 2", got)
	}

	target := filepath.Join(dir, "all.db")
	r := runCLI(t, "", "--db", target, "merge", src)
	if r.code != 0 || !strings.Contains(r.stderr, "1 Tracer selections are not merged") {
		t.Fatalf("merge: exit %d, stderr %s", r.code, r.stderr)
	}
	if got := sqlInt(t, target, "SELECT (SELECT COUNT(*) FROM selections) * 100 + (SELECT COUNT(*) FROM trajectories)"); got != 2 {
		t.Fatalf("merged db: %d (selections×100 + trajectories), want 0 selections and 2 trajectories", got)
	}
	rows := parseFunnel(t, mustRun(t, "--db", target, "tracer", "filter", "--selection", "again", "--format", "json"))
	if total := rows[len(rows)-1]; total.Kept != 2 || total.DependenceUnknown != 0 {
		t.Fatalf("filter after merge: %+v, want 2 kept, dependence computed", total)
	}
	mustRun(t, "--db", target, "check")

	mustRun(t, "--db", src, "runs", "rm", "1")
	if got := sqlInt(t, src, "SELECT COUNT(*) FROM selection_trajectories"); got != 0 {
		t.Fatalf("%d selected trajectories after their run is removed, want 0", got)
	}
	mustRun(t, "--db", src, "check")
}

// run --resume continues a collection from its tasks file while the file
// is unchanged, and refuses once it has changed.
func TestTracerCollect_Resume(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "resume.db")
	tasks, _ := writeTasksFile(t, "retail", 2)
	mustRun(t, "--db", dbPath, "tracer", "collect", "--tasks-file", tasks, "--agent", "oracle", "--user", "scripted", "--condition", "with-emotions", "--trials", "2")
	plainSQL(t, dbPath, "DELETE FROM trajectories WHERE id = 1")
	if out := mustRun(t, "--db", dbPath, "run", "--resume", "1"); !strings.Contains(out, "1 episodes to run (3 already stored)") {
		t.Fatalf("resume: %s", out)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE user_turns_per_fact IS NOT NULL"); got != 4 {
		t.Fatalf("%d trajectories with dependence after resume, want 4", got)
	}
	plainSQL(t, dbPath, "DELETE FROM trajectories WHERE id = 2")
	if err := os.WriteFile(tasks, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, "", "--db", dbPath, "run", "--resume", "1"); r.code != 2 || !strings.Contains(r.stderr, "gone or has changed") {
		t.Fatalf("resume after the file changed: exit %d, stderr %s", r.code, r.stderr)
	}
}

func TestTracerFilter_NonFiniteBounds(t *testing.T) {
	t.Parallel()
	dbPath := nativeRunDB(t)
	for _, args := range [][]string{
		{"--min-reward", "NaN"}, {"--min-reward", "-Inf"}, {"--min-reward", "+Inf"},
		{"--max-user-dependence", "NaN"}, {"--max-user-dependence", "Inf"}, {"--max-user-dependence", "-1"},
	} {
		for _, mode := range [][]string{{"--dry-run"}, {"--selection", "k1"}} {
			r := runCLI(t, "", append(append([]string{"--db", dbPath, "tracer", "filter", "--run", "1"}, args...), mode...)...)
			if r.code != exitUsage || !strings.Contains(r.stderr, args[0]) {
				t.Errorf("%v %v: exit %d, stderr %q; want %d naming %s", args, mode, r.code, r.stderr, exitUsage, args[0])
			}
		}
	}
}

// tracer filter without --run takes every run, but keeps the test split
// out of the selection: it says how many trajectories it excluded, in the
// funnel and in the summary, and --allow-test-tasks keeps them with a
// warning.
func TestTracerFilter_ExcludesTestTasks(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "split.db")
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--tasks", "2", "--condition", "with-emotions", "--agent", "oracle", "--user", "scripted")
	tasks, _ := writeTasksFile(t, "retail", 2)
	mustRun(t, "--db", dbPath, "tracer", "collect", "--tasks-file", tasks, "--agent", "oracle", "--user", "scripted", "--condition", "with-emotions")

	out := mustRun(t, "--db", dbPath, "tracer", "filter", "--selection", "sft")
	if want := "selection sft (id 1): 2 of 4 trajectories kept; 2 of test-split tasks excluded (--allow-test-tasks keeps them)"; !strings.Contains(out, want) {
		t.Errorf("filter summary does not say %q:\n%s", want, out)
	}
	if !strings.Contains(out, "test_excluded") {
		t.Errorf("funnel table has no test_excluded column:\n%s", out)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(mustRun(t, "--db", dbPath, "tracer", "funnel", "--selection", "sft", "--format", "json")), &rows); err != nil {
		t.Fatal(err)
	}
	if total := rows[len(rows)-1]; total["test_excluded"] != 2.0 || total["kept"] != 2.0 {
		t.Errorf("stored funnel total %v: want 2 test_excluded, 2 kept", total)
	}
	// The kept trajectories are the collection's (run 2), none of run 1's.
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM selection_trajectories s JOIN trajectories t ON t.id = s.trajectory_id WHERE t.run_id = 1"); got != 0 {
		t.Errorf("%d test-split trajectories in the selection, want 0", got)
	}

	r := runCLI(t, "", "--db", dbPath, "tracer", "filter", "--selection", "all", "--allow-test-tasks")
	if r.code != 0 || !strings.Contains(r.stdout, "4 of 4 trajectories kept") ||
		!strings.Contains(r.stderr, "warning: 2 kept trajectories are of test-split tasks (--allow-test-tasks): training on them leaks the test set") {
		t.Errorf("--allow-test-tasks: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// One name for one thing, as run has them: --tasks-file FILE, --task-set
// NAME, --tasks IDS, --trials K and --selection NAME. The old spellings
// still work, each with a note naming the new one; tracer collect's old
// --tasks is a file when its value ends in .json or names a file, and
// run's task ids otherwise.
func TestTracer_OldFlagSpellings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "old.db")
	tasks, _ := writeTasksFile(t, "retail", 3)
	noExt := filepath.Join(dir, "tasksfile")
	data, err := os.ReadFile(tasks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(noExt, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var spec []emobench.TaskSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}

	help := mustRun(t, "tracer", "collect", "--help")
	for _, f := range []string{"--tasks-file", "--task-set", "--tasks ", "--trials"} {
		if !strings.Contains(help, f) {
			t.Errorf("tracer collect --help does not list %s", f)
		}
	}
	for _, f := range []string{"--samples", "--generated"} {
		if strings.Contains(help, f) {
			t.Errorf("tracer collect --help lists the old %s", f)
		}
	}

	steps := []struct {
		args  []string
		notes []string
	}{
		{[]string{"tracer", "collect", "--tasks", noExt, "--samples", "2", "--name", "a", "--condition", "with-emotions"},
			[]string{"note: --tasks is now --tasks-file", "note: --samples is now --trials"}},
		{[]string{"tracer", "collect", "--tasks-file", tasks, "--tasks", spec[1].ID, "--trials", "1", "--name", "b", "--condition", "with-emotions"}, nil},
		{[]string{"tracer", "generate", "--domain", "retail", "--n", "2", "--split", "train", "--name", "set"}, []string{"note: --name is now --task-set"}},
		{[]string{"tracer", "collect", "--generated", "set", "--name", "c", "--condition", "with-emotions"}, []string{"note: --generated is now --task-set"}},
		{[]string{"tracer", "audit", "--tasks", tasks}, []string{"note: --tasks is now --tasks-file"}},
		{[]string{"tracer", "filter", "--run", "1", "--name", "old"}, []string{"note: --name is now --selection"}},
	}
	for _, s := range steps {
		r := runCLI(t, "", append([]string{"--db", dbPath}, append(s.args, agentFlags(s.args)...)...)...)
		if r.code != 0 {
			t.Fatalf("emobench %s: exit %d\nstderr %s", strings.Join(s.args, " "), r.code, r.stderr)
		}
		for _, n := range s.notes {
			if !strings.Contains(r.stderr, n) {
				t.Errorf("emobench %s: stderr %q does not say %q", strings.Join(s.args, " "), r.stderr, n)
			}
		}
		if s.notes == nil && strings.Contains(r.stderr, "note: --") {
			t.Errorf("emobench %s: a note for new spellings: %q", strings.Join(s.args, " "), r.stderr)
		}
	}
	// Run 1: the file without .json, 3 tasks × 2 trials; run 2: the one
	// task id given (--tasks IDS, not a file).
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE run_id = 1"); got != 6 {
		t.Errorf("run 1 (--tasks FILE --samples 2): %d trajectories, want 6", got)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories t JOIN tasks k ON k.id = t.task_id WHERE t.run_id = 2 AND k.task_key = '"+spec[1].ID+"'"); got != 1 || sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories WHERE run_id = 2") != 1 {
		t.Errorf("run 2 (--tasks %s): want its one trajectory only", spec[1].ID)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM selections WHERE name = 'old'"); got != 1 {
		t.Errorf("filter --name old stored %d selections named old, want 1", got)
	}
}

// agentFlags are the agent and user collect needs; none for other steps.
func agentFlags(args []string) []string {
	if args[1] == "collect" {
		return []string{"--agent", "oracle", "--user", "scripted"}
	}
	return nil
}
