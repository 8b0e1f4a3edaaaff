package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// τ²-bench's non-evaluable trajectories (infrastructure_error,
// context_window_exceeded) count as failures by default and can be left out
// of the denominators; the output says which, for the selected runs only.
func TestStatsPassK_InfraErrors(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	src := filepath.Join(realRuns, "tau2", "v1x-inline-results-airline.json")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var results map[string]any
	if err := json.Unmarshal(raw, &results); err != nil {
		t.Fatal(err)
	}
	sims := results["simulations"].([]any)
	sims[0].(map[string]any)["termination_reason"] = "infrastructure_error"
	sims[1].(map[string]any)["termination_reason"] = "context_window_exceeded"
	file := filepath.Join(t.TempDir(), "infra.json")
	data, _ := json.Marshal(results)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "infra.db")
	mustRun(t, "--db", dbPath, "ingest", file, src)
	for mode, tasks := range map[string]int{"fail": 5, "exclude": 3} {
		r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--run", "infra", "--infra-errors", mode, "--format", "json")
		var rows []passKJSON
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
			t.Fatalf("%s: exit %d %v\n%s", mode, r.code, err, r.stderr)
		}
		if len(rows) != 1 || rows[0].Tasks != tasks {
			t.Errorf("%s: rows %+v, want one row over %d tasks", mode, rows, tasks)
		}
		if !strings.Contains(r.stderr, "2 trajectories ended in a τ²-bench infrastructure_error or context_window_exceeded") || !strings.Contains(r.stderr, "--infra-errors "+mode) {
			t.Errorf("%s: stderr %q does not say how infrastructure errors were counted", mode, r.stderr)
		}
	}
	r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--run", "v1x-inline-results-airline", "--infra-errors", "exclude")
	if r.code != 0 || strings.Contains(r.stderr, "infrastructure_error") {
		t.Errorf("a run without infrastructure errors: exit %d, stderr %q; want 0 and no note", r.code, r.stderr)
	}
	if r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--infra-errors", "ignore"); r.code != 2 {
		t.Errorf("--infra-errors ignore: exit %d, want 2", r.code)
	}
}

// The report shows leaderboard results beside the user's runs of the same
// domain, and leaves out domains the user has no run of.
func TestReport_PublishedBesideRuns(t *testing.T) {
	t.Parallel()
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

// export never replaces a file or mixes with an old export unless --force.
func TestExport_ErrOverwrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "x.db")
	fixtureDB(t, dbPath)
	out := filepath.Join(dir, "all.jsonl")
	mustRun(t, "--db", dbPath, "export", "--format", "jsonl", "--out", out)
	before, _ := os.ReadFile(out)
	if r := runCLI(t, "", "--db", dbPath, "export", "--format", "jsonl", "--run", "1", "--out", out); r.code != 2 || !strings.Contains(r.stderr, "exists") {
		t.Fatalf("second export: exit %d %q, want 2 and a refusal", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(out); string(after) != string(before) {
		t.Fatal("the refused export changed the file")
	}
	mustRun(t, "--db", dbPath, "export", "--format", "jsonl", "--run", "1", "--out", out, "--force")
	tauDir := filepath.Join(dir, "tau")
	mustRun(t, "--db", dbPath, "export", "--format", "taubench", "--out", tauDir)
	if r := runCLI(t, "", "--db", dbPath, "export", "--format", "taubench", "--out", tauDir); r.code != 2 || !strings.Contains(r.stderr, "not empty") {
		t.Fatalf("export into a non-empty directory: exit %d %q, want 2", r.code, r.stderr)
	}
}

// A model name with a dot (gpt-4.1) keeps the condition its file name gives.
func TestIngest_Tau2FileNameWithDot(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	data, err := os.ReadFile(filepath.Join(realRuns, "tau2", "mock-trial-null.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "gpt-4.1-retail-with-emotions.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "d.db")
	mustRun(t, "--db", dbPath, "ingest", file)
	if got := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT condition FROM runs"); got != "condition\nwith-emotions\n" {
		t.Fatalf("condition = %q, want with-emotions", got)
	}
}

// Voice leaderboard scores are marked as such beside text runs.
func TestReport_PublishedVoiceMarked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "voice.db")
	fixtureDB(t, dbPath) // retail runs
	mustRun(t, "--db", dbPath, "ingest", filepath.Join("..", "..", "ingest", "testdata", "submission", "full.json"))
	if got := csvQuery(t, dbPath, "SELECT DISTINCT modality, submission_type FROM published_results"); !strings.Contains(got, "voice,standard") {
		t.Fatalf("published_results modality, submission_type: %q", got)
	}
	out := filepath.Join(dir, "r.html")
	mustRun(t, "--db", dbPath, "report", "--out", out)
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Model-X (voice)") {
		t.Error("report does not mark the voice submission")
	}
}
