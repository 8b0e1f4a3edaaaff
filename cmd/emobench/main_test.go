package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/fixtures"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// realRuns is the shared folder of real result files, relative to this package.
const realRuns = "../../../shared/realruns"

// result is what one in-process CLI invocation did.
type result struct {
	code           int
	stdout, stderr string
}

// emobench runs the CLI in-process against buffers.
func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return runCLIContext(context.Background(), stdin, args...)
}

// runCLIContext is runCLI under ctx (a deadline, say).
func runCLIContext(ctx context.Context, stdin string, args ...string) result {
	var out, errOut bytes.Buffer
	app := newApp(strings.NewReader(stdin), &out, &errOut)
	code := run(ctx, app, append([]string{"emobench"}, args...), &errOut)
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	r := runCLI(t, "", args...)
	if r.code != 0 {
		t.Fatalf("emobench %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

func requireRealRuns(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(realRuns); err != nil {
		t.Skipf("%s not found (%v): real-run tests need the shared folder", realRuns, err)
	}
}

// passKJSON is one object of `stats passk --format json`.
type passKJSON struct {
	RunID        int64   `json:"run_id"`
	Run          string  `json:"run"`
	Condition    string  `json:"condition"`
	K            int     `json:"k"`
	PassHatK     float64 `json:"pass_hat_k"`
	PassAtK      float64 `json:"pass_at_k"`
	Tasks        int     `json:"tasks"`
	Trajectories int     `json:"trajectories"`
	Convention   string  `json:"convention"`
}

func statsJSON(t *testing.T, args ...string) []passKJSON {
	t.Helper()
	out := mustRun(t, append(args, "--format", "json")...)
	var rows []passKJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stats output is not JSON: %v\n%s", err, out)
	}
	return rows
}

// tableCounts sums the row counts of every table, to check nothing changed.
func tableCounts(t *testing.T, dbPath string) string {
	t.Helper()
	return mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM tasks), (SELECT COUNT(*) FROM trajectories), (SELECT COUNT(*) FROM messages)")
}

func TestIngest_RealRuns(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	files, _ := filepath.Glob(filepath.Join(realRuns, "*.json"))
	out := mustRun(t, append([]string{"--db", dbPath, "ingest"}, files...)...)
	if got, want := strings.Count(out, "ingested as run"), len(files); got != want {
		t.Fatalf("ingested %d files, want %d:\n%s", got, want, out)
	}
	rows := statsJSON(t, "--db", dbPath, "stats", "passk", "--by", "condition",
		"--run", "qwen3-retail-with-emotions", "--run", "qwen3-retail-without-emotions")
	want := map[string]float64{"with-emotions": 0.6949, "without-emotions": 0.6610}
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2: %+v", len(rows), rows)
	}
	for _, r := range rows {
		if math.Abs(r.PassHatK-want[r.Condition]) > 5e-5 || r.Tasks != 59 || r.K != 1 || r.Convention != "per-task" {
			t.Errorf("%s: pass^1 %.4f over %d tasks, want %.4f over 59", r.Condition, r.PassHatK, r.Tasks, want[r.Condition])
		}
	}
	abandoned := mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT run, COUNT(*) FROM trajectory_outcomes WHERE termination_reason = 'user_unsatisfied' AND run LIKE 'qwen3-retail-%' GROUP BY run ORDER BY run")
	if want := "run,COUNT(*)\nqwen3-retail-with-emotions,2\nqwen3-retail-without-emotions,2\n"; abandoned != want {
		t.Errorf("user_unsatisfied counts:\n%s\nwant:\n%s", abandoned, want)
	}
	gpt := statsJSON(t, "--db", dbPath, "stats", "passk", "--run", "gpt-4.1-retail")
	if len(gpt) != 1 || math.Abs(gpt[0].PassHatK-0.5571) > 5e-5 || gpt[0].Tasks != 70 {
		t.Errorf("gpt-4.1-retail: %+v, want pass^1 0.5571 over 70 tasks", gpt)
	}
}

func TestIngest_TauBenchOddities(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "odd.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "taubench"))
	got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", `
		SELECT r.name, COUNT(*), SUM(t.passed), SUM(t.evaluated),
		       MIN(t.trial), MAX(k.task_key),
		       SUM(t.user_cost IS NULL)
		FROM trajectories t JOIN runs r ON r.id = t.run_id JOIN tasks k ON k.id = t.task_id
		GROUP BY r.id ORDER BY r.name`)
	// Expected values counted in the files with python3 json.
	want := strings.Join([]string{
		"name,COUNT(*),SUM(t.passed),SUM(t.evaluated),MIN(t.trial),MAX(k.task_key),SUM(t.user_cost IS NULL)",
		"deepseek-v3-error-only,1,0,0,0,0,1",              // error-only record
		"grok-3-retail-nonbinary-reward,115,0,115,0,99,0", // no reward within 1 ± 1e-6; keys sort as text
		"retail-single-error-record,1,0,0,10,10,1",        // trial == task id, stored as given
		"tau-trait-gpt5-telecom-none,18,13,17,0,9,1",      // one reward_info null: not evaluated; one user_cost null
		"",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("per-file outcomes (-want +got):\n%s", diff)
	}
	errors := mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT run, termination_reason, evaluated FROM trajectory_outcomes WHERE run IN ('deepseek-v3-error-only', 'retail-single-error-record') ORDER BY run")
	if want := "run,termination_reason,evaluated\ndeepseek-v3-error-only,error,0\nretail-single-error-record,error,0\n"; errors != want {
		t.Errorf("error-only records:\n%s\nwant:\n%s", errors, want)
	}
	reasons := mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT run, termination_reason, COUNT(*) FROM trajectory_outcomes WHERE run IN ('tau-trait-gpt5-telecom-none','grok-3-retail-nonbinary-reward') GROUP BY 1, 2 ORDER BY 1, 2")
	for _, line := range []string{"tau-trait-gpt5-telecom-none,max_steps,1", "grok-3-retail-nonbinary-reward,transfer,17"} {
		if !strings.Contains(reasons, line) {
			t.Errorf("termination reasons lack %q:\n%s", line, reasons)
		}
	}
	raw := mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT COUNT(*) FROM trajectories WHERE reward BETWEEN 0.6499 AND 0.65 AND json_extract(reward_info, '$.components') IS NOT NULL")
	if raw != "COUNT(*)\n1\n" {
		t.Errorf("raw non-binary reward 0.6499999999999999 with components not kept: %s", raw)
	}
}

func TestStatsPassK_FixtureGolden(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "fixture.db")
	file := filepath.Join(t.TempDir(), "passk-4trials.json")
	data, err := fixtures.FS.ReadFile(fixtures.PassKFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", file)
	for _, conv := range []string{"per-task", "min-trials"} {
		got := mustRun(t, "--db", dbPath, "stats", "passk", "--convention", conv, "--format", "markdown")
		golden := filepath.Join("testdata", "passk", conv+".md")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, []byte(got), 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), got); diff != "" {
			t.Errorf("%s table differs from %s (-want +got):\n%s", conv, golden, diff)
		}
	}
}

func TestIngest_Idempotent(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "again.db")
	file := filepath.Join(t.TempDir(), "demo-model-a-retail-with-emotions.json")
	data, _ := fixtures.FS.ReadFile("taubench/demo-model-a-retail-with-emotions.json")
	os.WriteFile(file, data, 0o644)
	mustRun(t, "--db", dbPath, "ingest", file)
	before := tableCounts(t, dbPath)
	out := mustRun(t, "--db", dbPath, "ingest", file)
	if !strings.Contains(out, "skipped, already ingested as run 1") {
		t.Fatalf("second ingest said %q, want skipped", out)
	}
	if after := tableCounts(t, dbPath); after != before {
		t.Fatalf("re-ingest changed the db: %s -> %s", before, after)
	}
}

func TestIngest_ErrBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want []string // phrases the error must hold
	}{
		{"not-json.json", []string{"not-json.json", "not JSON"}},
		{"truncated.json", []string{"truncated.json", "record 2", "truncated file"}},
		{"string-reward.json", []string{"string-reward.json", "record 1", "reward is a string"}},
		{"missing-task-id.json", []string{"missing-task-id.json", "record 2", "missing task_id"}},
		{"duplicate-pair.json", []string{"duplicate-pair.json", "record 2", "duplicate (task_id 0, trial 0), first seen at record 0", "--on-duplicate keep-last"}},
	}
	good := filepath.Join(t.TempDir(), "good-retail.json")
	data, _ := fixtures.FS.ReadFile(fixtures.PassKFile)
	os.WriteFile(good, data, 0o644)
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			dbPath := filepath.Join(t.TempDir(), "bad.db")
			mustRun(t, "--db", dbPath, "ingest", good)
			before := tableCounts(t, dbPath)
			r := runCLI(t, "", "--db", dbPath, "ingest", filepath.Join("testdata", "bad", tt.file))
			if r.code != 1 {
				t.Fatalf("exit %d, want 1; stderr %s", r.code, r.stderr)
			}
			for _, phrase := range tt.want {
				if !strings.Contains(r.stderr, phrase) {
					t.Errorf("error %q lacks %q", r.stderr, phrase)
				}
			}
			if after := tableCounts(t, dbPath); after != before {
				t.Fatalf("a bad file changed the db: %s -> %s", before, after)
			}
		})
	}
}

func TestIngest_ErrBadFileOthersStillIngested(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "mixed.db")
	good := filepath.Join(t.TempDir(), "x-retail.json")
	data, _ := fixtures.FS.ReadFile(fixtures.PassKFile)
	os.WriteFile(good, data, 0o644)
	r := runCLI(t, "", "--db", dbPath, "ingest", "testdata/bad/string-reward.json", good, "no-such-file.json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1", r.code)
	}
	if !strings.Contains(r.stdout, "x-retail.json: ingested as run 1") || !strings.Contains(r.stderr, "no-such-file.json") {
		t.Fatalf("stdout %q stderr %q: want the good file ingested and the missing one named", r.stdout, r.stderr)
	}
}

func TestIngest_KeepLast(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "dup.db")
	out := mustRun(t, "--db", dbPath, "ingest", "--on-duplicate", "keep-last", "testdata/bad/duplicate-pair.json")
	if !strings.Contains(out, "2 trajectories") || !strings.Contains(out, "1 duplicate") {
		t.Fatalf("output %q: want 2 trajectories stored and 1 duplicate replaced", out)
	}
}

func TestIngest_Flags(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "flags.db")
	mustRun(t, "--db", dbPath, "ingest", "--model", "m1", "--user-model", "u1", "--domain", "airline",
		"--condition", "without-emotions", "--name", "my run", "--on-duplicate=keep-last", "testdata/bad/duplicate-pair.json")
	got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT name, agent_model, user_model, domain, condition FROM runs")
	if want := "name,agent_model,user_model,domain,condition\nmy run,m1,u1,airline,without-emotions\n"; got != want {
		t.Fatalf("runs = %q, want %q", got, want)
	}
	if r := runCLI(t, "", "--db", dbPath, "ingest", "--name", "one", "testdata/bad/object.json", "testdata/bad/not-json.json"); r.code != 2 {
		t.Fatalf("--name with two files: exit %d, want 2", r.code)
	}
}

func TestSQL_ReadOnly(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "ro.db")
	fixtureDB(t, dbPath)
	before := tableCounts(t, dbPath)
	r := runCLI(t, "", "--db", dbPath, "sql", "DELETE FROM runs")
	if r.code != 1 || !strings.Contains(r.stderr, "read-only") {
		t.Fatalf("DELETE: exit %d stderr %q, want 1 and a read-only error", r.code, r.stderr)
	}
	if after := tableCounts(t, dbPath); after != before {
		t.Fatalf("DELETE changed the db: %s -> %s", before, after)
	}
	r = runCLI(t, "SELECT COUNT(*) AS n FROM runs", "--db", dbPath, "sql", "--format", "json")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "[\n  {\"n\": 5}\n]" {
		t.Fatalf("stdin query: exit %d out %q", r.code, r.stdout)
	}
}

func TestCLI_ExitCodes(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "codes.db")
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"--help"}, 0},
		{[]string{"nosuch"}, 2},
		{[]string{"runs", "--bogus"}, 2},
		{[]string{"--db", dbPath, "runs", "--format", "xml"}, 2},
		{[]string{"--db", dbPath, "ingest"}, 2},
		{[]string{"--db", dbPath, "ingest", "--condition", "sad", "x.json"}, 2},
		{[]string{"--db", dbPath, "stats", "passk", "--by", "color"}, 2},
		{[]string{"--db", dbPath, "stats", "passk", "--k", "0"}, 2},
		{[]string{"--db", dbPath, "stats", "nosuch"}, 2},
		{[]string{"--db", dbPath, "sql"}, 2},
		{[]string{"--db", dbPath, "sql", "SELECT 1", "--format", "csv"}, 1}, // flags may follow arguments; no db yet
		{[]string{"--db", dbPath, "runs"}, 1},                               // no database yet
		{[]string{"--db", dbPath, "report"}, 2},
		{[]string{"--db", dbPath, "stats", "passk", "3"}, 2}, // meant --run 3
		{[]string{"--db", dbPath, "runs", "extra"}, 2},
		{[]string{"demo", "extra"}, 2},
		{[]string{"runs", "--db", dbPath}, 1}, // global flags work after the command; no database yet
	}
	for _, tt := range tests {
		if r := runCLI(t, "", tt.args...); r.code != tt.code {
			t.Errorf("emobench %s: exit %d, want %d\nstderr: %s", strings.Join(tt.args, " "), r.code, tt.code, r.stderr)
		}
	}
}

func TestCLI_HelpHasExample(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"ingest"}, {"runs"}, {"stats"}, {"stats", "passk"}, {"sql"}, {"report"}, {"demo"}, {}} {
		out := mustRun(t, append(cmd, "--help")...)
		if !strings.Contains(out, "Example:") {
			t.Errorf("emobench %s --help has no example:\n%s", strings.Join(cmd, " "), out)
		}
	}
}

func TestDemo(t *testing.T) {
	// The demo runs 2 agents × 2 conditions × 3 trials over every test
	// task of every domain (over a minute): the full suite runs it. Its
	// parts have -short tests of their own: fixtures ingested (fixtureDB),
	// oracle and noisy runs (TestRun_NoisyBelowOracle,
	// TestRun_AllDomainsBothConditions) and the report (TestReport_*).
	if testing.Short() {
		t.Skip("-short: the demo runs every domain's test tasks; the full suite runs it")
	}
	t.Parallel()
	dir := t.TempDir()
	dbPath, report := filepath.Join(dir, "demo.db"), filepath.Join(dir, "demo-report.html")
	out := mustRun(t, "demo", "--demo-db", dbPath, "--out", report)
	// 5 fixture files, then oracle and noisy:0.3 on every domain in both conditions.
	runs := 4 * len(all.Names())
	if !strings.Contains(out, "wrote "+report) || strings.Count(out, "ingested as run") != 5 || strings.Count(out, "episodes in") != runs {
		t.Fatalf("demo output:\n%s", out)
	}
	html, err := os.ReadFile(report)
	if err != nil || !bytes.Contains(html, []byte("demo-model-a-retail-with-emotions")) {
		t.Fatalf("report %s missing or without runs (%v)", report, err)
	}
	again := mustRun(t, "demo", "--demo-db", dbPath, "--out", report)
	if strings.Count(again, "skipped") != 5 || strings.Count(again, ": 0 episodes to run") != runs {
		t.Fatalf("second demo should skip every fixture:\n%s", again)
	}
}

// A query may start with an SQL comment, which looks like a flag.
func TestSQL_LeadingComment(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "c.db")
	fixtureDB(t, dbPath)
	got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "-- runs per condition\nSELECT condition, COUNT(*) AS n FROM runs GROUP BY 1 ORDER BY 1")
	if want := "condition,n\nnone,1\nwith-emotions,2\nwithout-emotions,2\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestSQL_ErrAttachCreatesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "a.db")
	fixtureDB(t, dbPath)
	for _, q := range []string{"ATTACH '" + filepath.Join(dir, "new.db") + "' AS x", "CREATE TEMP TABLE t (a)", "PRAGMA query_only = 0", "VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'"} {
		if r := runCLI(t, "", "--db", dbPath, "sql", q); r.code != 1 || !strings.Contains(r.stderr, "read-only") {
			t.Errorf("%s: exit %d stderr %q, want a read-only refusal", q, r.code, r.stderr)
		}
	}
	for _, name := range []string{"new.db", "copy.db"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("sql created %s", name)
		}
	}
	if got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "PRAGMA table_info(runs)"); !strings.Contains(got, "source_sha256") {
		t.Errorf("PRAGMA table_info is a read and should work: %s", got)
	}
}

func TestStatsPassK_RepeatedBy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "by.db")
	fixtureDB(t, dbPath)
	repeated := mustRun(t, "--db", dbPath, "stats", "passk", "--by", "condition", "--by", "trust", "--k", "1", "--format", "csv")
	joined := mustRun(t, "--db", dbPath, "stats", "passk", "--by", "condition,trust", "--k", "1", "--format", "csv")
	if repeated != joined || !strings.HasPrefix(repeated, "run_id,run,condition,trust,k,") {
		t.Fatalf("--by repeated:\n%s\n--by joined:\n%s", repeated, joined)
	}
}

// τ²-bench Results files and leaderboard submissions now ingest (see
// tau2_test.go); a lone τ²-bench simulation file is still refused, naming
// what to ingest instead, and forcing the τ-bench reader names the format.
func TestIngest_ErrOtherFormatsNamed(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	r := runCLI(t, "", "--db", filepath.Join(t.TempDir(), "x.db"), "ingest", filepath.Join(realRuns, "tau2/v1x-dir-layout-voice/simulations"))
	if r.code != 1 || !strings.Contains(r.stderr, "τ²-bench simulation") || !strings.Contains(r.stderr, "results.json and simulations/") {
		t.Errorf("simulations folder: exit %d, stderr %q", r.code, r.stderr)
	}
	tests := map[string]string{
		"tau2/telecom-gpt-4.1-5tasks-4trials.json":     "τ²-bench Results file",
		"submissions/qwen3-max-submission.json":        "leaderboard submission",
		"submissions/drq-27b-submission-with-bom.json": "leaderboard submission",
	}
	for path, phrase := range tests {
		r := runCLI(t, "", "--db", filepath.Join(t.TempDir(), "x.db"), "ingest", "--format", "taubench", filepath.Join(realRuns, path))
		if r.code != 1 || !strings.Contains(r.stderr, phrase) {
			t.Errorf("%s --format taubench: exit %d, stderr %q, want %q", path, r.code, r.stderr, phrase)
		}
	}
}

// τ-bench writes an errored trial without info.task; it is still a trial of
// its task (by task_id), so pass^k must count it as a failure of that task.
func TestStatsPassK_ErrorTrialCountsForItsTask(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "err.db")
	mustRun(t, "--db", dbPath, "ingest", "testdata/error-trial.json")
	rows := statsJSON(t, "--db", dbPath, "stats", "passk")
	// Task 0: 2 passes in 3 trials. pass^1 = 2/3, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = 0.
	want := []float64{2.0 / 3, 1.0 / 3, 0}
	if len(rows) != 3 {
		t.Fatalf("rows = %+v, want k = 1..3 over one task", rows)
	}
	for i, r := range rows {
		if r.Tasks != 1 || math.Abs(r.PassHatK-want[i]) > 1e-9 {
			t.Errorf("k=%d: pass^k %.4f over %d tasks, want %.4f over 1", r.K, r.PassHatK, r.Tasks, want[i])
		}
	}
}

// fixtureDB ingests the bundled synthetic fixtures (5 runs) into dbPath.
func fixtureDB(t *testing.T, dbPath string) {
	t.Helper()
	if _, err := os.Stat(dbPath); err == nil {
		ingestFixtures(t, dbPath, t.TempDir()) // into the database there
		return
	}
	// A new database: a copy of the one ingested once (shared_db_test.go).
	sharedDBCopy(t, "fixtures", dbPath, func(t *testing.T, shared string) {
		dir := filepath.Join(filepath.Dir(shared), "files") // kept: the runs' source files
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		ingestFixtures(t, shared, dir)
	})
}

// ingestFixtures writes fixtures.FS's τ-bench files into dir and ingests
// them into dbPath.
func ingestFixtures(t *testing.T, dbPath, dir string) {
	t.Helper()
	names, err := fs.Glob(fixtures.FS, "taubench/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := fixtures.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, "--db", dbPath, "ingest", dir)
}

// Flags may follow arguments, as in `emobench runs tag 7 --base 3`.
func TestCLI_FlagsAfterArguments(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "late.db")
	fixtureDB(t, dbPath)
	mustRun(t, "--db", dbPath, "runs", "tag", "2", "--train-domains", "retail,airline", "--base", "1")
	got := mustRun(t, "--db", dbPath, "sql", "SELECT id, train_domains, base_run_id FROM runs WHERE id = 2", "--format", "csv")
	if want := "id,train_domains,base_run_id\n2,\"[\"\"retail\"\",\"\"airline\"\"]\",1\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if r := runCLI(t, "", "--db", dbPath, "runs", "tag", "2", "--base", "2"); r.code != 2 {
		t.Fatalf("own base: exit %d, want 2", r.code)
	}
}

func TestStatsEmotions_RealRunsQwen3Retail(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "emo.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "qwen3-retail-with-emotions.json"), filepath.Join(realRuns, "qwen3-retail-without-emotions.json"))
	out := mustRun(t, "--db", dbPath, "stats", "emotions", "--format", "json")
	var rows []struct {
		Dimension string  `json:"dimension"`
		Pairs     int     `json:"pairs"`
		Delta     float64 `json:"delta"`
		Lo        float64 `json:"delta_lo"`
		Hi        float64 `json:"delta_hi"`
		P         float64 `json:"p"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || rows[0].Dimension != "all" {
		t.Fatalf("first row should be the overall comparison: %s", out)
	}
	all := rows[0]
	// 41/59 with − 39/59 without = 2/59.
	if all.Pairs != 59 || math.Abs(all.Delta-2.0/59) > 1e-9 || !(all.Lo < 0 && all.Hi > 0) {
		t.Fatalf("overall: %+v, want 59 pairs, Δ = +0.0339 with a CI containing 0", all)
	}
	// Discordant pairs counted in the files with python3: 8 with-only, 6 without-only passes.
	if math.Abs(all.P-analysisMcNemar(8, 6)) > 1e-12 || all.P <= 0 || all.P > 1 {
		t.Fatalf("McNemar p = %v", all.P)
	}
	table := mustRun(t, "--db", dbPath, "stats", "emotions", "--format", "table")
	if !strings.Contains(table, "0.0339") || !strings.Contains(table, "p_holm") {
		t.Fatalf("table output lacks Δ or p:\n%s", table)
	}
}

// analysisMcNemar is the exact two-sided McNemar p for b and c, computed
// here independently: 2 · Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c), capped at 1.
func analysisMcNemar(b, c int) float64 {
	n := b + c
	m := min(b, c)
	sum, coef := 0.0, 1.0
	for i := 0; i <= m; i++ {
		if i > 0 {
			coef = coef * float64(n-i+1) / float64(i)
		}
		sum += coef
	}
	return math.Min(1, 2*sum/math.Pow(2, float64(n)))
}
