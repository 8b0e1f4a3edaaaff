package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/urfave/cli/v2"
)

// abandonmentDimensions are the fields stats abandonment reports by.
var abandonmentDimensions = append(slices.Clip(emobench.EmotionDimensions), "domain", "agent_model")

func statsAbandonmentCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "abandonment",
		Usage: "rate of user_unsatisfied endings (###UNSATISFIED###) per family, leaf, dimension, domain and agent",
		Description: "Each row: one run's (or, with --pool, one pool's) trajectories, abandoned ones, the rate with a\n" +
			"Wilson interval, and the mean user turn at which users abandoned (the turn of their\n" +
			"###UNSATISFIED### message). Without --by, each dimension is reported in turn.\n\n" +
			"Example:\n   emobench --db runs.db stats abandonment\n   emobench --db runs.db stats abandonment --by emotion_family,agent_model --format latex",
		Before: noArgs,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringSliceFlag{Name: "by", Usage: "report by these fields jointly (default: each of " + strings.Join(abandonmentDimensions, ", ") + " in turn)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
			poolFlag(),
		},
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if err := checkFormat(format, formats...); err != nil {
				return err
			}
			style, err := parseCIStyle(c.String("ci"))
			if err != nil {
				return err
			}
			joint, err := parseGroupFields(strings.Join(c.StringSlice("by"), ","))
			if err != nil {
				return err
			}
			outcomes, units, names, err := loadOutcomes(c, e)
			if err != nil {
				return err
			}
			noteOverlaps(e, outcomeOverlaps(units, outcomes))
			pooled := pooledUnits(units)
			t := &table{columns: append(unitColumns(pooled), "dimension", "value", "trajectories", "abandoned", "rate", "mean_turn")}
			dims := [][]string{}
			if len(joint) > 0 {
				dims = append(dims, joint)
			} else {
				// Each row is one run's (or pool's): one condition.
				for _, d := range abandonmentDimensions {
					dims = append(dims, []string{d})
				}
			}
			byUnit := outcomesByUnit(outcomes, units)
			for _, u := range units.List() {
				for _, fields := range dims {
					for _, r := range analysis.Abandonment(abandonmentRows(byUnit[u.ID], fields)) {
						var rate any = estimate{v: r.Rate, ci: r.CI}
						if style == "none" {
							rate = r.Rate
						}
						row := append(unitCells(u, pooled, names), strings.Join(fields, ","), groupLabel(r.Group), r.N, r.Abandoned, rate, r.MeanTurn)
						t.rows = append(t.rows, row)
					}
				}
			}
			return t.expandEstimates(format, style).write(e.stdout, format)
		},
	}
}

// loadOutcomes returns the trajectories of the --run runs (all when none)
// with their units (--pool) and the run names by id.
func loadOutcomes(c *cli.Context, e *env) ([]db.TrajectoryOutcome, analysis.Units, map[int64]string, error) {
	store, runIDs, err := openRuns(c)
	if err != nil {
		return nil, analysis.Units{}, nil, err
	}
	defer store.Close()
	units, names, err := loadUnits(c.Context, e, store, runIDs, c.Bool("pool"))
	if err != nil {
		return nil, analysis.Units{}, nil, err
	}
	outcomes, err := store.ListTrajectoryOutcomes(c.Context, runIDs)
	return outcomes, units, names, err
}

// outcomesByUnit splits outcomes by the ID of their run's unit, in order.
func outcomesByUnit(outcomes []db.TrajectoryOutcome, units analysis.Units) map[int64][]db.TrajectoryOutcome {
	by := map[int64][]db.TrajectoryOutcome{}
	for _, o := range outcomes {
		if u, ok := units.Of(o.RunID); ok {
			by[u.ID] = append(by[u.ID], o)
		}
	}
	return by
}

func abandonmentRows(outcomes []db.TrajectoryOutcome, fields []string) []analysis.AbandonmentRow {
	rows := make([]analysis.AbandonmentRow, len(outcomes))
	for i, o := range outcomes {
		group := make([]string, len(fields))
		for j, f := range fields {
			group[j] = o.Fields[f]
		}
		rows[i] = analysis.AbandonmentRow{
			Group:     group,
			Abandoned: o.TerminationReason == emobench.TerminationUserUnsatisfied,
			Turn:      o.UserTurns,
		}
	}
	return rows
}

func statsBalanceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "balance",
		Usage: "tool calls vs follow-up questions: success by tool-call share, a logistic fit, correlations",
		Description: "Per trajectory, share = tool calls / (tool calls + follow-ups), where a follow-up is an agent\n" +
			"message to the user that asks for information or confirmation: a sentence ending in '?' or\n" +
			"holding a request cue ('could you', 'please provide', 'let me know', ...), closing courtesies\n" +
			"such as 'anything else?' excepted. Parts: bins (success rate by share, Wilson CIs),\n" +
			"regression (logit P(pass) = b0 + b1·share + b2·share², Wald CIs; a middle balance wins when\n" +
			"b2 < 0 and the vertex −b1/2b2 lies in (0, 1), with an intersection-union Wald p-value of\n" +
			"b1 > 0 and b1 + 2·b2 < 0: \"not significant\" when p ≥ 0.05), correlation (share vs turns and vs\n" +
			"abandonment).\n\n" +
			"Example:\n   emobench --db runs.db stats balance\n   emobench --db runs.db stats balance --part regression --format latex",
		Before: noArgs,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringFlag{Name: "part", Value: "all", Usage: "bins, regression, correlation or all"},
			&cli.IntFlag{Name: "bins", Value: 5, Usage: "equal-width share bins on [0, 1]"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
			poolFlag(),
		},
		Action: func(c *cli.Context) error { return runBalance(c, e) },
	}
}

// trajectoryShares computes each trajectory's tool-call share, with its
// outcome, turns and abandonment, in outcome order.
type balanceData struct {
	shares, turns, abandoned []float64
	passed, evaluated        []bool
}

// loadBalance returns each unit's balance data, by unit ID.
func loadBalance(ctx context.Context, store *db.DB, outcomes []db.TrajectoryOutcome, units analysis.Units) (map[int64]balanceData, error) {
	followUps := map[int64]int{}
	err := store.ForEachAgentText(ctx, func(id int64, text string) {
		if analysis.IsFollowUp(text) {
			followUps[id]++
		}
	})
	data := map[int64]balanceData{}
	for _, o := range outcomes {
		total := o.ToolCalls + followUps[o.ID]
		u, ok := units.Of(o.RunID)
		if total == 0 || !ok {
			continue
		}
		d := data[u.ID]
		d.shares = append(d.shares, float64(o.ToolCalls)/float64(total))
		d.passed = append(d.passed, o.Passed)
		d.evaluated = append(d.evaluated, o.Evaluated)
		d.turns = append(d.turns, float64(o.UserTurns+o.AgentTurns))
		d.abandoned = append(d.abandoned, boolFloat(o.TerminationReason == emobench.TerminationUserUnsatisfied))
		data[u.ID] = d
	}
	return data, err
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func runBalance(c *cli.Context, e *env) error {
	format, part := c.String("format"), c.String("part")
	if err := checkFormat(format, formats...); err != nil {
		return err
	}
	if part != "all" && part != "bins" && part != "regression" && part != "correlation" {
		return usagef("--part %q is not one of bins, regression, correlation, all", part)
	}
	if part == "all" && (format == "csv" || format == "json") {
		part = "bins"
		e.warn("csv and json hold one table: showing --part bins (choose another with --part)")
	}
	if c.Int("bins") < 1 {
		return usagef("--bins %d: need at least 1", c.Int("bins"))
	}
	style, err := parseCIStyle(c.String("ci"))
	if err != nil {
		return err
	}
	store, runIDs, err := openRuns(c)
	if err != nil {
		return err
	}
	defer store.Close()
	units, names, err := loadUnits(c.Context, e, store, runIDs, c.Bool("pool"))
	if err != nil {
		return err
	}
	outcomes, err := store.ListTrajectoryOutcomes(c.Context, runIDs)
	if err != nil {
		return err
	}
	noteOverlaps(e, outcomeOverlaps(units, outcomes))
	data, err := loadBalance(c.Context, store, outcomes, units)
	if err != nil {
		return err
	}
	// One table per part, with the rows of every unit in turn.
	pooled := pooledUnits(units)
	var tables []*table
	perUnit := func(part func(d balanceData) *table) *table {
		var all *table
		for _, u := range units.List() {
			d, ok := data[u.ID]
			if !ok {
				continue
			}
			t := part(d)
			if all == nil {
				all = &table{columns: append(unitColumns(pooled), t.columns...)}
			}
			for _, row := range t.rows {
				all.rows = append(all.rows, append(unitCells(u, pooled, names), row...))
			}
		}
		if all == nil {
			all = &table{columns: append(unitColumns(pooled), part(balanceData{}).columns...)}
		}
		return all
	}
	if part == "all" || part == "bins" {
		tables = append(tables, perUnit(func(d balanceData) *table {
			return binsTable(analysis.SuccessByShareBinEvaluated(d.shares, d.passed, d.evaluated, c.Int("bins")), style, format)
		}))
	}
	if part == "all" || part == "regression" {
		tables = append(tables, perUnit(func(d balanceData) *table { return regressionTable(d, style, format) }))
	}
	if part == "all" || part == "correlation" {
		tables = append(tables, perUnit(func(d balanceData) *table { return correlationTable(d, format) }))
	}
	for i, t := range tables {
		if i > 0 {
			e.stdout.Write([]byte("\n"))
		}
		if err := t.expandEstimates(format, style).write(e.stdout, format); err != nil {
			return err
		}
	}
	return nil
}

// correlationTable gives the share's correlations. With success, for a
// unit with no evaluated trajectory, it reads "not evaluated" in the text
// formats; csv and json give null with the note column "not evaluated"
// (null on other rows).
func correlationTable(d balanceData, format string) *table {
	split := format == "csv" || format == "json"
	var success, note any = analysis.Correlation(d.shares, boolsToFloats(d.passed)), nil
	if len(d.shares) > 0 && !slices.Contains(d.evaluated, true) {
		success, note = math.NaN(), analysis.NotEvaluatedText
		if !split {
			success = analysis.NotEvaluatedText
		}
	}
	t := &table{columns: []string{"quantity", "pearson_r", "n"}, rows: [][]any{
		{"share vs turns", analysis.Correlation(d.shares, d.turns), len(d.shares)},
		{"share vs abandonment (point-biserial)", analysis.Correlation(d.shares, d.abandoned), len(d.shares)},
		{"share vs success (point-biserial)", success, len(d.shares)},
	}}
	if split {
		t.columns = append(t.columns, "note")
		t.rows[0], t.rows[1], t.rows[2] = append(t.rows[0], nil), append(t.rows[1], nil), append(t.rows[2], note)
	}
	return t
}

func boolsToFloats(b []bool) []float64 {
	out := make([]float64, len(b))
	for i, v := range b {
		out[i] = boolFloat(v)
	}
	return out
}

// binsTable is one row per bin. A bin that is not evaluated (trajectories,
// none with reward information) reads "not evaluated" as its success rate
// in the text formats; csv and json give it as null with the note column
// "not evaluated" (null on other rows).
func binsTable(bins []analysis.ShareBin, style ciStyle, format string) *table {
	split := format == "csv" || format == "json"
	t := &table{columns: []string{"share_lo", "share_hi", "trajectories", "passed", "success_rate"}}
	if split {
		t.columns = append(t.columns, "note")
	}
	for _, b := range bins {
		var rate any = estimate{v: b.Rate, ci: b.CI}
		if style == "none" {
			rate = b.Rate
		}
		var note any
		if b.NotEvaluated {
			note = analysis.NotEvaluatedText
			if !split {
				rate = analysis.NotEvaluatedText
			}
		}
		row := []any{b.Lo, b.Hi, b.N, b.Successes, rate}
		if split {
			row = append(row, note)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// regressionTable is the balance regression. Text formats show middle_wins
// as one verdict with its p-value (middleWinsText); csv and json give
// middle_wins (the point estimate's shape) and middle_wins_p. A unit with
// no evaluated trajectory has no fit: its success is not known.
func regressionTable(d balanceData, style ciStyle, format string) *table {
	split := format == "csv" || format == "json"
	columns := []string{"term", "coefficient", "se", "z", "p", "n", "vertex", "middle_wins"}
	if split {
		columns = append(columns, "middle_wins_p")
	}
	t := &table{columns: columns}
	fit, err := analysis.BalanceRegression(d.shares, d.passed)
	if len(d.shares) > 0 && !slices.Contains(d.evaluated, true) {
		err = errors.New(analysis.NotEvaluatedText + ": no trajectory has reward information")
	}
	if err != nil {
		row := []any{"(no fit: " + err.Error() + ")", math.NaN(), math.NaN(), math.NaN(), math.NaN(), len(d.shares), math.NaN(), ""}
		if split {
			row = append(row, math.NaN())
		}
		t.rows = append(t.rows, row)
		return t
	}
	for i, term := range []string{"intercept", "share", "share^2"} {
		var coef any = estimate{v: fit.Model.Coef[i], ci: fit.Model.CI[i]}
		if style == "none" {
			coef = fit.Model.Coef[i]
		}
		vertex, wins, p := math.NaN(), any(""), math.NaN()
		if i == 2 {
			vertex, wins, p = fit.Vertex, middleWinsText(fit), fit.MiddleWinsP
			if split {
				wins = fit.Interior
			}
		}
		row := []any{term, coef, fit.Model.SE[i], fit.Model.Z[i], fit.Model.P[i], fit.N, vertex, wins}
		if split {
			row = append(row, p)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// middleWinsText is the verdict on a middle balance: "yes (p = 0.0123)"
// when analysis.BalanceFit.MiddleWinsP < 0.05, else
// "not significant (p = 0.4100)".
func middleWinsText(fit analysis.BalanceFit) string {
	if fit.MiddleWinsP < 0.05 {
		return fmt.Sprintf("yes (p = %.4f)", fit.MiddleWinsP)
	}
	return fmt.Sprintf("not significant (p = %.4f)", fit.MiddleWinsP)
}

// groupLabel is analysis.GroupLabel with each empty value shown as "-".
func groupLabel(values []string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = orDash(v)
	}
	return analysis.GroupLabel(parts...)
}
