package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// sql stops a statement that never ends at --timeout and says so (#20
// item 22i).
func TestSQL_Timeout(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "t.db")
	fixtureDB(t, dbPath)
	r := runCLI(t, "", "--db", dbPath, "sql", "--timeout", "200ms",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
	if want := "emobench: sql: query stopped after 200ms (--timeout)"; r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", r.code, r.stderr, want)
	}
	if got := mustRun(t, "--db", dbPath, "sql", "--timeout", "0", "SELECT 1 AS one"); !strings.Contains(got, "one") {
		t.Errorf("--timeout 0 (no limit): %q", got)
	}
}
