package workbench_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench/workbench"
)

func TestReportOptions_Build(t *testing.T) {
	t.Parallel()
	store := testDB(t)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	opts := workbench.ReportOptions{Title: "t", Bootstrap: workbench.DefaultBootstrap, Now: func() time.Time { return at }}
	t.Run("Pooled", func(t *testing.T) {
		rep, notes, err := opts.Build(t.Context(), store, mustSelect(t, store, nil, true))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := rep.Input.GeneratedAt, at.UTC(); !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("generated at %v, want %v in UTC", got, want)
		}
		if got := len(rep.Input.Runs); got != 3 {
			t.Errorf("%d runs in the table, want 3", got)
		}
		if len(rep.Overlaps) != 1 || rep.Overlaps[0].Task != "0" {
			t.Errorf("overlaps %+v, want task 0 of runs 1 and 2", rep.Overlaps)
		}
		if len(notes) != 2 || !strings.HasPrefix(notes[0], "--pool: runs 3 ") || !strings.Contains(notes[1], "task 0 appears in runs 1 and 2") {
			t.Errorf("notes %q, want the kept-apart note, then the overlap", notes)
		}
		if !strings.Contains(rep.Input.PassKCommand, "--pool") {
			t.Errorf("chart (a) command %q does not pool", rep.Input.PassKCommand)
		}
	})
	t.Run("OneRun", func(t *testing.T) {
		rep, notes, err := opts.Build(t.Context(), store, mustSelect(t, store, []int64{2}, false))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Input.Runs) != 1 || rep.Input.Runs[0].Run.Name != "b" || rep.Overlaps != nil || notes != nil {
			t.Errorf("runs %+v, overlaps %v, notes %q: want run b alone, no overlap, no note", rep.Input.Runs, rep.Overlaps, notes)
		}
		if got, want := rep.Input.PassKCommand, "emobench stats passk --ci pm --run 2"; got != want {
			t.Errorf("chart (a) command %q, want %q", got, want)
		}
	})
}

func TestWriteReport(t *testing.T) {
	t.Parallel()
	store := testDB(t)
	rep, _, err := workbench.ReportOptions{Title: "t", Bootstrap: workbench.DefaultBootstrap}.Build(t.Context(), store, mustSelect(t, store, nil, false))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Run("OK", func(t *testing.T) {
		path := filepath.Join(dir, "r.html")
		if err := workbench.WriteReport(t.Context(), path, rep.Input); err != nil {
			t.Fatal(err)
		}
		page, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), "<title>t</title>") {
			t.Errorf("page has no title t: %.200s", page)
		}
	})
	t.Run("ErrNoDirectory", func(t *testing.T) {
		path := filepath.Join(dir, "missing", "r.html")
		if err := workbench.WriteReport(t.Context(), path, rep.Input); err == nil {
			t.Fatal("no error writing into a missing directory")
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("%d files in %s, want only r.html: nothing half-written", len(entries), dir)
		}
	})
	t.Run("ErrTargetIsDirectory", func(t *testing.T) {
		path := filepath.Join(dir, "adir")
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := workbench.WriteReport(t.Context(), path, rep.Input); err == nil {
			t.Fatal("no error replacing a directory")
		}
		if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
			t.Errorf("%s.tmp left behind (stat: %v)", path, err)
		}
	})
}
