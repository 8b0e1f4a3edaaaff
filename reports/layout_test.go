package reports

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/analysis"
)

func TestCleanLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"qwen3 / unknown / retail", "qwen3 / retail"},
		{"qwen3 /  / retail (runs 2 vs 3)", "qwen3 / retail (runs 2 vs 3)"},
		{"unknown / unknown", "unknown / unknown"}, // nothing else left: kept
		{"gpt-4.1-retail: -", "gpt-4.1-retail: (none)"},
		{"a: anger", "a: anger"},
		{"unknown", "unknown"}, // one segment: a run's own name
	} {
		if got := cleanLabel(tc.in); got != tc.want {
			t.Errorf("cleanLabel(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPanels(t *testing.T) {
	t.Parallel()
	if diff := cmp.Diff([][2]int{{0, 10}, {10, 20}, {20, 23}}, panels(23)); diff != "" {
		t.Errorf("panels(23) (-want +got):\n%s", diff)
	}
	if got := panels(0); got != nil {
		t.Errorf("panels(0) = %v, want none", got)
	}
	if got, want := panelID("chart-x", 0)+" "+panelID("chart-x", 2), "chart-x chart-x-3"; got != want {
		t.Errorf("panel ids %q, want %q", got, want)
	}
}

func TestFitRateMax(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	for _, tc := range []struct {
		values []float64
		cis    []Interval
		want   float64
	}{
		{[]float64{0.25}, nil, 0.4},                        // 0.25 → next 0.2 with room: 0.4
		{[]float64{0.55, nan}, []Interval{{0.3, 0.79}}, 1}, // the whisker's 0.79 needs 1.0
		{[]float64{0.1}, []Interval{{nan, nan}}, 0.2},
		{nil, nil, 0.2},             // no data: the smallest axis
		{[]float64{1}, nil, 1},      // never above 1
		{[]float64{0.7}, nil, 0.8},  // 0.7 → 0.8
		{[]float64{0.81}, nil, 1.0}, // 0.81 → 1
	} {
		if got := fitRateMax(tc.values, tc.cis); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("fitRateMax(%v, %v) = %v, want %v", tc.values, tc.cis, got, tc.want)
		}
	}
}

func TestDeltaRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		values []float64
		cis    []Interval
		lo, hi float64
	}{
		// The Δ axis that ran to −1.2: clamped to [−1, 1].
		{[]float64{-0.25, 0.14}, []Interval{{-1.2, 0.1}, {-0.3, 0.57}}, -1, 0.8},
		{[]float64{0.05}, []Interval{{0.01, 0.1}}, 0, 0.2},                    // 0 stays on the axis
		{[]float64{math.NaN()}, []Interval{{math.NaN(), math.NaN()}}, 0, 0.2}, // no data: not an empty axis
		{[]float64{-0.5}, []Interval{{-0.75, -0.2}}, -0.8, 0},
	} {
		lo, hi := deltaRange(tc.values, tc.cis)
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("deltaRange(%v, %v) = [%v, %v], want [%v, %v]", tc.values, tc.cis, lo, hi, tc.lo, tc.hi)
		}
	}
}

// A run with no evaluated trajectory reads "not evaluated" in the pass^k
// and family panels, never 0.
func TestRender_NotEvaluatedRows(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	in := Input{
		PassKByRun: []analysis.PassKRow{
			{RunID: 1, K: 1, PassHatK: nan, Tasks: 3, NotEvaluated: true},
			{RunID: 2, K: 1, PassHatK: 0.5, Tasks: 4},
		},
		FamilyPass1: []analysis.PassKRow{
			{RunID: 1, K: 1, Group: []string{"anger"}, PassHatK: nan, Tasks: 3, NotEvaluated: true},
			{RunID: 2, K: 1, Group: []string{"anger"}, PassHatK: 0.5, Tasks: 4},
		},
	}
	texts := map[string]string{}
	for _, c := range chartsJSON(t, MustRender(t, in)) {
		texts[c.ID] = fmt.Sprint(c.Option["yAxis"].([]any)[1].(map[string]any)["data"])
	}
	want := map[string]string{
		passKChartID:  "[not evaluated (n=3) 0.50 (n=4)]",
		familyChartID: "[not evaluated (n=3) 0.50 (n=4)]",
	}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("value labels (-want +got):\n%s", diff)
	}
}

// Published results get a panel per domain, at k = 1, beside your runs,
// in a colour of their own; your unevaluated run says so.
func TestPublishedCharts(t *testing.T) {
	t.Parallel()
	ds, caption := publishedCharts([]PublishedRow{
		{Domain: "retail", Model: "gpt", Source: "your run 1 (a)", K: 1, PassHatK: 0.5, Yours: true},
		{Domain: "retail", Model: "voice", Source: "your run 2 (b)", K: 1, PassHatK: math.NaN(), Yours: true},
		{Domain: "retail", Model: "Big", Source: "s.json", K: 1, PassHatK: 0.8},
		{Domain: "retail", Model: "Big", Source: "s.json", K: 2, PassHatK: 0.7}, // the table's
		{Domain: "airline", Model: "Big", Source: "s.json", K: 1, PassHatK: 0.6},
	})
	if got, want := len(ds), 2; got != want {
		t.Fatalf("%d panels, want %d (retail, airline)", got, want)
	}
	if !strings.Contains(caption, "in red") {
		t.Errorf("caption %q does not say which bars are published", caption)
	}
	o := map[string]any{}
	ds[0].patch(o)
	y := o["yAxis"].([]map[string]any)
	if got, want := fmt.Sprint(y[0]["data"], y[1]["data"]), "[gpt (your run 1) voice (your run 2) Big] [0.50 not evaluated 0.80]"; got != want {
		t.Errorf("retail rows %s, want %s", got, want)
	}
	items := ds[0].series[0].(charts.SingleSeries).Data.([]any)
	if got, want := fmt.Sprintf("%v %v", items[0].(dataItem).ItemStyle == nil, items[2].(dataItem).ItemStyle.Color), "true "+publishedColor; got != want {
		t.Errorf("bar colours %s, want %s (yours the palette's, published its own)", got, want)
	}
}

// Past gapColumns runs, the gap chart's bars lie along rows labelled with
// the run, k and n, and the gap label sits at the right of the bar.
func TestGapChart_ManyRunsAlongRows(t *testing.T) {
	t.Parallel()
	var g GapChart
	for i := range gapColumns + 1 {
		g.Bars = append(g.Bars, GapBar{Run: fmt.Sprintf("r%d", i), Pass1: 0.5, PassK: 0.25, K: 3, Tasks: 4})
	}
	d, _ := gapChart(g)
	o := map[string]any{}
	d.patch(o)
	y := o["yAxis"].([]map[string]any)[0]
	if got, want := fmt.Sprint(y["type"], " ", y["data"].([]string)[0]), "category r0 (k=3, n=4)"; got != want {
		t.Errorf("y axis %q, want %q", got, want)
	}
	if got, want := gapLabelPosition(len(g.Bars))+" "+gapLabelPosition(gapColumns), "right top"; got != want {
		t.Errorf("label positions %q, want %q", got, want)
	}
	g.Bars = g.Bars[:gapColumns]
	if d, _ := gapChart(g); d.patch != nil {
		t.Error("a gap chart of gapColumns runs is laid along rows, want columns")
	}
}
