package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/workbench"
)

// The report's Tracer charts hold the numbers of the command their
// captions name (tracer funnel --selection NAME), for the latest selection.
func TestReport_TracerChartsEqualTheirCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "tracer.db")
	tasks, _ := writeTasksFile(t, "retail", 4)
	mustRun(t, "--db", dbPath, "tracer", "collect", "--tasks-file", tasks, "--agent", "noisy:0.3", "--user", "scripted", "--trials", "2", "--concurrency", "1")
	mustRun(t, "--db", dbPath, "tracer", "filter", "--selection", "older", "--keep-unsatisfied")
	mustRun(t, "--db", dbPath, "tracer", "filter", "--selection", "sft", "--max-user-dependence", "1.5")

	store := openTestStore(t, dbPath)
	s, err := workbench.Select(t.Context(), store, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, _, err := workbench.ReportOptions{Title: "t", Bootstrap: workbench.DefaultBootstrap}.Build(t.Context(), store, s)
	if err != nil {
		t.Fatal(err)
	}
	in := rep.Input
	if got, want := in.KeptFamilies.Command, "emobench tracer funnel --selection sft"; got != want {
		t.Fatalf("caption command %q, want %q (the latest selection)", got, want)
	}
	args := append([]string{"--db", dbPath}, strings.Fields(strings.TrimPrefix(in.KeptFamilies.Command, "emobench "))...)
	rows := parseFunnel(t, mustRun(t, append(args, "--format", "json")...))
	total := rows[len(rows)-1]
	want := []int{total.Collected, total.Passed, total.NotAbandoned, total.WithinDependence, total.Kept}
	if len(in.Funnel.Stages) != len(want) {
		t.Fatalf("%d funnel stages, want %d", len(in.Funnel.Stages), len(want))
	}
	for i, s := range in.Funnel.Stages {
		if s.Count != want[i] {
			t.Errorf("funnel stage %s: chart %d, command %d", s.Name, s.Count, want[i])
		}
	}
	byFamily := map[string]int{}
	for _, r := range rows[:len(rows)-1] {
		byFamily[r.Family] += r.Kept
	}
	if len(in.KeptFamilies.Bars) != len(byFamily) {
		t.Fatalf("%d family bars, command has %d families", len(in.KeptFamilies.Bars), len(byFamily))
	}
	for _, b := range in.KeptFamilies.Bars {
		if b.Kept != byFamily[b.Family] {
			t.Errorf("family %s: chart %d kept, command %d", b.Family, b.Kept, byFamily[b.Family])
		}
	}
	report := filepath.Join(dir, "report.html")
	mustRun(t, "--db", dbPath, "report", "--out", report)
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Numbers: emobench tracer funnel --selection sft.") {
		t.Fatal("the report's captions do not name tracer funnel")
	}
	if want := "collected on 4 generated tasks;"; !strings.Contains(in.Funnel.Caption, want) {
		t.Errorf("funnel caption %q, want %q (the collected tasks file's)", in.Funnel.Caption, want)
	}
}
