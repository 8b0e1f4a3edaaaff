package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/emobench/emobench/export"
)

// Every per-trajectory export (csv, parquet, jsonl) has strict_passed,
// equal to the db's: on the τ²-bench fixture whose reward_basis leaves
// out failing checks, 3 trajectories pass gated and 1 strictly (task 1
// trial 1).
func TestExport_StrictPassed(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "strict.db")
	mustRun(t, "--db", src, "ingest", filepath.Join("testdata", "strict", "tau2-reward-basis.json"))
	lines := strings.Split(strings.TrimSpace(mustRun(t, "--db", src, "sql", "--format", "csv",
		"SELECT k.task_key, t.trial, t.passed, t.strict_passed FROM trajectories t JOIN tasks k ON k.id = t.task_id ORDER BY 1, 2")), "\n")[1:]
	want := slices.Clone(lines)
	if got := strings.Join(want, " "); got != "1,0,1,0 1,1,1,1 2,0,1,0 2,1,0,0" {
		t.Fatalf("db (task, trial, passed, strict_passed): %s, want 1,0,1,0 1,1,1,1 2,0,1,0 2,1,0,0 (TestStatsPassK_Strict's counts)", got)
	}
	sorted := func(rows []string) []string { slices.Sort(rows); return rows }

	dir := filepath.Join(t.TempDir(), "csv")
	mustRun(t, "--db", src, "export", "--format", "csv", "--out", dir)
	data, err := os.ReadFile(filepath.Join(dir, "trajectories.csv"))
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		i := slices.Index(records[0], name)
		if i < 0 {
			t.Fatalf("trajectories.csv has no column %s: %v", name, records[0])
		}
		return i
	}
	var got []string
	for _, r := range records[1:] {
		got = append(got, strings.Join([]string{r[col("task_key")], r[col("trial")], r[col("passed")], r[col("strict_passed")]}, ","))
	}
	if diff := cmp.Diff(want, sorted(got)); diff != "" {
		t.Errorf("csv strict_passed (-db +csv):\n%s", diff)
	}

	dir = filepath.Join(t.TempDir(), "pq")
	mustRun(t, "--db", src, "export", "--format", "parquet", "--out", dir)
	rows, err := parquet.ReadFile[export.TrajectoryRow](filepath.Join(dir, "trajectories.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s,%d,%d,%d", r.TaskKey, r.Trial, r.Passed, r.StrictPassed))
	}
	if diff := cmp.Diff(want, sorted(got)); diff != "" {
		t.Errorf("parquet strict_passed (-db +parquet):\n%s", diff)
	}

	path := filepath.Join(t.TempDir(), "all.jsonl")
	mustRun(t, "--db", src, "export", "--format", "jsonl", "--out", path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got = nil
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		strict, ok := rec["strict_passed"].(bool)
		if !ok {
			t.Fatalf("jsonl record has strict_passed %v, want true or false", rec["strict_passed"])
		}
		got = append(got, fmt.Sprintf("%s,%v,%d,%d", rec["task"].(map[string]any)["key"], rec["trial"], boolNum(rec["passed"].(bool)), boolNum(strict)))
	}
	if diff := cmp.Diff(want, sorted(got)); diff != "" {
		t.Errorf("jsonl strict_passed (-db +jsonl):\n%s", diff)
	}
}

func boolNum(b bool) int {
	if b {
		return 1
	}
	return 0
}
