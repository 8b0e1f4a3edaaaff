// Package chromiumtest starts a headless Chromium for browser tests
// (chromedp) and describes the errors a page reports. Only _test.go files
// import it (imports_test.go at the module root checks that), so no
// command or library carries chromedp.
package chromiumtest

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

// Find returns the path of a Chromium binary in PATH.
func Find() (string, error) {
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

// MustStart starts a headless Chromium with a fresh profile, no
// network-using background services and a window width px wide, opens a
// tab whose events go to listen, and returns the tab's context, which is
// cancelled after timeout. It skips the test when no Chromium is installed.
func MustStart(t testing.TB, timeout time.Duration, width int, listen func(ev any)) context.Context {
	t.Helper()
	path, err := Find()
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
