package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/db"
)

// check of a file of an older schema (here 9, migrations 1 to 9 as they
// are, the first with run_task_outcomes) reports it and points to
// migrate, as the other commands do, rather than failing on a query of
// the current schema (#20 item 22c).
func TestCheck_OlderSchemaPointsToMigrate(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "v9.db")
	var stmts []string
	for v := 1; v <= 9; v++ {
		files, err := filepath.Glob(filepath.Join("..", "..", "db", "migrations", fmt.Sprintf("%04d_*.sql", v)))
		if err != nil || len(files) != 1 {
			t.Fatalf("migration %d: %v %v", v, files, err)
		}
		body, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(body))
	}
	plainSQL(t, dbPath, append(stmts, fmt.Sprintf("PRAGMA application_id = %d", db.ApplicationID), "PRAGMA user_version = 9")...)

	r := runCLI(t, "", "--db", dbPath, "check")
	want := fmt.Sprintf("note: the read commands need schema version %d: upgrade with `emobench --db %s migrate`", db.SchemaVersion(), dbPath)
	if r.code != 0 || !strings.Contains(r.stdout, "schema version 9") || !strings.Contains(r.stdout, want) {
		t.Errorf("check: exit %d\nstdout: %s\nstderr: %s\nwant exit 0 and %q", r.code, r.stdout, r.stderr, want)
	}
}
