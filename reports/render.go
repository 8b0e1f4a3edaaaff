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
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// DefaultTitle is the report's title when Input.Title is empty.
const DefaultTitle = "emobench report"

//go:embed report.html.tmpl
var pageTemplateText string

var pageTemplate = template.Must(template.New("report").Parse(pageTemplateText))

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
	Width, Height            string
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
	Pass1                               string
}

// page is the data of report.html.tmpl. Every string field is data: the
// template escapes it for its context. Only the template.JS and
// template.HTML fields are trusted, and Render builds those itself.
type page struct {
	Title          string
	GeneratedAt    string
	Figures        []figure
	Runs           []runRow
	EChartsVersion string
	EChartsNotice  template.HTML // an HTML comment naming ECharts and its license
	EChartsJS      template.JS   // assets/echarts.min.js, verbatim
	ChartsJS       template.JS   // JSON array of chartInit
}

// Render writes in as one self-contained HTML page to w:
//
//	(a) a line chart of pass^k against k, one line per run (in.PassKByRun);
//	(b) a bar chart of pass^1 per emotion family, one series per run
//	    (in.FamilyPass1);
//	(c) a bar chart of pass^1 with against without emotions for each agent
//	    model and domain that has both (in.ConditionPass1), or a note when
//	    none has both;
//	(d) a table of in.Runs.
//
// Series are named after in.Runs by RunID. A chart with no data is replaced
// by a note. NaN and infinite values are drawn as gaps and printed as "–".
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

	var inits []chartInit
	add := func(f figure, d drawable, note string) {
		c, init := d.chart, d.init
		if c == nil {
			f.Note = note
			p.Figures = append(p.Figures, f)
			return
		}
		c.Validate()
		// The go-echarts configuration is the one source of id, size and
		// renderer; its assets (a CDN host by default) are never used.
		f.ID, f.Width, f.Height = init.ChartID, init.Width, init.Height
		p.Figures = append(p.Figures, f)
		inits = append(inits, chartInit{ID: init.ChartID, Renderer: init.Renderer, Option: c.JSON()})
	}
	add(figure{
		ID:      passKChartID,
		Title:   "pass^k by run",
		Caption: "pass^k = mean over tasks of C(c,k)/C(n,k) (Yao et al. 2024, τ-bench): the chance that k independent trials of a task all pass." + conventionNote(conventions(in.PassKByRun)),
	}, lineOrNil(passKChart(in)), "No pass^k rows.")
	add(figure{
		ID:      familyChartID,
		Title:   "pass^1 by emotion family",
		Caption: "pass^1 per emotion family of the task's user, one bar per run; (none) gathers tasks with no emotion profile." + conventionNote(conventions(in.FamilyPass1)),
	}, barOrNil(familyChart(in)), "No pass^1 rows by emotion family.")
	add(figure{
		ID:      conditionChartID,
		Title:   "pass^1 with vs without emotions",
		Caption: "pass^1 of the same agent model on the same domain with and without the emotion instruction; runs sharing a model, domain and condition are pooled (mean weighted by tasks)." + conventionNote(conventions(in.ConditionPass1)),
	}, barOrNil(conditionChart(in)), "No agent model and domain has runs both with and without emotions, so there is nothing to compare.")

	js, err := json.MarshalIndent(inits, "  ", " ")
	if err != nil {
		return fmt.Errorf("render report: encode chart options: %w", err)
	}
	p.ChartsJS = template.JS(js)

	for _, r := range in.Runs {
		p.Runs = append(p.Runs, runRow{
			ID:           r.Run.ID,
			Name:         r.Run.Name,
			AgentModel:   r.Run.AgentModel,
			Domain:       r.Run.Domain,
			Condition:    string(r.Run.Condition),
			Tasks:        r.Tasks,
			Trajectories: r.Trajectories,
			Pass1:        formatRate(r.Pass1),
			Abandoned:    r.Abandoned,
		})
	}
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return nil
}

// drawable is a go-echarts chart with its initialization options (id,
// size, renderer); chart is nil when there is nothing to draw.
type drawable struct {
	chart echartsChart
	init  opts.Initialization
}

// lineOrNil and barOrNil wrap c, and give a drawable with a nil chart (not a
// nil pointer in a non-nil interface) when c is nil.
func lineOrNil(c *charts.Line) drawable {
	if c == nil {
		return drawable{}
	}
	return drawable{c, c.Initialization}
}

func barOrNil(c *charts.Bar) drawable {
	if c == nil {
		return drawable{}
	}
	return drawable{c, c.Initialization}
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
