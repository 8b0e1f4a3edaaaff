package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A string cost is stored as its number, and ingest says so on stderr, as
// it says which record repeats a key.
func TestIngest_StringCostAndDuplicateKeyNotes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "m-retail.json")
	in := `[{"task_id": 0, "reward": 1.0, "info": {"reward_info": {}, "agent_cost": "0.5"}, "traj": [], "trial": 0},
	 {"task_id": 1, "reward": 0.0, "info": {"reward_info": {}, "user_cost": "?"}, "traj": [], "trial": 0, "trial": 1}]`
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "e.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", path)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"note: " + path + `: record 0: info.agent_cost is the string "0.5": read as 0.5` + "\n",
		"note: " + path + `: record 1: key trial appears more than once: the last value is kept` + "\n",
		"note: " + path + `: record 1: info.user_cost is the string "?", not a number: stored as unknown (NULL)` + "\n",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	got := csvQuery(t, dbPath, `SELECT trial, agent_cost, user_cost FROM trajectories ORDER BY trial`)
	if want := "trial,agent_cost,user_cost\n0,0.5,\n1,,\n"; got != want {
		t.Errorf("stored costs:\n%s\nwant:\n%s", got, want)
	}
}

// A submission in fractions is stored as written, and ingest says how it
// read it.
func TestIngest_SubmissionFractionsNote(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "submission.json")
	if err := os.WriteFile(path, []byte(`{"model_name": "m", "results": {"retail": {"pass_1": 0.62, "pass_2": 0.5}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "e.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", path)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if want := "note: " + path + ": every pass_k is at most 1 (largest 0.62): read as 0–1 fractions, not percentages\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	if got, want := csvQuery(t, dbPath, "SELECT k, pass_hat_k FROM published_results ORDER BY k"), "k,pass_hat_k\n1,0.62\n2,0.5\n"; got != want {
		t.Errorf("published_results:\n%s\nwant:\n%s", got, want)
	}
}

// A run without simulations is stored with a note like every other note:
// on stderr, once, and silenced by --quiet; stdout keeps the
// "ingested as run N" line.
func TestIngest_EmptyRunNoteIsANote(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "gpt-4.1-retail-empty.json")
	in := `{"timestamp": "2025-01-01T00:00:00", "info": {"agent_info": {"llm": "gpt-4.1"}, "environment_info": {"domain_name": "retail"}},
	 "tasks": [{"id": "0"}, {"id": "1"}], "simulations": []}`
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	wantStdout := path + ": ingested as run 1 (gpt-4.1-retail-empty): 0 trajectories; model gpt-4.1, domain retail, condition none\n"
	r := runCLI(t, "", "--db", filepath.Join(dir, "a.db"), "ingest", path)
	if wantStderr := "note: " + path + ": no simulations in this τ²-bench run (it lists 2 tasks); run 1 holds no trajectories\n"; r.code != 0 || r.stdout != wantStdout || r.stderr != wantStderr {
		t.Fatalf("exit %d\nstdout: %q\nwant:   %q\nstderr: %q\nwant:   %q", r.code, r.stdout, wantStdout, r.stderr, wantStderr)
	}
	r = runCLI(t, "", "--quiet", "--db", filepath.Join(dir, "b.db"), "ingest", path)
	if r.code != 0 || r.stdout != wantStdout || r.stderr != "" {
		t.Fatalf("--quiet: exit %d\nstdout: %q\nwant:   %q\nstderr: %q, want none", r.code, r.stdout, wantStdout, r.stderr)
	}
}

// A file name whose model part is not a model's name gives model unknown
// and one note saying why (issue #9), never an invented model; the
// domain and condition of the name still count.
func TestIngest_FileNameWithoutModelNote(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := `[{"task_id": 0, "reward": 1.0, "info": {"reward_info": {"reward": 1.0}}, "traj": [], "trial": 0}]`
	var paths []string
	for _, name := range []string{"results_no-emotion.json", "2024-05-01-retail.json", "taubench-run1.json"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(rec, "1.0}}", "1.0, \"n\": \""+name+"\"}}", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	dbPath := filepath.Join(dir, "e.db")
	r := runCLI(t, "", append([]string{"--db", dbPath, "ingest"}, paths...)...)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	fix := ": model unknown (correct it with `emobench runs set RUN --model M`, or give --model)\n"
	want := "note: " + paths[0] + `: file name results_no-emotion.json does not name a model ("results" is not a model's name)` + fix +
		"note: " + paths[1] + `: file name 2024-05-01-retail.json does not name a model ("2024-05-01" is not a model's name)` + fix +
		"note: " + paths[2] + ": file name taubench-run1.json begins with a benchmark's name (taubench), not a model's" + fix
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	got := csvQuery(t, dbPath, `SELECT name, agent_model, domain, condition FROM runs ORDER BY id`)
	if want := "name,agent_model,domain,condition\nresults_no-emotion,unknown,unknown,without-emotions\n2024-05-01-retail,unknown,retail,none\ntaubench-run1,unknown,unknown,none\n"; got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
}
