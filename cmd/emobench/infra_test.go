package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// τ²-bench 1.x infrastructure errors count as failures by default and can
// be left out of the denominators; the output says which.
func TestStatsPassK_InfraErrors(t *testing.T) {
	requireRealRuns(t)
	raw, err := os.ReadFile(filepath.Join(realRuns, "tau2", "v1x-inline-results-airline.json"))
	if err != nil {
		t.Fatal(err)
	}
	var results map[string]any
	if err := json.Unmarshal(raw, &results); err != nil {
		t.Fatal(err)
	}
	sims := results["simulations"].([]any)
	sims[0].(map[string]any)["termination_reason"] = "infrastructure_error"
	file := filepath.Join(t.TempDir(), "infra.json")
	data, _ := json.Marshal(results)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "infra.db")
	mustRun(t, "--db", dbPath, "ingest", file)
	for mode, tasks := range map[string]int{"fail": 5, "exclude": 4} {
		r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--infra-errors", mode, "--format", "json")
		var rows []passKJSON
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
			t.Fatalf("%s: exit %d %v\n%s", mode, r.code, err, r.stderr)
		}
		if len(rows) != 1 || rows[0].Tasks != tasks {
			t.Errorf("%s: rows %+v, want one row over %d tasks", mode, rows, tasks)
		}
		if !strings.Contains(r.stderr, "1 trajectories ended in a τ²-bench infrastructure_error") || !strings.Contains(r.stderr, "--infra-errors "+mode) {
			t.Errorf("%s: stderr %q does not say how infrastructure errors were counted", mode, r.stderr)
		}
	}
	if r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--infra-errors", "ignore"); r.code != 2 {
		t.Errorf("--infra-errors ignore: exit %d, want 2", r.code)
	}
}

// The report shows leaderboard results beside the user's runs of the same
// domain, and leaves out domains the user has no run of.
func TestReport_PublishedBesideRuns(t *testing.T) {
	requireRealRuns(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "pub.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "qwen3-retail-with-emotions.json"), filepath.Join(realRuns, "submissions"))
	out := filepath.Join(dir, "r.html")
	mustRun(t, "--db", dbPath, "report", "--out", out)
	html, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	for _, want := range []string{"Published results beside your runs", "qwen3 (yours)", "Qwen3-Max-Thinking-Preview", "DRQ-27B"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page, `<td class="text">telecom</td>`) {
		t.Error("report lists telecom results though no run covers telecom")
	}
}
