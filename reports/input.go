// Package reports renders analysis results as one self-contained HTML file
// (go-echarts charts with the echarts library embedded, no network fetch).
package reports

import (
	"strconv"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

// RunSummary is one row of the report's runs table.
type RunSummary struct {
	Run          emobench.Run
	Tasks        int
	Trajectories int
	Pass1        float64 // pass^1 under the per-task convention; NaN when no task
	// NotEvaluated is set when the run has trajectories but none with
	// reward information: its pass^1 shows as "not evaluated", not 0.
	NotEvaluated bool
	// PartialCredit is set when the run's rewards include partial credit;
	// MeanReward is then pass^1 with partial credit (the runs command's
	// mean_reward). The table has a mean-reward column when one run has
	// PartialCredit, and shows MeanReward for those runs only.
	PartialCredit bool
	MeanReward    float64
	Abandoned     int // trajectories ended by user_unsatisfied
}

// Input is everything the HTML report shows. The caller computes it; the
// report only renders. Nil slices are fine: charts (a) to (c) show a note in
// their place, and every other section is left out while its data is empty.
//
// Every section type below has a Title, the section's heading (a default
// when empty), and a Caption, caller text appended to the caption Render
// writes. Render's caption says what is plotted and the n behind it, from the
// section's N fields; the caller's Caption should say what it cannot know,
// such as the confidence level and method of the intervals ("Whiskers: 95%
// Wilson score intervals."). All strings are plain text, escaped by Render.
type Input struct {
	Title       string       // page title; DefaultTitle when empty
	GeneratedAt time.Time    // shown in UTC; not shown when zero
	Runs        []RunSummary // table (d), in this order; also names runs in the charts by RunID
	// UnitLabels, when set, names the series of charts (a) and (b) by
	// RunID before Runs does: a pooled unit's RunID is its first run's id,
	// and its label names the pool and its runs.
	UnitLabels map[int64]string
	// PassKCommand, FamilyCommand and ConditionCommand are the emobench
	// stats commands that print the numbers of charts (a), (b) and (c);
	// each caption names its command. Empty: not named.
	PassKCommand, FamilyCommand, ConditionCommand string
	// PassKByRun holds pass^k rows with no group fields, all k per run: chart (a),
	// unless PassK has curves.
	PassKByRun []analysis.PassKRow
	// FamilyPass1 holds k = 1 rows grouped by [emotion_family]: chart (b).
	// Rows with another k are ignored.
	FamilyPass1 []analysis.PassKRow
	// ConditionPairs are chart (c): pass^1 with and without emotions over
	// the tasks paired between one with-emotions and one without-emotions
	// run (or pool), one pair of bars each, in this order.
	ConditionPairs []ConditionPair
	// ConditionUnpaired say which with- and without-emotions runs (or
	// pools) chart (c) leaves out and why (analysis.Unpaired.Note).
	ConditionUnpaired []string

	// PassK, when it has curves, replaces chart (a): pass^k against k per
	// run with a confidence band around each line.
	PassK PassKChart
	// Gaps is the pass^1 against pass^k bar chart, one pair of bars per run.
	Gaps GapChart
	// FamilyHeatmap is pass^1 per domain (rows) and emotion family
	// (columns).
	FamilyHeatmap Heatmap
	// Deltas are with- minus without-emotions differences with confidence
	// intervals, one chart each (per emotion family, per value of a
	// dimension, ...), in this order.
	Deltas []DeltaChart
	// Abandonment is the share of trajectories the user ended as
	// unsatisfied, per bar (run, family, ...), with confidence intervals.
	Abandonment RateChart
	// Balance holds success-rate-against-balance charts, binned, with an
	// optional fitted curve: one per run (or pool), in this order.
	Balance []BalanceCurve
	// Generalization is a matrix such as pass^1 per domain (rows) and
	// model (columns); its Summary can carry the in- vs out-of-domain Δ.
	Generalization Heatmap
	// Funnel is the Tracer's pipeline: how many items are left after each
	// stage.
	Funnel Funnel
	// KeptFamilies is the emotion-family distribution of a Tracer
	// selection's kept trajectories.
	KeptFamilies KeptFamilies
	// Published are leaderboard results to show beside the runs of the same
	// domain, a chart per domain and a table after the runs table;
	// PublishedCommand prints the published numbers (your runs' are in
	// emobench runs). Empty: not named.
	Published        []PublishedRow
	PublishedCommand string
	// Strict is strict pass^k beside gated per run (or pool), a table
	// after the runs table.
	Strict StrictTable
}

// ConditionPair is one with- against without-emotions comparison of
// chart (c).
type ConditionPair struct {
	Label   string  // category on the x axis, e.g. "gpt-4o / airline (runs 1 vs 2)"
	With    float64 // pass^1 with emotions over the paired tasks; NaN = no bar
	Without float64 // pass^1 without emotions over the same tasks; NaN = no bar
	Pairs   int     // paired tasks behind both bars: the pair's n
	// NotEvaluated names the side with no evaluated trajectory ("with
	// emotions", "without emotions" or "either side"; "" when both are
	// evaluated): its bar is NaN and the caption names the pair.
	NotEvaluated string
}

// PublishedRow is one published leaderboard score, or one of the user's
// runs beside it (Yours set), for the comparison table.
type PublishedRow struct {
	Domain   string
	Model    string
	Source   string  // the leaderboard file, or "your run N"
	K        int     // the k of PassHatK
	PassHatK float64 // 0–1
	Yours    bool    // one of the user's runs, not a published result
}

// Interval is a confidence interval [Lo, Hi] in the units of the value it
// bounds. A NaN (or infinite) bound means there is no interval: nothing is
// drawn for it.
type Interval struct {
	Lo, Hi float64
}

// PassKChart is chart (a) with confidence bands. It is drawn, in place of
// the chart from Input.PassKByRun, when Curves is not empty.
type PassKChart struct {
	Command string // the emobench stats command that prints this chart's numbers, named in the caption; empty: not named
	Title   string // section heading; "pass^k by run" when empty
	Caption string // appended to the generated caption, e.g. the bands' method and level
	// Curves are the lines, one per run; legend entries follow this order.
	Curves []PassKCurve
}

// PassKCurve is one run's pass^k against k.
type PassKCurve struct {
	RunID  int64        // the run; names the line after Input.Runs when Run is empty
	Run    string       // legend label; when empty, the run's name from Input.Runs
	Points []PassKPoint // in any order; points with K < 1 are ignored
}

// PassKPoint is pass^k of one run at one k.
type PassKPoint struct {
	K     int      // trials drawn per task, ≥ 1
	Value float64  // pass^k in [0, 1]; NaN leaves a gap in the line
	CI    Interval // confidence interval of Value, in [0, 1]; no band at this k when NaN
	Tasks int      // tasks behind Value: the point's n
	// NotEvaluated is set when no trajectory behind the point has reward
	// information: Value is then NaN and its label says so.
	NotEvaluated bool
}

// GapChart compares pass^1 with pass^k per run: the reliability gap.
type GapChart struct {
	Command string   // the emobench stats command that prints this chart's numbers, named in the caption; empty: not named
	Title   string   // section heading; "pass^1 vs pass^k by run" when empty
	Caption string   // appended to the generated caption
	Bars    []GapBar // one pair of bars each, in this order
}

// GapBar is one run's pass^1 and pass^k.
type GapBar struct {
	Run   string  // run label on the x axis
	Pass1 float64 // pass^1 in [0, 1]; NaN = no bar
	PassK float64 // pass^k in [0, 1] at K; NaN = no bar
	K     int     // the k of PassK, ≥ 1
	Tasks int     // tasks behind PassK (those with at least K trials)
	// Tasks1 is the tasks behind Pass1 when more than Tasks (per-task
	// convention with uneven trials); 0 means the same as Tasks.
	Tasks1 int
}

// Heatmap is a matrix of values in coloured cells, each showing its value
// and its n. The colour scale spans [0, 1] unless some value falls outside
// it; then it spans the values' range. A heatmap with no finite value is not
// drawn.
type Heatmap struct {
	Command string // the emobench stats command that prints this chart's numbers, named in the caption; empty: not named
	Title   string // section heading; a default per section when empty
	Caption string // appended to the generated caption
	Metric  string // what a cell holds, e.g. "pass^1" (the default)
	RowName string // what a row is, e.g. "domain" (the default)
	ColName string // what a column is, e.g. "emotion family"; a default per section
	Rows    []string
	Cols    []string
	// Values[r][c] is the cell of Rows[r] and Cols[c]. NaN, or a missing
	// entry of a short row, is a blank cell: no data.
	Values [][]float64
	// N[r][c] is the number of tasks behind Values[r][c]; missing = 0.
	N [][]int
	// Summary is an optional paragraph shown under the chart, such as the
	// in- vs out-of-domain difference of a generalization matrix.
	Summary string
}

// DeltaChart is a bar chart of with- minus without-emotions differences,
// with confidence-interval whiskers.
type DeltaChart struct {
	Command string     // the emobench stats command that prints this chart's numbers, named in the caption; empty: not named
	Title   string     // section heading; "Δ pass^1, with − without emotions" when empty
	Caption string     // appended, e.g. the CI method and the family of tests Holm adjusted over
	Metric  string     // the measure whose difference is drawn; "pass^1" when empty
	Group   string     // what a bar is, e.g. "emotion family"; "group" when empty
	Bars    []DeltaBar // in this order
}

// DeltaBar is one with- minus without-emotions difference.
type DeltaBar struct {
	Label string   // category on the x axis
	Delta float64  // metric with emotions − metric without, in [−1, 1] for rates; NaN = no bar
	CI    Interval // confidence interval of Delta
	// P is the Holm-adjusted p-value of Delta ≠ 0; NaN when untested. The
	// label gets an asterisk when P < 0.05. Note that 0 is a p-value:
	// set NaN, not 0, when there is no test.
	P     float64
	Pairs int // matched task pairs behind Delta: the bar's n
}

// RateChart is a bar chart of rates with confidence-interval whiskers.
type RateChart struct {
	Command string    // the emobench stats command that prints this chart's numbers, named in the caption; empty: not named
	Title   string    // section heading; "Abandonment rate" when empty
	Caption string    // appended, e.g. "Whiskers: 95% Wilson score intervals."
	Group   string    // what a bar is, e.g. "run"; "group" when empty
	Bars    []RateBar // in this order
}

// RateBar is one rate: events over trajectories.
type RateBar struct {
	Label string   // category on the x axis
	Rate  float64  // share in [0, 1]; NaN = no bar
	CI    Interval // confidence interval of Rate, e.g. Wilson score
	N     int      // trajectories behind Rate: the bar's n
}

// BalanceCurve is the success rate against a balance measure: one point
// per bin with whiskers, and an optional fitted curve. It is drawn when Bins
// is not empty.
type BalanceCurve struct {
	Command string       // the emobench stats command that prints this chart's numbers, named in the caption; empty: not named
	Title   string       // section heading; "Success vs balance" when empty
	Caption string       // appended, e.g. the CI method and the fitted model
	XName   string       // the balance measure and its units, on the x axis; "balance" when empty
	Bins    []BalanceBin // in any order; bins with a non-finite edge are left out
	Fit     []XY         // fitted success rate along x, e.g. a logistic curve; optional
}

// BalanceBin is one bin [Lo, Hi) of the balance measure.
type BalanceBin struct {
	Lo, Hi float64  // bin edges, in the units of BalanceCurve.XName; the point sits at (Lo+Hi)/2
	Rate   float64  // success rate of the bin's trajectories in [0, 1]; NaN = no point
	CI     Interval // confidence interval of Rate
	N      int      // trajectories in the bin: the point's n
}

// XY is one point of a fitted curve; a NaN coordinate leaves a gap.
type XY struct {
	X, Y float64
}

// Funnel is the Tracer's pipeline as a funnel chart, stages top to bottom.
// It is drawn when Stages is not empty.
type Funnel struct {
	Title   string        // section heading; "Tracer funnel" when empty
	Caption string        // appended to the generated caption
	Unit    string        // what Count counts, e.g. "trajectories"; "items" when empty
	Stages  []FunnelStage // in pipeline order: the first is the input
}

// FunnelStage is one stage of the Tracer's pipeline.
type FunnelStage struct {
	Name  string // stage name, e.g. "judged consistent"
	Count int    // items (Funnel.Unit) left after the stage
}

// Data is what the report shows, as analysis computed it: plain results,
// which Build lays out as the report's sections. Every number comes from
// the analysis functions of the stats command that Commands names for its
// chart; Build only chooses labels, titles and captions.
type Data struct {
	Title       string
	GeneratedAt time.Time
	Runs        []RunSummary // the runs table, in this order
	// Units names each analysis unit (a run, or a pool) by its id; Pooled
	// is set when units are pools.
	Units  map[int64]string
	Pooled bool
	// Bootstrap is the resampling behind every bootstrap interval, named
	// in the captions.
	Bootstrap analysis.BootstrapOptions
	Commands  Commands

	// PassK holds pass^k rows with no group fields, every k per unit
	// (stats passk), and PassKCI the bootstrap interval of each row (the
	// same length; a shorter slice means no interval for the rest).
	PassK   []analysis.PassKRow
	PassKCI []analysis.CI
	// Gaps are analysis.GapAtMaxK of PassK (stats gap).
	Gaps []analysis.GapRow
	// FamilyPass1 holds k = 1 rows grouped by [emotion_family] (stats
	// passk --by emotion_family --k 1).
	FamilyPass1 []analysis.PassKRow
	// Emotions are the k = 1 rows of stats emotions, and
	// EmotionsUnpaired its notes on the units left unpaired.
	Emotions         []analysis.EmotionDelta
	EmotionsUnpaired []string
	// Abandonment is stats abandonment --by emotion_family, per unit.
	Abandonment []UnitRates
	// Balance is stats balance per unit, in this order.
	Balance []UnitBalance
	// Matrix is stats generalization --part matrix.
	Matrix analysis.PassMatrix
	// Published are leaderboard results; Build shows those of the domains
	// of Runs beside them.
	Published []PublishedResult
	// Strict holds stats passk --strict rows with no group fields, every
	// k per unit.
	Strict []analysis.StrictPassKRow
	// Tracer is the Tracer selection whose funnel and kept emotion
	// families the report shows; nil for none.
	Tracer *TracerSelection
}

// Commands are the emobench stats command lines that print each chart's
// numbers, named in the captions; empty: not named. Per-unit commands
// (balance) are in UnitBalance.
type Commands struct {
	PassK, Gap, Family, Emotions, Abandonment, Generalization, Published string
	Strict                                                               string
}

// UnitRates are one unit's abandonment rates, one per emotion family.
type UnitRates struct {
	Unit  int64
	Rates []analysis.AbandonmentRate
}

// UnitBalance is one unit's success against tool-call share: the bins of
// analysis.SuccessByShareBinEvaluated, and the logistic fit when there is
// one (FitErr says why not; no evaluated trajectory: neither is set).
type UnitBalance struct {
	Unit      int64
	Bins      []analysis.ShareBin
	Evaluated bool // some trajectory has reward information
	Fit       *analysis.BalanceFit
	FitErr    error
	// MiddleWins is the fit's "middle balance wins" verdict as stats
	// balance --part regression prints it, e.g. "no (p = 0.3)".
	MiddleWins string
	// Command and FitCommand print the bins and the fit.
	Command, FitCommand string
}

// PublishedResult is one stored leaderboard score.
type PublishedResult struct {
	Domain, Model string
	Modality      string // "text", "voice", …; "" means text
	SourceFile    string // the submission file it came from
	K             int
	PassHatK      float64 // 0–1
}

// Build lays out d as the report's Input: the sections' data, titles and
// captions, with units named by d.Units and bootstrap intervals described
// by d.Bootstrap.
func Build(d Data) Input {
	noun := "run"
	if d.Pooled {
		noun = "pool"
	}
	label := func(id int64) string {
		if l, ok := d.Units[id]; ok {
			return l
		}
		return "run " + strconv.FormatInt(id, 10)
	}
	in := Input{
		Title: d.Title, GeneratedAt: d.GeneratedAt, Runs: d.Runs,
		PassKByRun: d.PassK, FamilyPass1: d.FamilyPass1,
		PassKCommand: d.Commands.PassK, FamilyCommand: d.Commands.Family, ConditionCommand: d.Commands.Emotions,
	}
	if d.Pooled {
		in.UnitLabels = d.Units
	}
	boot := bootstrapNote(d.Bootstrap)

	in.PassK = passKCurves(d.PassK, d.PassKCI, label, boot)
	in.PassK.Command = d.Commands.PassK
	in.PassK.Caption += NotEvaluatedNote(notEvaluatedUnits(d.PassK, label))
	in.PassK.Title = "pass^k by " + noun

	in.Gaps = gapSection(d.Gaps, label)
	in.Gaps.Command = d.Commands.Gap
	in.Gaps.Title = "pass^1 vs pass^k by " + noun

	in.FamilyHeatmap = unitHeatmap(d.FamilyPass1, label, noun, "emotion family", "Tasks without an emotion profile are left out.")
	var familyNotEvaluated []string
	for _, r := range d.FamilyPass1 {
		if r.K == 1 && r.NotEvaluated && len(r.Group) > 0 && r.Group[0] != "" {
			familyNotEvaluated = append(familyNotEvaluated, label(r.RunID)+": "+r.Group[0])
		}
	}
	in.FamilyHeatmap.Caption += NotEvaluatedNote(familyNotEvaluated)
	in.FamilyHeatmap.Title = "pass^1 by " + noun + " and emotion family"
	in.FamilyHeatmap.Command = d.Commands.Family

	in.ConditionPairs = conditionPairs(d.Emotions)
	in.ConditionUnpaired = d.EmotionsUnpaired
	in.Deltas = deltaCharts(d.Emotions, boot, d.Commands.Emotions)

	in.Abandonment = RateChart{
		Title:   "Abandonment (###UNSATISFIED###) by " + noun + " and emotion family",
		Group:   noun + ": emotion family",
		Command: d.Commands.Abandonment,
		Caption: "Whiskers: 95% Wilson score intervals. Without emotions, the family is the task's profile, which the user did not play.",
	}
	for _, u := range d.Abandonment {
		for _, r := range u.Rates {
			in.Abandonment.Bars = append(in.Abandonment.Bars, RateBar{Label: label(u.Unit) + ": " + dashIfEmpty(groupValueRaw(r.Group, 0)), Rate: r.Rate, CI: interval(r.CI), N: r.N})
		}
	}

	for _, b := range d.Balance {
		chart := unitBalanceCurve(b)
		chart.Title = "Success vs balance: " + label(b.Unit)
		chart.Command = b.Command
		if len(chart.Fit) > 0 {
			chart.Caption += " Fit: " + b.FitCommand + "."
		}
		in.Balance = append(in.Balance, chart)
	}

	in.Generalization = Heatmap{
		RowName: "domain", ColName: "agent model", Rows: d.Matrix.Domains, Cols: d.Matrix.Models,
		Values: d.Matrix.Pass1, N: d.Matrix.Tasks,
		Caption: "pass^1 of every run (or pool) on its domain." + NotEvaluatedNote(d.Matrix.NotEvaluatedCells()),
		Command: d.Commands.Generalization,
	}
	in.Published = publishedBeside(d.Published, d.Runs)
	in.PublishedCommand = d.Commands.Published
	in.Strict = strictTable(d.Strict, label, noun, d.Commands.Strict)
	tracerSections(d.Tracer, &in)
	return in
}
