package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRecords writes, under dir, one τ-bench file per name holding a
// partially rewarded record, so that each gets the same kind of note.
func writeRecords(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	var paths []string
	for i, name := range names {
		rec := `[{"task_id": ` + string(rune('0'+i)) + `, "reward": 0.5, "info": {"reward_info": {"reward": 0.5}}, "traj": [], "trial": 0}]`
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// The same note about several files prints once, naming them; --quiet
// prints none, and still prints errors.
func TestIngest_NotesOncePerCommandAndQuiet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	paths := writeRecords(t, dir, "a-retail.json", "b-retail.json")
	r := runCLI(t, "", append([]string{"--db", filepath.Join(dir, "a.db"), "ingest"}, paths...)...)
	want := "note: 1 of 1 rewards are partial (neither 0 nor 1): a trajectory passes only with reward 1 ± 1e-6; `emobench runs` shows their mean_reward (2 sources: " +
		paths[0] + ", " + paths[1] + ")\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}

	bad := writeRecords(t, filepath.Join(dir, "bad"), "bad.json")[0]
	if err := os.WriteFile(bad, []byte("[{"), 0o644); err != nil {
		t.Fatal(err)
	}
	more := writeRecords(t, filepath.Join(dir, "q"), "c-retail.json")
	r = runCLI(t, "", "--db", filepath.Join(dir, "q.db"), "--quiet", "ingest", more[0], bad)
	if r.code != 1 || strings.Contains(r.stderr, "note:") || !strings.Contains(r.stderr, "error: "+bad+": ") {
		t.Errorf("--quiet: exit %d, stderr:\n%s\nwant exit 1, the error and no note", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, more[0]+": ingested as run 1") {
		t.Errorf("--quiet: stdout %q: want the ingested line", r.stdout)
	}
}

// A run name a stored run has is not reused: the new run gets a suffix,
// and a warning says so.
func TestIngest_DuplicateNameWarned(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "d.db")
	first := writeRecords(t, filepath.Join(dir, "x"), "m-retail.json")
	second := writeRecords(t, filepath.Join(dir, "y"), "other.json", "m-retail.json")
	mustRun(t, "--db", dbPath, "ingest", first[0])
	r := runCLI(t, "", "--db", dbPath, "ingest", second[1])
	if want := second[1] + ": ingested as run 2 (m-retail-2)"; r.code != 0 || !strings.HasPrefix(r.stdout, want) {
		t.Fatalf("exit %d, stdout %q; want it to start %q", r.code, r.stdout, want)
	}
	if want := "warning: " + second[1] + ": run 1 is already named \"m-retail\": this run is named \"m-retail-2\""; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q lacks %q", r.stderr, want)
	}
	if got, want := csvQuery(t, dbPath, "SELECT id, name FROM runs ORDER BY id"), "id,name\n1,m-retail\n2,m-retail-2\n"; got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
	// A stream already stored is skipped, with no warning about its name.
	in, err := os.ReadFile(first[0])
	if err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, string(in), "--db", dbPath, "ingest", "--name", "m-retail", "-")
	if r.code != 0 || strings.Contains(r.stderr, "warning") || !strings.Contains(r.stdout, "skipped, already ingested as run 1") {
		t.Errorf("stdin stored already: exit %d, stdout %q, stderr %q; want it skipped without a warning", r.code, r.stdout, r.stderr)
	}
}

// Metadata flags on a file already stored are not applied; a note gives
// the command that applies them.
func TestIngest_StoredFileWithFlagsNamesRunsSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "s.db")
	path := writeRecords(t, dir, "m-retail.json")[0]
	mustRun(t, "--db", dbPath, "ingest", path)
	r := runCLI(t, "", "--db", dbPath, "ingest", "--model", "gpt-4.1", "--condition", "with-emotions", "--domain", "airline", path)
	if want := path + ": skipped, already ingested as run 1 (m-retail)\n"; r.code != 0 || r.stdout != want {
		t.Errorf("exit %d, stdout %q; want %q", r.code, r.stdout, want)
	}
	for _, want := range []string{
		"note: " + path + ": the flags are not applied to a stored run: change its metadata with `emobench --db " + dbPath + " runs set 1 --model gpt-4.1 --condition with-emotions`",
		"`emobench --db " + dbPath + " runs rm 1`, then ingest the file again with --domain",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	// The command it gives works.
	mustRun(t, "--db", dbPath, "runs", "set", "1", "--model", "gpt-4.1", "--condition", "with-emotions")
	if got, want := csvQuery(t, dbPath, "SELECT agent_model, condition FROM runs"), "agent_model,condition\ngpt-4.1,with-emotions\n"; got != want {
		t.Errorf("after runs set:\n%s\nwant:\n%s", got, want)
	}
}

// The JSON Lines export is an analysis format: ingesting it says so.
func TestIngest_ErrJSONLExportNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "j.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join("testdata", "pool", "m-retail-without-emotions.json"))
	out := filepath.Join(dir, "all.jsonl")
	mustRun(t, "--db", dbPath, "export", "--format", "jsonl", "--out", out)
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", filepath.Join(dir, "again.db"), "ingest", out)
	if want := "error: " + out + ": this is emobench's JSON Lines export (emobench export --format jsonl), an analysis format, not a results format"; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
}
