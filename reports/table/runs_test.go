package table_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/emobench/emobench/reports/table"
)

// Runs shows a run with no evaluated trajectory as "not evaluated" in text
// and as null with a note in csv, and a mean_reward column in text only
// when some run has partial credit.
func TestRuns(t *testing.T) {
	rows := []table.RunRow{
		{ID: 1, Name: "a", Tasks: 2, MinTrials: 2, MaxTrials: 4, Trajectories: 6, Pass1: 0.5, Provenance: "native", UserModel: "gpt-4o", UserStrategy: "verify"},
		{ID: 2, Name: "b", Tasks: 1, MinTrials: 1, MaxTrials: 1, Trajectories: 1, Pass1: math.NaN(), NotEvaluated: true, Provenance: "ingested"},
	}
	var text bytes.Buffer
	if err := table.Runs(rows, "table").Write(&text, "table"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2-4", "not evaluated", "native", "ingested"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text table lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "mean_reward") {
		t.Errorf("text table has mean_reward with no partial credit:\n%s", text.String())
	}
	var csv bytes.Buffer
	if err := table.Runs(rows, "csv").Write(&csv, "csv"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if !strings.Contains(lines[0], "pass_hat_1_note") || !strings.Contains(lines[0], "mean_reward") {
		t.Errorf("csv header = %q, want pass_hat_1_note and mean_reward", lines[0])
	}
	if !strings.Contains(lines[2], "not evaluated") {
		t.Errorf("csv row of the unevaluated run = %q, want its note", lines[2])
	}
	rows[0].PartialCredit, rows[0].MeanReward = true, 0.75
	text.Reset()
	table.Runs(rows, "table").Write(&text, "table")
	if !strings.Contains(text.String(), "mean_reward") {
		t.Errorf("text table lacks mean_reward with partial credit:\n%s", text.String())
	}
	if got := table.TrialsPerTask(3, 3); got != "3" {
		t.Errorf("TrialsPerTask(3, 3) = %q, want 3", got)
	}
	if got := table.TrialsPerTask(2, 4); got != "2-4" {
		t.Errorf("TrialsPerTask(2, 4) = %q, want 2-4", got)
	}
}

// In json, trials_per_task is a number when a run's tasks have one trial
// count and null when they differ, with min_trials and max_trials numbers.
func TestRuns_JSONTrialsPerTask(t *testing.T) {
	rows := []table.RunRow{
		{ID: 1, Name: "a", Tasks: 2, MinTrials: 2, MaxTrials: 4, Trajectories: 6, Pass1: 0.5, Provenance: "native", UserModel: "gpt-4o", UserStrategy: "verify"},
		{ID: 2, Name: "b", Tasks: 3, MinTrials: 4, MaxTrials: 4, Trajectories: 12, Pass1: 0.25, Provenance: "ingested"},
	}
	var out bytes.Buffer
	if err := table.Runs(rows, "json").Write(&out, "json"); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if len(got) != 2 {
		t.Fatalf("%d rows, want 2:\n%s", len(got), out.String())
	}
	for i, want := range []map[string]any{
		{"trials_per_task": nil, "min_trials": 2.0, "max_trials": 4.0, "user_model": "gpt-4o", "user_strategy": "verify"},
		{"trials_per_task": 4.0, "min_trials": 4.0, "max_trials": 4.0, "user_strategy": ""},
	} {
		for key, w := range want {
			if v, ok := got[i][key]; !ok || v != w {
				t.Errorf("run %d: %s = %#v (present %v), want %#v", i+1, key, v, ok, w)
			}
		}
	}
	var csv bytes.Buffer
	if err := table.Runs(rows, "csv").Write(&csv, "csv"); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(csv.String(), "\n"); strings.Contains(lines[0], "min_trials") || strings.Contains(lines[0], "user_strategy") || !strings.Contains(lines[1], ",2-4,") {
		t.Errorf("csv keeps trials_per_task as 2-4 and has no min_trials:\n%s", csv.String())
	}
}
