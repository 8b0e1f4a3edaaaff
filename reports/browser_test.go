package reports

import (
	"context"
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

// pageState is what the browser test reads back from a loaded report.
type pageState struct {
	Containers int      `json:"containers"` // elements with class "chart"
	Drawn      int      `json:"drawn"`      // containers holding an <svg> or <canvas> with shapes
	Series     []int    `json:"series"`     // series per chart, from echarts' own option
	Images     int      `json:"images"`     // <img> elements in the document
	Resources  []string `json:"resources"`  // URLs the page fetched after itself
	Pwned      bool     `json:"pwned"`      // window.__pwned is defined
	Text       string   `json:"text"`       // document.body.innerText
}

const readState = `(() => {
  const cs = [...document.querySelectorAll(".chart")];
  return {
    containers: cs.length,
    drawn: cs.filter(c => c.querySelector("canvas") || c.querySelectorAll("svg path, svg text").length > 0).length,
    series: cs.map(c => { const e = echarts.getInstanceByDom(c); return e ? e.getOption().series.length : -1; }),
    images: document.querySelectorAll("img").length,
    resources: performance.getEntriesByType("resource").map(r => r.name),
    pwned: typeof window.__pwned !== "undefined",
    text: document.body.innerText,
  };
})()`

// showTooltips opens, in turn, the tooltip of every data item of every
// chart, so that echarts writes series and category names into tooltip HTML,
// and returns the text of each tooltip shown. The tooltip is the chart
// container's child after zrender's own.
const showTooltips = `(() => {
  const texts = [];
  for (const c of document.querySelectorAll(".chart")) {
    const e = echarts.getInstanceByDom(c), o = e.getOption();
    for (let s = 0; s < o.series.length; s++) {
      for (let i = 0; i < (o.series[s].data || []).length; i++) {
        e.dispatchAction({type: "showTip", seriesIndex: s, dataIndex: i});
        for (const d of [...c.children].slice(1)) {
          if (d.textContent) texts.push(d.textContent);
        }
      }
    }
    e.dispatchAction({type: "hideTip"});
  }
  return texts;
})()`

// hookDownloads makes the page record, instead of following, every click
// on an <a> element that echarts' saveAsImage dispatches: it builds an
// <a download="<name>.svg" href="data:..."> outside the document and
// dispatches a click on it.
const hookDownloads = `(() => {
  window.__saved = [];
  HTMLAnchorElement.prototype.dispatchEvent = function () {
    window.__saved.push({name: this.download, href: this.getAttribute("href")});
    return true;
  };
  return true;
})()`

// saveButton scrolls the chart container with id %q into view and returns
// the viewport position of the centre of its toolbox's save button, found
// among zrender's displayed elements by its title.
const saveButton = `(() => {
  const c = document.getElementById(%q);
  c.scrollIntoView({block: "center"});
  const e = echarts.getInstanceByDom(c);
  if (!e) return {found: false};
  const el = e.getZr().storage.getDisplayList(true).find(el => el.__title === "Save as SVG");
  if (!el) return {found: false};
  const r = el.getBoundingRect().clone();
  r.applyTransform(el.getComputedTransform());
  const b = c.getBoundingClientRect();
  return {found: true, x: b.left + r.x + r.width / 2, y: b.top + r.y + r.height / 2};
})()`

// point is a position in the viewport, in CSS px.
type point struct {
	Found bool    `json:"found"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
}

// savedSVG is what the browser test reads back from one saved image.
type savedSVG struct {
	Name   string `json:"name"`   // download file name
	Prefix string `json:"prefix"` // start of the URL
	SVG    bool   `json:"svg"`    // the URL decodes to a document starting with <svg
	XML    bool   `json:"xml"`    // which parses as SVG without error
	Texts  int    `json:"texts"`  // <text> elements in it
	Shapes int    `json:"shapes"` // <path> and <rect> elements in it
	Unsafe int    `json:"unsafe"` // <script>, <foreignObject>, <img>, <iframe> elements or on* attributes in it
	Text   string `json:"text"`   // its text content
}

const readSaved = `window.__saved.map(s => {
  const prefix = "data:image/svg+xml;charset=UTF-8,";
  const svg = s.href.startsWith(prefix) ? decodeURIComponent(s.href.slice(prefix.length)) : "";
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  const onAttrs = [...doc.querySelectorAll("*")].filter(el => [...el.attributes].some(a => /^on/i.test(a.name))).length;
  return {
    name: s.name,
    prefix: s.href.slice(0, prefix.length),
    svg: svg.startsWith("<svg"),
    xml: doc.querySelector("parsererror") === null && doc.documentElement.localName === "svg",
    texts: doc.querySelectorAll("text").length,
    shapes: doc.querySelectorAll("path, rect").length,
    unsafe: doc.querySelectorAll("script, foreignObject, img, iframe").length + onAttrs,
    text: doc.documentElement.textContent,
  };
})`

// chartIDs returns the ids of the chart containers of a page, in order.
const chartIDs = `[...document.querySelectorAll(".chart")].map(c => c.id)`

func TestRender_Browser(t *testing.T) {
	// One tab serves every case, one after the other: a new tab costs
	// about as much as loading a report.
	var mu sync.Mutex
	var problems []string
	ctx := chromiumtest.MustStart(t, 60*time.Second, 1024, func(ev any) {
		if p := chromiumtest.Problem(ev); p != "" {
			mu.Lock()
			problems = append(problems, p)
			mu.Unlock()
		}
	})
	for _, tc := range []struct {
		name   string
		series []int        // per drawn chart
		in     func() Input // nil: testdata/<name>/input.json
	}{
		// (a) 3 lines, (b) a panel per family, (c); hostile's runs have
		// one trial per task: (a) is one panel of points.
		{"basic", []int{3, 1, 1, 1, 1, 2}, nil},
		{"nopair", []int{1}, nil},
		{"hostile", []int{1, 1, 1, 1, 1, 2}, nil},
		// (a) 3 lines and 2 band series each, gaps, (b) a panel per
		// family, heatmap, (c), 2 Δ charts, abandonment, balance,
		// generalization, funnel.
		{"full", []int{9, 2, 1, 1, 1, 1, 2, 2, 2, 2, 3, 1, 1}, nil},
		// (a) a line, gaps, heatmap, Δ bars, abandonment bars, balance
		// points and fit, funnel: nothing but gaps where the data is NaN.
		{"nan", []int{1, 2, 1, 1, 1, 2, 1}, nanSections},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in Input
			if tc.in != nil {
				in = tc.in()
			} else {
				in = MustLoadInput(t, tc.name)
			}
			path := filepath.Join(t.TempDir(), "report.html")
			if err := os.WriteFile(path, []byte(MustRender(t, in)), 0o644); err != nil {
				t.Fatal(err)
			}

			mu.Lock()
			problems = nil
			mu.Unlock()

			u := url.URL{Scheme: "file", Path: path}
			if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil { // waits for the load event
				t.Fatalf("load %s: %v", u.String(), err)
			}
			loaded, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](readState))
			if err != nil {
				t.Fatalf("read page state: %v", err)
			}
			// No text of a chart overlaps another or is cut; no legend meets
			// the plot or the toolbox.
			layouts, err := layouts(ctx)
			if err != nil {
				t.Fatalf("read chart layouts: %v", err)
			}
			for _, p := range browsertest.LayoutProblems(layouts) {
				t.Error(p)
			}
			// Open the tooltips only where every chart drew; otherwise the
			// checks below already fail.
			var tooltips []string
			if loaded.Drawn == len(tc.series) {
				if tooltips, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](showTooltips)); err != nil {
					t.Errorf("show tooltips: %v", err)
				} else if len(tooltips) == 0 {
					t.Error("no tooltip showed")
				}
			}
			// Save every chart through its toolbox button, clicked with the
			// mouse; the page records the SVG instead of downloading it.
			ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](chartIDs))
			if err != nil {
				t.Fatalf("list charts: %v", err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](hookDownloads)); err != nil {
				t.Fatalf("hook downloads: %v", err)
			}
			for _, id := range ids {
				at, err := chromedp.Run(ctx, chromedp.Evaluate[point](fmt.Sprintf(saveButton, id)))
				if err != nil {
					t.Fatalf("find the save button of %s: %v", id, err)
				}
				if !at.Found {
					t.Errorf("chart %s has no save button", id)
					continue
				}
				if err := chromedp.Do(ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
					t.Fatalf("click the save button of %s: %v", id, err)
				}
			}
			saved, err := chromedp.Run(ctx, chromedp.Evaluate[[]savedSVG](readSaved))
			if err != nil {
				t.Fatalf("read saved images: %v", err)
			}
			if err := chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond)); err != nil { // let an injected onerror fire
				t.Fatal(err)
			}
			shown, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](readState))
			if err != nil {
				t.Fatalf("read page state after tooltips: %v", err)
			}

			mu.Lock()
			for _, p := range problems {
				t.Errorf("browser reported: %s", p)
			}
			mu.Unlock()
			if got, want := loaded.Containers, len(tc.series); got != want {
				t.Errorf("chart containers = %d, want %d", got, want)
			}
			if got, want := loaded.Drawn, loaded.Containers; got != want {
				t.Errorf("charts drawn (svg/canvas present) = %d, want %d", got, want)
			}
			if got, want := fmt.Sprint(loaded.Series), fmt.Sprint(tc.series); got != want {
				t.Errorf("series per chart = %s, want %s", got, want)
			}
			if len(loaded.Resources) != 0 {
				t.Errorf("page fetched %q, want nothing", loaded.Resources)
			}
			for _, s := range []pageState{loaded, shown} {
				if s.Pwned {
					t.Error("window.__pwned is defined: injected script ran")
				}
				if s.Images != 0 {
					t.Errorf("document has %d <img> elements, want 0", s.Images)
				}
			}
			// Every chart saved as one well-formed SVG, with its text and
			// shapes, and nothing in it that could run.
			if got, want := len(saved), len(ids); got != want {
				t.Errorf("saved %d images for %d charts", got, want)
			}
			var savedText strings.Builder
			for i, s := range saved {
				if i < len(ids) {
					if got, want := s.Name, ids[i]+".svg"; got != want {
						t.Errorf("saved image %d is named %q, want %q", i, got, want)
					}
				}
				if got, want := s.Prefix, "data:image/svg+xml;charset=UTF-8,"; got != want {
					t.Errorf("%s: URL starts %q, want %q", s.Name, got, want)
				}
				if !s.SVG || !s.XML {
					t.Errorf("%s: not a well-formed SVG document (starts with <svg: %v, parses: %v)", s.Name, s.SVG, s.XML)
				}
				if s.Texts == 0 || s.Shapes == 0 {
					t.Errorf("%s: %d <text> and %d shapes, want some of each", s.Name, s.Texts, s.Shapes)
				}
				if s.Unsafe != 0 {
					t.Errorf("%s: %d script-capable elements or attributes", s.Name, s.Unsafe)
				}
				savedText.WriteString(s.Text)
			}
			if tc.name == "hostile" || tc.name == "full" {
				// The run name shows as text in chart (a)'s legend.
				if s := hostileNames[2]; !strings.Contains(savedText.String(), s) {
					t.Errorf("saved SVG text lacks %q", s)
				}
			}

			// Names show as text: in the table, and in the tooltips.
			allTips := strings.Join(tooltips, "\n")
			for _, r := range in.Runs {
				if !strings.Contains(loaded.Text, r.Run.Name) {
					t.Errorf("page text lacks run name %q", r.Run.Name)
				}
				if !strings.Contains(allTips, r.Run.Name) {
					t.Errorf("no tooltip shows run name %q", r.Run.Name)
				}
			}
			// Runs whose only family is (none) are left out of chart (b).
			withFamily := map[int64]bool{}
			for _, row := range in.FamilyPass1 {
				if groupValue(row.Group, 0) != noneLabel {
					withFamily[row.RunID] = true
				}
			}
			for _, row := range in.FamilyPass1 {
				if !withFamily[row.RunID] {
					continue
				}
				if f := groupValue(row.Group, 0); !strings.Contains(allTips, f) {
					t.Errorf("no tooltip shows family %q", f)
				}
			}
		})
	}
}

// layouts reads the layout of every chart of the page loaded in ctx.
func layouts(ctx context.Context) ([]browsertest.ChartLayout, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]browsertest.ChartLayout](browsertest.ReadLayout))
}
