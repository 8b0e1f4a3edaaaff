package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/emobench/emobench/export"
)

// passKWithoutRuns is `stats passk --format csv` without the run_id and run
// columns, rows sorted: what a round trip must keep when ids and names
// change.
func passKWithoutRuns(t *testing.T, dbPath string) []string {
	t.Helper()
	out := mustRun(t, "--db", dbPath, "stats", "passk", "--format", "csv", "--by", "agent_model,domain,condition")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "run_id,run,") {
		t.Fatalf("stats passk csv header %q, want run_id,run first", lines[0])
	}
	for i, l := range lines {
		lines[i] = strings.SplitN(l, ",", 3)[2] // run names hold no commas here
	}
	slices.Sort(lines[1:])
	return lines
}

// trajectoryOutcomes lists, per trajectory, what a round trip must keep,
// keyed by the run's metadata rather than its id or name.
func trajectoryOutcomes(t *testing.T, dbPath string, reasons bool) string {
	t.Helper()
	cols := "agent_model, domain, condition, task_key, trial, reward, passed, n_messages, n_user_turns, n_agent_turns, n_tool_calls, n_tool_errors"
	if reasons {
		cols += ", termination_reason, evaluated"
	}
	return mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT "+cols+" FROM trajectory_outcomes ORDER BY agent_model, domain, condition, task_key, trial")
}

// roundTrip exports every run of src in format into a directory, ingests
// that directory into a fresh db and returns the new db's path.
func roundTrip(t *testing.T, src, format string, ingestFlags ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), format)
	out := mustRun(t, "--db", src, "export", "--format", format, "--out", dir)
	runs := strings.Count(mustRun(t, "--db", src, "sql", "--format", "csv", "SELECT id FROM runs"), "\n") - 1
	if got := strings.Count(out, "wrote "); got != runs {
		t.Fatalf("export wrote %d files, want one per run (%d):\n%s", got, runs, out)
	}
	dst := filepath.Join(t.TempDir(), "back.db")
	mustRun(t, append(append([]string{"--db", dst, "ingest"}, ingestFlags...), dir)...)
	return dst
}

func checkRoundTrip(t *testing.T, src, dst string, reasons bool) {
	t.Helper()
	if diff := cmp.Diff(passKWithoutRuns(t, src), passKWithoutRuns(t, dst)); diff != "" {
		t.Errorf("stats passk changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(trajectoryOutcomes(t, src, reasons), trajectoryOutcomes(t, dst, reasons)); diff != "" {
		t.Errorf("trajectories changed (-before +after):\n%s", diff)
	}
}

func TestExport_TauBenchRoundTripFixtures(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "src.db")
	fixtureDB(t, src)
	checkRoundTrip(t, src, roundTrip(t, src, export.FormatTauBench), true)
}

func TestExport_TauBenchRoundTripRealRuns(t *testing.T) {
	t.Parallel()
	src := realRunsTauBenchDB(t)
	checkRoundTrip(t, src, roundTrip(t, src, export.FormatTauBench), true)
}

// Native runs end for reasons τ-bench spells differently (a final
// ###UNSATISFIED###, a transfer tool, the step cap with a reward_info);
// each must come back as it was.
func TestExport_TauBenchRoundTripNative(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "native.db")
	mustRun(t, "--db", src, "run", "--domain", "retail", "--agent", "noisy:0.5", "--user", "scripted",
		"--condition", "with-emotions", "--tasks", "12", "--trials", "2", "--seed", "3", "--max-steps", "9", "--name", "noisy-retail-with-emotions")
	reasons := mustRun(t, "--db", src, "sql", "--format", "csv", "SELECT DISTINCT termination_reason FROM trajectories ORDER BY 1")
	t.Logf("termination reasons: %s", strings.ReplaceAll(reasons, "\n", " "))
	// τ-bench files do not name the models; the file name gives the rest.
	dst := roundTrip(t, src, export.FormatTauBench, "--model", "noisy:0.5")
	if diff := cmp.Diff(passKWithoutRuns(t, src), passKWithoutRuns(t, dst)); diff != "" {
		t.Errorf("stats passk changed (-before +after):\n%s", diff)
	}
	// Native max_steps trajectories are evaluated (reward 0); τ-bench marks
	// the step cap by reward_info null, and the export keeps reward_info in
	// info.emobench_reward_info, where ingest reads it back.
	if diff := cmp.Diff(trajectoryOutcomes(t, src, true), trajectoryOutcomes(t, dst, true)); diff != "" {
		t.Errorf("trajectories changed (-before +after):\n%s", diff)
	}
	q := "SELECT task_key, trial, termination_reason FROM trajectory_outcomes ORDER BY task_key, trial"
	if diff := cmp.Diff(mustRun(t, "--db", src, "sql", "--format", "csv", q), mustRun(t, "--db", dst, "sql", "--format", "csv", q)); diff != "" {
		t.Errorf("termination reasons %s changed (-before +after):\n%s", strings.ReplaceAll(reasons, "\n", " "), diff)
	}
}

func TestExport_Tau2RoundTrip(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "src.db")
	fixtureDB(t, src)
	dst := roundTrip(t, src, export.FormatTau2)
	if got := mustRun(t, "--db", dst, "sql", "--format", "csv", "SELECT DISTINCT source_format FROM runs"); got != "source_format\ntau2\n" {
		t.Fatalf("re-ingested runs have source format %q, want tau2", got)
	}
	// τ²-bench has no user_unsatisfied or transfer reasons: the export keeps
	// them in simulation info, where ingest reads them back.
	checkRoundTrip(t, src, dst, true)
}

// τ²-bench files read, exported and read again keep every trajectory,
// termination reason and task (a structured user_scenario comes back as the
// same instruction).
func TestExport_Tau2RoundTripRealRuns(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	src := filepath.Join(t.TempDir(), "src.db")
	mustRun(t, "--db", src, "ingest", filepath.Join(realRuns, "tau2"))
	dst := roundTrip(t, src, export.FormatTau2)
	checkRoundTrip(t, src, dst, true)
	q := "SELECT DISTINCT domain, task_key, instruction, actions, outputs FROM tasks ORDER BY 1, 2"
	if diff := cmp.Diff(mustRun(t, "--db", src, "sql", "--format", "csv", q), mustRun(t, "--db", dst, "sql", "--format", "csv", q)); diff != "" {
		t.Errorf("tasks changed (-before +after):\n%s", diff)
	}
}

func TestExport_Tables(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "src.db")
	fixtureDB(t, src)
	counts := strings.Split(strings.Split(strings.TrimSpace(tableCounts(t, src)), "\n")[1], ",") // runs, tasks, trajectories, messages
	for _, format := range []string{export.FormatParquet, export.FormatCSV} {
		t.Run(format, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			out := mustRun(t, "--db", src, "export", "--format", format, "--out", dir)
			names := export.TableFiles(format)
			if got := strings.Count(out, "wrote "); got != len(names) {
				t.Fatalf("wrote %d files, want %d:\n%s", got, len(names), out)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != len(names) {
				t.Errorf("%s holds %d entries, want %d (no temporary files left)", dir, len(entries), len(names))
			}
			for _, name := range names {
				var want string
				switch strings.TrimSuffix(name, filepath.Ext(name)) {
				case "runs":
					want = counts[0]
				case "tasks":
					want = counts[1]
				case "trajectories":
					want = counts[2]
				case "messages":
					want = counts[3]
				}
				if got := rowCount(t, filepath.Join(dir, name)); got != want {
					t.Errorf("%s: %s rows, want %s", name, got, want)
				}
			}
		})
	}
	t.Run("task hashes match the db", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "pq")
		mustRun(t, "--db", src, "export", "--format", "parquet", "--out", dir)
		rows, err := parquet.ReadFile[export.TaskRow](filepath.Join(dir, "tasks.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.TaskSHA256+" "+*r.PairSHA256)
		}
		slices.Sort(got)
		want := strings.Split(strings.TrimSpace(mustRun(t, "--db", src, "sql", "--format", "csv",
			"SELECT content_sha256 || ' ' || pair_sha256 FROM tasks ORDER BY 1")), "\n")[1:]
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("task hashes (-db +parquet):\n%s", diff)
		}
	})
}

// rowCount returns the number of data rows of a .parquet or .csv file.
func rowCount(t *testing.T, path string) string {
	t.Helper()
	if filepath.Ext(path) == ".parquet" {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return strconv.FormatInt(pf.NumRows(), 10)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return strconv.FormatInt(int64(len(records)-1), 10)
}

func TestExport_JSONL(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "src.db")
	fixtureDB(t, src)
	path := filepath.Join(t.TempDir(), "all.jsonl")
	out := mustRun(t, "--db", src, "export", "--format", "jsonl", "--out", path, "--run", "2", "--run", "1")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := mustRun(t, "--db", src, "sql", "--format", "csv", "SELECT COUNT(*) FROM trajectories WHERE run_id IN (1, 2)")
	if got := "COUNT(*)\n" + strconv.Itoa(bytes.Count(data, []byte("\n"))) + "\n"; got != want {
		t.Errorf("%d lines, want %s (%s)", bytes.Count(data, []byte("\n")), want, out)
	}
	if !strings.HasPrefix(string(data), `{"run":{"id":2,`) {
		t.Errorf("first line %.40q…, want run 2 first (--run order)", data)
	}
}

func TestExport_OneFile(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "src.db")
	fixtureDB(t, src)
	path := filepath.Join(t.TempDir(), "one.json")
	out := mustRun(t, "--db", src, "export", "--format", "taubench", "--run", "1", "--out", path)
	if !strings.HasPrefix(out, "wrote "+path+" (run 1, ") {
		t.Errorf("output %q", out)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

func TestExport_ErrUsage(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "src.db")
	fixtureDB(t, src)
	out := t.TempDir()
	for _, args := range [][]string{
		{"export", "--out", out},
		{"export", "--format", "xml", "--out", out},
		{"export", "--format", "csv"},
		{"export", "--format", "taubench", "--out", filepath.Join(out, "all.json")}, // 5 runs, one file
		{"export", "--format", "csv", "--out", out, "stray"},
	} {
		r := runCLI(t, "", append([]string{"--db", src}, args...)...)
		if r.code != exitUsage {
			t.Errorf("emobench %s: exit %d, want %d\n%s", strings.Join(args, " "), r.code, exitUsage, r.stderr)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("usage errors wrote %d files", len(entries))
	}
	if r := runCLI(t, "", "--db", src, "export", "--format", "csv", "--out", out, "--run", "no-such-run"); r.code != exitFailure {
		t.Errorf("unknown run: exit %d, want %d", r.code, exitFailure)
	}
}

// A τ²-bench export carries the run's condition, which τ²-bench has no field
// for: a file name that says nothing still ingests with it.
func TestExport_Tau2KeepsCondition(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	fixtureDB(t, src)
	mustRun(t, "--db", src, "runs", "set", "1", "--name", "plain")
	want := mustRun(t, "--db", src, "sql", "--format", "csv", "SELECT condition FROM runs WHERE id = 1")
	if !strings.Contains(want, "emotions") {
		t.Fatalf("fixture run 1 has condition %q, want one of the emotion conditions", want)
	}
	out := filepath.Join(dir, "plain.json")
	mustRun(t, "--db", src, "export", "--run", "plain", "--format", "tau2", "--out", out)
	dst := filepath.Join(dir, "dst.db")
	mustRun(t, "--db", dst, "ingest", out)
	if got := mustRun(t, "--db", dst, "sql", "--format", "csv", "SELECT condition FROM runs"); got != want {
		t.Errorf("condition after the round trip %q, want %q", got, want)
	}
}

// A τ²-bench run exported to τ-bench keeps every termination reason and
// evaluation: agent_error simulations with a reward_info stay evaluated.
func TestExport_Tau2ToTauBench(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src.db"), filepath.Join(dir, "dst.db")
	mustRun(t, "--db", src, "ingest", filepath.Join(realRuns, "tau2", "airline-qwen2.5-7b-agent-errors.json"))
	out := filepath.Join(dir, "tb.json")
	mustRun(t, "--db", src, "export", "--format", "taubench", "--out", out)
	mustRun(t, "--db", dst, "ingest", out)
	q := "SELECT k.task_key, t.trial, t.termination_reason, t.evaluated, t.passed, t.reward FROM trajectories t JOIN tasks k ON k.id = t.task_id ORDER BY 1, 2"
	before, after := sqlCSV(t, src, q), sqlCSV(t, dst, q)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("trajectories changed (-before +after):\n%s", diff)
	}
	if !strings.Contains(before, ",error,1,0,") {
		t.Errorf("the source holds no evaluated error trajectory:\n%s", before)
	}
}

// The τ-bench export names the run's models, domain and condition in each
// record's info.emobench, so a re-ingest with no flags keeps them.
func TestExport_TauBenchRoundTripMetadata(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "native.db")
	mustRun(t, "--db", src, "run", "--domain", "airline", "--agent", "noisy:0.5", "--user", "scripted",
		"--condition", "without-emotions", "--tasks", "3", "--trials", "1", "--seed", "5", "--name", "trip")
	dst := roundTrip(t, src, export.FormatTauBench)
	q := "SELECT agent_model, user_model, domain, condition FROM runs ORDER BY id"
	got := mustRun(t, "--db", dst, "sql", "--format", "csv", q)
	if want := "agent_model,user_model,domain,condition\nnoisy:0.5,scripted,airline,without-emotions\n"; got != want {
		t.Errorf("re-ingested run metadata:\n%s\nwant:\n%s", got, want)
	}
}
