package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvaluate_CLI runs the oracle on one airline task, prints its
// transcript with show --format json, and scores that file with evaluate:
// the JSON array has the documented keys, nothing is written without
// --store, and --store writes a run listed as evaluated.
func TestEvaluate_CLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.db")
	mustRun(t, "--db", runs, "run", "--domain", "airline", "--agent", "oracle", "--user", "scripted", "--tasks", "1", "--condition", "with-emotions")
	transcript := filepath.Join(dir, "transcript.json")
	show := mustRun(t, "--db", runs, "show", "1", "--format", "json")
	if err := os.WriteFile(transcript, []byte(show), 0o644); err != nil {
		t.Fatal(err)
	}

	scored := filepath.Join(dir, "scored.db")
	out := mustRun(t, "--db", scored, "evaluate", "--domain", "airline", "--format", "json", transcript)
	var records []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &records); err != nil {
		t.Fatalf("evaluate --format json printed no JSON array: %v\n%s", err, out)
	}
	if len(records) != 1 {
		t.Fatalf("%d records, want 1", len(records))
	}
	for _, key := range []string{"record", "task_id", "reward", "recorded_reward", "checks", "tool_result_mismatches"} {
		if _, ok := records[0][key]; !ok {
			t.Errorf("record has no %q: %s", key, out)
		}
	}
	if got := string(records[0]["reward"]) + " " + string(records[0]["tool_result_mismatches"]); got != "1 0" {
		t.Errorf("reward and mismatches %q, want \"1 0\"", got)
	}
	var checks []struct {
		Name   string `json:"name"`
		Passed *bool  `json:"passed"`
		Detail string `json:"detail"`
	}
	if err := json.Unmarshal(records[0]["checks"], &checks); err != nil || len(checks) == 0 || checks[0].Name != "DB" || checks[0].Passed == nil || !*checks[0].Passed {
		t.Errorf("checks %s (%v): want DB passed first", records[0]["checks"], err)
	}
	if _, err := os.Stat(scored); !os.IsNotExist(err) {
		t.Errorf("evaluate without --store touched %s (%v)", scored, err)
	}

	table := mustRun(t, "--db", scored, "evaluate", "--domain", "airline", "--store", transcript)
	if !strings.Contains(table, "record 0") || !strings.Contains(table, "1 of 1 records pass") {
		t.Errorf("table:\n%s", table)
	}
	listed := mustRun(t, "--db", scored, "runs")
	if !strings.Contains(listed, "evaluated-transcript") || !strings.Contains(listed, "evaluated") {
		t.Errorf("runs does not list the evaluated run:\n%s", listed)
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"evaluate", transcript}, exitUsage, "--domain is needed: one of"},
		{[]string{"evaluate", "--domain", "airline"}, exitUsage, "one FILE"},
		{[]string{"evaluate", "--domain", "mars", transcript}, exitUsage, `no domain "mars"`},
		{[]string{"evaluate", "--domain", "airline", "--format", "xml", transcript}, exitUsage, "--format"},
		{[]string{"evaluate", "--domain", "airline", "--task", "nope", transcript}, exitUsage, `--task "nope"`},
		{[]string{"evaluate", "--domain", "airline", filepath.Join(dir, "absent.json")}, exitFailure, "absent.json"},
		{[]string{"evaluate", "--domain", "retail", transcript}, exitFailure, transcript + ": record 0"},
	} {
		r := runCLI(t, "", append([]string{"--db", scored}, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("emobench %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.want)
		}
	}
}
