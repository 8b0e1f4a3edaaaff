package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/db"
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

// fileSum is the sha256 of path's bytes.
func fileSum(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// requireNoJournalFiles fails when path has a -wal, -shm or -journal file.
func requireNoJournalFiles(t *testing.T, what, path string) {
	t.Helper()
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("%s: %s%s exists", what, filepath.Base(path), suffix)
		}
	}
}

// Another program's SQLite file is refused by every writing command without
// a byte changed; the read commands refuse it too (sql reads it; check
// names the problem), and none creates a -wal or -shm beside it.
func TestForeignDB_Untouched(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	other := filepath.Join(dir, "other.db")
	fixtureDB(t, other)
	tests := []struct {
		name  string
		setup []string
		desc  string // what the refusal says inside the parentheses
	}{
		{"version4", []string{"PRAGMA user_version = 4"}, "application_id 0, user_version 4, 2 schema objects; not emobench's schema of version 4: no table messages"},
		{"negative", []string{"PRAGMA user_version = -3"}, "application_id 0, user_version -3, 2 schema objects"},
		{"appid", []string{"PRAGMA application_id = 305419896"}, "application_id 305419896, user_version 0, 2 schema objects"},
		{"wal", []string{"PRAGMA journal_mode = WAL", "PRAGMA user_version = 7"}, "application_id 0, user_version 7, 2 schema objects"},
		// A table named like one of emobench's does not make it emobench's.
		{"lookalike", []string{"CREATE TABLE runs (id INTEGER PRIMARY KEY)", "PRAGMA user_version = 1"},
			"application_id 0, user_version 1, 3 schema objects; not emobench's schema of version 1: no table messages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "notes.db")
			plainSQL(t, path, append([]string{"CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT UNIQUE)", "INSERT INTO notes (body) VALUES ('keep me')"}, tt.setup...)...)
			requireNoJournalFiles(t, "setup", path)
			before := fileSum(t, path)
			refusal := "emobench: " + path + " is not an emobench database (" + tt.desc + "): emobench leaves it as it is\n"
			commands := [][]string{
				{"ingest", file},
				{"migrate"},
				{"merge", other},
				{"run", "--domain", "retail", "--agent", "oracle", "--tasks", "1"},
				{"runs"},
				{"stats", "passk"},
				{"report", "--out", filepath.Join(t.TempDir(), "r.html")},
			}
			for _, args := range commands {
				r := runCLI(t, "", append([]string{"--db", path}, args...)...)
				if r.code != exitFailure || r.stderr != refusal {
					t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", args[0], r.code, r.stderr, refusal)
				}
			}
			if out := mustRun(t, "--db", path, "sql", "--format", "csv", "SELECT body FROM notes"); out != "body\nkeep me\n" {
				t.Errorf("sql read %q", out)
			}
			r := runCLI(t, "", "--db", path, "check")
			if want := "problem: " + strings.TrimSuffix(strings.TrimPrefix(refusal, "emobench: "), "\n") + "\n"; r.code != exitFailure || !strings.Contains(r.stdout, want) {
				t.Errorf("check: exit %d, stdout %q; want exit 1 and %q", r.code, r.stdout, want)
			}
			if after := fileSum(t, path); after != before {
				t.Errorf("sha256 changed: %s, was %s", after, before)
			}
			requireNoJournalFiles(t, "after the commands", path)
		})
	}
}

// A file at rest after a writing command has no -wal or -shm, and the
// read-only commands create none, on such a file and on one an earlier
// emobench left in WAL mode.
func TestReadOnlyCommands_NoWALFiles(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []string{"DELETE", "WAL"} {
		path := filepath.Join(dir, mode+".db")
		fixtureDB(t, path)
		requireNoJournalFiles(t, "after ingest", path)
		plainSQL(t, path, "PRAGMA journal_mode = "+mode)
		before := fileSum(t, path)
		for _, args := range [][]string{
			{"runs"}, {"stats", "passk"}, {"sql", "SELECT COUNT(*) FROM runs"}, {"check"},
			{"report", "--out", filepath.Join(dir, mode+"-report.html")},
		} {
			mustRun(t, append([]string{"--db", path}, args...)...)
			requireNoJournalFiles(t, mode+" "+args[0], path)
		}
		if after := fileSum(t, path); after != before {
			t.Errorf("%s: the read commands changed the file", mode)
		}
	}
}

// Files of an emobench older than application_id (user_version 1 to 6,
// application_id 0) are recognised by their schema: read commands read
// them unchanged, and the first write marks them.
func TestLegacyDB_RecognisedAndMarked(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-b-retail-without-emotions.json")
	v6 := filepath.Join(dir, "v6.db")
	fixtureDB(t, v6)
	plainSQL(t, v6, "PRAGMA application_id = 0")
	v2 := filepath.Join(dir, "v2.db")
	fixtureDB(t, v2)
	plainSQL(t, v2, "DROP TABLE published_results", "DROP TABLE maintenance", "PRAGMA user_version = 2", "PRAGMA application_id = 0")
	for _, path := range []string{v6, v2} {
		name := filepath.Base(path)
		before := fileSum(t, path)
		if r := runCLI(t, "", "--db", path, "check"); r.code != exitOK {
			t.Errorf("%s check: exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
		}
		if after := fileSum(t, path); after != before {
			t.Errorf("%s: check changed the file", name)
		}
		mustRun(t, "--db", path, "ingest", file)
		if got, want := sqlInt(t, path, "PRAGMA application_id"), db.ApplicationID; got != want {
			t.Errorf("%s: application_id = %d after a write, want %d", name, got, want)
		}
		if got, want := sqlInt(t, path, "PRAGMA user_version"), db.SchemaVersion(); got != want {
			t.Errorf("%s: user_version = %d after a write, want %d", name, got, want)
		}
	}
}
