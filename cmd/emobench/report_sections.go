package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports"
)

// defaultBootstrap is the bootstrap of the stats commands' defaults, which
// the report uses unless its flags say otherwise: figures and tables agree.
var defaultBootstrap = analysis.BootstrapOptions{Resamples: 2000, Level: 0.95, Seed: 1, Method: analysis.MethodPercentile}

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

func interval(ci analysis.CI) reports.Interval { return reports.Interval{Lo: ci.Lo, Hi: ci.Hi} }

// addPaperSections fills the report's CI-bearing sections for runIDs, per
// unit, each naming the stats command (cmd) that prints its numbers.
func addPaperSections(ctx context.Context, store *db.DB, runIDs []int64, units analysis.Units, in *reports.Input, names map[int64]string, boot analysis.BootstrapOptions, cmd commandLine) error {
	tasks, _, _, err := pooledTaskTrials(ctx, false, store, units, runIDs, nil, analysis.PerTask)
	if err != nil {
		return err
	}
	label := func(id int64) string { return unitLabel(units.ByID(id), names) }
	in.PassK = passKCurves(tasks, in.PassKByRun, label, boot)
	in.PassK.Command = in.PassKCommand
	in.PassK.Caption += reports.NotEvaluatedNote(notEvaluatedUnits(in.PassKByRun, label))
	in.PassK.Title = "pass^k by " + unitNoun(units)
	in.Gaps = gapChart(in.PassKByRun, label)
	in.Gaps.Command = cmd.stats("gap", false)
	in.Gaps.Title = "pass^1 vs pass^k by " + unitNoun(units)
	in.FamilyHeatmap = unitHeatmap(in.FamilyPass1, label, unitNoun(units), "emotion family",
		"Tasks without an emotion profile are left out.")
	var familyNotEvaluated []string
	for _, r := range in.FamilyPass1 {
		if r.K == 1 && r.NotEvaluated && len(r.Group) > 0 && r.Group[0] != "" {
			familyNotEvaluated = append(familyNotEvaluated, label(r.RunID)+": "+r.Group[0])
		}
	}
	in.FamilyHeatmap.Caption += reports.NotEvaluatedNote(familyNotEvaluated)
	in.FamilyHeatmap.Title = "pass^1 by " + unitNoun(units) + " and emotion family"
	in.FamilyHeatmap.Command = in.FamilyCommand
	outcomes, err := store.ListTrajectoryOutcomes(ctx, runIDs)
	if err != nil {
		return err
	}
	compared, _ := analysis.CompareEmotions(conditionTrials(outcomes), units, []int{1}, boot)
	emotionsCmd := cmd.stats("emotions", true, "--k", "1")
	in.ConditionPairs = conditionPairs(compared)
	in.ConditionCommand = emotionsCmd
	in.Deltas = deltaCharts(compared, bootstrapNote(boot), emotionsCmd)
	in.Abandonment = abandonmentChart(outcomes, units, names)
	in.Abandonment.Title = "Abandonment (###UNSATISFIED###) by " + unitNoun(units) + " and emotion family"
	in.Abandonment.Group = unitNoun(units) + ": emotion family"
	in.Abandonment.Command = cmd.stats("abandonment", false, "--by", "emotion_family")
	balance, err := loadBalance(ctx, store, outcomes, units)
	if err != nil {
		return err
	}
	for _, u := range units.List() {
		if d, ok := balance[u.ID]; ok {
			chart := balanceChart(d)
			chart.Title = "Success vs balance: " + unitLabel(u, names)
			chart.Command = cmd.forUnit(u).stats("balance", false, "--part", "bins", "--bins", "5")
			if len(chart.Fit) > 0 {
				chart.Caption += " Fit: " + cmd.forUnit(u).stats("balance", false, "--part", "regression") + "."
			}
			in.Balance = append(in.Balance, chart)
		}
	}
	var first []analysis.PassKRow
	for _, r := range in.PassKByRun {
		if r.K == 1 {
			first = append(first, r)
		}
	}
	matrix := generalizationMatrix(first, units, names)
	in.Generalization = matrix.Heatmap
	in.Generalization.Caption = "pass^1 of every run (or pool) on its domain." + reports.NotEvaluatedNote(matrix.notEvaluatedCells())
	in.Generalization.Command = cmd.stats("generalization", false, "--part", "matrix")
	in.Published, err = publishedBeside(ctx, store, in.Runs)
	return err
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

func passKCurves(tasks []analysis.TaskTrials, rows []analysis.PassKRow, label func(int64) string, boot analysis.BootstrapOptions) reports.PassKChart {
	byRun := map[int64][]analysis.TaskTrials{}
	for _, t := range tasks {
		byRun[t.RunID] = append(byRun[t.RunID], t)
	}
	chart := reports.PassKChart{Caption: bootstrapNote(boot)}
	index := map[int64]int{}
	for _, r := range rows {
		i, ok := index[r.RunID]
		if !ok {
			i = len(chart.Curves)
			index[r.RunID] = i
			chart.Curves = append(chart.Curves, reports.PassKCurve{RunID: r.RunID, Run: label(r.RunID)})
		}
		_, _, ci, _ := analysis.PassKCI(byRun[r.RunID], r.K, analysis.PerTask, 0, boot)
		chart.Curves[i].Points = append(chart.Curves[i].Points, reports.PassKPoint{K: r.K, Value: r.PassHatK, CI: interval(ci), Tasks: r.Tasks})
	}
	return chart
}

func gapChart(rows []analysis.PassKRow, label func(int64) string) reports.GapChart {
	var chart reports.GapChart
	var notEvaluated []string
	for _, g := range analysis.GapAtMaxK(rows) {
		if g.K < 2 {
			continue // one trial per task: no gap to show
		}
		chart.Bars = append(chart.Bars, reports.GapBar{Run: label(g.RunID), Pass1: g.Pass1, PassK: g.PassK, K: g.K, Tasks: g.TasksK, Tasks1: g.Tasks1})
		if g.NotEvaluated {
			notEvaluated = append(notEvaluated, label(g.RunID))
		}
	}
	chart.Caption += reports.NotEvaluatedNote(notEvaluated)
	return chart
}

// unitHeatmap is a unit (rows, named rowName) × Group[0] (columns) matrix
// of the k = 1 rows' pass^1; rows with an empty Group[0] are left out.
func unitHeatmap(rows []analysis.PassKRow, label func(int64) string, rowName, colName, caption string) reports.Heatmap {
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
	h := reports.Heatmap{RowName: rowName, ColName: colName, Caption: caption, Rows: rowOrder, Cols: sortedSet(colSet)}
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
func conditionPairs(rows []analysis.EmotionDelta) []reports.ConditionPair {
	var out []reports.ConditionPair
	for _, r := range rows {
		if r.Dimension == "all" && r.K == 1 {
			out = append(out, reports.ConditionPair{Label: comparisonLabel(r), With: r.With, Without: r.Without, Pairs: r.Pairs, NotEvaluated: notEvaluatedSide(r)})
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
	return fmt.Sprintf("%s (runs %s vs %s)", r.Group, runIDList(r.WithRuns), runIDList(r.WithoutRuns))
}

func sortedSet(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// deltaCharts makes one chart per dimension of the with − without
// comparison; bars name their comparison when there are several.
func deltaCharts(rows []analysis.EmotionDelta, note, command string) []reports.DeltaChart {
	groups := map[string]bool{}
	for _, r := range rows {
		groups[comparisonLabel(r)] = true
	}
	var charts []reports.DeltaChart
	for _, dim := range append([]string{"emotion_family"}, emobench.ProfileDimensions...) {
		chart := reports.DeltaChart{
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
			label := orDash(r.Value)
			if len(groups) > 1 {
				label = comparisonLabel(r) + ": " + label
			}
			chart.Bars = append(chart.Bars, reports.DeltaBar{Label: label, Delta: r.Delta, CI: interval(r.CI), P: r.PHolm, Pairs: r.Pairs})
			if side := notEvaluatedSide(r); side != "" {
				notEvaluated = append(notEvaluated, label+" ("+side+")")
			}
		}
		chart.Caption += reports.NotEvaluatedNote(notEvaluated)
		if len(chart.Bars) > 0 {
			charts = append(charts, chart)
		}
	}
	return charts
}

// abandonmentChart is stats abandonment --by emotion_family: one bar per
// unit and family.
func abandonmentChart(outcomes []db.TrajectoryOutcome, units analysis.Units, names map[int64]string) reports.RateChart {
	chart := reports.RateChart{
		Caption: "Whiskers: 95% Wilson score intervals. Without emotions, the family is the task's profile, which the user did not play.",
	}
	for _, ua := range analysis.AbandonmentByUnit(abandonmentTrajectories(outcomes), units, [][]string{{"emotion_family"}}) {
		for _, r := range ua.Rates {
			chart.Bars = append(chart.Bars, reports.RateBar{Label: unitLabel(ua.Unit, names) + ": " + orDash(r.Group[0]), Rate: r.Rate, CI: interval(r.CI), N: r.N})
		}
	}
	return chart
}

func balanceChart(d balanceData) reports.BalanceCurve {
	chart := reports.BalanceCurve{
		XName:   "tool-call share = tool calls / (tool calls + follow-up questions)",
		Caption: "Whiskers: 95% Wilson score intervals.",
	}
	var notEvaluated []string
	for _, b := range analysis.SuccessByShareBinEvaluated(d.Shares, d.Passed, d.Evaluated, 5) {
		chart.Bins = append(chart.Bins, reports.BalanceBin{Lo: b.Lo, Hi: b.Hi, Rate: b.Rate, CI: interval(b.CI), N: b.N})
		if b.NotEvaluated {
			notEvaluated = append(notEvaluated, fmt.Sprintf("share %.1f–%.1f", b.Lo, b.Hi))
		}
	}
	chart.Caption += reports.NotEvaluatedNote(notEvaluated)
	if !slices.Contains(d.Evaluated, true) {
		chart.Caption += " No logistic fit: no trajectory is evaluated."
		return chart
	}
	fit, err := analysis.BalanceRegression(d.Shares, d.Passed)
	if err != nil {
		chart.Caption += " No logistic fit: " + err.Error() + "."
		return chart
	}
	chart.Caption += fmt.Sprintf(" Line: logistic fit of success on share and share² (n = %d; vertex %.2f, middle balance wins: %s).", fit.N, fit.Vertex, middleWinsText(fit))
	for x := 0.0; x <= 1.0001; x += 0.05 {
		chart.Fit = append(chart.Fit, reports.XY{X: x, Y: fit.Model.Predict([]float64{x, x * x})})
	}
	return chart
}

// publishedBeside lists the published results of the domains the report's
// runs cover, each domain's own runs (pass^1) first.
func publishedBeside(ctx context.Context, store *db.DB, runs []reports.RunSummary) ([]reports.PublishedRow, error) {
	published, err := store.ListPublished(ctx)
	if err != nil || len(published) == 0 {
		return nil, err
	}
	byDomain := map[string][]reports.PublishedRow{}
	for _, p := range published {
		model := p.Model
		if p.Modality != "" && !strings.EqualFold(p.Modality, "text") {
			model += " (" + p.Modality + ")" // voice scores are not text scores
		}
		byDomain[p.Domain] = append(byDomain[p.Domain], reports.PublishedRow{
			Domain: p.Domain, Model: model, Source: filepathBase(p.SourceFile), K: p.K, PassHatK: p.PassHatK,
		})
	}
	var rows []reports.PublishedRow
	seen := map[string]bool{}
	for _, r := range runs {
		if len(byDomain[r.Run.Domain]) == 0 {
			continue
		}
		pass1 := r.Pass1
		if r.NotEvaluated {
			pass1 = math.NaN() // shown as "–", not as a measured 0
		}
		rows = append(rows, reports.PublishedRow{
			Domain: r.Run.Domain, Model: r.Run.AgentModel, Source: fmt.Sprintf("your run %d (%s)", r.Run.ID, r.Run.Name),
			K: 1, PassHatK: pass1, Yours: true,
		})
		seen[r.Run.Domain] = true
	}
	for _, d := range sortedSet(seen) {
		rows = append(rows, byDomain[d]...)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Domain < rows[j].Domain })
	return rows, nil
}

func filepathBase(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
