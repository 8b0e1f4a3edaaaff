package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runs set corrects metadata a file name could not give; bad values change
// nothing.
func TestRunsSet(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "set.db")
	fixtureDB(t, dbPath)
	out := mustRun(t, "--db", dbPath, "runs", "set", "1", "--model", "qwen3-32b", "--condition", "none", "--name", "renamed", "--user-model", "gpt-4o")
	if !strings.Contains(out, "run 1 (renamed): model qwen3-32b") {
		t.Errorf("runs set said %q", out)
	}
	if got, want := csvQuery(t, dbPath, "SELECT name, agent_model, user_model, condition, domain FROM runs WHERE id = 1"), "renamed,qwen3-32b,gpt-4o,none,retail"; !strings.Contains(got, want) {
		t.Errorf("run 1 = %q, want %q", got, want)
	}
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--agent", "oracle", "--tasks", "2", "--condition", "with-emotions")
	before := csvQuery(t, dbPath, "SELECT * FROM runs")
	for _, bad := range [][]string{
		{"runs", "set", "1", "--condition", "happy"},
		{"runs", "set", "1", "--model", " "},
		{"runs", "set", "1"},
		{"runs", "set", "--model", "m"},
		{"runs", "set", "1", "--domain", "airline"},
	} {
		if r := runCLI(t, "", append([]string{"--db", dbPath}, bad...)...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", bad, r.code, r.stderr)
		}
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"runs", "set", "2", "--name", "renamed"}, `run 1 is already called "renamed"`},
		{[]string{"runs", "set", "2", "--name", "3"}, `name "3" reads as a run id`},
		{[]string{"runs", "set", "6", "--condition", "without-emotions"}, "run 6 was run by emobench"},
	} {
		if r := runCLI(t, "", append([]string{"--db", dbPath}, bad.args...)...); r.code != 1 || !strings.Contains(r.stderr, bad.want) {
			t.Errorf("%v: exit %d, stderr %q, want 1 and %q", bad.args, r.code, r.stderr, bad.want)
		}
	}
	mustRun(t, "--db", dbPath, "runs", "set", "6", "--name", "oracle-first")
	if r := runCLI(t, "", "--db", dbPath, "runs", "set", "99", "--model", "m"); r.code != 1 || !strings.Contains(r.stderr, `no run with id or name "99"`) {
		t.Errorf("unknown run: exit %d, stderr %q", r.code, r.stderr)
	}
	if after := csvQuery(t, dbPath, "SELECT * FROM runs WHERE id <> 6"); after != strings.Join(strings.Split(before, "\n")[:6], "\n")+"\n" {
		t.Errorf("refused edits changed runs:\n%s\n%s", before, after)
	}
}

// runs rm deletes whole runs in one transaction, with the tasks only they
// used; the file can then be ingested again.
func TestRunsRemove(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "rm.db")
	fixtureDB(t, dbPath)
	before := tableCounts(t, dbPath)
	mustRun(t, "--db", dbPath, "runs", "tag", "2", "--base", "1")
	if r := runCLI(t, "", "--db", dbPath, "runs", "rm", "1", "99"); r.code != 1 {
		t.Fatalf("rm with an unknown run: exit %d, want 1", r.code)
	}
	if got := tableCounts(t, dbPath); got != before {
		t.Fatalf("a refused rm changed the db: %s -> %s", before, got)
	}
	name := strings.TrimSpace(strings.TrimPrefix(csvQuery(t, dbPath, "SELECT name FROM runs WHERE id = 1"), "name\n"))
	out := mustRun(t, "--db", dbPath, "runs", "rm", "1", name)
	if !strings.Contains(out, "removed 1 run [1]") {
		t.Errorf("rm said %q", out)
	}
	orphans := sqlInt(t, dbPath, "SELECT COUNT(*) FROM tasks WHERE id NOT IN (SELECT task_id FROM trajectories)")
	dangling := sqlInt(t, dbPath, "SELECT COUNT(*) FROM messages WHERE trajectory_id NOT IN (SELECT id FROM trajectories)")
	if orphans != 0 || dangling != 0 {
		t.Errorf("after rm: %d orphan tasks, %d dangling messages", orphans, dangling)
	}
	if base := csvQuery(t, dbPath, "SELECT base_run_id IS NULL FROM runs WHERE id = 2"); !strings.Contains(base, "\n1") {
		t.Errorf("run 2 still names removed run 1 as its base: %q", base)
	}
	fixtureDB(t, dbPath) // the removed file ingests again; the others are skipped
	if got := tableCounts(t, dbPath); strings.Split(got, "\n")[1] != strings.Split(before, "\n")[1] {
		t.Errorf("after re-ingest: %s, want %s", got, before)
	}
	if r := runCLI(t, "", "--db", filepath.Join(t.TempDir(), "missing.db"), "runs", "rm", "1"); r.code != 1 || !strings.Contains(r.stderr, "no such database") {
		t.Errorf("rm on a missing db: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Ingest says when rewards will not read as a pass rate.
func TestIngest_RewardNotes(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "notes.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", filepath.Join(realRuns, "taubench", "grok-3-retail-nonbinary-reward.json"),
		filepath.Join(realRuns, "taubench", "tau-trait-gpt5-telecom-none.json"), filepath.Join(realRuns, "gpt-4.1-retail.json"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"grok-3-retail-nonbinary-reward.json: 78 of 115 rewards are partial (neither 0 nor 1)",
		"tau-trait-gpt5-telecom-none.json: 1 of 18 trajectories are not evaluated (no reward information",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	if regexp.MustCompile(`gpt-4\.1-retail\.json: \d+ of \d+`).MatchString(r.stderr) {
		t.Errorf("a reward note about a file of 0/1 rewards: %q", r.stderr)
	}
}

// runs tag changes only what its flags name.
func TestRunsTag_KeepsOtherField(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "tag.db")
	fixtureDB(t, dbPath)
	mustRun(t, "--db", dbPath, "runs", "tag", "2", "--train-domains", "retail", "--base", "1")
	mustRun(t, "--db", dbPath, "runs", "tag", "2", "--train-domains", "retail,airline")
	mustRun(t, "--db", dbPath, "runs", "tag", "2", "--base", "3")
	got := csvQuery(t, dbPath, "SELECT train_domains, base_run_id FROM runs WHERE id = 2")
	if want := "\"[\"\"retail\"\",\"\"airline\"\"]\",3"; !strings.Contains(got, want) {
		t.Errorf("tags %q, want %s", got, want)
	}
}

// A directory with nothing to ingest is an error, not a silent success.
func TestIngest_ErrEmptyDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := runCLI(t, "", "--db", filepath.Join(dir, "x.db"), "ingest", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "no *.json or *.jsonl file") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// stats gap leaves out runs of one trial per task, saying so.
func TestStatsGap_SingleTrialLeftOut(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "gap.db")
	fixtureDB(t, dbPath)
	mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--agent", "oracle", "--tasks", "2", "--condition", "with-emotions")
	r := runCLI(t, "", "--db", dbPath, "stats", "gap", "--format", "csv")
	if r.code != 0 || !strings.Contains(r.stderr, "left out 1 run with one trial per task") || !strings.Contains(r.stderr, "(oracle-retail-with-emotions)") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "oracle-retail-with-emotions") || strings.Count(r.stdout, "\n") != 6 {
		t.Errorf("gap rows:\n%s\nwant the 5 fixture runs only", r.stdout)
	}
}

// The report's intervals use the stats commands' bootstrap, and its flags.
func TestReport_BootstrapFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "boot.db")
	fixtureDB(t, dbPath)
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{nil, "95% percentile bootstrap over tasks (2,000 resamples, seed 1)"},
		{[]string{"--resamples", "500", "--level", "0.9", "--seed", "7", "--ci-method", "bca"}, "90% bca bootstrap over tasks (500 resamples, seed 7)"},
	} {
		out := filepath.Join(dir, "r.html")
		os.Remove(out)
		mustRun(t, append([]string{"--db", dbPath, "report", "--out", out}, tc.flags...)...)
		page, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), tc.want) {
			t.Errorf("report with %v lacks %q", tc.flags, tc.want)
		}
	}
	if r := runCLI(t, "", "--db", dbPath, "report", "--out", filepath.Join(dir, "x.html"), "--resamples", "5"); r.code != exitUsage {
		t.Errorf("--resamples 5: exit %d, want 2", r.code)
	}
}

// Ingest says when a task's leaf belongs to another Atlas family.
func TestIngest_TaxonomyNote(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "m-retail-with-emotions.json")
	data := `[{"task_id": 0, "reward": 1.0, "trial": 0, "traj": [{"role": "user", "content": "###STOP###"}],
		"info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "emotion_family": "fear", "emotion_leaf": "peace"}, "reward_info": {"reward": 1.0}}},
		{"task_id": 1, "reward": 1.0, "trial": 0, "traj": [{"role": "user", "content": "###STOP###"}],
		"info": {"task": {"user_id": "u", "instruction": "j", "actions": [], "emotion_family": "fear", "emotion_leaf": "anxiety"}, "reward_info": {"reward": 1.0}}}]`
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", filepath.Join(dir, "x.db"), "ingest", file)
	if want := "1 task pairs a leaf with another family than the Atlas of Emotions does: fear/peace ×1 (a state of enjoyment)"; r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
}

// stats emotions at a k no task reaches leaves the rows out and says why.
func TestStatsEmotions_KBeyondTrials(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "k.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "qwen3-retail-with-emotions.json"), filepath.Join(realRuns, "qwen3-retail-without-emotions.json"))
	r := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--k", "1,2", "--format", "csv")
	if r.code != 0 || !strings.Contains(r.stderr, "k=2: no task has 2 trials in both conditions") || strings.Contains(r.stderr, "no pairs") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if regexp.MustCompile(`(?m)^[^,]*,[^,]*,[^,]*,2,`).MatchString(r.stdout) || !strings.Contains(r.stdout, "all,-,1,59,") {
		t.Errorf("rows:\n%s", r.stdout)
	}
}

// stats emotions names the tasks it cannot pair.
func TestStatsEmotions_UnpairedNote(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "th.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "qwen3-telehealth-with-emotions.json"), filepath.Join(realRuns, "qwen3-telehealth-without-emotions.json"))
	r := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--format", "csv")
	if want := "left out 1 tasks run only with emotions and 1 run only without"; r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
	if !strings.Contains(r.stdout, ",all,-,1,7,") {
		t.Errorf("want 7 pairs:\n%s", r.stdout)
	}
}

// A run name that reads as an id is refused by ingest and run.
func TestNames_ErrNumeric(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "n.db")
	for _, args := range [][]string{
		{"ingest", "--name", "5", "testdata/error-trial.json"},
		{"run", "--domain", "retail", "--agent", "oracle", "--tasks", "1", "--condition", "with-emotions", "--name", "12"},
	} {
		if r := runCLI(t, "", append([]string{"--db", dbPath}, args...)...); r.code != exitUsage || !strings.Contains(r.stderr, "reads as a run id") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// Flag errors spell flags as users type them, with two dashes.
func TestUsage_DoubleDashFlags(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "f.db")
	for args, want := range map[string]string{
		"stats passk --bogus": "flag provided but not defined: --bogus",
		"stats passk --k":     "flag needs an argument: --k",
		"stats passk --k x":   `invalid value "x" for flag --k`,
	} {
		r := runCLI(t, "", append([]string{"--db", dbPath}, strings.Fields(args)...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", args, r.code, r.stderr, want)
		}
	}
}
