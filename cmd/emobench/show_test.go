package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/fixtures"
	"github.com/google/go-cmp/cmp"
)

// showDB ingests a τ-bench fixture (run 1) and testdata/show/tau2/input.json
// (run 2, named tau2-retail-show) into a new database.
func showDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "show.db")
	file := filepath.Join(dir, "demo-model-a-retail-with-emotions.json")
	data, err := fixtures.FS.ReadFile("taubench/demo-model-a-retail-with-emotions.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", file)
	mustRun(t, "--db", dbPath, "ingest", "--name", "tau2-retail-show", filepath.Join("testdata", "show", "tau2", "input.json"))
	return dbPath
}

func TestShow_Golden(t *testing.T) {
	t.Parallel()
	dbPath := showDB(t)
	tests := []struct {
		name string
		args []string
	}{
		{"taubench", []string{"show", "1"}},
		{"tau2", []string{"show", "--run", "tau2-retail-show", "--task", "refund-7", "--trial", "0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustRun(t, append([]string{"--db", dbPath}, tt.args...)...)
			golden := filepath.Join("testdata", "show", tt.name, "want.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("emobench %s differs from %s (-want +got):\n%s", strings.Join(tt.args, " "), golden, diff)
			}
		})
	}
}

// The same trajectory by id, by run name and by run id, and --trial left
// out for a task of one trial.
func TestShow_ByRunTaskTrial(t *testing.T) {
	t.Parallel()
	dbPath := showDB(t)
	for _, tt := range []struct {
		task, trial string
		forms       [][]string
	}{
		{"2", "1", [][]string{
			{"show", "--run", "demo-model-a-retail-with-emotions", "--task", "2", "--trial", "1"},
			{"show", "--task", "2", "--trial=1", "--run", "1"},
		}},
		{"exchange-3", "0", [][]string{
			{"show", "--run", "tau2-retail-show", "--task", "exchange-3"},
			{"show", "--run", "2", "--task", "exchange-3", "--trial", "0"},
		}},
	} {
		id := strings.TrimSpace(strings.TrimPrefix(csvQuery(t, dbPath, "SELECT t.id FROM trajectories t JOIN tasks k ON k.id = t.task_id WHERE k.task_key = '"+tt.task+"' AND t.trial = "+tt.trial), "id\n"))
		byID := mustRun(t, "--db", dbPath, "show", id)
		if !strings.HasPrefix(byID, "trajectory "+id+" ") || !strings.Contains(byID, " · task "+tt.task+" · trial "+tt.trial+"\n") {
			t.Fatalf("show %s (task %s, trial %s):\n%s", id, tt.task, tt.trial, byID)
		}
		for _, args := range tt.forms {
			if got := mustRun(t, append([]string{"--db", dbPath}, args...)...); got != byID {
				t.Errorf("emobench %s differs from show %s:\n%s", strings.Join(args, " "), id, cmp.Diff(byID, got))
			}
		}
	}
	full := mustRun(t, "--db", dbPath, "show", "--full", "--run", "tau2-retail-show", "--task", "refund-7", "--trial", "0")
	if !strings.Contains(full, "    Transfer when unsure.\n") || strings.Contains(full, "more lines") {
		t.Errorf("--full should print the whole system message:\n%s", full)
	}
}

func TestShow_Err(t *testing.T) {
	t.Parallel()
	dbPath := showDB(t)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"show", "999"}, 1, "emobench: no trajectory with id 999\n"},
		{[]string{"show", "--run", "tau2-retail-show", "--task", "refund-7", "--trial", "5"}, 1, `emobench: run 2 has no trial 5 of task "refund-7" (its trials: 0, 1)` + "\n"},
		{[]string{"show", "--run", "tau2-retail-show", "--task", "nosuch"}, 1, `emobench: run 2 has no task "nosuch"` + "\n"},
		{[]string{"show", "--run", "nosuch", "--task", "1"}, 1, "emobench: no run with id or name \"nosuch\" (see `emobench runs`)\n"},
		{[]string{"show", "--run", "tau2-retail-show", "--task", "refund-7"}, 2, `--trial needed: run 2 has 2 trajectories of task "refund-7" (trials 0, 1): name the trial`},
		{[]string{"show"}, 2, "show needs a TRAJECTORY id"},
		{[]string{"show", "abc"}, 2, `TRAJECTORY "abc" is not an id`},
		{[]string{"show", "1", "2"}, 2, "show takes one TRAJECTORY id, got 2 arguments"},
		{[]string{"show", "1", "--run", "1"}, 2, "not both"},
		{[]string{"show", "--task", "1"}, 2, "show needs a TRAJECTORY id, or --run RUN --task ID"},
		{[]string{"show", "--run", "1", "--task", "1", "--trial", "-1"}, 2, "trials are numbered from 0"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", append([]string{"--db", dbPath}, tt.args...)...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("emobench %s: exit %d stderr %q, want %d and %q", strings.Join(tt.args, " "), r.code, r.stderr, tt.code, tt.want)
		}
	}
	if r := runCLI(t, "", "--db", filepath.Join(t.TempDir(), "none.db"), "show", "1"); r.code != 1 || !strings.Contains(r.stderr, "no database at") {
		t.Errorf("missing db: exit %d stderr %q", r.code, r.stderr)
	}
}
