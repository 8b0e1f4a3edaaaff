package reports

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// section is one part of the report as a builder draws it: the figure
// (title, caption, summary, layout), its charts, and the note shown in
// place of the charts when none has data ("": the section is left out).
type section struct {
	figure figure
	charts []drawable
	note   string
}

// one is a section of a single chart.
func one(f figure, d drawable, note string) []section {
	return []section{{figure: f, charts: []drawable{d}, note: note}}
}

// reportSections are the report's sections in page order, each a builder
// from Input. A new chart is its data (a field of Input and of Data, and
// its line in Build, all in input.go), its builder and one row here (this
// file), and the workbench code that loads and computes it
// (workbench/report.go).
var reportSections = []struct {
	name  string
	build func(Input) []section
}{
	{"passk", passKSection},
	{"gap", func(in Input) []section {
		d, caption := gapChart(in.Gaps)
		return one(figure{Title: cmp.Or(in.Gaps.Title, "pass^1 vs pass^k by run"), Caption: caption + commandNote(in.Gaps.Command)}, d, "")
	}},
	{"family", familySection},
	{"family-heatmap", func(in Input) []section {
		d, caption := heatmapChart(familyHeatmapID, in.FamilyHeatmap, "domain", "emotion family")
		return one(figure{Title: cmp.Or(in.FamilyHeatmap.Title, "pass^1 by domain and emotion family"), Caption: caption + commandNote(in.FamilyHeatmap.Command), Summary: in.FamilyHeatmap.Summary}, d, "")
	}},
	{"condition", func(in Input) []section {
		none := "No agent model and domain has runs both with and without emotions, so there is nothing to compare."
		if len(in.ConditionUnpaired) > 0 {
			none = "No with-emotions run (or pool) pairs with a without-emotions one, so there is nothing to compare."
		}
		return one(figure{
			ID:      conditionChartID, // names the note when there is no chart
			Title:   "pass^1 with vs without emotions",
			Caption: "pass^1 of the same agent model, user model and domain with and without the emotion instruction, over the tasks the two runs (or pools) share." + conditionN(in) + NotEvaluatedNote(notEvaluatedPairs(in.ConditionPairs)) + unpairedNote(in.ConditionUnpaired) + commandNote(in.ConditionCommand),
		}, barOrNil(conditionChart(in)), none)
	}},
	{"deltas", func(in Input) []section {
		var out []section
		for i, dc := range in.Deltas {
			d, caption := deltaChart(i+1, dc)
			out = append(out, one(figure{Title: cmp.Or(dc.Title, "Δ "+cmp.Or(dc.Metric, "pass^1")+", with − without emotions"), Caption: caption + commandNote(dc.Command)}, d, "")...)
		}
		return out
	}},
	{"abandonment", func(in Input) []section {
		d, caption := abandonmentChart(in.Abandonment)
		return one(figure{Title: cmp.Or(in.Abandonment.Title, "Abandonment rate"), Caption: caption + commandNote(in.Abandonment.Command)}, d, "")
	}},
	{"balance", balanceSection},
	{"generalization", func(in Input) []section {
		d, caption := heatmapChart(generalizationChartID, in.Generalization, "domain", "model")
		return one(figure{Title: cmp.Or(in.Generalization.Title, "Generalization matrix"), Caption: caption + commandNote(in.Generalization.Command), Summary: in.Generalization.Summary}, d, "")
	}},
	{"published", func(in Input) []section {
		ds, caption := publishedCharts(in.Published)
		if in.PublishedCommand != "" {
			caption += commandNote(in.PublishedCommand + "; yours: emobench runs")
		}
		return []section{{figure: figure{Title: "Published results beside your runs, per domain", Caption: caption, Grid: true}, charts: ds}}
	}},
	{"funnel", func(in Input) []section {
		d, caption := funnelChart(in.Funnel)
		return one(figure{Title: cmp.Or(in.Funnel.Title, "Tracer funnel"), Caption: caption}, d, "")
	}},
	{"tracer-families", keptFamiliesSection},
}

// passKSection is chart (a), the one pass^k chart: from in.PassK's
// curves, or else from the rows of in.PassKByRun, with no bands.
func passKSection(in Input) []section {
	passIn, fromRows := in, len(in.PassK.Curves) == 0
	if fromRows {
		passIn.PassK.Curves = curvesFromRows(in.PassKByRun)
	}
	ds, caption := passKCharts(passIn)
	note := "No pass^k points."
	if fromRows {
		caption += conventionNote(conventions(in.PassKByRun)) + NotEvaluatedNote(notEvaluatedRows(in.PassKByRun, runLabeler(in), false))
		note = "No pass^k rows."
	}
	return []section{{figure: figure{ID: passKChartID, Title: cmp.Or(in.PassK.Title, "pass^k by run"), Caption: caption + commandNote(cmp.Or(in.PassK.Command, in.PassKCommand))}, charts: ds, note: note}}
}

// familySection is chart (b): a panel per emotion family.
func familySection(in Input) []section {
	ds, noProfile := familyCharts(in)
	noProfileNote := ""
	if len(noProfile) > 0 {
		noProfileNote = " Left out, as none of their tasks has an emotion profile: " + strings.Join(noProfile, ", ") + "."
	}
	return []section{{figure: figure{
		ID:      familyChartID,
		Title:   "pass^1 by emotion family",
		Caption: "pass^1 per emotion family of the task's user: one panel per family, one bar per run, labelled with pass^1 and n; \"no data\" where a run has no task of the family; (none) gathers tasks with no emotion profile." + conventionNote(conventions(in.FamilyPass1)) + familyN(in) + noProfileNote + NotEvaluatedNote(notEvaluatedRows(in.FamilyPass1, runLabeler(in), true)) + commandNote(in.FamilyCommand),
		Grid:    true,
	}, charts: ds, note: "No pass^1 rows by emotion family."}}
}

// balanceSection is the success-against-balance charts: one, or small
// multiples, a panel per run (or pool) with its caption under it.
func balanceSection(in Input) []section {
	if len(in.Balance) == 1 {
		b := in.Balance[0]
		d, caption := balanceChart(balanceChartIDOf(0), b)
		return one(figure{Title: cmp.Or(b.Title, "Success vs balance"), Caption: caption + commandNote(b.Command)}, d, "")
	}
	var ds []drawable
	for i, b := range in.Balance {
		d, caption := balanceChart(balanceChartIDOf(i), b)
		if d.chart == nil {
			continue
		}
		d = withPanelTitle(d, cmp.Or(strings.TrimPrefix(b.Title, "Success vs balance: "), "Success vs balance"))
		d.caption = caption + commandNote(b.Command)
		ds = append(ds, d)
	}
	return []section{{figure: figure{Title: "Success vs balance, one panel per run", Caption: "Success rate against the balance of tool calls and follow-up questions, one panel per run (or pool); under each panel, what it plots, its n and the emobench stats command that prints its numbers.", Grid: true}, charts: ds}}
}

// Container ids of the optional sections' charts. Delta charts are numbered
// from 1 in Input.Deltas order.
const (
	gapChartID            = "chart-gap"
	familyHeatmapID       = "chart-family-heatmap"
	deltaChartIDPrefix    = "chart-delta-"
	abandonmentChartID    = "chart-abandonment"
	balanceChartID        = "chart-balance"
	generalizationChartID = "chart-generalization"
	funnelChartID         = "chart-funnel"
)

// Colours of the parts that do not follow the series palette.
const (
	whiskerColor = "#333333"
	fitColor     = "#d62728"
	labelColor   = "#111111"
)

// seriesPalette colours series in order: ECharts 5's default nine, then
// eleven more (ECharts 4's and Tableau's), so that up to 20 runs get
// their own colour.
var seriesPalette = opts.Colors{
	"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc",
	"#2f4554", "#c23531", "#61a0a8", "#d48265", "#749f83", "#ca8622", "#bda29a", "#6e7074",
	"#8c564b", "#17becf", "#bcbd22",
}

// heatmapColors is the heatmap's sequential colour scale, low to high (light
// part of ColorBrewer YlGnBu), light enough for dark cell text throughout.
var heatmapColors = []string{"#ffffd9", "#c7e9b4", "#7fcdbb", "#41b6c4"}

// errorBarRenderer names the page script's renderItem function that draws
// a whisker with caps from a custom series item [x, lo, hi]. Chart options
// are JSON and cannot hold functions, so the page script swaps the name for
// its function (see report.html.tmpl).
const errorBarRenderer = "errorBar"

// significance is the Holm-adjusted p-value under which a Δ bar's label gets
// an asterisk.
const significance = 0.05

// dataItem is a data item with a label of its own, which go-echarts' data
// types for heatmaps, scatters and funnels lack.
type dataItem struct {
	Name      string          `json:"name,omitempty"`
	Value     any             `json:"value"`
	Label     *opts.Label     `json:"label,omitempty"`
	ItemStyle *opts.ItemStyle `json:"itemStyle,omitempty"`
}

// seriesTooltip is a series' tooltip switch.
type seriesTooltip struct {
	Show bool `json:"show"`
}

// extSeries is a go-echarts series with the options go-echarts v2.6.7 has
// no field for. Its fields hide the SingleSeries fields of the same JSON
// name.
type extSeries struct {
	charts.SingleSeries
	Tooltip    *seriesTooltip `json:"tooltip,omitempty"` // off for the bands of chart (a)
	Dimensions []string       `json:"dimensions,omitempty"`
	Z          int            `json:"z,omitempty"` // drawing order; echarts' default is 2
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// round4 rounds v to 4 decimals, like chartValue; v must be finite.
func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// hasCI reports whether ci has two finite bounds.
func hasCI(ci Interval) bool { return finite(ci.Lo) && finite(ci.Hi) }

// nRange formats the smallest and largest of ns as "12" or "8–12", or "0"
// when ns is empty.
func nRange(ns []int) string {
	if len(ns) == 0 {
		return "0"
	}
	lo, hi := ns[0], ns[0]
	for _, n := range ns {
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + "–" + strconv.Itoa(hi)
}

// barChartHeight is the height of a bar chart whose x axis has the
// categories xs: a 300 px plot and legend, plus the room of the labels.
func barChartHeight(xs []string) string {
	return strconv.Itoa(300+labelRoom(xs)) + "px"
}

// unpairedNote is the caption sentence naming the runs (or pools) left
// unpaired, each with why; "" for none.
func unpairedNote(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return " Not compared: " + strings.Join(notes, "; ") + "."
}

// commandNote is the caption sentence naming the stats command that prints
// a chart's numbers; "" when there is none.
func commandNote(command string) string {
	if command = strings.TrimSpace(command); command == "" {
		return ""
	}
	return " Numbers: " + command + "."
}

// balanceChartIDOf is the container id of the i-th (0-based) balance chart.
func balanceChartIDOf(i int) string {
	if i == 0 {
		return balanceChartID
	}
	return balanceChartID + "-" + strconv.Itoa(i+1)
}

// withCaption appends the caller's caption to a generated one.
func withCaption(generated, caller string) string {
	if caller = strings.TrimSpace(caller); caller != "" {
		return generated + " " + caller
	}
	return generated
}

// lineSeries is a line series of values (echarts values: numbers or
// missing), coloured color.
func lineSeries(name, color string, values []any) charts.SingleSeries {
	data := make([]opts.LineData, len(values))
	for i, v := range values {
		data[i] = opts.LineData{Value: v}
	}
	return charts.SingleSeries{
		Name: name, Type: types.ChartLine, Data: data, Animation: opts.Bool(false),
		ItemStyle: &opts.ItemStyle{Color: color},
		LineStyle: &opts.LineStyle{Color: color},
	}
}

// whiskers returns a custom series that draws, at each x, a whisker from
// cis[i].Lo to cis[i].Hi, and false when no interval is finite. xs are
// category indexes or values on a value axis.
func whiskers(name string, xs []float64, cis []Interval) (extSeries, bool) {
	var data [][3]float64
	for i, ci := range cis {
		if hasCI(ci) && finite(xs[i]) {
			data = append(data, [3]float64{xs[i], round4(ci.Lo), round4(ci.Hi)})
		}
	}
	if len(data) == 0 {
		return extSeries{}, false
	}
	return extSeries{
		SingleSeries: charts.SingleSeries{
			Name: name, Type: types.ChartCustom, Data: data, Animation: opts.Bool(false),
			RenderItem: errorBarRenderer,
			ItemStyle:  &opts.ItemStyle{Color: whiskerColor},
			// y spans both bounds, so that the axis fits the whiskers.
			Encode: &opts.Encode{X: 0, Y: []int{1, 2}, Tooltip: []int{1, 2}},
		},
		Dimensions: []string{"x", "low", "high"},
		Z:          3,
	}, true
}

// passKCharts returns chart (a) from in.PassK: pass^k against k, one
// line per curve with at least two k, at most panelSeries lines a panel,
// and around each line a band from CI.Lo to CI.Hi drawn as two stacked,
// tooltip-less area series under the line's name (so that the legend shows
// and hides them with it): the lower bound with no area, then the band's
// height, filled. Curves with only k = 1 (runs of one trial per task) are
// points with whiskers in a panel of their own, one row each. It returns no
// chart when no point has k ≥ 1.
func passKCharts(in Input) ([]drawable, string) {
	label := runLabeler(in)
	type curve struct {
		name string
		byK  map[int]PassKPoint
		maxK int
	}
	var lined, single []curve
	maxK := 0
	for _, c := range in.PassK.Curves {
		cv := curve{name: cleanLabel(cmp.Or(c.Run, label(c.RunID))), byK: map[int]PassKPoint{}}
		for _, p := range c.Points {
			if p.K >= 1 {
				cv.byK[p.K] = p
				cv.maxK = max(cv.maxK, p.K)
			}
		}
		switch {
		case cv.maxK == 0:
		case cv.maxK == 1:
			single = append(single, cv)
		default:
			lined = append(lined, cv)
			maxK = max(maxK, cv.maxK)
		}
	}
	if len(lined)+len(single) == 0 {
		return nil, ""
	}
	ks := make([]string, maxK)
	for k := 1; k <= maxK; k++ {
		ks[k-1] = strconv.Itoa(k)
	}
	// One rate axis for every panel, fitted to the lines and their bands.
	var values []float64
	var cis []Interval
	for _, cv := range lined {
		for _, p := range cv.byK {
			values, cis = append(values, p.Value), append(cis, p.CI)
		}
	}
	top := fitRateMax(values, cis)
	var out []drawable
	var perRun, shrinking []string
	banded := false
	for _, span := range panels(len(lined)) {
		group := lined[span[0]:span[1]]
		names := make([]string, len(group))
		for i, c := range group {
			names[i] = c.name
		}
		c := charts.NewLine()
		c.SetGlobalOptions(baseOpts(panelID(passKChartID, len(out)), names, ks, "k", "pass^k", top)...)
		c.SetXAxis(ks)
		var lines, bands []any
		for i, cv := range group {
			color := c.Colors[i%len(c.Colors)]
			values := make([]any, maxK)
			lo := make([]any, maxK)
			height := make([]any, maxK)
			var tasks []int
			band := false
			for k := 1; k <= maxK; k++ {
				p, ok := cv.byK[k]
				values[k-1], lo[k-1], height[k-1] = missing, missing, missing
				if !ok {
					continue
				}
				tasks = append(tasks, p.Tasks)
				values[k-1] = chartValue(p.Value)
				if hasCI(p.CI) {
					l, h := round4(p.CI.Lo), round4(p.CI.Hi)
					lo[k-1], height[k-1] = l, round4(h-l)
					band = true
				}
			}
			lines = append(lines, lineSeries(cv.name, color, values))
			perRun = append(perRun, cv.name+" "+nRange(tasks))
			if len(tasks) > 0 && tasks[len(tasks)-1] < tasks[0] {
				shrinking = append(shrinking, cv.name)
			}
			if !band {
				continue
			}
			banded = true
			stack := "ci-" + strconv.Itoa(i)
			bands = append(bands,
				extSeries{
					SingleSeries: charts.SingleSeries{
						Name: cv.name, Type: types.ChartLine, Data: lo, Stack: stack, Animation: opts.Bool(false),
						Symbol: "none", ShowSymbol: opts.Bool(false),
						ItemStyle: &opts.ItemStyle{Color: color},
						LineStyle: &opts.LineStyle{Color: color, Opacity: opts.Float(0)},
					},
					Tooltip: &seriesTooltip{Show: false},
					Z:       1,
				},
				extSeries{
					SingleSeries: charts.SingleSeries{
						Name: cv.name, Type: types.ChartLine, Data: height, Stack: stack, Animation: opts.Bool(false),
						Symbol: "none", ShowSymbol: opts.Bool(false),
						ItemStyle: &opts.ItemStyle{Color: color},
						LineStyle: &opts.LineStyle{Color: color, Opacity: opts.Float(0)},
						AreaStyle: &opts.AreaStyle{Color: color, Opacity: opts.Float(0.2)},
					},
					Tooltip: &seriesTooltip{Show: false},
					Z:       1,
				})
		}
		out = append(out, drawable{chart: c, init: c.Initialization, series: append(lines, bands...)})
	}
	whiskered := false
	if len(single) > 0 {
		rows := make([]row, len(single))
		for i, cv := range single {
			p := cv.byK[1]
			rows[i] = row{Label: cv.name, Value: p.Value, CI: p.CI, Text: rateText(p.Value, p.Tasks, p.NotEvaluated)}
			whiskered = whiskered || hasCI(p.CI)
			perRun = append(perRun, cv.name+" "+strconv.Itoa(p.Tasks))
		}
		title := ""
		if len(lined) > 0 {
			title = "one trial per task: pass^1"
		}
		out = append(out, rowChart(panelID(passKChartID, len(out)), title, "pass^1", "pass^1 (k = 1)", rows, 0, 1, true))
	}
	caption := "pass^k = mean over tasks of C(c,k)/C(n,k) (Yao et al. 2024, τ-bench): the chance that k independent trials of a task all pass; one line per run"
	if len(lined) > panelSeries {
		caption += fmt.Sprintf(" (at most %d a panel, so that no colour repeats)", panelSeries)
	}
	if banded {
		caption += ", with the confidence interval of each point shaded around it"
	}
	if len(single) > 0 {
		caption += "; runs with one trial per task have only k = 1: they are points, one row each"
		if whiskered {
			caption += ", with a whisker for the confidence interval"
		}
		if len(lined) > 0 {
			caption += ", in a panel of their own"
		}
	}
	caption += ". n (tasks behind each point): " + strings.Join(perRun, "; ") + "."
	if len(shrinking) > 0 {
		caption += " In " + strings.Join(shrinking, ", ") + " some tasks have fewer trials than the largest k: they drop out of the larger k, so the curve may rise there (the per-task convention; stats passk --convention min-trials keeps every task)."
	}
	return out, withCaption(caption, in.PassK.Caption)
}

// rateText is a value label: the rate with 2 decimals and its n, "0.57
// (n=12)"; "not evaluated (n=12)" when notEvaluated, and "no data (n=12)"
// when the rate is otherwise not finite.
func rateText(v float64, n int, notEvaluated bool) string {
	switch {
	case notEvaluated:
		return "not evaluated (n=" + strconv.Itoa(n) + ")"
	case !finite(v):
		return "no data (n=" + strconv.Itoa(n) + ")"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + " (n=" + strconv.Itoa(n) + ")"
}

// gapChart returns the pass^1 against pass^k chart from g: two bars per
// run, the pass^k bar labelled with the gap pass^1 − pass^k (as stats gap
// prints it), and under each run its
// k and n. It returns a nil chart when g has no bar.
func gapChart(g GapChart) (drawable, string) {
	if len(g.Bars) == 0 {
		return drawable{}, ""
	}
	labels := make([]string, len(g.Bars))
	subs := make([]string, len(g.Bars))
	p1 := make([]opts.BarData, len(g.Bars))
	pk := make([]opts.BarData, len(g.Bars))
	ks := map[int]bool{}
	var tasks []int
	uneven := false
	for i, b := range g.Bars {
		labels[i], subs[i] = cleanLabel(b.Run), fmt.Sprintf("k=%d, n=%d", b.K, b.Tasks)
		if b.Tasks1 > b.Tasks {
			subs[i] = fmt.Sprintf("k=%d, n=%d/%d", b.K, b.Tasks1, b.Tasks)
			uneven = true
		}
		p1[i] = opts.BarData{Value: chartValue(b.Pass1)}
		pk[i] = opts.BarData{Value: chartValue(b.PassK)}
		if finite(b.Pass1) && finite(b.PassK) {
			pk[i].Label = &opts.Label{
				Show: opts.Bool(true), Position: gapLabelPosition(len(g.Bars)), Color: labelColor,
				Formatter: signed(b.Pass1 - b.PassK),
			}
		}
		ks[b.K] = true
		tasks = append(tasks, b.Tasks)
	}
	kName := "pass^k"
	if len(ks) == 1 {
		kName = "pass^" + strconv.Itoa(g.Bars[0].K)
	}
	names := []string{"pass^1", kName}
	xs := categoryLabels(labels, subs)
	c := charts.NewBar()
	var values []float64
	for _, b := range g.Bars {
		values = append(values, b.Pass1, b.PassK)
	}
	yAxis := rateAxis("pass rate")
	yAxis.Max = fitRateMax(values, nil)
	c.SetGlobalOptions(rectOpts(gapChartID, barChartHeight(xs), names, "axis", categoryAxis(xs, ""), yAxis, 16)...)
	c.SetXAxis(xs)
	c.AddSeries(names[0], p1)
	c.AddSeries(names[1], pk)
	capBarWidth(c)
	caption := "pass^1 and pass^k of each run side by side, at the k given with the run's name; the number over the pass^k bar is the reliability gap pass^1 − pass^k (as emobench stats gap gives it). " +
		"n (tasks per run, with each name): " + nRange(tasks) + "."
	if uneven {
		caption += " n=a/b: pass^1 over a tasks, pass^k over the b of them with at least k trials."
	}
	d := drawable{chart: c, init: c.Initialization}
	if len(g.Bars) > gapColumns {
		d = horizontalBars(d, g.Bars, labels, subs, yAxis.Max.(float64))
	}
	return d, withCaption(caption, g.Caption)
}

// gapColumns is the most runs the gap chart draws as columns; past it,
// its bars lie along rows, whose labels need not turn.
const gapColumns = 8

// horizontalBars lays the gap chart d out along rows: one row per bar
// pair, labelled "run (k=…, n=…)", with the rate axis (to top) along x
// and the gap label at the right of its bar.
func horizontalBars(d drawable, bars []GapBar, labels, subs []string, top float64) drawable {
	rows := make([]string, len(bars))
	longest := 0
	for i := range bars {
		rows[i] = labels[i] + " (" + subs[i] + ")"
		longest = max(longest, longestLine(rows[i]))
	}
	d.init.Height = strconv.Itoa(36+44+2*rowHeight*len(bars)) + "px"
	d.chart.(*charts.Bar).Initialization.Height = d.init.Height
	d.patch = func(o map[string]any) {
		o["xAxis"] = []map[string]any{{"type": "value", "min": 0, "max": top, "name": "pass rate", "nameLocation": "middle", "nameGap": 24}}
		o["yAxis"] = []map[string]any{{
			"type": "category", "data": rows, "inverse": true,
			"axisLabel": map[string]any{"interval": 0, "width": min(longest, 64) * charWidth, "overflow": "truncate"},
		}}
		if grids, ok := o["grid"].([]opts.Grid); ok && len(grids) > 0 {
			grids[0].Left, grids[0].Bottom = "24", "36"
		}
	}
	return d
}

// gapLabelPosition places the gap label over a column, or at the right of
// a row's bar.
func gapLabelPosition(bars int) string {
	if bars > gapColumns {
		return "right"
	}
	return "top"
}

// signed formats a difference with 2 decimals and its sign: "+0.12",
// "−0.25" (with a minus sign), "0.00".
func signed(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 2, 64)
	switch {
	case s == "0.00":
		return s
	case v < 0:
		return "−" + s
	}
	return "+" + s
}

// heatmapChart returns a heatmap of h: Cols on the x axis, Rows top to
// bottom, each cell with data coloured by its value and labelled with the
// value and its n. defRow and defCol name rows and columns when h does
// not. It returns a nil chart when no cell holds a finite value.
func heatmapChart(id string, h Heatmap, defRow, defCol string) (drawable, string) {
	metric := cmp.Or(h.Metric, "pass^1")
	var items []dataItem
	var ns []int
	lo, hi := math.Inf(1), math.Inf(-1)
	for r := range h.Rows {
		for c := range h.Cols {
			v := math.NaN()
			if r < len(h.Values) && c < len(h.Values[r]) {
				v = h.Values[r][c]
			}
			if !finite(v) {
				continue
			}
			n := 0
			if r < len(h.N) && c < len(h.N[r]) {
				n = h.N[r][c]
			}
			ns = append(ns, n)
			lo, hi = min(lo, v), max(hi, v)
			items = append(items, dataItem{
				Value: [3]any{c, r, round4(v)},
				Label: &opts.Label{Formatter: strconv.FormatFloat(v, 'f', 2, 64) + "\nn=" + strconv.Itoa(n), LineHeight: 13},
			})
		}
	}
	if len(items) == 0 {
		return drawable{}, ""
	}
	scaleLo, scaleHi := 0.0, 1.0
	if lo < 0 || hi > 1 {
		scaleLo, scaleHi = lo, hi
		if scaleLo == scaleHi {
			scaleHi = scaleLo + 1
		}
	}
	// Each column is wide enough for its label, wrapped on at most three
	// lines; the chart widens (and its box scrolls) to fit them all.
	rowLabels, colLabels := cleanLabels(h.Rows), cleanLabels(h.Cols)
	longestCol, longestRow := 0, 0
	for _, c := range colLabels {
		longestCol = max(longestCol, longestLine(c))
	}
	for _, r := range rowLabels {
		longestRow = max(longestRow, longestLine(r))
	}
	cellWidth := min(max(72, (longestCol+2)*charWidth/2+8), 200)
	labelLines := min(3, (longestCol*charWidth+cellWidth-9)/(cellWidth-8))
	minWidth := min(longestRow, 64)*charWidth + 72 + cellWidth*len(h.Cols)
	// 36 px above the cells clear the toolbox; 56 below the labels hold
	// the colour scale.
	height := strconv.Itoa(36+36*len(h.Rows)+labelLines*labelLineHeight+12+56) + "px"
	xAxis := opts.XAxis{Type: "category", Data: colLabels, SplitLine: &opts.SplitLine{Show: opts.Bool(true)}}
	yAxis := opts.YAxis{
		Type: "category", Data: rowLabels, Inverse: opts.Bool(true),
		SplitLine: &opts.SplitLine{Show: opts.Bool(true)},
	}
	c := charts.NewHeatMap()
	c.SetGlobalOptions(rectOpts(id, height, nil, "item", xAxis, yAxis, 56)...)
	c.SetGlobalOptions(charts.WithGridOpts(opts.Grid{
		Top: "36", Left: "48", Right: "24", Bottom: "56", ContainLabel: opts.Bool(true),
	}))
	c.SetGlobalOptions(charts.WithVisualMapOpts(opts.VisualMap{
		Type:       "continuous",
		Min:        float32(round4(scaleLo)),
		Max:        float32(round4(scaleHi)),
		Show:       opts.Bool(true),
		Calculable: opts.Bool(false),
		Orient:     "horizontal",
		Left:       "center",
		Bottom:     "4",
		Text:       []string{strconv.FormatFloat(scaleHi, 'f', 2, 64), strconv.FormatFloat(scaleLo, 'f', 2, 64)},
		InRange:    &opts.VisualMapInRange{Color: heatmapColors},
	}))
	c.MultiSeries = append(c.MultiSeries, charts.SingleSeries{
		Name: metric, Type: types.ChartHeatMap, Data: items, Animation: opts.Bool(false),
		Label:     &opts.Label{Show: opts.Bool(true), Color: labelColor, FontSize: 11},
		ItemStyle: &opts.ItemStyle{BorderColor: "#ffffff", BorderWidth: 1},
	})
	caption := fmt.Sprintf("%s per %s (rows) and %s (columns). Each cell shows %s, coloured on the scale below, and n, the tasks behind it; blank cells have no data. n = %s tasks per cell.",
		metric, cmp.Or(h.RowName, defRow), cmp.Or(h.ColName, defCol), metric, nRange(ns))
	patch := func(o map[string]any) {
		o["xAxis"] = []map[string]any{{
			"type": "category", "data": colLabels, "splitLine": map[string]any{"show": true, "interval": 0},
			"axisLabel": map[string]any{"interval": 0, "width": cellWidth - 8, "overflow": "breakAll", "lineHeight": labelLineHeight},
		}}
	}
	// Cells grow to at most 180 px wide: a matrix of few columns stays a
	// matrix, not a row of slabs.
	maxWidth := minWidth - cellWidth*len(h.Cols) + 180*len(h.Cols)
	return drawable{chart: c, init: c.Initialization, patch: patch, minWidth: strconv.Itoa(minWidth) + "px", maxWidth: strconv.Itoa(maxWidth) + "px"}, withCaption(caption, h.Caption)
}

// deltaChart returns the i-th (from 1) Δ chart from d: one row per
// DeltaBar, a bar with CI whiskers, its label starred when P < 0.05, and
// its value and n at the right, on a Δ axis that fits the data within
// [−1, 1]. It returns a nil chart when d has no bar.
func deltaChart(i int, d DeltaChart) (drawable, string) {
	if len(d.Bars) == 0 {
		return drawable{}, ""
	}
	metric := cmp.Or(d.Metric, "pass^1")
	rows := make([]row, len(d.Bars))
	values := make([]float64, len(d.Bars))
	cis := make([]Interval, len(d.Bars))
	var pairs []int
	for j, b := range d.Bars {
		rows[j] = row{Label: cleanLabel(b.Label), Value: b.Delta, CI: b.CI}
		if b.P < significance { // false for NaN
			rows[j].Label += " *"
		}
		rows[j].Text = "n=" + strconv.Itoa(b.Pairs)
		if finite(b.Delta) {
			rows[j].Text = signed(b.Delta) + " (n=" + strconv.Itoa(b.Pairs) + ")"
		}
		values[j], cis[j] = b.Delta, b.CI
		pairs = append(pairs, b.Pairs)
	}
	name := "Δ " + metric
	caption := fmt.Sprintf("Δ %[1]s = %[1]s with emotions − %[1]s without, per %[2]s, over matched task pairs; whiskers: confidence interval of Δ; * marks a Holm-adjusted p < 0.05. n (task pairs, with each label): %[3]s.",
		metric, cmp.Or(d.Group, "group"), nRange(pairs))
	lo, hi := deltaRange(values, cis)
	return rowChart(deltaChartIDPrefix+strconv.Itoa(i), "", name, name+" (with − without)", rows, lo, hi, false), withCaption(caption, d.Caption)
}

// abandonmentChart returns the abandonment-rate chart from r: one row per
// RateBar, a bar with CI whiskers, its rate and n at the right, on a rate
// axis that fits the data. It returns a nil chart when r has no bar.
func abandonmentChart(r RateChart) (drawable, string) {
	if len(r.Bars) == 0 {
		return drawable{}, ""
	}
	rows := make([]row, len(r.Bars))
	values := make([]float64, len(r.Bars))
	cis := make([]Interval, len(r.Bars))
	var ns []int
	for j, b := range r.Bars {
		rows[j] = row{Label: cleanLabel(b.Label), Value: b.Rate, CI: b.CI, Text: "n=" + strconv.Itoa(b.N)}
		if finite(b.Rate) {
			rows[j].Text = rateText(b.Rate, b.N, false)
		}
		values[j], cis[j] = b.Rate, b.CI
		ns = append(ns, b.N)
	}
	caption := fmt.Sprintf("Abandonment rate = trajectories the user ended as unsatisfied ÷ trajectories, per %s; whiskers: confidence interval. n (trajectories, with each label): %s.",
		cmp.Or(r.Group, "group"), nRange(ns))
	return rowChart(abandonmentChartID, "", "abandonment rate", "abandonment rate", rows, 0, fitRateMax(values, cis), false), withCaption(caption, r.Caption)
}

// balanceChart returns the success-against-balance chart from b: a point
// per bin at its centre, labelled with its n, with CI whiskers, and the
// fitted curve as a line. It returns a nil chart when no bin has finite
// edges.
func balanceChart(id string, b BalanceCurve) (drawable, string) {
	xName := cmp.Or(b.XName, "balance")
	var points []dataItem
	var mids []float64
	var cis []Interval
	var ns []int
	total := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, bin := range b.Bins {
		if !finite(bin.Lo) || !finite(bin.Hi) {
			continue
		}
		lo, hi = min(lo, bin.Lo, bin.Hi), max(hi, bin.Lo, bin.Hi)
		ns = append(ns, bin.N)
		total += bin.N
		if !finite(bin.Rate) {
			continue
		}
		mid := round4((bin.Lo + bin.Hi) / 2)
		// Beside the point, or over it near 0, where the x axis labels are.
		position := "right"
		if bin.Rate < 0.1 {
			position = "top"
		}
		points = append(points, dataItem{
			Value: [2]float64{mid, round4(bin.Rate)},
			Label: &opts.Label{Show: opts.Bool(true), Position: position, Color: "#555555", FontSize: 10, Formatter: "n=" + strconv.Itoa(bin.N)},
		})
		mids = append(mids, mid)
		cis = append(cis, bin.CI)
	}
	if len(ns) == 0 {
		return drawable{}, ""
	}
	var fit [][2]any
	for _, p := range b.Fit {
		if finite(p.X) {
			lo, hi = min(lo, p.X), max(hi, p.X)
		}
		fit = append(fit, [2]any{chartValue(p.X), chartValue(p.Y)})
	}
	series := []any{charts.SingleSeries{
		Name: "success rate", Type: types.ChartScatter, Data: points, Animation: opts.Bool(false),
		SymbolSize: 9, Symbol: "circle",
	}}
	names := []string{"success rate"}
	if w, ok := whiskers("CI", mids, cis); ok {
		series = append(series, w)
		names = append(names, "CI")
	}
	if len(fit) > 0 {
		series = append(series, charts.SingleSeries{
			Name: "fit", Type: types.ChartLine, Data: fit, Animation: opts.Bool(false),
			Symbol: "none", ShowSymbol: opts.Bool(false),
			ItemStyle: &opts.ItemStyle{Color: fitColor},
			LineStyle: &opts.LineStyle{Color: fitColor, Width: 2},
		})
		names = append(names, "fit")
	}
	xAxis := opts.XAxis{Type: "value", Name: xName, NameLocation: "middle", NameGap: 28, Min: round4(lo), Max: round4(hi)}
	var rates []float64
	for _, bin := range b.Bins {
		rates = append(rates, bin.Rate)
	}
	for _, p := range b.Fit {
		rates = append(rates, p.Y)
	}
	yAxis := rateAxis("success rate")
	yAxis.Max = fitRateMax(rates, cis)
	yAxis.AxisLine = &opts.AxisLine{OnZero: opts.Bool(false)} // at the left, not at x = 0
	c := charts.NewScatter()
	c.SetGlobalOptions(rectOpts(id, chartHeight, names, "item", xAxis, yAxis, 16)...)
	caption := fmt.Sprintf("Success rate per bin of %s, plotted at the bin's centre with its n beside it; whiskers: confidence interval", xName)
	if len(fit) > 0 {
		caption += "; line: the fitted curve"
	}
	caption += fmt.Sprintf(". n = %d trajectories in %d bins (%s per bin).", total, len(ns), nRange(ns))
	return drawable{chart: c, init: c.Initialization, series: series}, withCaption(caption, b.Caption)
}

// funnelChart returns the Tracer funnel from f: stages top to bottom in
// their order, each labelled with its count and its share of the first
// stage. It returns a nil chart when f has no stage.
func funnelChart(f Funnel) (drawable, string) {
	if len(f.Stages) == 0 {
		return drawable{}, ""
	}
	unit := cmp.Or(f.Unit, "items")
	first := f.Stages[0].Count
	top := 0
	items := make([]dataItem, len(f.Stages))
	for i, s := range f.Stages {
		top = max(top, s.Count)
		label := "{b}: " + strconv.Itoa(s.Count)
		if first > 0 {
			label += fmt.Sprintf(" (%.1f%%)", 100*float64(s.Count)/float64(first))
		}
		items[i] = dataItem{Name: s.Name, Value: s.Count, Label: &opts.Label{Formatter: label}}
	}
	height := strconv.Itoa(max(240, 40+48*len(f.Stages))) + "px"
	c := charts.NewFunnel()
	c.SetGlobalOptions(frameOpts(funnelChartID, height)...)
	c.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
	)
	c.MultiSeries = append(c.MultiSeries, charts.SingleSeries{
		Name: unit, Type: types.ChartFunnel, Data: items, Animation: opts.Bool(false),
		Sort: "none", Min: 0, Max: max(top, 1),
		Left: "4%", Right: "40%", Top: "16", Bottom: "16",
		Label:     &opts.Label{Show: opts.Bool(true), Position: "right", Color: labelColor},
		ItemStyle: &opts.ItemStyle{BorderColor: "#ffffff", BorderWidth: 1},
	})
	caption := fmt.Sprintf("Tracer pipeline: %s left after each stage, in pipeline order, top to bottom; the percentage is of the first stage. n = %d %s at the first stage.",
		unit, first, unit)
	return drawable{chart: c, init: c.Initialization}, withCaption(caption, f.Caption)
}
