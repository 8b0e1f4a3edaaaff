package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/workbench"
	"github.com/google/go-cmp/cmp"
)

// poolDB ingests testdata/pool, the worked example of the README's "How
// runs are combined": model m, user model u, retail;
//
//	run 1 with-emotions:    task 1 passes, task 2 fails
//	run 2 with-emotions:    task 2 passes, task 3 passes
//	run 3 without-emotions: task 1 passes, tasks 2 and 3 fail
//
// one trial each; tasks 1 and 2 are anger, task 3 fear.
func poolDB(t *testing.T) string {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "pool.db")
	args := []string{"--db", dbPath, "ingest", "--model", "m", "--user-model", "u", "--domain", "retail"}
	for _, f := range []string{"m-retail-with-emotions-a.json", "m-retail-with-emotions-b.json", "m-retail-without-emotions.json"} {
		args = append(args, filepath.Join("testdata", "pool", f))
	}
	mustRun(t, args...)
	return dbPath
}

// runIDs is a run_ids JSON value as int64s.
func runIDsOf(t *testing.T, row map[string]any, key string) []int64 {
	t.Helper()
	list, ok := row[key].([]any)
	if !ok {
		t.Fatalf("%s = %v (%T), want an array", key, row[key], row[key])
	}
	var ids []int64
	for _, v := range list {
		ids = append(ids, int64(v.(float64)))
	}
	return ids
}

// rowsWhere returns the rows whose key equals value.
func rowsWhere(rows []map[string]any, key, value string) []map[string]any {
	var out []map[string]any
	for _, r := range rows {
		if r[key] == value {
			out = append(out, r)
		}
	}
	return out
}

func TestPool_WorkedExample(t *testing.T) {
	t.Parallel()
	dbPath := poolDB(t)

	t.Run("PassKPerRun", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "passk", "--k", "1")
		want := []float64{1.0 / 2, 1, 1.0 / 3} // runs 1, 2, 3 alone
		if len(rows) != 3 {
			t.Fatalf("%d rows, want 3: %v", len(rows), rows)
		}
		for i, w := range want {
			checkNums(t, "run", rows[i], map[string]float64{"run_id": float64(i + 1), "pass_hat_k": w})
		}
	})

	t.Run("PassKPooled", func(t *testing.T) {
		r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--k", "1", "--pool", "--format", "json")
		var rows []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
			t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
		}
		if len(rows) != 2 {
			t.Fatalf("%d rows, want 2: %v", len(rows), rows)
		}
		// Pool of runs 1 and 2: task 1 1/1, task 2 1/2 (a fail in run 1,
		// a pass in run 2), task 3 1/1: pass^1 = (1 + 1/2 + 1)/3 = 5/6.
		if got := runIDsOf(t, rows[0], "run_ids"); !cmp.Equal(got, []int64{1, 2}) || rows[0]["pool"] != "m / u / retail / with-emotions" {
			t.Errorf("pool = %v, run_ids %v; want m / u / retail / with-emotions, [1 2]", rows[0]["pool"], got)
		}
		checkNums(t, "with pool", rows[0], map[string]float64{"pass_hat_k": 5.0 / 6, "tasks": 3, "trajectories": 4})
		checkNums(t, "without pool", rows[1], map[string]float64{"pass_hat_k": 1.0 / 3, "tasks": 3, "trajectories": 3})
		if want := "note: pool m / u / retail / with-emotions: task 2 appears in runs 1 and 2\n"; r.stderr != want {
			t.Errorf("stderr = %q, want %q", r.stderr, want)
		}
	})

	t.Run("PassKPooledQuiet", func(t *testing.T) {
		// --quiet silences notes, before or after the command.
		for _, args := range [][]string{
			{"--db", dbPath, "--quiet", "stats", "passk", "--k", "1", "--pool"},
			{"--db", dbPath, "stats", "passk", "--k", "1", "--pool", "--quiet"},
		} {
			r := runCLI(t, "", args...)
			if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "m / u / retail / with-emotions") {
				t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 0, no notes, the pooled table", args, r.code, r.stderr, r.stdout)
			}
		}
	})

	t.Run("PassKPooledMinTrials", func(t *testing.T) {
		// Under min-trials a pool's n is the sum of its runs' n (1 + 1):
		// tasks 1, 2 and 3 each have one pass in n = 2.
		rows := jsonObjects(t, "--db", dbPath, "stats", "passk", "--k", "1", "--pool", "--convention", "min-trials")
		checkNums(t, "with pool", rows[0], map[string]float64{"pass_hat_k": 0.5, "tasks": 3})
	})

	t.Run("EmotionsPerRunPair", func(t *testing.T) {
		// The runs were ingested one by one: they pair when named.
		r := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--ci", "none", "--format", "json", "--pair", "1:3", "--pair", "2:3")
		var rows []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
			t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
		}
		all := rowsWhere(rows, "dimension", "all")
		if len(all) != 2 {
			t.Fatalf("%d overall rows, want one per run pair (1 vs 3, 2 vs 3): %v", len(all), all)
		}
		// Run 1 vs 3 pairs tasks 1, 2: with (1+0)/2, without (1+0)/2.
		// Run 2 vs 3 pairs tasks 2, 3: with 1, without 0.
		for i, w := range []struct {
			with         int64
			pass, passWo float64
		}{{1, 0.5, 0.5}, {2, 1, 0}} {
			if got := runIDsOf(t, all[i], "with_run_ids"); !cmp.Equal(got, []int64{w.with}) {
				t.Errorf("row %d with_run_ids %v, want [%d]", i, got, w.with)
			}
			if got := runIDsOf(t, all[i], "without_run_ids"); !cmp.Equal(got, []int64{3}) {
				t.Errorf("row %d without_run_ids %v, want [3]", i, got)
			}
			checkNums(t, "pair", all[i], map[string]float64{"pairs": 2, "with": w.pass, "without": w.passWo, "delta": w.pass - w.passWo})
		}
		for _, note := range []string{
			"note: m / u / retail, runs 1 (with emotions) vs 3 (without): left out 0 tasks run only with emotions and 1 run only without: they have no pair\n",
			"note: m / u / retail, runs 2 (with emotions) vs 3 (without): left out 0 tasks run only with emotions and 1 run only without: they have no pair\n",
		} {
			if !strings.Contains(r.stderr, note) {
				t.Errorf("stderr lacks %q:\n%s", note, r.stderr)
			}
		}
	})

	t.Run("EmotionsPooled", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "emotions", "--pool", "--ci", "none")
		all := rowsWhere(rows, "dimension", "all")
		if len(all) != 1 {
			t.Fatalf("%d overall rows, want 1: %v", len(all), all)
		}
		if got := runIDsOf(t, all[0], "with_run_ids"); !cmp.Equal(got, []int64{1, 2}) {
			t.Errorf("with_run_ids %v, want [1 2]", got)
		}
		// Every trajectory counts: with 5/6 as in passk --pool, without 1/3.
		// McNemar matches trial 0 of run 1 (the first with-emotions run)
		// with run 3's: task 3 passes only with emotions (b = 1).
		checkNums(t, "pool", all[0], map[string]float64{"pairs": 3, "with": 5.0 / 6, "without": 1.0 / 3, "delta": 0.5, "mcnemar_b": 1, "mcnemar_c": 0})
	})

	t.Run("Readme", func(t *testing.T) {
		checkReadmeExample(t, dbPath)
	})
}

// checkReadmeExample runs every "$ emobench --db pool.db …" command of the
// README's "How runs are combined" section against dbPath and compares its
// output with the lines that follow it in the README.
func checkReadmeExample(t *testing.T, dbPath string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start := strings.Index(readme, "\n### How runs are combined\n")
	if start < 0 {
		t.Fatal(`README has no section "### How runs are combined"`)
	}
	section := readme[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	if next := strings.Index(section[4:], "\n### "); next >= 0 {
		section = section[:next+4]
	}
	blocks := strings.Split(section, "```console\n")
	checked := 0
	for _, block := range blocks[1:] {
		block = block[:strings.Index(block, "```")]
		var cmdLine string
		var want strings.Builder
		flush := func() {
			if cmdLine == "" || !strings.Contains(cmdLine, " stats ") {
				return
			}
			args := strings.Fields(strings.TrimPrefix(cmdLine, "$ emobench --db pool.db "))
			got := mustRun(t, append([]string{"--db", dbPath}, args...)...)
			if diff := cmp.Diff(want.String(), got); diff != "" {
				t.Errorf("README: %s (-README +actual):\n%s", cmdLine, diff)
			}
			checked++
		}
		for _, line := range strings.SplitAfter(block, "\n") {
			if strings.HasPrefix(line, "$ ") {
				flush()
				cmdLine, want = strings.TrimSpace(line), strings.Builder{}
				continue
			}
			want.WriteString(line)
		}
		flush()
	}
	if checked < 3 {
		t.Fatalf("checked %d README stats commands, want at least 3", checked)
	}
}

// qwen3Records reads the real qwen3 retail with-emotions file: its records
// as raw JSON, and for each task id whether it passed (reward 1 with a
// reward_info).
func qwen3Records(t *testing.T) ([]json.RawMessage, map[int]bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realRuns, "qwen3-retail-with-emotions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	passed := map[int]bool{}
	for _, r := range raw {
		var rec struct {
			TaskID int     `json:"task_id"`
			Reward float64 `json:"reward"`
			Info   struct {
				RewardInfo json.RawMessage `json:"reward_info"`
			} `json:"info"`
		}
		if err := json.Unmarshal(r, &rec); err != nil {
			t.Fatal(err)
		}
		ri := string(rec.Info.RewardInfo)
		passed[rec.TaskID] = math.Abs(rec.Reward-1) <= 1e-6 && ri != "" && ri != "null"
	}
	return raw, passed
}

// Two overlapping runs cut from the real qwen3 retail with-emotions file
// (tasks 0–39 and tasks 20–59) and the real without-emotions file. On
// main, stats emotions kept only the later run's trajectory of each shared
// (task, trial) and chart (c) averaged the runs weighted by tasks, counting
// the shared tasks twice: three numbers for one pass^1. Now each run
// stands alone, and --pool counts every trajectory once.
func TestPool_RealRunsOverlap(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	raw, passed := qwen3Records(t)
	dir := t.TempDir()
	var a, b []json.RawMessage
	passA, passB := 0, 0
	for _, r := range raw {
		var rec struct {
			TaskID int `json:"task_id"`
		}
		json.Unmarshal(r, &rec)
		if rec.TaskID < 40 {
			a = append(a, r)
			if passed[rec.TaskID] {
				passA++
			}
		}
		if rec.TaskID >= 20 {
			b = append(b, r)
			if passed[rec.TaskID] {
				passB++
			}
		}
	}
	write := func(name string, recs []json.RawMessage) string {
		data, _ := json.Marshal(recs)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	dbPath := filepath.Join(dir, "overlap.db")
	flags := []string{"--model", "qwen3", "--domain", "retail", "--condition", "with-emotions"}
	mustRun(t, append(append([]string{"--db", dbPath, "ingest"}, flags...), "--name", "qwen3-a", write("a.json", a))...)
	mustRun(t, append(append([]string{"--db", dbPath, "ingest"}, flags...), "--name", "qwen3-b", write("b.json", b))...)
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "qwen3-retail-without-emotions.json"))
	if len(a) != 40 || len(b) != 39 {
		t.Fatalf("cut %d and %d records, want 40 and 39 (task 57 is missing from the file)", len(a), len(b))
	}
	// The pool holds all 59 tasks; tasks 20–39 twice, with the same outcome.
	const poolPass1, withoutPass1 = 41.0 / 59, 39.0 / 59

	// Tasks 20–39 are in both runs: one note names the first 10 and counts the rest.
	r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--k", "1", "--pool")
	if want := "note: pool qwen3 / retail / with-emotions: 20 tasks appear in runs 1 and 2: 20, 21, 22, 23, 24, 25, 26, 27, 28, 29 and 10 more\n"; r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	passk := jsonObjects(t, "--db", dbPath, "stats", "passk", "--k", "1", "--pool")
	if len(passk) != 2 || !cmp.Equal(runIDsOf(t, passk[0], "run_ids"), []int64{1, 2}) {
		t.Fatalf("passk --pool rows: %v", passk)
	}
	checkNums(t, "passk pool", passk[0], map[string]float64{"pass_hat_k": poolPass1, "tasks": 59, "trajectories": 79})

	pooled := rowsWhere(jsonObjects(t, "--db", dbPath, "stats", "emotions", "--pool", "--ci", "none"), "dimension", "all")
	if len(pooled) != 1 {
		t.Fatalf("emotions --pool: %v", pooled)
	}
	checkNums(t, "emotions pool", pooled[0], map[string]float64{"pairs": 59, "with": poolPass1, "without": withoutPass1, "delta": poolPass1 - withoutPass1})

	perRun := rowsWhere(jsonObjects(t, "--db", dbPath, "stats", "emotions", "--ci", "none", "--pair", "1:3", "--pair", "2:3"), "dimension", "all")
	if len(perRun) != 2 {
		t.Fatalf("emotions per run: %v", perRun)
	}
	checkNums(t, "run 1 vs 3", perRun[0], map[string]float64{"pairs": 40, "with": float64(passA) / 40})
	checkNums(t, "run 2 vs 3", perRun[1], map[string]float64{"pairs": 39, "with": float64(passB) / 39})

	// Chart (c) of the pooled report is stats emotions --pool.
	store := openTestStore(t, dbPath)
	rep, err := buildReport(t.Context(), store, workbench.DefaultBootstrap, true)
	in := rep.Input
	if err != nil {
		t.Fatal(err)
	}
	if len(in.ConditionPairs) != 1 || math.Abs(in.ConditionPairs[0].With-poolPass1) > statsTol || math.Abs(in.ConditionPairs[0].Without-withoutPass1) > statsTol {
		t.Errorf("chart (c) = %+v, want with %v, without %v", in.ConditionPairs, poolPass1, withoutPass1)
	}
}

// openTestStore opens dbPath read-only for in-process report checks.
func openTestStore(t *testing.T, dbPath string) *db.DB {
	t.Helper()
	store, err := db.OpenReadOnly(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// A tuned model with two runs on one domain: per run, which one to compare
// is ambiguous and refused; --pool pools them.
func TestStatsGeneralization_TwoTunedRunsOnADomain(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "gen.db")
	generalizationDB(t, dbPath) // runs 1, 2 tuned (retail, airline); 3, 4 base
	data, err := os.ReadFile(filepath.Join("testdata", "stats", "gen-tuned-retail.json"))
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(t.TempDir(), "gen-tuned-retail-again.json")
	if err := os.WriteFile(again, append(data, '\n'), 0o644); err != nil { // another sha256
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", "--model", "tuned_m", "--domain", "retail", again)
	mustRun(t, "--db", dbPath, "runs", "tag", "5", "--train-domains", "retail", "--base", "3")

	r := runCLI(t, "", "--db", dbPath, "stats", "generalization")
	want := "stats generalization: tuned_m / none has several tuned runs on domain retail (run 1 and run 5): pool them with --pool, or tag only one"
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Fatalf("exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
	rows := jsonObjects(t, "--db", dbPath, "stats", "generalization", "--pool", "--resamples", "200")
	retail := rowsWhere(rowsWhere(rows, "domain", "retail"), "scope", "in-domain")
	if len(retail) != 1 || !cmp.Equal(runIDsOf(t, retail[0], "tuned_run_ids"), []int64{1, 5}) || !cmp.Equal(runIDsOf(t, retail[0], "base_run_ids"), []int64{3}) {
		t.Fatalf("pooled retail rows: %v", retail)
	}
	// Run 5 repeats run 1, so the pool's pass^1 is run 1's: 3/4 (see
	// TestStatsGeneralization_HandComputed).
	checkNums(t, "retail", retail[0], map[string]float64{"tuned_pass_1": 0.75, "base_pass_1": 0.25, "delta": 0.5})
}

// --pool pools a tuned run only with tuned runs of the same tags: an
// untagged run of the tuned model (run 5) is not tuned and stays out.
func TestStatsGeneralization_PoolKeepsUntaggedOut(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "gen.db")
	generalizationDB(t, dbPath) // runs 1, 2 tuned (retail, airline); 3, 4 base
	data, err := os.ReadFile(filepath.Join("testdata", "stats", "gen-tuned-retail.json"))
	if err != nil {
		t.Fatal(err)
	}
	untagged := filepath.Join(t.TempDir(), "gen-untagged-retail.json")
	if err := os.WriteFile(untagged, append(data, '\n'), 0o644); err != nil { // another sha256
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", "--model", "tuned_m", "--domain", "retail", untagged)

	rows := jsonObjects(t, "--db", dbPath, "stats", "generalization", "--pool", "--resamples", "200")
	retail := rowsWhere(rowsWhere(rows, "domain", "retail"), "scope", "in-domain")
	if len(retail) != 1 || !cmp.Equal(runIDsOf(t, retail[0], "tuned_run_ids"), []int64{1}) || !cmp.Equal(runIDsOf(t, retail[0], "base_run_ids"), []int64{3}) {
		t.Fatalf("pooled retail rows: %v", retail)
	}
	checkNums(t, "retail", retail[0], map[string]float64{"tuned_pass_1": 0.75, "base_pass_1": 0.25, "delta": 0.5})
}

// Two runs with one name (files of one name in two folders) stay apart in
// the report's charts, which key cells by label.
func TestReport_RunsSharingANameStayApart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "twins.db")
	b, err := os.ReadFile(filepath.Join("testdata", "pool", "m-retail-with-emotions-b.json"))
	if err != nil {
		t.Fatal(err)
	}
	twin := filepath.Join(dir, "m-retail-with-emotions-a.json")
	if err := os.WriteFile(twin, b, 0o644); err != nil {
		t.Fatal(err)
	}
	pool := filepath.Join("testdata", "pool")
	meta := []string{"ingest", "--model", "m", "--user-model", "u", "--domain", "retail"}
	mustRun(t, append([]string{"--db", dbPath}, append(meta, filepath.Join(pool, "m-retail-with-emotions-a.json"))...)...)
	// ingest, merge and runs set name a twin apart; an older emobench's
	// merge kept the name another db gave it.
	other := filepath.Join(dir, "other.db")
	mustRun(t, append([]string{"--db", other}, append(meta, twin)...)...)
	mustRun(t, "--db", dbPath, "merge", other)
	plainSQL(t, dbPath, "UPDATE runs SET name = 'm-retail-with-emotions-a' WHERE id = 2")
	mustRun(t, append([]string{"--db", dbPath}, append(meta, filepath.Join(pool, "m-retail-without-emotions.json"))...)...)
	store := openTestStore(t, dbPath)
	rep, err := buildReport(t.Context(), store, workbench.DefaultBootstrap, false)
	in := rep.Input
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"m-retail-with-emotions-a (run 1)", "m-retail-with-emotions-a (run 2)", "m-retail-without-emotions"}
	if diff := cmp.Diff(want, in.FamilyHeatmap.Rows); diff != "" {
		t.Errorf("heatmap rows (-want +got):\n%s", diff)
	}
}

// Runs whose agent model or domain is unknown share nothing known: --pool
// keeps each apart, and says so.
func TestPool_UnknownMetadataNotPooled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "u.db")
	for _, name := range []string{"a", "b"} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(`[{"task_id": 0, "trial": 0, "reward": 1.0, "info": {"reward_info": {"reward": 1.0}, "run": "`+name+`"}, "traj": []}]`), 0o644); err != nil {
			t.Fatal(err)
		}
		mustRun(t, "--db", dbPath, "ingest", path)
	}
	r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--k", "1", "--pool", "--format", "json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2 (one per run): %v", len(rows), rows)
	}
	for i, row := range rows {
		if got := runIDsOf(t, row, "run_ids"); !cmp.Equal(got, []int64{int64(i + 1)}) {
			t.Errorf("row %d run_ids = %v, want [%d]", i, got, i+1)
		}
	}
	want := "note: --pool: runs 1,2 have an unknown agent model or domain, so each is its own pool (set them with `emobench runs set RUN --model M`, or ingest with --model/--domain)\n"
	if r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
}

// Two pooled runs holding different tasks under one key do not overlap:
// stats emotions --pool names no overlap for that key, as stats passk
// --pool, which pools by task content, does not.
func TestPool_SameKeyOtherTaskIsNoOverlap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "k.db")
	rec := func(instruction, family string, reward float64) string {
		return fmt.Sprintf(`{"task_id": 0, "trial": 0, "reward": %v, "info": {"task": {"user_id": "u", "instruction": %q, "actions": [], "outputs": [], "emotion_family": %q}, "reward_info": {"reward": %v}}, "traj": []}`, reward, instruction, family, reward)
	}
	files := map[string]string{
		"x1-with-emotions.json":    "[" + rec("Cancel my order.", "anger", 1) + "]",
		"x2-with-emotions.json":    "[" + rec("Return my shoes.", "fear", 0) + "]",
		"x0-without-emotions.json": "[" + rec("Cancel my order.", "", 1) + "]",
	}
	for _, name := range []string{"x1-with-emotions.json", "x2-with-emotions.json", "x0-without-emotions.json"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		mustRun(t, "--db", dbPath, "ingest", "--model", "m", "--domain", "retail", path)
	}
	for _, args := range [][]string{{"stats", "passk", "--pool"}, {"stats", "emotions", "--pool", "--ci", "none"}} {
		r := runCLI(t, "", append([]string{"--db", dbPath}, args...)...)
		if r.code != 0 || strings.Contains(r.stderr, "appears in runs") {
			t.Errorf("%s: exit %d, stderr %q: want no overlap note", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}
