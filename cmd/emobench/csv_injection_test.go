package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every CSV writer quotes a cell that a spreadsheet would read as a
// formula, and leaves numbers such as -1 as they are (#20 item 22b).
func TestCSV_FormulaCellsQuoted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "csv.db")
	file := writeFile(t, "f-retail.json", "["+tauRecord(0, 0, "-1", "0.1", `"=HYPERLINK(\"http://evil\")"`)+"]")
	mustRun(t, "--db", dbPath, "ingest", "--name", "=cmd|' /C calc'!A0", "--model", "@evil", file)

	runs := mustRun(t, "--db", dbPath, "runs", "--format", "csv")
	if !strings.Contains(runs, `1,'=cmd|' /C calc'!A0,'@evil,retail,`) {
		t.Errorf("runs csv does not quote the formula cells:\n%s", runs)
	}
	stats := mustRun(t, "--db", dbPath, "stats", "passk", "--by", "agent_model", "--format", "csv")
	if !strings.Contains(stats, ",'@evil,1,") {
		t.Errorf("stats csv does not quote the model:\n%s", stats)
	}
	sql := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT reward, '+1' AS plus, '-x' AS minus FROM trajectory_outcomes")
	if want := "reward,plus,minus\n-1,+1,'-x\n"; sql != want {
		t.Errorf("sql csv %q, want %q (numbers unchanged)", sql, want)
	}

	out := filepath.Join(dir, "out")
	mustRun(t, "--db", dbPath, "export", "--format", "csv", "--out", out)
	for name, want := range map[string]string{
		"runs.csv":         `1,'=cmd|' /C calc'!A0,`,
		"trajectories.csv": ",-1,0,1,",
		"messages.csv":     `'=HYPERLINK(""http://evil"")`,
	} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("%s does not hold %q:\n%s", name, want, data)
		}
	}
}
