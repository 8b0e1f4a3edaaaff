// Package browsertest opens emobench reports in a headless Chromium for
// tests: it starts the browser, collects what the page reports as errors,
// and reads back the layout of every chart (text boxes, legend and plot
// rectangles) as echarts' SVG renderer drew it.
package browsertest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// findChromium returns the path of a Chromium binary in PATH.
func findChromium() (string, error) {
	var errs []error
	for _, name := range []string{"chromium", "chromium-browser"} {
		path, err := exec.LookPath(name)
		if err == nil {
			return path, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

// MustBrowser starts a headless Chromium with a fresh profile, no
// network-using background services and a window width px wide, opens a
// tab whose events go to listen, and returns the tab's context, which is
// cancelled after timeout. It skips the test when no Chromium is installed.
func MustBrowser(t *testing.T, timeout time.Duration, width int, listen func(ev any)) context.Context {
	t.Helper()
	path, err := findChromium()
	if err != nil {
		t.Skip("chromium not installed: " + err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, 900),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelBrowser := chromedp.NewContext(ctx, chromedp.WithListener(listen))
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// Problem describes ev when it reports an error: a console.error call, an
// uncaught exception, or an error entry of the browser's log (such as a
// failed load). It returns "" for every other event.
func Problem(ev any) string {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				args = append(args, cmp.Or(a.Description, string(a.Value)))
			}
			return "console.error: " + strings.Join(args, " ")
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		p := fmt.Sprintf("exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, d.Text)
		if d.Exception != nil {
			p += " " + d.Exception.Description
		}
		return p
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError {
			return "log error: " + ev.Entry.Text + " " + ev.Entry.URL
		}
	}
	return ""
}

// Rect is a rectangle in a chart container's coordinates, in CSS px.
type Rect struct {
	X, Y, W, H float64
	Text       string `json:"text,omitempty"` // the text drawn in it, for a text box
}

// Overlaps reports whether r and o share an area more than 0.5 px across
// in both directions: boxes that only touch do not overlap.
func (r Rect) Overlaps(o Rect) bool {
	const slack = 0.5
	return r.X+slack < o.X+o.W && o.X+slack < r.X+r.W && r.Y+slack < o.Y+o.H && o.Y+slack < r.Y+r.H
}

// ChartLayout is what a chart drew: the boxes of its SVG text elements,
// its legends' and toolboxes' boxes and its plot grids' rectangles.
type ChartLayout struct {
	ID        string  `json:"id"`
	W         float64 `json:"w"` // the chart container's size
	H         float64 `json:"h"`
	Texts     []Rect  `json:"texts"`
	Legends   []Rect  `json:"legends"`
	Toolboxes []Rect  `json:"toolboxes"`
	Grids     []Rect  `json:"grids"`
}

// readLayout reads every chart's layout. Text boxes come from the SVG
// (what the browser drew); legend and grid rectangles from echarts' own
// component views and coordinate systems.
const readLayout = `[...document.querySelectorAll(".chart")].map(c => {
  const e = echarts.getInstanceByDom(c), b = c.getBoundingClientRect();
  const texts = [...c.querySelectorAll("svg text")].map(t => {
    const r = t.getBoundingClientRect();
    return {X: r.left - b.left, Y: r.top - b.top, W: r.width, H: r.height, text: t.textContent};
  }).filter(r => r.W > 0 && r.H > 0 && r.text.trim() !== "");
  const legends = [], toolboxes = [], grids = [];
  if (e) {
    const model = e.getModel();
    const boxes = (type, out) => model.eachComponent(type, m => {
      if (!m.get("show")) return;
      const view = e.getViewOfComponentModel(m);
      if (!view || !view.group) return;
      const r = view.group.getBoundingRect().clone();
      r.applyTransform(view.group.getComputedTransform());
      if (r.width > 0) out.push({X: r.x, Y: r.y, W: r.width, H: r.height});
    });
    boxes("legend", legends);
    boxes("toolbox", toolboxes);
    model.eachComponent("grid", m => {
      const r = m.coordinateSystem && m.coordinateSystem.getRect();
      if (r) grids.push({X: r.x, Y: r.y, W: r.width, H: r.height});
    });
  }
  return {id: c.id, w: b.width, h: b.height, texts, legends, toolboxes, grids};
})`

// Layouts returns the layout of every chart of the page loaded in ctx.
func Layouts(ctx context.Context) ([]ChartLayout, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]ChartLayout](readLayout))
}

// LayoutProblems lists, for each chart of layouts, the text boxes that
// reach past the chart's edge, the pairs of text boxes that overlap and
// the legends that meet a plot grid or a toolbox.
func LayoutProblems(layouts []ChartLayout) []string {
	var out []string
	for _, l := range layouts {
		box := Rect{W: l.W, H: l.H}
		for _, a := range l.Texts {
			const slack = 0.5
			if a.X < -slack || a.Y < -slack || a.X+a.W > box.W+slack || a.Y+a.H > box.H+slack {
				out = append(out, fmt.Sprintf("%s: text %q at %s is cut by the chart's edge %s", l.ID, a.Text, a.box(), box.box()))
			}
		}
		for i, a := range l.Texts {
			for _, b := range l.Texts[i+1:] {
				if a.Overlaps(b) {
					out = append(out, fmt.Sprintf("%s: text %q at %s overlaps %q at %s", l.ID, a.Text, a.box(), b.Text, b.box()))
				}
			}
		}
		for _, g := range l.Legends {
			for _, p := range l.Grids {
				if g.Overlaps(p) {
					out = append(out, fmt.Sprintf("%s: legend at %s meets the plot at %s", l.ID, g.box(), p.box()))
				}
			}
			for _, b := range l.Toolboxes {
				if g.Overlaps(b) {
					out = append(out, fmt.Sprintf("%s: legend at %s meets the toolbox at %s", l.ID, g.box(), b.box()))
				}
			}
		}
	}
	return out
}

func (r Rect) box() string {
	return fmt.Sprintf("(%.0f,%.0f %.0f×%.0f)", r.X, r.Y, r.W, r.H)
}
