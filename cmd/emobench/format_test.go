package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sql --format json gives numbers as numbers, NULL as null and TEXT holding
// a JSON object or array as that JSON value (runs.config is one).
func TestSQL_JSONValues(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "gap.json")
	rows := jsonObjects(t, "--db", dbPath, "sql",
		`SELECT id, config, 0.25 AS share, NULL AS missing, '[1, "a"]' AS list, '{bad' AS text, '7' AS digits FROM runs`)
	if len(rows) != 1 {
		t.Fatalf("rows = %v, want 1", rows)
	}
	r := rows[0]
	if _, ok := r["config"].(map[string]any); !ok {
		t.Errorf("config = %#v, want a JSON object", r["config"])
	}
	want := map[string]any{"id": 1.0, "share": 0.25, "missing": nil, "list": []any{1.0, "a"}, "text": "{bad", "digits": "7"}
	for k, v := range want {
		if diff := cmp.Diff(v, r[k]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
}

// runs --format markdown and latex print the runs table.
func TestRuns_MarkdownAndLaTeX(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "gap.json")
	md := mustRun(t, "--db", dbPath, "runs", "--format", "markdown")
	lines := strings.Split(strings.TrimSpace(md), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "| id | name |") || !strings.HasPrefix(lines[1], "| --- |") || !strings.HasPrefix(lines[2], "| 1 | gap |") {
		t.Errorf("runs --format markdown:\n%s", md)
	}
	tex := mustRun(t, "--db", dbPath, "runs", "--format", "latex")
	if !strings.Contains(tex, `\begin{tabular}`) || !strings.Contains(tex, "1 & gap &") {
		t.Errorf("runs --format latex:\n%s", tex)
	}
}

// runs --format json gives trials_per_task as a number when a run's tasks
// have one trial count, and null beside min_trials and max_trials when
// they differ (issue 9).
func TestRuns_JSONTrialsPerTask(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "trials.db")
	record := `{"task_id": %d, "reward": 1.0, "info": {}, "traj": [{"role": "user", "content": "hi"}], "trial": %d}`
	files := map[string][][2]int{
		"gpt-4o-retail.json":  {{0, 0}, {0, 1}, {1, 0}, {1, 1}},
		"gpt-4o-airline.json": {{0, 0}, {0, 1}, {1, 0}},
	}
	for name, pairs := range files {
		var recs []string
		for _, p := range pairs {
			recs = append(recs, fmt.Sprintf(record, p[0], p[1]))
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("["+strings.Join(recs, ",")+"]"), 0o644); err != nil {
			t.Fatal(err)
		}
		mustRun(t, "--db", dbPath, "ingest", filepath.Join(dir, name))
	}
	got := map[string][3]any{}
	for _, r := range jsonObjects(t, "--db", dbPath, "runs", "--format", "json") {
		got[r["name"].(string)] = [3]any{r["trials_per_task"], r["min_trials"], r["max_trials"]}
	}
	want := map[string][3]any{"gpt-4o-retail": {2.0, 2.0, 2.0}, "gpt-4o-airline": {nil, 1.0, 2.0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trials_per_task, min_trials, max_trials by run (-want +got):\n%s", diff)
	}
	if text := mustRun(t, "--db", dbPath, "runs"); !strings.Contains(text, "1-2") {
		t.Errorf("runs table lacks trials per task 1-2:\n%s", text)
	}
}
