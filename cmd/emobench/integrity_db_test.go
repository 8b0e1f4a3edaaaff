package main

import (
	"os"
	"path/filepath"
	"testing"
)

// An empty --db, or EMOBENCH_DB set to "", is a usage error: SQLite would
// store an ingest or a paid run in a temporary database lost on exit.
func TestCLI_ErrEmptyDB(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	const want = "emobench: --db is empty (given as --db '' or EMOBENCH_DB=''): name the database file, e.g. --db runs.db\n" +
		"Run 'emobench --help' or 'emobench COMMAND --help' for usage.\n"
	t.Chdir(dir)
	if r := runCLI(t, "", "--db", "", "ingest", file); r.code != exitUsage || r.stderr != want || r.stdout != "" {
		t.Errorf("--db '' ingest: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	t.Setenv("EMOBENCH_DB", "")
	if r := runCLI(t, "", "run", "--domain", "retail", "--agent", "oracle", "--tasks", "1"); r.code != exitUsage || r.stderr != want {
		t.Errorf("EMOBENCH_DB='' run: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
	if r := runCLI(t, "", "runs"); r.code != exitUsage || r.stderr != want {
		t.Errorf("EMOBENCH_DB='' runs: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".json" {
			t.Errorf("an empty --db left %s behind", e.Name())
		}
	}
}
