package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// infraFile is a small τ²-bench Results file: 3 tasks × 2 trials, where
// task 0's trial 1 ended in infrastructure_error and task 1's in
// context_window_exceeded, both with a reward_info of reward 1.
var infraFile = filepath.Join("testdata", "infra", "gpt-4.1-retail-infra.json")

// passKRows returns "k=pass^k/pass@k/tasks/trajectories" for each row of
// stats passk over the one run in dbPath.
func passKRows(t *testing.T, dbPath string, args ...string) []string {
	t.Helper()
	var rows []string
	for _, r := range statsJSON(t, append([]string{"--db", dbPath, "stats", "passk", "--k", "1,2"}, args...)...) {
		rows = append(rows, fmt.Sprintf("k=%d %.4f/%.4f/%d/%d", r.K, r.PassHatK, r.PassAtK, r.Tasks, r.Trajectories))
	}
	return rows
}

// A τ-bench (or τ²-bench) export of a run with τ²-bench non-evaluable
// endings ingests again with the same pass^k, under --infra-errors fail
// and exclude: the τ-bench export marks such records with
// info.emobench_evaluable false, since their reward_info stays.
func TestExportTauBench_InfraErrorsRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	mustRun(t, "--quiet", "--db", src, "ingest", infraFile)
	want := map[string][]string{
		"fail":    {"k=1 0.5000/0.5000/3/6", "k=2 0.0000/1.0000/3/6"},
		"exclude": {"k=1 0.8333/0.8333/3/4", "k=2 0.0000/1.0000/1/2"},
	}
	for _, format := range []string{"taubench", "tau2"} {
		out := filepath.Join(dir, format+".json")
		mustRun(t, "--quiet", "--db", src, "export", "--format", format, "--out", out)
		back := filepath.Join(dir, format+".db")
		mustRun(t, "--quiet", "--db", back, "ingest", out)
		for mode, rows := range want {
			for name, db := range map[string]string{"source": src, format + " round trip": back} {
				got := passKRows(t, db, "--infra-errors", mode)
				if fmt.Sprint(got) != fmt.Sprint(rows) {
					t.Errorf("%s, --infra-errors %s: %v, want %v", name, mode, got, rows)
				}
			}
		}
		if got := mustRun(t, "--db", back, "sql", "--format", "csv", "SELECT count(*) FROM trajectories WHERE evaluable = 0 AND evaluated = 0 AND termination_reason = 'error'"); got != "count(*)\n2\n" {
			t.Errorf("%s round trip: non-evaluable error trajectories %q, want 2", format, got)
		}
	}
}

// Under --convention min-trials, --infra-errors exclude lowers each task's
// n (the run's number of trials) by its excluded trajectories, while a
// trial missing from the file still counts as a failure: task 2 keeps
// n = 2 with one trial, tasks 0 and 1 drop to n = 1.
func TestStatsPassK_MinTrialsExclude(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(infraFile)
	if err != nil {
		t.Fatal(err)
	}
	var results map[string]any
	if err := json.Unmarshal(raw, &results); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, s := range results["simulations"].([]any) {
		if s.(map[string]any)["id"] != "s2-0" { // task 2's failed trial 0
			kept = append(kept, s)
		}
	}
	results["simulations"] = kept
	dir := t.TempDir()
	file := filepath.Join(dir, "gpt-4.1-retail-gap.json")
	data, _ := json.Marshal(results)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "m.db")
	mustRun(t, "--quiet", "--db", dbPath, "ingest", file)
	for _, c := range []struct {
		conv, mode string
		want       []string
	}{
		{"min-trials", "fail", []string{"k=1 0.5000/0.5000/3/5", "k=2 0.0000/1.0000/3/5"}},
		{"min-trials", "exclude", []string{"k=1 0.8333/0.8333/3/3", "k=2 0.0000/1.0000/1/1"}},
		{"per-task", "exclude", []string{"k=1 1.0000/1.0000/3/3"}},
	} {
		got := passKRows(t, dbPath, "--convention", c.conv, "--infra-errors", c.mode)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("--convention %s --infra-errors %s: %v, want %v", c.conv, c.mode, got, c.want)
		}
	}
	// A pool of one run has the same n.
	got := passKRows(t, dbPath, "--convention", "min-trials", "--infra-errors", "exclude", "--pool")
	if want := "[k=1 0.8333/0.8333/3/3 k=2 0.0000/1.0000/1/1]"; fmt.Sprint(got) != want {
		t.Errorf("--pool: %v, want %s", got, want)
	}
}
