package reports

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// DefaultTitle is the report's title when Input.Title is empty.
const DefaultTitle = "emobench report"

//go:embed report.html.tmpl
var pageTemplateText string

// pageTemplate is parsed at the first report, not at package init, which
// every command would pay.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(pageTemplateText))
})

// echartsChart is the part of a go-echarts chart that the page needs:
// Validate, which fills in the x axis data, and then the option object.
type echartsChart interface {
	Validate()
	JSON() map[string]any
}

// figure is one chart section of the page: a chart, or a note in its place
// when there is nothing to draw.
type figure struct {
	ID, Title, Caption, Note string
	Summary                  string // a paragraph under the chart; none when ""
	// Charts are the section's chart containers: one, or small multiples
	// side by side when Grid is set.
	Charts []chartBox
	Grid   bool
}

// chartBox is one chart container: its id and CSS size.
type chartBox struct {
	ID, Width, Height string
	MinWidth          string // "" when none
	MaxWidth          string // "" when none
	Caption           string // the panel's own caption, under it; "" when none
}

// chartInit is what the page's script needs to draw one chart. It is
// marshalled with encoding/json, which escapes <, > and & as \u003c, \u003e
// and \u0026 (and U+2028, U+2029), so no data string can close the <script>
// element or open an HTML comment.
type chartInit struct {
	ID       string         `json:"id"`
	Renderer string         `json:"renderer"`
	Option   map[string]any `json:"option"`
}

// runRow is one formatted row of the runs table.
type runRow struct {
	ID                                  int64
	Name, AgentModel, Domain, Condition string
	Tasks, Trajectories, Abandoned      int
	Pass1, MeanReward                   string
}

// page is the data of report.html.tmpl. Every string field is data: the
// template escapes it for its context. Only the template.JS and
// template.HTML fields are trusted, and Render builds those itself.
type page struct {
	Title          string
	GeneratedAt    string
	Figures        []figure
	Runs           []runRow
	MeanReward     bool // the runs table has a mean-reward column
	Published      []publishedRow
	Strict         []strictPageRow
	StrictCaption  string
	EChartsVersion string
	EChartsNotice  template.HTML // an HTML comment naming ECharts and its license
	EChartsJS      template.JS   // assets/echarts.min.js, verbatim
	ChartsJS       template.JS   // JSON array of chartInit
}

// Render writes in as one self-contained HTML page to w, with the
// sections of reportSections in order:
//
//	(a) pass^k against k, one line per run, from in.PassK (with a shaded
//	    confidence band around each line) or else from in.PassKByRun; at
//	    most panelSeries lines a panel, and runs with one trial per task as
//	    points with whiskers in a panel of their own;
//	    the pass^1 against pass^k bars per run (in.Gaps);
//	(b) pass^1 per emotion family, a panel per family with a row per run
//	    (in.FamilyPass1), and the run × emotion family heatmap
//	    (in.FamilyHeatmap);
//	(c) pass^1 with against without emotions for each comparison of
//	    in.ConditionPairs, or a note when there is none;
//	    the Δ row charts with CI whiskers on an axis within [−1, 1]
//	    (in.Deltas), the abandonment rates (in.Abandonment), the
//	    success-against-balance curves, a panel each (in.Balance), the
//	    generalization matrix (in.Generalization), the published results, a
//	    panel per domain (in.Published), and the Tracer funnel (in.Funnel);
//	(d) a table of in.Runs, and one of in.Published.
//
// Charts take the page's width; a matrix wider than the page scrolls. No
// chart repeats a colour: past panelSeries series it splits into panels.
// Legends sit at the right of the plot, below the toolbox. Charts (a) to
// (c) show a note when they have no data; the other sections are left out.
// Every chart has a caption naming what it plots and its n, followed by the
// section's Caption, and a toolbox button that saves it as SVG; a chart
// whose section names a stats command says so in its caption. Series are
// named after in.UnitLabels, then in.Runs, by RunID, with empty and
// "unknown" segments of " / " labels left out. NaN and infinite values are
// drawn as gaps, or not at all, and printed as "–" or "no data".
//
// The page inlines Apache ECharts (EChartsVersion) and fetches nothing: it
// opens offline from a file:// URL and prints on A4 or Letter paper. Every
// string from in is escaped, in the HTML and in the chart options. For a
// given in, the output is the same byte for byte.
//
// Render returns an error only when the chart options cannot be encoded or
// when writing to w fails; output may then be partly written.
func Render(w io.Writer, in Input) error {
	p := page{
		Title:          cmp.Or(in.Title, DefaultTitle),
		EChartsVersion: EChartsVersion,
		EChartsNotice: template.HTML("<!-- Apache ECharts " + EChartsVersion +
			", Apache License 2.0. Copyright 2017-2023 The Apache Software Foundation." +
			" Bundles zrender (BSD 3-Clause) and parts of d3 (BSD 3-Clause). -->"),
		EChartsJS: template.JS(echartsJS),
	}
	if !in.GeneratedAt.IsZero() {
		p.GeneratedAt = in.GeneratedAt.UTC().Format(time.RFC3339)
	}
	for _, r := range in.Published {
		p.Published = append(p.Published, publishedRow{
			Domain: r.Domain, Model: r.Model, Source: r.Source, K: r.K,
			PassHatK: formatRate(r.PassHatK), Yours: r.Yours,
		})
	}

	var inits []chartInit
	var addPanels func(f figure, ds []drawable, note string)
	// addPanels appends the section f drawn by ds; when none has a chart,
	// it shows note in its place, or leaves the section out when note is "".
	addPanels = func(f figure, ds []drawable, note string) {
		for _, d := range ds {
			c, init := d.chart, d.init
			if c == nil {
				continue
			}
			c.Validate()
			// The go-echarts configuration is the one source of id, size and
			// renderer; its assets (a CDN host by default) are never used.
			f.Charts = append(f.Charts, chartBox{ID: init.ChartID, Width: init.Width, Height: init.Height, MinWidth: d.minWidth, MaxWidth: d.maxWidth, Caption: d.caption})
			option := c.JSON()
			fixLabelLineHeight(option)
			if d.series != nil {
				option["series"] = d.series
			}
			if d.patch != nil {
				d.patch(option)
			}
			inits = append(inits, chartInit{ID: init.ChartID, Renderer: init.Renderer, Option: option})
		}
		if len(f.Charts) == 0 {
			if note != "" {
				f.Note = note
				p.Figures = append(p.Figures, f)
			}
			return
		}
		f.ID = f.Charts[0].ID
		p.Figures = append(p.Figures, f)
	}
	for _, s := range reportSections {
		for _, sec := range s.build(in) {
			addPanels(sec.figure, sec.charts, sec.note)
		}
	}

	js, err := json.MarshalIndent(inits, "  ", " ")
	if err != nil {
		return fmt.Errorf("render report: encode chart options: %w", err)
	}
	p.ChartsJS = template.JS(js)

	for _, r := range in.Runs {
		pass1 := formatRate(r.Pass1)
		if r.NotEvaluated {
			pass1 = "not evaluated"
		}
		mean := "–"
		if r.PartialCredit {
			mean, p.MeanReward = formatRate(r.MeanReward), true
		}
		p.Runs = append(p.Runs, runRow{
			ID:           r.Run.ID,
			Name:         r.Run.Name,
			AgentModel:   r.Run.AgentModel,
			Domain:       r.Run.Domain,
			Condition:    string(r.Run.Condition),
			Tasks:        r.Tasks,
			Trajectories: r.Trajectories,
			Pass1:        pass1,
			MeanReward:   mean,
			Abandoned:    r.Abandoned,
		})
	}
	p.Strict, p.StrictCaption = strictPageRows(in.Strict), in.Strict.Caption
	if err := pageTemplate().Execute(w, p); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return nil
}

// drawable is a go-echarts chart with its initialization options (id,
// size, renderer); chart is nil when there is nothing to draw. When series
// is not nil, it replaces the chart's series in the options: it can hold
// series with options go-echarts has no field for (extSeries).
type drawable struct {
	chart  echartsChart
	init   opts.Initialization
	series []any
	patch  func(option map[string]any) // last edits to the options; nil: none
	// minWidth is the narrowest CSS width the chart reads at, such as a
	// matrix wide enough for its labels; its box scrolls below it.
	minWidth string
	maxWidth string // the widest it should grow, such as a matrix of few columns; "" for no limit
	caption  string // a panel's own caption, under it; "" when none
}

// barOrNil wraps c, and gives a drawable with a nil chart (not a nil
// pointer in a non-nil interface) when c is nil.
func barOrNil(c *charts.Bar) drawable {
	if c == nil {
		return drawable{}
	}
	return drawable{chart: c, init: c.Initialization}
}

// conventionNote returns a caption sentence naming the pass^k conventions
// used, or "" when the rows name none.
func conventionNote(convs []string) string {
	if len(convs) == 0 {
		return ""
	}
	return " Trial-count convention: " + strings.Join(convs, ", ") + "."
}

// formatRate formats a rate in [0, 1] with 3 decimals, and NaN or an
// infinity as "–".
func formatRate(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// publishedRow is one row of the published-results table, formatted.
type publishedRow struct {
	Domain, Model, Source string
	K                     int
	PassHatK              string
	Yours                 bool
}
