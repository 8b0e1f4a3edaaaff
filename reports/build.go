package reports

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/emobench/emobench/analysis"
)

// bootstrapNote describes opts in a caption.
func bootstrapNote(opts analysis.BootstrapOptions) string {
	return fmt.Sprintf("Bands and whiskers: %g%% %s bootstrap over tasks (%s resamples, seed %d).",
		100*opts.Level, opts.Method, thousands(opts.Resamples), opts.Seed)
}

// thousands writes n with comma thousands separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func interval(ci analysis.CI) Interval { return Interval{Lo: ci.Lo, Hi: ci.Hi} }

// dashIfEmpty is s, or "-" when s is blank, as the stats tables print an
// empty group value.
func dashIfEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// groupValueRaw is g[i], or "" when g has no i-th value.
func groupValueRaw(g []string, i int) string {
	if i >= len(g) {
		return ""
	}
	return g[i]
}

// idList writes run ids as the stats tables do: "3,5".
func idList(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

// notEvaluatedUnits names, by label, the units whose k = 1 row of rows
// (with no group fields) is not evaluated.
func notEvaluatedUnits(rows []analysis.PassKRow, label func(int64) string) []string {
	var out []string
	for _, r := range rows {
		if r.K == 1 && r.NotEvaluated {
			out = append(out, label(r.RunID))
		}
	}
	return out
}

// passKCurves are the pass^k curves of rows, one per unit, with cis[i]
// the interval of rows[i].
func passKCurves(rows []analysis.PassKRow, cis []analysis.CI, label func(int64) string, boot string) PassKChart {
	chart := PassKChart{Caption: boot}
	index := map[int64]int{}
	for i, r := range rows {
		j, ok := index[r.RunID]
		if !ok {
			j = len(chart.Curves)
			index[r.RunID] = j
			chart.Curves = append(chart.Curves, PassKCurve{RunID: r.RunID, Run: label(r.RunID)})
		}
		ci := noInterval
		if i < len(cis) {
			ci = interval(cis[i])
		}
		chart.Curves[j].Points = append(chart.Curves[j].Points, PassKPoint{K: r.K, Value: r.PassHatK, CI: ci, Tasks: r.Tasks, NotEvaluated: r.NotEvaluated})
	}
	return chart
}

// gapSection is the gap chart of gaps: one pair of bars per unit with at
// least two trials of a task.
func gapSection(gaps []analysis.GapRow, label func(int64) string) GapChart {
	var chart GapChart
	var notEvaluated []string
	for _, g := range gaps {
		if g.K < 2 {
			continue // one trial per task: no gap to show
		}
		chart.Bars = append(chart.Bars, GapBar{Run: label(g.RunID), Pass1: g.Pass1, PassK: g.PassK, K: g.K, Tasks: g.TasksK, Tasks1: g.Tasks1})
		if g.NotEvaluated {
			notEvaluated = append(notEvaluated, label(g.RunID))
		}
	}
	chart.Caption += NotEvaluatedNote(notEvaluated)
	return chart
}

// unitHeatmap is a unit (rows, named rowName) × Group[0] (columns) matrix
// of the k = 1 rows' pass^1; rows with an empty Group[0] are left out.
func unitHeatmap(rows []analysis.PassKRow, label func(int64) string, rowName, colName, caption string) Heatmap {
	type cell struct {
		v     float64
		tasks int
	}
	cells := map[[2]string]cell{}
	var rowOrder []string
	rowSeen, colSet := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		if r.K != 1 || len(r.Group) == 0 || r.Group[0] == "" {
			continue
		}
		key := [2]string{label(r.RunID), r.Group[0]}
		cells[key] = cell{r.PassHatK, r.Tasks}
		if !rowSeen[key[0]] {
			rowSeen[key[0]] = true
			rowOrder = append(rowOrder, key[0])
		}
		colSet[key[1]] = true
	}
	h := Heatmap{RowName: rowName, ColName: colName, Caption: caption, Rows: rowOrder, Cols: slices.Sorted(maps.Keys(colSet))}
	for _, r := range h.Rows {
		values, ns := make([]float64, len(h.Cols)), make([]int, len(h.Cols))
		for j, c := range h.Cols {
			values[j] = math.NaN()
			if cl, ok := cells[[2]string{r, c}]; ok {
				values[j], ns[j] = cl.v, cl.tasks
			}
		}
		h.Values, h.N = append(h.Values, values), append(h.N, ns)
	}
	return h
}

// conditionPairs are chart (c): the "all" rows of stats emotions --k 1.
func conditionPairs(rows []analysis.EmotionDelta) []ConditionPair {
	var out []ConditionPair
	for _, r := range rows {
		if r.Dimension == "all" && r.K == 1 {
			out = append(out, ConditionPair{Label: comparisonLabel(r), With: r.With, Without: r.Without, Pairs: r.Pairs, NotEvaluated: notEvaluatedSide(r)})
		}
	}
	return out
}

// notEvaluatedSide names the side of r with no evaluated trajectory:
// "with emotions", "without emotions", "either side", or "".
func notEvaluatedSide(r analysis.EmotionDelta) string {
	switch {
	case r.WithNotEvaluated && r.WithoutNotEvaluated:
		return "either side"
	case r.WithNotEvaluated:
		return "with emotions"
	case r.WithoutNotEvaluated:
		return "without emotions"
	}
	return ""
}

// comparisonLabel names a with- vs without-emotions comparison:
// "agent / user / domain (runs 1 vs 2)".
func comparisonLabel(r analysis.EmotionDelta) string {
	return fmt.Sprintf("%s (runs %s vs %s)", r.Group, idList(r.WithRuns), idList(r.WithoutRuns))
}

// deltaCharts makes one chart per dimension of the with − without
// comparison; bars name their comparison when there are several.
func deltaCharts(rows []analysis.EmotionDelta, note, command string) []DeltaChart {
	groups := map[string]bool{}
	for _, r := range rows {
		groups[comparisonLabel(r)] = true
	}
	var charts []DeltaChart
	for _, dim := range []string{"emotion_family", "politeness", "urgency", "trust"} {
		chart := DeltaChart{
			Title:   "Δ pass^1, with − without emotions, by " + dim,
			Caption: note + " p: exact McNemar test, Holm-adjusted across the values of " + dim + ".",
			Group:   dim,
			Command: command,
		}
		var notEvaluated []string
		for _, r := range rows {
			if r.Dimension != dim {
				continue
			}
			label := dashIfEmpty(r.Value)
			if len(groups) > 1 {
				label = comparisonLabel(r) + ": " + label
			}
			chart.Bars = append(chart.Bars, DeltaBar{Label: label, Delta: r.Delta, CI: interval(r.CI), P: r.PHolm, Pairs: r.Pairs})
			if side := notEvaluatedSide(r); side != "" {
				notEvaluated = append(notEvaluated, label+" ("+side+")")
			}
		}
		chart.Caption += NotEvaluatedNote(notEvaluated)
		if len(chart.Bars) > 0 {
			charts = append(charts, chart)
		}
	}
	return charts
}

// unitBalanceCurve is one unit's success-vs-balance chart: its bins, and
// its fitted curve sampled every 0.05 of share.
func unitBalanceCurve(b UnitBalance) BalanceCurve {
	chart := BalanceCurve{
		XName:   "tool-call share = tool calls / (tool calls + follow-up questions)",
		Caption: "Whiskers: 95% Wilson score intervals.",
	}
	var notEvaluated []string
	for _, bin := range b.Bins {
		chart.Bins = append(chart.Bins, BalanceBin{Lo: bin.Lo, Hi: bin.Hi, Rate: bin.Rate, CI: interval(bin.CI), N: bin.N})
		if bin.NotEvaluated {
			notEvaluated = append(notEvaluated, fmt.Sprintf("share %.1f–%.1f", bin.Lo, bin.Hi))
		}
	}
	chart.Caption += NotEvaluatedNote(notEvaluated)
	switch {
	case !b.Evaluated:
		chart.Caption += " No logistic fit: no trajectory is evaluated."
		return chart
	case b.FitErr != nil:
		chart.Caption += " No logistic fit: " + b.FitErr.Error() + "."
		return chart
	case b.Fit == nil:
		return chart
	}
	fit := b.Fit
	chart.Caption += fmt.Sprintf(" Line: logistic fit of success on share and share² (n = %d; vertex %.2f, middle balance wins: %s).", fit.N, fit.Vertex, b.MiddleWins)
	for x := 0.0; x <= 1.0001; x += 0.05 {
		chart.Fit = append(chart.Fit, XY{X: x, Y: fit.Model.Predict([]float64{x, x * x})})
	}
	return chart
}

// publishedBeside lists the published results of the domains runs cover,
// each domain's own runs (pass^1) first; nil when there is no published
// result.
func publishedBeside(published []PublishedResult, runs []RunSummary) []PublishedRow {
	if len(published) == 0 {
		return nil
	}
	byDomain := map[string][]PublishedRow{}
	for _, p := range published {
		model := p.Model
		if p.Modality != "" && !strings.EqualFold(p.Modality, "text") {
			model += " (" + p.Modality + ")" // voice scores are not text scores
		}
		byDomain[p.Domain] = append(byDomain[p.Domain], PublishedRow{
			Domain: p.Domain, Model: model, Source: baseName(p.SourceFile), K: p.K, PassHatK: p.PassHatK,
		})
	}
	var rows []PublishedRow
	seen := map[string]bool{}
	for _, r := range runs {
		if len(byDomain[r.Run.Domain]) == 0 {
			continue
		}
		pass1 := r.Pass1
		if r.NotEvaluated {
			pass1 = math.NaN() // shown as "–", not as a measured 0
		}
		rows = append(rows, PublishedRow{
			Domain: r.Run.Domain, Model: r.Run.AgentModel, Source: fmt.Sprintf("your run %d (%s)", r.Run.ID, r.Run.Name),
			K: 1, PassHatK: pass1, Yours: true,
		})
		seen[r.Run.Domain] = true
	}
	for _, d := range slices.Sorted(maps.Keys(seen)) {
		rows = append(rows, byDomain[d]...)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Domain < rows[j].Domain })
	return rows
}

// baseName is the last element of a slash- or backslash-separated path.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
