package reports

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestZZManual(t *testing.T) {
	browser := MustBrowser(t, 60*time.Second)
	for _, name := range []string{"basic", "hostile"} {
		path := filepath.Join("/tmp", "report-"+name+".html")
		os.WriteFile(path, []byte(MustRender(t, MustLoadInput(t, name))), 0o644)
		ctx, cancel := chromedp.NewContext(browser)
		defer cancel()
		u := url.URL{Scheme: "file", Path: path}
		if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile("/tmp/report-"+name+".jpg", png, 0o644)
		tip, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => { const c = document.querySelectorAll(".chart")[1]; echarts.getInstanceByDom(c).dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 0}); return 1; })()`))
		if err != nil {
			t.Fatal(err)
		}
		_ = tip
		chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond))
		tip2, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".chart")].map(c => [...c.children].filter(d => d.tagName == "DIV" && !d.querySelector("svg")).map(d => d.innerHTML).join("||")).join("\n====\n")`))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s tooltip: %s", name, tip2)
		pdf, err := chromedp.Run(ctx, chromedp.PrintToPDF())
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile("/tmp/report-"+name+".pdf", pdf, 0o644)
	}
}
