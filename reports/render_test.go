package reports

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

var update = flag.Bool("update", false, "rewrite testdata/<case>/want.html from Render's output")

// goldenCases are the folders of testdata/, each with an input.json (an
// Input as encoding/json spells it) and a want.html.
var goldenCases = []string{"basic", "nopair", "hostile", "full"}

// hostileNames are the data strings that must never execute in the report.
var hostileNames = []string{
	`<script>window.__pwned=1</script>`,
	`"><img src=x onerror="window.__pwned=1">`,
	`</script><script>window.__pwned=1</script>`,
}

// MustLoadInput decodes testdata/<name>/input.json.
func MustLoadInput(tb testing.TB, name string) Input {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name, "input.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var in Input
	if err := json.Unmarshal(b, &in); err != nil {
		tb.Fatalf("testdata/%s/input.json: %v", name, err)
	}
	return in
}

// MustRender returns Render's output for in.
func MustRender(tb testing.TB, in Input) string {
	tb.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, in); err != nil {
		tb.Fatalf("Render: %v", err)
	}
	return buf.String()
}

// elideECharts replaces the inlined ECharts build with a short marker, so
// that golden files stay small and other checks see only the report's own
// markup.
func elideECharts(tb testing.TB, page string) string {
	tb.Helper()
	if got, want := strings.Count(page, echartsJS), 1; got != want {
		tb.Fatalf("page holds assets/echarts.min.js %d times, want %d", got, want)
	}
	return strings.Replace(page, echartsJS, "/* assets/echarts.min.js elided by the test */", 1)
}

// chartsJSON extracts and decodes the chart options array of a page.
func chartsJSON(tb testing.TB, page string) []chartInit {
	tb.Helper()
	m := regexp.MustCompile(`(?s)var charts = (.*?);\n  charts\.forEach`).FindStringSubmatch(page)
	if m == nil {
		tb.Fatal("page has no chart options array")
	}
	var inits []chartInit
	if err := json.Unmarshal([]byte(m[1]), &inits); err != nil {
		tb.Fatalf("chart options are not valid JSON: %v\n%s", err, m[1])
	}
	return inits
}

func TestRender_Golden(t *testing.T) {
	t.Parallel()
	for _, name := range goldenCases {
		t.Run(name, func(t *testing.T) {
			got := elideECharts(t, MustRender(t, MustLoadInput(t, name)))
			path := filepath.Join("testdata", name, "want.html")
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
				t.Errorf("Render(testdata/%s/input.json) mismatch (-want +got):\n%s", name, diff)
			}
		})
	}
}

func TestRender_OK(t *testing.T) {
	t.Parallel()
	page := MustRender(t, MustLoadInput(t, "basic"))

	t.Run("EmbedsECharts", func(t *testing.T) {
		for _, s := range []string{
			"Licensed to the Apache Software Foundation", // first lines of echarts.min.js
			`version="` + EChartsVersion + `"`,
			"<!-- Apache ECharts " + EChartsVersion + ", Apache License 2.0.",
		} {
			if !strings.Contains(page, s) {
				t.Errorf("page lacks %q", s)
			}
		}
	})
	t.Run("NoRemoteAssets", func(t *testing.T) {
		own := elideECharts(t, page)
		if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=`).FindString(own); m != "" {
			t.Errorf("page loads an external resource: %s", m)
		}
		if m := regexp.MustCompile(`(?i)\b(src|href)\s*=\s*["']?(https?:)?//`).FindString(page); m != "" {
			t.Errorf("page references a remote asset: %s", m)
		}
	})
	t.Run("Charts", func(t *testing.T) {
		inits := chartsJSON(t, page)
		var ids []string
		for _, c := range inits {
			ids = append(ids, c.ID)
			if got, want := c.Renderer, "svg"; got != want {
				t.Errorf("chart %s renderer = %q, want %q", c.ID, got, want)
			}
		}
		// Chart (b) is a panel per family: anger, fear, sadness, (none).
		want := []string{passKChartID, familyChartID, familyChartID + "-2", familyChartID + "-3", familyChartID + "-4", conditionChartID}
		if diff := cmp.Diff(want, ids); diff != "" {
			t.Errorf("chart ids (-want +got):\n%s", diff)
		}
	})
	t.Run("SaveAsSVG", func(t *testing.T) {
		for _, c := range chartsJSON(t, MustRender(t, MustLoadInput(t, "full"))) {
			save, _ := c.Option["toolbox"].(map[string]any)["feature"].(map[string]any)["saveAsImage"].(map[string]any)
			if got, want := fmt.Sprint(save["show"], save["type"], save["name"]), fmt.Sprint(true, "svg", c.ID); got != want {
				t.Errorf("chart %s saveAsImage show, type, name = %s, want %s", c.ID, got, want)
			}
			if got, want := c.Renderer, "svg"; got != want {
				t.Errorf("chart %s renderer = %q, want %q", c.ID, got, want)
			}
		}
	})
	t.Run("Deterministic", func(t *testing.T) {
		if again := MustRender(t, MustLoadInput(t, "basic")); again != page {
			t.Error("two renders of the same input differ")
		}
	})
}

func TestRender_Escaping(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"hostile", "full"} {
		t.Run(name, func(t *testing.T) {
			in := MustLoadInput(t, name)
			page := elideECharts(t, MustRender(t, in))

			// The only tags that may open a script or an image are the page's own.
			if got, want := strings.Count(strings.ToLower(page), "<script"), 2; got != want {
				t.Errorf("page has %d <script tags, want %d", got, want)
			}
			if got, want := strings.Count(strings.ToLower(page), "</script"), 2; got != want {
				t.Errorf("page has %d </script tags, want %d", got, want)
			}
			if strings.Contains(strings.ToLower(page), "<img") {
				t.Error("page holds an unescaped <img")
			}
			if strings.Contains(strings.ToLower(page), "<b>") {
				t.Error("page holds an unescaped <b>")
			}
			// Each run name appears escaped in the table.
			for _, r := range in.Runs {
				if want := `<td class="text">` + html.EscapeString(r.Run.Name) + `</td>`; !strings.Contains(page, want) {
					t.Errorf("table lacks the escaped run name %q", want)
				}
			}
			// Names survive intact, as data, in the chart options.
			names := map[string]bool{}
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case string:
					names[v] = true
				case []any:
					for _, e := range v {
						walk(e)
					}
				case map[string]any:
					for _, e := range v {
						walk(e)
					}
				}
			}
			for _, c := range chartsJSON(t, page) {
				walk(c.Option)
			}
			for _, s := range append(hostileNames, `__f__"+(window.__pwned=1)+"__f__`) {
				if !names[s] {
					t.Errorf("chart options lack the string %q", s)
				}
			}
		})
	}
}

func TestRender_NaN(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	in := Input{
		Runs: []RunSummary{{Run: emobench.Run{ID: 1, Name: "empty run"}, Pass1: nan}},
		PassKByRun: []analysis.PassKRow{
			{RunID: 1, K: 1, PassHatK: nan},
			{RunID: 1, K: 3, PassHatK: math.Inf(1)},
		},
		FamilyPass1: []analysis.PassKRow{{RunID: 1, K: 1, PassHatK: nan}},
	}
	page := MustRender(t, in)
	if want := `<td class="num">–</td>`; !strings.Contains(page, want) {
		t.Errorf("table lacks %q for a NaN pass^1", want)
	}
	inits := chartsJSON(t, page)
	// Chart (c) has no pair.
	if got, want := len(inits), 2; got != want {
		t.Fatalf("%d charts, want %d", got, want)
	}
	series := inits[0].Option["series"].([]any)[0].(map[string]any)
	var values []any
	for _, d := range series["data"].([]any) {
		values = append(values, d.(map[string]any)["value"])
	}
	if diff := cmp.Diff([]any{"-", "-", "-"}, values); diff != "" {
		t.Errorf("pass^k values (-want +got):\n%s", diff)
	}
	if !strings.Contains(page, "No agent model and domain has runs both with and without emotions") {
		t.Error("page lacks the note that replaces chart (c)")
	}
}

func TestRender_Empty(t *testing.T) {
	t.Parallel()
	page := MustRender(t, Input{})
	if got, want := len(chartsJSON(t, page)), 0; got != want {
		t.Errorf("%d charts, want %d", got, want)
	}
	for _, s := range []string{"<title>" + DefaultTitle + "</title>", "No pass^k rows.", "No runs."} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
}

func TestRender_ErrWrite(t *testing.T) {
	t.Parallel()
	if err := Render(failWriter{}, Input{}); err == nil {
		t.Fatal("Render to a failing writer returned nil error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// TestEChartsAsset checks that the embedded build can be inlined in a
// <script> element: it must not close the element or open an HTML comment.
func TestEChartsAsset(t *testing.T) {
	t.Parallel()
	lower := strings.ToLower(echartsJS)
	for _, s := range []string{"</script", "<!--"} {
		if strings.Contains(lower, s) {
			t.Errorf("assets/echarts.min.js contains %q", s)
		}
	}
	if want := `version="` + EChartsVersion + `"`; !strings.Contains(echartsJS, want) {
		t.Errorf("assets/echarts.min.js lacks %q: EChartsVersion is stale", want)
	}
}

func TestRender_Sections(t *testing.T) {
	t.Parallel()
	in := MustLoadInput(t, "full")
	page := MustRender(t, in)

	t.Run("Order", func(t *testing.T) {
		var ids []string
		for _, c := range chartsJSON(t, page) {
			ids = append(ids, c.ID)
		}
		want := []string{
			passKChartID, gapChartID, familyChartID, familyChartID + "-2", familyChartID + "-3", familyHeatmapID, conditionChartID,
			deltaChartIDPrefix + "1", deltaChartIDPrefix + "2", abandonmentChartID,
			balanceChartID, generalizationChartID, funnelChartID,
		}
		if diff := cmp.Diff(want, ids); diff != "" {
			t.Errorf("chart ids (-want +got):\n%s", diff)
		}
	})
	t.Run("CaptionsNameN", func(t *testing.T) {
		// Every caption says its n, and ends with the caller's caption.
		captions := regexp.MustCompile(`<p class="caption">(.*?)</p>`).FindAllStringSubmatch(page, -1)
		if got, want := len(captions), 11; got != want {
			t.Fatalf("%d captions, want %d", got, want)
		}
		for _, c := range captions {
			if !regexp.MustCompile(`\bn \(|\bn = \d`).MatchString(c[1]) {
				t.Errorf("caption names no n: %s", c[1])
			}
		}
		for _, s := range []string{
			"n (tasks behind each point): gpt-4o airline with 30; gpt-4o airline without 30; " + html.EscapeString(in.Runs[2].Run.Name) + " 26–28. In &lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt; some tasks have fewer trials than the largest k",
			"n = 8–30 tasks per cell. Pooled over agent models.",
			"n (task pairs, with each label): 12–24. Whiskers: 95% paired bootstrap",
			"n = 232 trajectories in 4 bins (30–90 per bin).",
			"n = 1200 trajectories at the first stage.",
		} {
			if !strings.Contains(page, s) {
				t.Errorf("page lacks %q", s)
			}
		}
	})
	t.Run("Significance", func(t *testing.T) {
		// anger (p = 0.004) and high (p = 0.02) get an asterisk; fear
		// (0.61) and low (0.7) do not.
		inits := chartsJSON(t, page)
		// Δ charts are row charts: labels on the left y axis, Δ and n in
		// the column at the right.
		labels := func(id string, axis int) []any {
			for _, c := range inits {
				if c.ID == id {
					return c.Option["yAxis"].([]any)[axis].(map[string]any)["data"].([]any)
				}
			}
			t.Fatalf("no chart %s", id)
			return nil
		}
		got := append(labels(deltaChartIDPrefix+"1", 0)[:2], labels(deltaChartIDPrefix+"2", 0)...)
		want := []any{"anger *", "fear", "low", "high *"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Δ labels (-want +got):\n%s", diff)
		}
		for _, text := range append(labels(deltaChartIDPrefix+"1", 1)[:2], labels(deltaChartIDPrefix+"2", 1)...) {
			if !regexp.MustCompile(`^[+−]?\d\.\d\d \(n=(24|20)\)$`).MatchString(text.(string)) {
				t.Errorf("Δ value label %q, want the signed Δ and its n", text)
			}
		}
	})
	t.Run("Summary", func(t *testing.T) {
		if want := `<p class="summary">In-domain Δ vs the base model:`; !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	})
}

// TestRender_NaNSections checks that NaN anywhere in the optional sections
// never reaches the chart options (Render would fail to encode it) and draws
// nothing: no band, no whisker, no cell, no asterisk.
func TestRender_NaNSections(t *testing.T) {
	t.Parallel()
	page := MustRender(t, nanSections())
	var ids []string
	byID := map[string]map[string]any{}
	for _, c := range chartsJSON(t, page) {
		ids = append(ids, c.ID)
		byID[c.ID] = c.Option
	}
	want := []string{passKChartID, gapChartID, familyHeatmapID, deltaChartIDPrefix + "1", abandonmentChartID, balanceChartID, funnelChartID}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Fatalf("chart ids (-want +got):\n%s", diff)
	}
	series := func(id string) []any { return byID[id]["series"].([]any) }
	if got, want := len(series(passKChartID)), 1; got != want {
		t.Errorf("pass^k chart has %d series, want %d (a line, no band)", got, want)
	}
	if got, want := len(series(deltaChartIDPrefix+"1")), 1; got != want {
		t.Errorf("Δ chart has %d series, want %d (bars, no whiskers)", got, want)
	}
	if got, want := fmt.Sprint(byID[deltaChartIDPrefix+"1"]["yAxis"].([]any)[0].(map[string]any)["data"]), "[d]"; got != want {
		t.Errorf("Δ labels = %q, want %q (no asterisk for a NaN p)", got, want)
	}
	if got, want := fmt.Sprint(byID[deltaChartIDPrefix+"1"]["yAxis"].([]any)[1].(map[string]any)["data"]), "[n=4]"; got != want {
		t.Errorf("Δ value labels = %q, want %q (n, and no value for a NaN Δ)", got, want)
	}
	cells := series(familyHeatmapID)[0].(map[string]any)["data"].([]any)
	if got, want := len(cells), 1; got != want {
		t.Errorf("heatmap has %d cells, want %d", got, want)
	}
	// The balance chart keeps the NaN-rate bin for n but draws no point, and
	// leaves out the bin with a NaN edge.
	bal := series(balanceChartID)
	if got, want := len(bal), 2; got != want {
		t.Fatalf("balance chart has %d series, want %d (points and fit)", got, want)
	}
	if pts := bal[0].(map[string]any)["data"]; pts != nil {
		t.Errorf("balance points = %v, want none", pts)
	}
	if !strings.Contains(page, "n = 5 trajectories in 1 bins (5 per bin).") {
		t.Error("balance caption does not count the NaN-rate bin")
	}
	if strings.Contains(page, "Generalization matrix") {
		t.Error("page shows a generalization matrix with no finite value")
	}
}

func TestRender_EmptySections(t *testing.T) {
	t.Parallel()
	page := MustRender(t, Input{Deltas: []DeltaChart{{Title: "Δ nothing"}}})
	for _, s := range []string{"pass^1 vs pass^k", "Δ nothing", "Abandonment rate", "Success vs balance", "Generalization", "Tracer funnel", `class="summary"`} {
		if strings.Contains(page, s) {
			t.Errorf("page shows %q with no data", s)
		}
	}
}

func TestNRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ns   []int
		want string
	}{
		{nil, "0"},
		{[]int{12}, "12"},
		{[]int{12, 12}, "12"},
		{[]int{30, 8, 12}, "8–30"},
	} {
		if got := nRange(tc.ns); got != tc.want {
			t.Errorf("nRange(%v) = %q, want %q", tc.ns, got, tc.want)
		}
	}
}

func TestSigned(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0.123, "+0.12"},
		{-0.25, "−0.25"},
		{-0.001, "0.00"},
		{0, "0.00"},
	} {
		if got := signed(tc.v); got != tc.want {
			t.Errorf("signed(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestCategoryLabels(t *testing.T) {
	t.Parallel()
	if got, want := categoryLabels([]string{"a", "b"}, []string{"n=1", "n=2"}), []string{"a\nn=1", "b\nn=2"}; !slices.Equal(got, want) {
		t.Errorf("short labels = %q, want %q", got, want)
	}
	// Too long for three lines of its slot: turned, on one line.
	long := strings.Repeat("x", 200)
	if got, want := categoryLabels([]string{long, "b"}, []string{"n=1", "n=2"}), []string{long + " (n=1)", "b (n=2)"}; !slices.Equal(got, want) {
		t.Errorf("long labels = %q, want %q", got, want)
	}
}

// nanSections is an Input whose optional sections hold NaN and infinities
// everywhere they can.
func nanSections() Input {
	nan := math.NaN()
	none := Interval{nan, nan}
	return Input{
		PassK: PassKChart{Curves: []PassKCurve{{RunID: 7, Points: []PassKPoint{
			{K: 1, Value: nan, CI: none, Tasks: 3},
			{K: 2, Value: 0.5, CI: Interval{0.2, nan}, Tasks: 3},
		}}}},
		Gaps:          GapChart{Bars: []GapBar{{Run: "r", Pass1: nan, PassK: 0.2, K: 2, Tasks: 1}}},
		FamilyHeatmap: Heatmap{Rows: []string{"a", "b"}, Cols: []string{"x"}, Values: [][]float64{{nan}, {0.5}}},
		Deltas: []DeltaChart{
			{Bars: []DeltaBar{{Label: "d", Delta: nan, CI: none, P: nan, Pairs: 4}}},
			{Bars: nil}, // left out
		},
		Abandonment:    RateChart{Bars: []RateBar{{Label: "r", Rate: math.Inf(1), CI: none, N: 2}}},
		Balance:        []BalanceCurve{{Bins: []BalanceBin{{Lo: 0, Hi: 1, Rate: nan, CI: none, N: 5}, {Lo: nan, Hi: 2, Rate: 0.5, N: 9}}, Fit: []XY{{0, nan}, {nan, 1}}}},
		Generalization: Heatmap{Rows: []string{"a"}, Cols: []string{"x"}, Values: [][]float64{{nan}}}, // left out
		Funnel:         Funnel{Stages: []FunnelStage{{Name: "none", Count: 0}}},
	}
}

// TestRender_ManyRunsStayApart draws more pass^k lines than a panel holds:
// they split into panels of at most panelSeries lines, and no two lines of
// a panel share a colour.
func TestRender_ManyRunsStayApart(t *testing.T) {
	t.Parallel()
	const runs = 45
	var in Input
	for id := int64(1); id <= runs; id++ {
		in.PassK.Curves = append(in.PassK.Curves, PassKCurve{
			Run: fmt.Sprintf("run %d", id),
			Points: []PassKPoint{
				{K: 1, Value: 0.5, CI: noInterval, Tasks: 3},
				{K: 2, Value: 0.25, CI: noInterval, Tasks: 3},
			},
		})
	}
	page := MustRender(t, in)
	lines, panels := 0, 0
	for _, c := range chartsJSON(t, page) {
		if c.ID != passKChartID && !strings.HasPrefix(c.ID, passKChartID+"-") {
			continue
		}
		panels++
		seen := map[string]string{}
		for _, s := range c.Option["series"].([]any) {
			series := s.(map[string]any)
			style, _ := series["lineStyle"].(map[string]any)
			look := fmt.Sprint(style["color"])
			if other, dup := seen[look]; dup {
				t.Errorf("%s: %s and %s both drawn in %s", c.ID, other, series["name"], look)
			}
			seen[look] = fmt.Sprint(series["name"])
			lines++
		}
		if len(seen) > panelSeries {
			t.Errorf("%s draws %d lines, want at most %d", c.ID, len(seen), panelSeries)
		}
	}
	if lines != runs {
		t.Fatalf("%d lines, want %d", lines, runs)
	}
	if got, want := panels, 5; got != want {
		t.Errorf("%d pass^k panels, want %d (45 lines, 10 a panel)", got, want)
	}
}

// A run with one pass^k point (one trial per task) is a point with a
// whisker in a panel of its own, not a line: a band around one point has no
// width.
func TestRender_SinglePointWhisker(t *testing.T) {
	t.Parallel()
	in := Input{PassK: PassKChart{Curves: []PassKCurve{
		{Run: "one trial", Points: []PassKPoint{{K: 1, Value: 0.6, CI: Interval{Lo: 0.4, Hi: 0.8}, Tasks: 20}}},
		{Run: "four trials", Points: []PassKPoint{{K: 1, Value: 0.6, CI: noInterval, Tasks: 5}, {K: 4, Value: 0.4, CI: noInterval, Tasks: 5}}},
	}}}
	page := MustRender(t, in)
	var ids []string
	var found bool
	for _, c := range chartsJSON(t, page) {
		ids = append(ids, c.ID)
		if c.ID != passKChartID+"-2" {
			continue
		}
		for _, s := range c.Option["series"].([]any) {
			series := s.(map[string]any)
			switch series["type"] {
			case "custom":
				found = true
				if got := fmt.Sprint(series["data"]); got != "[[0 0.4 0.8]]" {
					t.Errorf("whisker data %s, want [[0 0.4 0.8]]", got)
				}
			case "scatter":
				if got := fmt.Sprint(series["data"]); got != "[map[name:one trial value:0.6]]" {
					t.Errorf("points %s, want the one-trial run at 0.6", got)
				}
			case "line":
				t.Errorf("the one-trial panel draws a line %v", series["name"])
			}
		}
	}
	if diff := cmp.Diff([]string{passKChartID, passKChartID + "-2"}, ids); diff != "" {
		t.Errorf("chart ids (-want +got):\n%s", diff)
	}
	if !found {
		t.Fatal("no whisker series for the one-point run")
	}
	if !strings.Contains(page, "runs with one trial per task have only k = 1: they are points, one row each, with a whisker for the confidence interval, in a panel of their own") {
		t.Error("caption does not explain the one-trial panel")
	}
}

// A gap bar whose pass^1 covers more tasks than its pass^k says both n.
func TestRender_GapUnevenN(t *testing.T) {
	t.Parallel()
	page := MustRender(t, Input{Gaps: GapChart{Bars: []GapBar{{Run: "r", Pass1: 0.5, PassK: 0.25, K: 4, Tasks: 3, Tasks1: 4}}}})
	for _, want := range []string{"k=4, n=4/3", "n=a/b: pass^1 over a tasks, pass^k over the b of them"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The runs table says "not evaluated" instead of a pass^1 of 0, and has a
// mean-reward column only when a run has partial credit.
func TestRender_RunsNotEvaluatedAndMeanReward(t *testing.T) {
	t.Parallel()
	runs := []RunSummary{
		{Run: emobench.Run{ID: 1, Name: "errors only"}, Tasks: 1, Trajectories: 1, Pass1: 0, NotEvaluated: true},
		{Run: emobench.Run{ID: 2, Name: "graded"}, Tasks: 2, Trajectories: 2, Pass1: 0.5, PartialCredit: true, MeanReward: 0.625},
		{Run: emobench.Run{ID: 3, Name: "binary"}, Tasks: 2, Trajectories: 2, Pass1: 0.5, MeanReward: 0.5},
	}
	page := MustRender(t, Input{Runs: runs})
	for _, want := range []string{
		`<th class="num">pass^1</th><th class="num">Mean reward</th><th class="num">Abandoned</th>`,
		`<td class="num">not evaluated</td><td class="num">–</td>`,
		`<td class="num">0.500</td><td class="num">0.625</td>`,
		`<td class="num">0.500</td><td class="num">–</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Without partial credit (MeanReward set or not), no column.
	page = MustRender(t, Input{Runs: runs[2:]})
	if strings.Contains(page, "Mean reward") {
		t.Error("a mean-reward column without partial credit")
	}
}
