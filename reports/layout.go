package reports

import (
	"cmp"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"
)

// panelSeries is the most series one chart draws: past it, a chart splits
// into small multiples, so that no chart repeats a colour of its palette.
const panelSeries = 10

// rowHeight is the px per category of a horizontal (row) chart: one line
// of 12 px text with room around it, so that labels never touch.
const rowHeight = 24

// legendMaxText is the most characters a legend entry shows; longer names
// are cut with "…" by echarts (the tooltip names them in full).
const legendMaxText = 48

// panels splits n items into consecutive [from, to) ranges of at most
// panelSeries items; none when n is 0.
func panels(n int) [][2]int {
	var out [][2]int
	for from := 0; from < n; from += panelSeries {
		out = append(out, [2]int{from, min(n, from+panelSeries)})
	}
	return out
}

// panelID is the container id of the i-th (0-based) panel of a chart: id
// itself for the first, id-2, id-3, … after it.
func panelID(id string, i int) string {
	if i == 0 {
		return id
	}
	return id + "-" + strconv.Itoa(i+1)
}

// cleanLabel drops the empty and "unknown" segments of a " / "-joined
// label, so that "qwen3 / unknown / retail" reads "qwen3 / retail" (a
// label with nothing else left is kept as it is), and spells a trailing
// ": -" (no group value) as ": (none)".
func cleanLabel(label string) string {
	label = noneFamily(label)
	if !strings.Contains(label, " / ") {
		return label
	}
	var kept []string
	for _, seg := range strings.Split(label, " / ") {
		if t := strings.TrimSpace(seg); t != "" && t != "unknown" {
			kept = append(kept, seg)
		}
	}
	if len(kept) == 0 {
		return label
	}
	return strings.Join(kept, " / ")
}

// noneFamily spells out an empty group value after "label: ".
func noneFamily(label string) string {
	if rest, ok := strings.CutSuffix(label, ": -"); ok {
		return rest + ": " + noneLabel
	}
	return label
}

// legendWidth is the px a vertical legend of names takes at the right of
// a chart: its longest entry (cut at legendMaxText) and its icon.
func legendWidth(names []string) int {
	longest := 0
	for _, n := range names {
		longest = max(longest, min(utf8.RuneCountInString(n), legendMaxText))
	}
	return longest*charWidth + legendItemExtra
}

// fitRateMax is the top of a rate axis that fits values and the upper ends
// of cis: the next multiple of 0.2 above the largest (with room for its
// whisker cap), at most 1 and at least 0.2.
func fitRateMax(values []float64, cis []Interval) float64 {
	top := 0.0
	for i, v := range values {
		if finite(v) {
			top = max(top, v)
		}
		if i < len(cis) && finite(cis[i].Hi) {
			top = max(top, cis[i].Hi)
		}
	}
	return math.Min(1, math.Max(0.2, math.Ceil(top*5+0.25)/5))
}

// tickStep is the step of a value axis from lo to hi whose ends are on
// multiples of 0.2, so that no tick label crowds an end.
func tickStep(lo, hi float64) float64 {
	if hi-lo <= 0.4 {
		return 0.1
	}
	return 0.2
}

// deltaRange is the [lo, hi] of a Δ axis that fits values and cis, on
// multiples of 0.2, with 0 inside and clamped to [−1, 1].
func deltaRange(values []float64, cis []Interval) (lo, hi float64) {
	for i, v := range values {
		for _, x := range []float64{v, cis[i].Lo, cis[i].Hi} {
			if finite(x) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	// 0.05 of room past the data, for the whisker caps.
	if lo < 0 {
		lo = math.Max(-1, math.Floor((lo-0.05)*5)/5)
	}
	if hi > 0 {
		hi = math.Min(1, math.Ceil((hi+0.05)*5)/5)
	}
	if lo == hi { // no data
		hi = lo + 0.2
	}
	return round4(lo), round4(hi)
}

// noInterval is an Interval with no bounds: nothing is drawn for it.
var noInterval = Interval{math.NaN(), math.NaN()}

// row is one category of a row chart: a bar or point at Value with a
// whisker over CI, and its Text in a column at the right.
type row struct {
	Label string   // category, on the y axis
	Value float64  // NaN: nothing drawn
	CI    Interval // no whisker when a bound is not finite
	Text  string   // value label, e.g. "0.57 (n=12)"; "no data" when empty
	Color string   // the bar's or point's colour; "": the palette's first
}

// rowChart is a horizontal chart: one row per category, top to bottom, a
// bar (points false) or a point for its value on an x axis from lo to hi
// named xName, a whisker for its interval, and its label in a column at the
// right of the plot, where it meets neither bars nor whiskers. Rows with no
// Text say "no data", so that they never read as 0. title, when not empty,
// heads the panel, and seriesName names the values in the tooltip.
func rowChart(id, title, seriesName, xName string, rows []row, lo, hi float64, points bool) drawable {
	labels := make([]string, len(rows))
	texts := make([]string, len(rows))
	values := make([]any, len(rows))
	var whisk [][3]float64
	longest := 0
	for i, r := range rows {
		labels[i], texts[i] = r.Label, cmp.Or(r.Text, "no data")
		longest = max(longest, longestLine(r.Label))
		item := dataItem{Name: r.Label, Value: chartValue(r.Value)} // the tooltip names the row
		if r.Color != "" {
			item.ItemStyle = &opts.ItemStyle{Color: r.Color}
		}
		values[i] = item
		if finite(r.Value) && hasCI(r.CI) {
			whisk = append(whisk, [3]float64{float64(i), round4(r.CI.Lo), round4(r.CI.Hi)})
		}
	}
	// 36 px above the plot clear the toolbox (and hold the title). In a
	// panel, long labels are cut sooner, so that the plot keeps its room.
	top, labelChars := 36, 64
	if title != "" {
		labelChars = 44
	}
	height := top + 44 + rowHeight*len(rows)
	kind := types.ChartBar
	if points {
		kind = types.ChartScatter
	}
	series := []any{charts.SingleSeries{
		Name: seriesName, Type: kind, Data: values, Animation: opts.Bool(false),
		BarMaxWidth: "14", SymbolSize: 9, Symbol: "circle",
	}}
	if len(whisk) > 0 {
		series = append(series, extSeries{
			SingleSeries: charts.SingleSeries{
				Name: "CI", Type: types.ChartCustom, Data: whisk, Animation: opts.Bool(false),
				RenderItem: errorBarRenderer + "H",
				ItemStyle:  &opts.ItemStyle{Color: whiskerColor},
				Encode:     &opts.Encode{X: []int{1, 2}, Y: 0, Tooltip: []int{1, 2}},
			},
			Dimensions: []string{"y", "low", "high"},
			Z:          3,
		})
	}
	c := charts.NewBar()
	c.SetGlobalOptions(frameOpts(id, strconv.Itoa(height)+"px")...)
	c.SetGlobalOptions(charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}))
	patch := func(o map[string]any) {
		o["legend"] = map[string]any{"show": false}
		o["grid"] = map[string]any{"top": top, "left": 24, "right": 8, "bottom": 36, "containLabel": true}
		o["xAxis"] = []map[string]any{{
			"type": "value", "min": lo, "max": hi, "interval": tickStep(lo, hi), "name": xName, "nameLocation": "middle", "nameGap": 24,
		}}
		o["yAxis"] = []map[string]any{
			{
				"type": "category", "data": labels, "inverse": true,
				"axisLabel": map[string]any{"interval": 0, "width": min(longest, labelChars) * charWidth, "overflow": "truncate"},
				"axisLine":  map[string]any{"onZero": false},
			},
			{
				"type": "category", "data": texts, "inverse": true, "position": "right",
				"axisLabel": map[string]any{"interval": 0, "color": labelColor},
				"axisLine":  map[string]any{"show": false}, "axisTick": map[string]any{"show": false},
			},
		}
		if title != "" {
			o["title"] = map[string]any{"text": title, "left": 8, "top": 4, "textStyle": map[string]any{"fontSize": 13}}
		}
	}
	return drawable{chart: c, init: c.Initialization, series: series, patch: patch}
}

// cleanLabels is cleanLabel of each label.
func cleanLabels(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = cleanLabel(l)
	}
	return out
}

// publishedColor is the colour of published results' bars, beside your
// runs' bars in the palette's first colour.
const publishedColor = "#ee6666"

// publishedChartID is the container id of the first published-results
// panel; the others follow it as panelID numbers them.
const publishedChartID = "chart-published"

// publishedCharts returns one row chart per domain of published (in
// domain order of first appearance): the pass^1 of each published result
// and of each of your runs there, your runs first and marked "(yours)".
// Results at other k are left to the table. It returns no chart when no
// row has k = 1.
func publishedCharts(published []PublishedRow) ([]drawable, string) {
	var domains []string
	byDomain := map[string][]row{}
	for _, p := range published {
		if p.K != 1 {
			continue
		}
		label := cleanLabel(p.Model)
		if p.Yours {
			// "your run 6 (name)": the run's name is in the runs table.
			run, _, _ := strings.Cut(p.Source, " (")
			label += " (" + run + ")"
		}
		if _, ok := byDomain[p.Domain]; !ok {
			domains = append(domains, p.Domain)
		}
		r := row{Label: label, Value: p.PassHatK, CI: noInterval, Color: publishedColor}
		if p.Yours {
			r.Color = ""
		}
		switch {
		case finite(p.PassHatK):
			r.Text = strconv.FormatFloat(p.PassHatK, 'f', 2, 64)
		case p.Yours:
			r.Text = "not evaluated"
		}
		byDomain[p.Domain] = append(byDomain[p.Domain], r)
	}
	var out []drawable
	for i, d := range domains {
		out = append(out, rowChart(panelID(publishedChartID, i), d, d, "pass^1", byDomain[d], 0, 1, false))
	}
	if len(out) == 0 {
		return nil, ""
	}
	return out, "pass^1 of the leaderboard results (emobench ingest of submission.json files, in red) and of your runs (in blue, named \"your run N\"), one panel per domain your runs cover. Published numbers come from other harnesses and settings: compare with care. The table under the runs table gives every k."
}

// withPanelTitle gives the chart d a title at its top left and moves its
// plot down to make room for it.
func withPanelTitle(d drawable, title string) drawable {
	inner := d.patch
	d.patch = func(o map[string]any) {
		if inner != nil {
			inner(o)
		}
		o["title"] = map[string]any{"text": title, "left": 8, "top": 4, "textStyle": map[string]any{"fontSize": 13}}
		if grids, ok := o["grid"].([]opts.Grid); ok && len(grids) > 0 {
			grids[0].Top = "56"
		}
	}
	return d
}
