package reports

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

// Chart geometry. Charts take the page's full width.
const (
	chartWidth    = "100%"
	chartHeight   = "360px"
	chartRenderer = "svg" // crisp when printed; echarts' other choice is "canvas"
)

// Chart container ids, which are also the go-echarts ChartIDs. They are fixed
// so that the same Input always gives the same page.
const (
	passKChartID     = "chart-passk"
	familyChartID    = "chart-family-pass1"
	conditionChartID = "chart-condition-pass1"
)

// noneLabel stands for an empty group value (no emotion family, unknown
// model or domain).
const noneLabel = "(none)"

// missing is echarts' marker for "no value at this category": the line has a
// gap there and no bar is drawn. NaN, which JSON cannot encode, becomes this.
const missing = "-"

// chartValue returns v rounded to 4 decimals, or missing when v is NaN or
// infinite.
func chartValue(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return missing
	}
	return math.Round(v*1e4) / 1e4
}

// runLabeler returns the legend label of each run id: the run's name from
// in.Runs, "run <id>" when the run is unknown or unnamed, and "<name> (run
// <id>)" when several runs share a name, so that no two series merge.
func runLabeler(in Input) func(id int64) string {
	byID := map[int64]string{}
	count := map[string]int{}
	for _, r := range in.Runs {
		byID[r.Run.ID] = r.Run.Name
		count[r.Run.Name]++
	}
	return func(id int64) string {
		if l, ok := in.UnitLabels[id]; ok {
			return l
		}
		name, ok := byID[id]
		switch {
		case !ok || name == "":
			return "run " + strconv.FormatInt(id, 10)
		case count[name] > 1:
			return fmt.Sprintf("%s (run %d)", name, id)
		}
		return name
	}
}

// groupValue returns g[i], or noneLabel when g has no i-th value or it is
// empty.
func groupValue(g []string, i int) string {
	if i >= len(g) || g[i] == "" {
		return noneLabel
	}
	return g[i]
}

// Rough text metrics of echarts' default 12 px sans-serif, to lay out
// legends and axis labels without a browser.
const (
	charWidth       = 7   // px per character, a little over the average
	plotWidth       = 900 // px of the x axis, about, on a 1400 px wide page with a legend at the right
	legendItemExtra = 40  // px of a legend item besides its text: icon and gaps
	legendRowHeight = 24  // px
)

// longestLine is the length, in characters, of the longest line of a
// (possibly multi-line) label.
func longestLine(label string) int {
	longest := 0
	for line := range strings.SplitSeq(label, "\n") {
		longest = max(longest, utf8.RuneCountInString(line))
	}
	return longest
}

// axisLabel returns the x axis label options for the categories xs: every
// label shown, wrapped within its slot when the longest line of one would
// not fit it on one line but does on three, else turned by 30°, and by 60°
// when there are more than 12.
func axisLabel(xs []string) *opts.AxisLabel {
	l := &opts.AxisLabel{Interval: "0", HideOverlap: opts.Bool(true)}
	longest := 0
	for _, x := range xs {
		longest = max(longest, longestLine(x))
	}
	if len(xs) == 0 || longest*charWidth <= plotWidth/len(xs) {
		return l
	}
	if slot := plotWidth/len(xs) - 8; wrapLines(longest, slot) <= 3 {
		l.Width, l.Overflow = slot, "break"
		return l
	}
	l.Rotate = 30
	// Many categories: turn the labels steeply and show them all, rather
	// than let echarts drop every other one.
	if len(xs) > 12 {
		l.Rotate, l.HideOverlap = 60, opts.Bool(false)
	}
	return l
}

// wrapLines is the lines a line of chars characters takes, wrapped at
// width px.
func wrapLines(chars, width int) int {
	if width <= 0 {
		return math.MaxInt
	}
	return (chars*charWidth + width - 1) / width
}

// labelLineHeight is the line height, in px, of multi-line axis labels.
// zrender's default is the measured width of "国", which is far too short
// where no CJK font is installed, and the lines then overlap.
const labelLineHeight = 14

// rotated reports whether axisLabel turns the labels of the categories xs.
func rotated(xs []string) bool {
	return axisLabel(xs).Rotate != 0
}

// categoryLabels returns x axis categories made of labels[i] with subs[i]
// (such as its n) on a second line, or, when the labels are turned because
// some line would not fit its slot, after it in parentheses on one line.
func categoryLabels(labels, subs []string) []string {
	xs := make([]string, len(labels))
	for i := range labels {
		xs[i] = labels[i] + "\n" + subs[i]
	}
	if rotated(xs) {
		for i := range labels {
			xs[i] = labels[i] + " (" + subs[i] + ")"
		}
	}
	return xs
}

// labelRoom estimates the height, in px, that axisLabel's labels of the
// categories xs take under the x axis.
func labelRoom(xs []string) int {
	longest, lines := 0, 1
	for _, x := range xs {
		longest = max(longest, longestLine(x))
		lines = max(lines, strings.Count(x, "\n")+1)
	}
	if rotated(xs) {
		return min(longest, 60)*charWidth/2 + 16 // sin 30° = 1/2
	}
	if l := axisLabel(xs); l.Width > 0 {
		lines += wrapLines(longest, l.Width) - 1
	}
	return lines*labelLineHeight + 12
}

// xAxisExt is an x axis whose labels have a fixed line height: go-echarts'
// AxisLabel has no such field. Its AxisLabel hides the XAxis one.
type xAxisExt struct {
	opts.XAxis
	AxisLabel *axisLabelExt `json:"axisLabel,omitempty"`
}

// axisLabelExt is an axis label with a line height.
type axisLabelExt struct {
	*opts.AxisLabel
	LineHeight int `json:"lineHeight"`
}

// fixLabelLineHeight sets labelLineHeight on the x axis labels of a chart's
// options.
func fixLabelLineHeight(option map[string]any) {
	axes, ok := option["xAxis"].([]opts.XAxis)
	if !ok {
		return
	}
	ext := make([]xAxisExt, len(axes))
	for i, a := range axes {
		ext[i].XAxis = a
		if a.AxisLabel != nil {
			ext[i].AxisLabel = &axisLabelExt{AxisLabel: a.AxisLabel, LineHeight: labelLineHeight}
		}
	}
	option["xAxis"] = ext
}

// frameOpts are the options every chart of the report shares: fixed id,
// width and height, SVG renderer, white background, no animation (so that
// printing or a screenshot right after load shows the final picture), and a
// toolbox whose one button saves the chart as <id>.svg.
func frameOpts(id, height string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithColorsOpts(seriesPalette),
		charts.WithInitializationOpts(opts.Initialization{
			ChartID:         id,
			Width:           chartWidth,
			Height:          height,
			Renderer:        chartRenderer,
			BackgroundColor: "#ffffff",
		}),
		charts.WithAnimation(false),
		charts.WithToolboxOpts(opts.Toolbox{
			Show:  opts.Bool(true),
			Right: "8",
			Top:   "4",
			Feature: &opts.ToolBoxFeature{SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{
				Show:  opts.Bool(true),
				Type:  "svg",
				Name:  id,
				Title: "Save as SVG",
			}},
		}),
	}
}

// rectOpts are the options of a chart on x and y axes: frameOpts, a tooltip
// triggered by trigger ("axis" or "item"), a legend of the series names at
// the top (none when series is empty) with the plot below it, and the axes.
// bottom is the room, in px, below the plot and its labels.
func rectOpts(id, height string, series []string, trigger string, xAxis opts.XAxis, yAxis opts.YAxis, bottom int) []charts.GlobalOpts {
	top := 36 // below the toolbox, with room for the y axis name
	right := 24
	legend := opts.Legend{Show: opts.Bool(false)}
	if len(series) > 0 {
		// A vertical legend at the right, below the toolbox: it never
		// meets the plot, whose right margin is the legend's width.
		right = legendWidth(series) + 16
		legend = opts.Legend{
			Show: opts.Bool(true), Type: "scroll", Orient: "vertical", Right: "8", Top: "36", Bottom: "8",
			TextStyle: &opts.TextStyle{Width: legendMaxText * charWidth, Overflow: "truncate"},
		}
		height = grownHeight(height, max(0, 36+legendRowHeight*len(series)-pxOf(height)))
	}
	if xAxis.Name != "" {
		bottom += 24
	}
	return append(frameOpts(id, height),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: trigger}),
		charts.WithLegendOpts(legend),
		charts.WithGridOpts(opts.Grid{
			Top: strconv.Itoa(top), Left: strconv.Itoa(leftMargin(xAxis)), Right: strconv.Itoa(right), Bottom: strconv.Itoa(bottom),
			ContainLabel: opts.Bool(true),
		}),
		charts.WithXAxisOpts(xAxis),
		charts.WithYAxisOpts(yAxis),
	)
}

// pxOf is the px of a CSS height such as "360px"; 0 when it is not in px.
func pxOf(height string) int {
	px, _ := strconv.Atoi(strings.TrimSuffix(height, "px"))
	return px
}

// leftMargin is the grid's left margin in px: room for the y axis, and for
// the first categories' turned labels, which reach left of their tick.
func leftMargin(xAxis opts.XAxis) int {
	const base = 48
	xs, ok := xAxis.Data.([]string)
	if !ok || len(xs) == 0 || xAxis.AxisLabel == nil || xAxis.AxisLabel.Rotate == 0 {
		return base
	}
	step := float64(plotWidth) / float64(len(xs))
	reach := math.Cos(xAxis.AxisLabel.Rotate * math.Pi / 180)
	need := 0.0
	for i, x := range xs {
		need = max(need, float64(longestLine(x)*charWidth)*reach-(float64(i)+0.5)*step)
	}
	return max(base, int(need)+8)
}

// grownHeight returns a CSS height in px ("360px") made extra px taller.
func grownHeight(height string, extra int) string {
	px, err := strconv.Atoi(strings.TrimSuffix(height, "px"))
	if err != nil || extra == 0 {
		return height
	}
	return strconv.Itoa(px+extra) + "px"
}

// baseOpts are the options of a category chart of rates: rectOpts with an
// axis tooltip, categories xs on the x axis (named xName, when not empty),
// and a y axis from 0 to top named yName.
func baseOpts(id string, series, xs []string, xName, yName string, top float64) []charts.GlobalOpts {
	y := rateAxis(yName)
	y.Max = top
	return rectOpts(id, chartHeight, series, "axis", categoryAxis(xs, xName), y, 16)
}

// categoryAxis is an x axis of the categories xs, named name when not empty.
func categoryAxis(xs []string, name string) opts.XAxis {
	a := opts.XAxis{Type: "category", AxisLabel: axisLabel(xs), Data: xs}
	if name != "" {
		a.Name, a.NameLocation, a.NameGap = name, "middle", 28
	}
	return a
}

// rateAxis is a y axis from 0 to 1 named name.
func rateAxis(name string) opts.YAxis {
	return opts.YAxis{Type: "value", Name: name, Min: 0, Max: 1}
}

// curvesFromRows are the pass^k curves of rows with no group fields, one
// per run in run id order, without intervals.
func curvesFromRows(rows []analysis.PassKRow) []PassKCurve {
	byRun := map[int64][]PassKPoint{}
	for _, r := range rows {
		if r.K >= 1 {
			byRun[r.RunID] = append(byRun[r.RunID], PassKPoint{K: r.K, Value: r.PassHatK, CI: noInterval, Tasks: r.Tasks, NotEvaluated: r.NotEvaluated})
		}
	}
	var out []PassKCurve
	for _, id := range slices.Sorted(maps.Keys(byRun)) {
		out = append(out, PassKCurve{RunID: id, Points: byRun[id]})
	}
	return out
}

// familyCharts returns chart (b) from the k = 1 rows of in.FamilyPass1
// (Group[0] is the family; an empty family is labelled "(none)"): small
// multiples, one panel per family, sorted by name with "(none)" last, each
// with one row per run, the same runs in the same order in every panel.
// Each bar is labelled with its pass^1 and n; a run with no row for a family
// says "no data" there. Runs whose only family is "(none)" are left out
// and returned by label, unless no run has another family. It returns no
// chart when there is no k = 1 row.
func familyCharts(in Input) ([]drawable, []string) {
	label := runLabeler(in)
	type cell struct {
		v            float64
		tasks        int
		notEvaluated bool
	}
	byRun := map[int64]map[string]cell{}
	families := map[string]bool{}
	for _, r := range in.FamilyPass1 {
		if r.K != 1 {
			continue
		}
		f := groupValue(r.Group, 0)
		families[f] = true
		if byRun[r.RunID] == nil {
			byRun[r.RunID] = map[string]cell{}
		}
		byRun[r.RunID][f] = cell{r.PassHatK, r.Tasks, r.NotEvaluated}
	}
	var ids []int64
	var noProfile []string
	for _, id := range slices.Sorted(maps.Keys(byRun)) {
		if _, only := byRun[id][noneLabel]; only && len(byRun[id]) == 1 {
			noProfile = append(noProfile, cleanLabel(label(id)))
			continue
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 { // no run has a family: (none) is all there is
		ids, noProfile = slices.Sorted(maps.Keys(byRun)), nil
	}
	if len(ids) == 0 {
		return nil, nil
	}
	families = map[string]bool{} // only those of the runs drawn
	for _, id := range ids {
		for f := range byRun[id] {
			families[f] = true
		}
	}
	_, none := families[noneLabel]
	delete(families, noneLabel)
	fs := slices.Sorted(maps.Keys(families))
	if none {
		fs = append(fs, noneLabel)
	}
	var values []float64
	for _, id := range ids {
		for _, c := range byRun[id] {
			values = append(values, c.v)
		}
	}
	top := fitRateMax(values, nil)
	var out []drawable
	for i, f := range fs {
		rows := make([]row, len(ids))
		for j, id := range ids {
			c, ok := byRun[id][f]
			rows[j] = row{Label: cleanLabel(label(id)), Value: math.NaN(), CI: noInterval}
			if ok {
				rows[j].Value, rows[j].Text = c.v, rateText(c.v, c.tasks, c.notEvaluated)
			}
		}
		out = append(out, rowChart(panelID(familyChartID, i), f, f, "pass^1", rows, 0, top, false))
	}
	return out, noProfile
}

// conditions are the two conditions of chart (c), in series order.
var conditions = [2]emobench.Condition{emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions}

// conditionChart returns chart (c): pass^1 with and without emotions, side
// by side, for each of in.ConditionPairs. It returns nil when there is no
// pair.
func conditionChart(in Input) *charts.Bar {
	if len(in.ConditionPairs) == 0 {
		return nil
	}
	xs := make([]string, len(in.ConditionPairs))
	for i, p := range in.ConditionPairs {
		xs[i] = cleanLabel(p.Label)
	}
	c := charts.NewBar()
	var values []float64
	for _, p := range in.ConditionPairs {
		values = append(values, p.With, p.Without)
	}
	c.SetGlobalOptions(baseOpts(conditionChartID, []string{string(conditions[0]), string(conditions[1])}, xs, "", "pass^1", fitRateMax(values, nil))...)
	c.SetXAxis(xs)
	for i, cond := range conditions {
		data := make([]opts.BarData, len(in.ConditionPairs))
		for j, p := range in.ConditionPairs {
			v := p.With
			if i == 1 {
				v = p.Without
			}
			data[j] = opts.BarData{Value: chartValue(v)}
			if finite(v) {
				data[j].Label = &opts.Label{Show: opts.Bool(true), Position: "top", Color: labelColor, Formatter: strconv.FormatFloat(v, 'f', 2, 64)}
			}
		}
		c.AddSeries(string(cond), data)
	}
	capBarWidth(c)
	return c
}

// capBarWidth keeps the bars of c at most 64 px wide, so that a few bars
// on a full-width page stay bars, not slabs.
func capBarWidth(c *charts.Bar) {
	for i := range c.MultiSeries {
		c.MultiSeries[i].BarMaxWidth = "64"
	}
}

// familyN returns chart (b)'s caption sentence on n: the tasks behind each
// bar; "" when there is no k = 1 row.
func familyN(in Input) string {
	var ns []int
	for _, r := range in.FamilyPass1 {
		if r.K == 1 {
			ns = append(ns, r.Tasks)
		}
	}
	if len(ns) == 0 {
		return ""
	}
	return " n = " + nRange(ns) + " tasks per bar."
}

// conditionN returns chart (c)'s caption sentence on n: the paired tasks
// behind each pair of bars; "" when there is no pair.
func conditionN(in Input) string {
	var ns []int
	for _, p := range in.ConditionPairs {
		ns = append(ns, p.Pairs)
	}
	if len(ns) == 0 {
		return ""
	}
	return " n = " + nRange(ns) + " task pairs per pair of bars."
}

// conventions returns the distinct pass^k conventions of rows, sorted, for
// the captions.
func conventions(rows []analysis.PassKRow) []string {
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Convention != "" {
			seen[string(r.Convention)] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// NotEvaluatedNote is the caption sentence naming what a chart leaves out
// because no trajectory behind it has reward information, such as runs,
// "run: family" bars or "model on domain" cells: their value is not 0 but
// unknown. It is "" when items is empty.
func NotEvaluatedNote(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return " Not evaluated (no trajectory has reward information), so not drawn: " + strings.Join(items, ", ") + "."
}

// notEvaluatedRows names the rows of k = 1 that are not evaluated: the run
// (by label), followed by ": " and the first group value when group is set.
func notEvaluatedRows(rows []analysis.PassKRow, label func(int64) string, group bool) []string {
	var out []string
	for _, r := range rows {
		if r.K != 1 || !r.NotEvaluated {
			continue
		}
		item := label(r.RunID)
		if group {
			item += ": " + groupValue(r.Group, 0)
		}
		out = append(out, item)
	}
	return out
}

// notEvaluatedPairs names the chart (c) pairs with a side not evaluated:
// "label (SIDE)".
func notEvaluatedPairs(pairs []ConditionPair) []string {
	var out []string
	for _, p := range pairs {
		if p.NotEvaluated != "" {
			out = append(out, p.Label+" ("+p.NotEvaluated+")")
		}
	}
	return out
}
