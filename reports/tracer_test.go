package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/google/go-cmp/cmp"
)

// tracerInput is the report of testdata/tracer/input.json's funnel alone.
func tracerInput(t *testing.T) Input {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "tracer", "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f analysis.Funnel
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("testdata/tracer/input.json: %v", err)
	}
	return Build(Data{Title: "Tracer", Tracer: &TracerSelection{Name: "sft", Funnel: f, Command: "emobench tracer funnel --selection sft", GeneratedFromTaskSets: true}})
}

// The funnel caption says "generated tasks" only when the generated count
// is the collected task sets' tasks; imported tasks are "tasks".
func TestBuild_TracerCaptionTasks(t *testing.T) {
	t.Parallel()
	f := analysis.Funnel{Total: analysis.FunnelRow{Generated: 7, Collected: 14, DependenceUnknown: 14}}
	for _, c := range []struct {
		generated bool
		want      string
	}{
		{true, "The trajectories were collected on 7 generated tasks; 14 have no known user dependence."},
		{false, "The trajectories were collected on 7 tasks; 14 have no known user dependence."},
	} {
		in := Build(Data{Tracer: &TracerSelection{Name: "sft", Funnel: f, GeneratedFromTaskSets: c.generated}})
		if got := in.Funnel.Caption; !strings.HasPrefix(got, c.want) {
			t.Errorf("GeneratedFromTaskSets %v: caption %q, want prefix %q", c.generated, got, c.want)
		}
	}
}

func TestRender_TracerGolden(t *testing.T) {
	t.Parallel()
	got := elideECharts(t, MustRender(t, tracerInput(t)))
	path := filepath.Join("testdata", "tracer", "want.html")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports/ -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("Render(testdata/tracer) mismatch (-want +got):\n%s", diff)
	}
}

// The Tracer charts show the funnel's totals and the kept families, and
// both captions name the command that prints them.
func TestBuild_TracerSections(t *testing.T) {
	t.Parallel()
	in := tracerInput(t)
	var stages []int
	for _, s := range in.Funnel.Stages {
		stages = append(stages, s.Count)
	}
	if diff := cmp.Diff([]int{10, 7, 6, 4, 4}, stages); diff != "" {
		t.Fatalf("funnel stages (-want +got):\n%s", diff)
	}
	want := []analysis.FamilyCount{{Family: "anger", Kept: 1}, {Family: "fear", Kept: 1}, {Family: "none", Kept: 2}}
	if diff := cmp.Diff(want, in.KeptFamilies.Bars); diff != "" {
		t.Fatalf("kept families (-want +got):\n%s", diff)
	}
	page := MustRender(t, in)
	if got := strings.Count(page, "Numbers: emobench tracer funnel --selection sft."); got != 2 {
		t.Fatalf("%d captions name the funnel command, want 2", got)
	}
	var ids []string
	for _, c := range chartsJSON(t, page) {
		ids = append(ids, c.ID)
	}
	if diff := cmp.Diff([]string{funnelChartID, keptFamiliesChartID}, ids); diff != "" {
		t.Fatalf("chart ids (-want +got):\n%s", diff)
	}
	if none := Build(Data{}); len(none.KeptFamilies.Bars) != 0 || len(none.Funnel.Stages) != 0 {
		t.Fatal("no selection: Tracer charts present")
	}
}

// The kept-families axis counts trajectories: whole-number ticks, at most
// five intervals (342 kept: ticks 0, 100, ..., 400, not 1,710 of 0.2).
func TestKeptFamilies_CountAxis(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ top, hi, step int }{
		{0, 1, 1}, {1, 1, 1}, {4, 4, 1}, {5, 5, 1}, {6, 6, 2}, {10, 10, 2}, {11, 15, 5}, {66, 80, 20}, {342, 400, 100}, {1200, 1500, 500},
	} {
		if hi, step := countAxis(c.top); hi != c.hi || step != c.step {
			t.Errorf("countAxis(%d) = %d, %d, want %d, %d", c.top, hi, step, c.hi, c.step)
		}
	}
	in := Build(Data{Tracer: &TracerSelection{Name: "sft", Funnel: analysis.Funnel{
		Rows: []analysis.FunnelRow{{Domain: "retail", Family: "fear", Kept: 66}, {Domain: "retail", Family: "none", Kept: 342}},
	}}})
	for _, c := range chartsJSON(t, MustRender(t, in)) {
		if c.ID != keptFamiliesChartID {
			continue
		}
		var opt struct {
			XAxis []struct {
				Min, Max, Interval, MinInterval float64
			} `json:"xAxis"`
		}
		b, err := json.Marshal(c.Option)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &opt); err != nil {
			t.Fatal(err)
		}
		if len(opt.XAxis) != 1 || opt.XAxis[0] != (struct{ Min, Max, Interval, MinInterval float64 }{0, 400, 100, 1}) {
			t.Fatalf("xAxis = %+v, want min 0, max 400, interval 100, minInterval 1", opt.XAxis)
		}
		return
	}
	t.Fatal("no kept-families chart")
}
