package db_test

// A .db from someone else is a program: its views run when read and its
// triggers run when written. These tests craft such files (emobench's
// schema plus hostile objects, added through a plain connection, as an
// attacker would) and check what stops each. Observed with SQLite 3.54 of
// modernc.org/sqlite:
//
//   - SQLITE_DIRECTONLY: load_extension, sqlite_log and the sqlite_dbpage
//     and dbstat tables are refused in any view or trigger, whatever the
//     settings ("unsafe use of ...").
//   - trusted_schema=OFF (Open and OpenReadOnly; SQLite's default is ON):
//     views and triggers may also use only functions and virtual tables
//     tagged innocuous, so the rest (pragma_table_info and other pragma
//     tables, rtreecheck, the FTS5 auxiliaries such as highlight) fail too.
//     Plain SQL in a trigger body (INSERT, UPDATE, DELETE on the file's own
//     tables, FTS5 tables included) still runs.
//   - defensive mode (_defensive=1): ordinary SQL cannot corrupt the file:
//     shadow tables of virtual tables (FTS5's notes_data, ...) are read-only,
//     as are sqlite_dbpage and PRAGMA writable_schema.
//   - the read-only authorizer of OpenReadOnly (with mode=ro and
//     query_only): a statement compiles only if it reads. INSERT, UPDATE
//     and DELETE (which would fire INSTEAD OF and other triggers), ATTACH
//     (which creates files), temp objects, VACUUM and pragma assignments
//     are refused before anything runs.
//   - extension loading is never enabled, so load_extension fails even in a
//     query the user types ("not authorized").
//
// TEMP triggers and views live in one connection's temp schema and are
// never stored in a file, so a file cannot carry them. readfile and
// writefile belong to the sqlite3 shell, not the library: they do not exist
// here.

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// craftDB makes an emobench database holding one run (1 trajectory, 4
// messages) and then runs stmts on it through a plain connection.
func craftDB(tb testing.TB, stmts ...string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "crafted.db")
	store, err := db.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	mustIngest(tb, store, run("a", "s1"), traj("1", 0, 1))
	if err := store.Close(); err != nil {
		tb.Fatal(err)
	}
	plainExec(tb, path, stmts...)
	return path
}

// plainExec runs stmts on path with SQLite's default settings.
func plainExec(tb testing.TB, path string, stmts ...string) {
	tb.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

// plainQuery runs q with trusted_schema on (SQLite's default) and returns
// its error, reading every row.
func plainQuery(tb testing.TB, path, q string) error {
	tb.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=trusted_schema(1)")
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// readAll runs q on store and reads every row, returning the first error.
func readAll(store *db.DB, q string) error {
	rows, err := store.Query(context.Background(), q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

func openRO(tb testing.TB, path string) *db.DB {
	tb.Helper()
	store, err := db.OpenReadOnly(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	return store
}

// Views that would do something when read fail instead, with an error that
// names the function or table.
func TestUntrusted_ViewsCannotCallUnsafeFunctions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pwned := filepath.Join(dir, "pwned")
	tests := []struct {
		name, view string
		want       string // in the error through OpenReadOnly
		trusted    string // in the error with trusted_schema on ("" = the view runs)
	}{
		// SQLITE_DIRECTONLY: refused in views whatever the settings.
		{"load_extension", "SELECT load_extension('" + filepath.Join(dir, "evil.so") + "') AS x",
			"unsafe use of load_extension()", "unsafe use of load_extension()"},
		{"sqlite_log", "SELECT sqlite_log(1, 'pwned') AS x", // writes to the error log
			"unsafe use of sqlite_log()", "unsafe use of sqlite_log()"},
		{"sqlite_dbpage", "SELECT pgno, data FROM sqlite_dbpage", // raw pages, rows the views hide
			`unsafe use of virtual table "sqlite_dbpage"`, `unsafe use of virtual table "sqlite_dbpage"`},
		// Not innocuous: only trusted_schema=OFF refuses these (harmless
		// themselves, they show the setting is in force).
		{"pragma table", "SELECT name FROM pragma_table_info('runs')",
			`unsafe use of virtual table "pragma_table_info"`, ""},
		{"rtreecheck", "SELECT rtreecheck('r') AS x",
			"unsafe use of rtreecheck()", ""},
		// Functions of the sqlite3 shell, absent from the library.
		{"writefile", "SELECT writefile('" + pwned + "', 'x') AS x",
			"no such function: writefile", "no such function: writefile"},
		{"readfile", "SELECT readfile('/etc/passwd') AS x",
			"no such function: readfile", "no such function: readfile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := craftDB(t, "CREATE VIRTUAL TABLE r USING rtree(id, a, b)", "CREATE VIEW evil_view AS "+tt.view)
			err := plainQuery(t, path, "SELECT * FROM evil_view")
			if tt.trusted == "" && err != nil {
				t.Errorf("with trusted_schema on: %v, want the view to run", err)
			} else if tt.trusted != "" && (err == nil || !strings.Contains(err.Error(), tt.trusted)) {
				t.Errorf("with trusted_schema on: err = %v, want %q", err, tt.trusted)
			}
			err = readAll(openRO(t, path), "SELECT * FROM evil_view")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("OpenReadOnly: err = %v, want %q", err, tt.want)
			}
			if _, err := os.Stat(pwned); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s was written", pwned)
			}
		})
	}
}

// A query the user types may call any function, but extensions never load.
func TestUntrusted_NoExtensionLoading(t *testing.T) {
	t.Parallel()
	store := openRO(t, craftDB(t))
	err := readAll(store, "SELECT load_extension('"+filepath.Join(t.TempDir(), "evil.so")+"')")
	if err == nil || !strings.Contains(err.Error(), "not authorized") {
		t.Fatalf("err = %v, want not authorized", err)
	}
}

// A file may redefine a view emobench's own reads use, keeping its columns:
// with an unsafe call, the read fails instead of running it.
func TestUntrusted_ReplacedViewFails(t *testing.T) {
	t.Parallel()
	path := craftDB(t,
		"DROP VIEW run_summaries",
		`CREATE VIEW run_summaries AS
		 SELECT r.id AS run_id, r.name AS run, r.agent_model AS agent_model, r.domain AS domain,
		        r.condition AS condition, 0 AS tasks, 0 AS min_trials, 0 AS max_trials,
		        0 AS trajectories, sqlite_log(1, 'pwned') AS pass_hat_1, 0 AS abandoned
		 FROM runs r`)
	store := openRO(t, path)
	_, err := store.ListRunSummaries(context.Background())
	if err == nil || !strings.Contains(err.Error(), "unsafe use of sqlite_log()") {
		t.Fatalf("err = %v, want unsafe use of sqlite_log()", err)
	}
}

// Check must notice a view that keeps emobench's name and columns but not
// its definition: here run_summaries reports every run as passed.
func TestUntrusted_CheckFindsRedefinedView(t *testing.T) {
	t.Parallel()
	path := craftDB(t,
		"DROP VIEW run_summaries",
		`CREATE VIEW run_summaries AS
		 SELECT r.id AS run_id, r.name AS run, r.agent_model AS agent_model, r.domain AS domain,
		        r.condition AS condition, 1 AS tasks, 1 AS min_trials, 1 AS max_trials,
		        1 AS trajectories, 1.0 AS pass_hat_1, 0 AS abandoned
		 FROM runs r`)
	rep, err := openRO(t, path).Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) == 0 {
		t.Fatal("Check found no problem in a file whose run_summaries view was rewritten to report pass^1 = 1")
	}
}

// Check is for files from others: a view it cannot compile (an unsafe
// function) is listed, not a reason to give up. It is the file's own, not
// emobench's, so a note: the other commands read the file too.
func TestUntrusted_CheckListsUnsafeView(t *testing.T) {
	t.Parallel()
	path := craftDB(t, "CREATE VIEW evil_view AS SELECT load_extension('/tmp/evil.so') AS x")
	rep, err := openRO(t, path).Check(context.Background())
	if err != nil {
		t.Fatalf("Check: %v, want the view listed as a problem", err)
	}
	if got, want := strings.Join(rep.Notes, "\n"), "extra view evil_view: not emobench's, left alone"; len(rep.Problems) > 0 || !strings.Contains(got, want) {
		t.Fatalf("problems %q, notes:\n%s\nwant no problem and %q", rep.Problems, got, want)
	}
}

// Writes never reach a crafted file through OpenReadOnly, so neither an
// INSTEAD OF trigger on a view nor a trigger on a table can fire.
func TestUntrusted_ReadOnlyFiresNoTrigger(t *testing.T) {
	t.Parallel()
	path := craftDB(t,
		"CREATE VIEW evil_view AS SELECT id FROM runs",
		`CREATE TRIGGER evil_instead INSTEAD OF INSERT ON evil_view
		 BEGIN DELETE FROM messages; DELETE FROM trajectories; DELETE FROM runs; END`,
		`CREATE TRIGGER evil_update INSTEAD OF UPDATE ON evil_view BEGIN DELETE FROM runs; END`,
		`CREATE TRIGGER evil_delete INSTEAD OF DELETE ON evil_view BEGIN DELETE FROM runs; END`,
		`CREATE TRIGGER evil_after AFTER UPDATE ON runs BEGIN DELETE FROM messages; END`)
	store := openRO(t, path)
	before := countsOf(t, store)
	for _, q := range []string{
		"INSERT INTO evil_view VALUES (1)",
		"UPDATE evil_view SET id = 2",
		"DELETE FROM evil_view",
		"UPDATE runs SET name = 'b'",
		"SELECT * FROM evil_view; DELETE FROM evil_view",
	} {
		err := readAll(store, q)
		if err == nil || emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s: err = %v, want a read-only EINVALID error", q, err)
		}
	}
	if got := queryText(t, store, "SELECT * FROM evil_view"); got != "1" {
		t.Errorf("evil_view = %q, want the one run", got)
	}
	if got := countsOf(t, store); got != before {
		t.Fatalf("a trigger changed the file: %s -> %s", before, got)
	}
}

// A crafted file with triggers is refused for writing (ingest, merge, run):
// trusted_schema and defensive mode would stop unsafe functions and
// corrupting writes inside a trigger, but a trigger of plain SQL would run
// (observed before Open refused triggers: it marked trajectories passed).
// Check, on a read-only connection, lists the trigger.
func TestUntrusted_TriggersOnIngest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup []string
		want  string // in the ingest error; "" = the ingest succeeds
	}{
		{"sqlite_log", []string{
			`CREATE TRIGGER evil AFTER INSERT ON trajectories BEGIN SELECT sqlite_log(1, 'pwned'); END`},
			"unsafe use of sqlite_log()"},
		{"load_extension", []string{
			`CREATE TRIGGER evil AFTER INSERT ON trajectories BEGIN SELECT load_extension('/tmp/evil.so'); END`},
			"unsafe use of load_extension()"},
		// Overwriting page 1 would destroy the file.
		{"sqlite_dbpage", []string{
			`CREATE TRIGGER evil AFTER INSERT ON trajectories
			 BEGIN INSERT INTO sqlite_dbpage (pgno, data) VALUES (1, zeroblob(4096)); END`},
			"unsafe use of virtual table"},
		// An FTS5 index's shadow table is read-only in defensive mode.
		{"fts5 shadow table", []string{
			"CREATE VIRTUAL TABLE notes USING fts5(body)",
			"INSERT INTO notes VALUES ('hello')",
			`CREATE TRIGGER evil AFTER INSERT ON trajectories
			 BEGIN UPDATE notes_data SET block = x'00' WHERE id > 0; END`},
			"notes_data may not be modified"},
		// Plain SQL on the file's own tables: nothing in SQLite stops it.
		{"plain SQL", []string{
			"CREATE TABLE loot (trajectory_id INTEGER)",
			`CREATE TRIGGER evil AFTER INSERT ON trajectories
			 BEGIN INSERT INTO loot VALUES (NEW.id); UPDATE trajectories SET passed = 1 WHERE id = NEW.id; END`},
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path := craftDB(t, tt.setup...)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_ = tt.want // what SQLite's defenses would have said, kept as documentation
			if _, err := db.Open(ctx, path); err == nil || !strings.Contains(err.Error(), "holds triggers (evil)") {
				t.Fatalf("Open = %v, want a refusal naming the trigger", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Fatal("the refused file was changed")
			}
			store, err := db.OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			rep, err := store.Check(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(rep.Problems, "\n"); !strings.Contains(got, "trigger evil on trajectories is not emobench's") {
				t.Errorf("Check problems:\n%s\nwant the trigger listed", got)
			}
		})
	}
}
