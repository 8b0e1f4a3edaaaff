package reports

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

// Chart geometry. 680 px fits the printable width of A4 and US Letter at the
// page margins set by the report's print CSS.
const (
	chartWidth    = "680px"
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

// sortedKeys returns the keys of m in ascending order.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Rough text metrics of echarts' default 12 px sans-serif, to lay out
// legends and axis labels without a browser.
const (
	charWidth       = 7   // px per character, a little over the average
	plotWidth       = 600 // px of the x axis, about
	legendItemExtra = 40  // px of a legend item besides its text: icon and gaps
	legendRowHeight = 24  // px
)

// legendRows estimates how many rows echarts' legend wraps names into.
func legendRows(names []string) int {
	rows, x := 1, 0
	for _, n := range names {
		w := utf8.RuneCountInString(n)*charWidth + legendItemExtra
		if x > 0 && x+w > plotWidth {
			rows++
			x = 0
		}
		x += w
	}
	return rows
}

// axisLabel returns the x axis label options for the categories xs: every
// label shown, turned by 30° when the longest would not fit its slot.
func axisLabel(xs []string) *opts.AxisLabel {
	l := &opts.AxisLabel{Interval: "0", HideOverlap: opts.Bool(true)}
	longest := 0
	for _, x := range xs {
		longest = max(longest, utf8.RuneCountInString(x))
	}
	if len(xs) > 0 && longest*charWidth > plotWidth/len(xs) {
		l.Rotate = 30
	}
	return l
}

// baseOpts are the options every chart of the report shares: fixed id and
// size, SVG renderer, white background, no animation (so that printing or a
// screenshot right after load shows the final picture), axis tooltip, a
// legend of the series names at the top with the plot below it, categories
// xs on the x axis (named xName, when not empty), and a y axis from 0 to 1
// named yName.
func baseOpts(id string, series, xs []string, xName, yName string) []charts.GlobalOpts {
	top := 16 + legendRows(series)*legendRowHeight + 12 // room for the y axis name
	xAxis := opts.XAxis{Type: "category", AxisLabel: axisLabel(xs)}
	bottom := 16
	if xName != "" {
		xAxis.Name, xAxis.NameLocation, xAxis.NameGap = xName, "middle", 28
		bottom = 40
	}
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{
			ChartID:         id,
			Width:           chartWidth,
			Height:          chartHeight,
			Renderer:        chartRenderer,
			BackgroundColor: "#ffffff",
		}),
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "8"}),
		charts.WithGridOpts(opts.Grid{
			Top: strconv.Itoa(top), Left: "48", Right: "24", Bottom: strconv.Itoa(bottom),
			ContainLabel: opts.Bool(true),
		}),
		charts.WithXAxisOpts(xAxis),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: yName, Min: 0, Max: 1}),
	}
}

// passKChart returns chart (a): pass^k against k, one line per run, from
// in.PassKByRun (rows with no group fields). The x axis holds every k from 1
// to the largest k of any row; a run with no row, or a NaN, at some k has a
// gap there. It returns nil when in.PassKByRun is empty.
func passKChart(in Input) *charts.Line {
	if len(in.PassKByRun) == 0 {
		return nil
	}
	label := runLabeler(in)
	byRun := map[int64]map[int]float64{}
	maxK := 0
	for _, r := range in.PassKByRun {
		if r.K < 1 {
			continue
		}
		if byRun[r.RunID] == nil {
			byRun[r.RunID] = map[int]float64{}
		}
		byRun[r.RunID][r.K] = r.PassHatK
		maxK = max(maxK, r.K)
	}
	if maxK == 0 {
		return nil
	}
	ks := make([]string, maxK)
	for k := 1; k <= maxK; k++ {
		ks[k-1] = strconv.Itoa(k)
	}
	ids := sortedKeys(byRun)
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = label(id)
	}
	c := charts.NewLine()
	c.SetGlobalOptions(baseOpts(passKChartID, names, ks, "k", "pass^k")...)
	c.SetXAxis(ks)
	for i, id := range ids {
		data := make([]opts.LineData, maxK)
		for k := 1; k <= maxK; k++ {
			v, ok := byRun[id][k]
			if !ok {
				v = math.NaN()
			}
			data[k-1] = opts.LineData{Value: chartValue(v)}
		}
		c.AddSeries(names[i], data)
	}
	return c
}

// familyChart returns chart (b): pass^1 per emotion family, one bar series
// per run, from the k = 1 rows of in.FamilyPass1 (Group[0] is the family;
// an empty family is labelled "(none)"). Families are sorted by name, with
// "(none)" last. It returns nil when there is no k = 1 row.
func familyChart(in Input) *charts.Bar {
	label := runLabeler(in)
	byRun := map[int64]map[string]float64{}
	families := map[string]bool{}
	for _, r := range in.FamilyPass1 {
		if r.K != 1 {
			continue
		}
		f := groupValue(r.Group, 0)
		families[f] = true
		if byRun[r.RunID] == nil {
			byRun[r.RunID] = map[string]float64{}
		}
		byRun[r.RunID][f] = r.PassHatK
	}
	if len(byRun) == 0 {
		return nil
	}
	delete(families, noneLabel)
	xs := sortedKeys(families)
	for _, fs := range byRun {
		if _, ok := fs[noneLabel]; ok {
			xs = append(xs, noneLabel)
			break
		}
	}
	ids := sortedKeys(byRun)
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = label(id)
	}
	c := charts.NewBar()
	c.SetGlobalOptions(baseOpts(familyChartID, names, xs, "", "pass^1")...)
	c.SetXAxis(xs)
	for i, id := range ids {
		data := make([]opts.BarData, len(xs))
		for j, f := range xs {
			v, ok := byRun[id][f]
			if !ok {
				v = math.NaN()
			}
			data[j] = opts.BarData{Value: chartValue(v)}
		}
		c.AddSeries(names[i], data)
	}
	return c
}

// modelDomain is one agent_model+domain pair of chart (c).
type modelDomain struct{ model, domain string }

// conditionChart returns chart (c): pass^1 with and without emotions, side
// by side, for each agent_model+domain that has both conditions among the
// k = 1 rows of in.ConditionPass1 (Group = [agent_model, domain,
// condition]). When several runs share a model, domain and condition, their
// pass^1 values are averaged weighted by Tasks, which is pass^1 over all
// their tasks together. Rows with a NaN pass^1 or no task are left out.
// Pairs are sorted by model, then domain. It returns nil when no pair has
// both conditions.
func conditionChart(in Input) *charts.Bar {
	type acc struct{ sum, tasks float64 }
	conds := [2]emobench.Condition{emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions}
	sums := map[modelDomain]*[2]acc{}
	for _, r := range in.ConditionPass1 {
		if r.K != 1 || r.Tasks <= 0 || math.IsNaN(r.PassHatK) || math.IsInf(r.PassHatK, 0) || len(r.Group) < 3 {
			continue
		}
		i := slices.Index(conds[:], emobench.Condition(r.Group[2]))
		if i < 0 {
			continue
		}
		key := modelDomain{groupValue(r.Group, 0), groupValue(r.Group, 1)}
		if sums[key] == nil {
			sums[key] = &[2]acc{}
		}
		sums[key][i].sum += r.PassHatK * float64(r.Tasks)
		sums[key][i].tasks += float64(r.Tasks)
	}
	var pairs []modelDomain
	for key, a := range sums {
		if a[0].tasks > 0 && a[1].tasks > 0 {
			pairs = append(pairs, key)
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	slices.SortFunc(pairs, func(a, b modelDomain) int {
		return cmp.Or(cmp.Compare(a.model, b.model), cmp.Compare(a.domain, b.domain))
	})
	xs := make([]string, len(pairs))
	for i, p := range pairs {
		xs[i] = p.model + " / " + p.domain
	}
	c := charts.NewBar()
	c.SetGlobalOptions(baseOpts(conditionChartID, []string{string(conds[0]), string(conds[1])}, xs, "", "pass^1")...)
	c.SetXAxis(xs)
	for i, cond := range conds {
		data := make([]opts.BarData, len(pairs))
		for j, p := range pairs {
			a := sums[p][i]
			data[j] = opts.BarData{Value: chartValue(a.sum / a.tasks)}
		}
		c.AddSeries(string(cond), data)
	}
	return c
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
	return sortedKeys(seen)
}
