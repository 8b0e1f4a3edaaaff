package reports

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// MustBrowser starts a headless Chromium with a fresh profile and no
// network-using background services, opens a tab whose events go to
// listen, and returns the tab's context, which is cancelled after timeout.
// It skips the test when no Chromium is installed.
func MustBrowser(t *testing.T, timeout time.Duration, listen func(ev any)) context.Context {
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
		chromedp.WindowSize(1024, 768),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelBrowser := chromedp.NewContext(ctx, chromedp.WithListener(listen))
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

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
      for (let i = 0; i < o.xAxis[0].data.length; i++) {
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

func TestRender_Browser(t *testing.T) {
	// One tab serves every case, one after the other: a new tab costs
	// about as much as loading a report.
	var mu sync.Mutex
	var problems []string
	ctx := MustBrowser(t, 60*time.Second, func(ev any) {
		if p := browserProblem(ev); p != "" {
			mu.Lock()
			problems = append(problems, p)
			mu.Unlock()
		}
	})
	for _, tc := range []struct {
		name   string
		series []int // per drawn chart
	}{
		{"basic", []int{3, 3, 2}},
		{"nopair", []int{1}},
		{"hostile", []int{3, 3, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := MustLoadInput(t, tc.name)
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
			for _, row := range in.FamilyPass1 {
				if f := groupValue(row.Group, 0); !strings.Contains(allTips, f) {
					t.Errorf("no tooltip shows family %q", f)
				}
			}
		})
	}
}

// browserProblem describes ev when it reports an error: a console.error call,
// an uncaught exception, or an error entry of the browser's log (such as a
// failed load). It returns "" for every other event.
func browserProblem(ev any) string {
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
