package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/emobench/emobench/internal/chromiumtest"
	"github.com/emobench/emobench/reports/browsertest"
)

// realRunsDB ingests every result file of the shared real runs into a new
// db, and again as copies (another run name and agent model, and a trailing
// newline so that the sha256 differs), until it holds about 40 runs. It
// returns the db path and the number of runs.
func realRunsDB(t *testing.T) (string, int) {
	t.Helper()
	requireRealRuns(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "real.db")
	entries, err := os.ReadDir(realRuns)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, e := range entries {
		if e.Name() != "SOURCES.md" {
			all = append(all, filepath.Join(realRuns, e.Name()))
		}
	}
	mustRun(t, append([]string{"--db", dbPath, "ingest"}, all...)...)
	var files []string
	for _, sub := range []string{"", "tau2", "taubench"} {
		matches, err := filepath.Glob(filepath.Join(realRuns, sub, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	for copyN := 2; copyN <= 3; copyN++ {
		for i, f := range files {
			if copyN == 3 && i%2 == 1 {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Base(f)
			copyDir := filepath.Join(dir, fmt.Sprintf("r%d", copyN), filepath.Base(filepath.Dir(f)))
			if err := os.MkdirAll(copyDir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(copyDir, base)
			if err := os.WriteFile(path, append(b, strings.Repeat("\n", copyN)...), 0o644); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s-r%d", strings.TrimSuffix(base, ".json"), copyN)
			model, _, _ := strings.Cut(strings.TrimSuffix(base, ".json"), "-")
			mustRun(t, "--db", dbPath, "ingest", "--name", name, "--model", fmt.Sprintf("%s-r%d", model, copyN), path)
		}
	}
	var runs int
	out := mustRun(t, "--db", dbPath, "sql", "--format", "csv", "SELECT count(*) FROM runs")
	if _, err := fmt.Sscanf(strings.Split(out, "\n")[1], "%d", &runs); err != nil {
		t.Fatalf("count runs: %q: %v", out, err)
	}
	return dbPath, runs
}

// TestReport_BrowserLayoutManyRuns renders the report of about 40 real
// runs in headless Chromium at 1400 px, with echarts' SVG renderer, and
// checks that every chart drew, that no two text elements of a chart
// overlap and that no legend meets a plot. With EMOBENCH_SHOTS=DIR it also
// writes a screenshot of every chart there, to look at.
func TestReport_BrowserLayoutManyRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests every real run twice over: not in -short")
	}
	var mu sync.Mutex
	var problems []string
	ctx := chromiumtest.MustStart(t, 5*time.Minute, 1400, func(ev any) {
		if p := chromiumtest.Problem(ev); p != "" {
			mu.Lock()
			problems = append(problems, p)
			mu.Unlock()
		}
	})
	dbPath, runs := realRunsDB(t)
	if runs < 36 {
		t.Fatalf("%d runs ingested, want about 40", runs)
	}
	t.Logf("%d runs", runs)
	out := filepath.Join(t.TempDir(), "report.html")
	mustRun(t, "--db", dbPath, "report", "--out", out, "--resamples", "200")

	u := url.URL{Scheme: "file", Path: out}
	if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil {
		t.Fatalf("load %s: %v", u.String(), err)
	}
	layouts, err := chromedp.Run(ctx, chromedp.Evaluate[[]browsertest.ChartLayout](browsertest.ReadLayout))
	if err != nil {
		t.Fatalf("read chart layouts: %v", err)
	}
	mu.Lock()
	for _, p := range problems {
		t.Errorf("browser reported: %s", p)
	}
	mu.Unlock()
	if len(layouts) < 10 {
		t.Fatalf("%d charts drawn, want the report's sections", len(layouts))
	}
	legends, grids := 0, 0
	for _, l := range layouts {
		if len(l.Texts) == 0 {
			t.Errorf("chart %s drew no text", l.ID)
		}
		if len(l.Toolboxes) != 1 {
			t.Errorf("chart %s has %d toolboxes, want its save button", l.ID, len(l.Toolboxes))
		}
		legends, grids = legends+len(l.Legends), grids+len(l.Grids)
	}
	// The legend check below must have legends and plots to compare.
	if legends == 0 || grids == 0 {
		t.Errorf("found %d legends and %d plot grids, want some of each", legends, grids)
	}
	for _, p := range browsertest.LayoutProblems(layouts) {
		t.Error(p)
	}
	if dir := os.Getenv("EMOBENCH_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, l := range layouts {
			png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(l.ID)))
			if err != nil {
				t.Errorf("screenshot %s: %v", l.ID, err)
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, l.ID+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
