package reports

import (
	"bytes"
	"encoding/json"
	"flag"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

var update = flag.Bool("update", false, "rewrite testdata/<case>/want.html from Render's output")

// goldenCases are the folders of testdata/, each with an input.json (an
// Input as encoding/json spells it) and a want.html.
var goldenCases = []string{"basic", "nopair", "hostile"}

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
		if diff := cmp.Diff([]string{passKChartID, familyChartID, conditionChartID}, ids); diff != "" {
			t.Errorf("chart ids (-want +got):\n%s", diff)
		}
	})
	t.Run("Deterministic", func(t *testing.T) {
		if again := MustRender(t, MustLoadInput(t, "basic")); again != page {
			t.Error("two renders of the same input differ")
		}
	})
}

func TestRender_Escaping(t *testing.T) {
	in := MustLoadInput(t, "hostile")
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
	for _, s := range hostileNames {
		if !names[s] {
			t.Errorf("chart options lack the string %q", s)
		}
	}
	if !names[`__f__"+(window.__pwned=1)+"__f__`] {
		t.Error(`chart options lack the "__f__" family name intact`)
	}
}

func TestRender_NaN(t *testing.T) {
	nan := math.NaN()
	in := Input{
		Runs: []RunSummary{{Run: emobench.Run{ID: 1, Name: "empty run"}, Pass1: nan}},
		PassKByRun: []analysis.PassKRow{
			{RunID: 1, K: 1, PassHatK: nan},
			{RunID: 1, K: 3, PassHatK: math.Inf(1)},
		},
		FamilyPass1: []analysis.PassKRow{{RunID: 1, K: 1, PassHatK: nan}},
		ConditionPass1: []analysis.PassKRow{
			{RunID: 1, Group: []string{"m", "d", "with-emotions"}, K: 1, PassHatK: nan, Tasks: 1},
			{RunID: 2, Group: []string{"m", "d", "without-emotions"}, K: 1, PassHatK: 0.5, Tasks: 1},
		},
	}
	page := MustRender(t, in)
	if want := `<td class="num">–</td>`; !strings.Contains(page, want) {
		t.Errorf("table lacks %q for a NaN pass^1", want)
	}
	inits := chartsJSON(t, page)
	// The NaN with-emotions row is left out, so chart (c) has no pair.
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
	if err := Render(failWriter{}, Input{}); err == nil {
		t.Fatal("Render to a failing writer returned nil error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// TestEChartsAsset checks that the embedded build can be inlined in a
// <script> element: it must not close the element or open an HTML comment.
func TestEChartsAsset(t *testing.T) {
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
