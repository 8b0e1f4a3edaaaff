package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports"
	"github.com/urfave/cli/v2"
)

func statsGeneralizationCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "generalization",
		Usage: "tuned vs base model Δpass^1 per domain, in-domain and out-of-domain, and a domain × model matrix",
		Description: "A tuned run is one tagged with its train domains and base run (emobench runs tag, or run\n" +
			"--train-domains/--base-run). Runs of the same tuned model on several domains are compared with\n" +
			"their base runs domain by domain; each domain is in-domain when the model was trained on it.\n" +
			"The mean in-domain and out-of-domain Δ come with bootstrap CIs. Δ is paired over the tasks both\n" +
			"runs share; a domain with 0 paired tasks gets an unpaired Δ without an interval (and a note).\n" +
			"--part matrix shows pass^1 of every model on every domain.\n\n" +
			"Example:\n   emobench --db runs.db runs tag 7 --train-domains retail --base-run 3\n" +
			"   emobench --db runs.db stats generalization\n   emobench --db runs.db stats generalization --part matrix",
		Before: noArgs,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringFlag{Name: "part", Value: "deltas", Usage: "deltas or matrix"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
			poolFlag(),
		}, intervalFlags("pm")...),
		Action: func(c *cli.Context) error { return runGeneralization(c, e) },
	}
}

func runGeneralization(c *cli.Context, e *env) error {
	format := c.String("format")
	if err := checkFormat(format, formats...); err != nil {
		return err
	}
	opts, style, err := bootstrapOptions(c)
	if err != nil {
		return err
	}
	part := c.String("part")
	if part != "deltas" && part != "matrix" {
		return usagef("--part %q is not one of deltas, matrix", part)
	}
	store, runIDs, err := openRuns(c)
	if err != nil {
		return err
	}
	defer store.Close()
	units, _, err := loadUnits(c.Context, e, store, runIDs, c.Bool("pool"))
	if err != nil {
		return err
	}
	rows, tasks, overlaps, err := computePassK(c.Context, store, units, runIDs, nil, analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}})
	if err != nil {
		return err
	}
	noteOverlaps(e, overlaps)
	if part == "matrix" {
		m, err := generalizationMatrix(rows, units)
		if err != nil {
			return err
		}
		return matrixTable(m, format).write(e.stdout, format)
	}
	tags, err := store.ListRunTags(c.Context)
	if err != nil {
		return err
	}
	t, notes, err := generalizationTable(tags, units, tasks, opts, style, format)
	if err != nil {
		return err
	}
	if len(t.rows) == 0 {
		e.warn("no tuned runs: tag them with emobench runs tag RUN --train-domains D --base-run RUN")
	}
	for _, n := range notes {
		e.warn(n)
	}
	return t.expandEstimates(format, style).write(e.stdout, format)
}

// generalizationTable compares every tuned model (runs with train domains
// and a base run, grouped by agent model, user model and condition) with
// its base runs, domain by domain: on each domain one tuned unit (a run, or
// with --pool a pool) against the unit of its base run. tasks are pooled
// by unit (analysis.PoolTasks). Several tuned or base units on one domain
// are an error: the rule never combines runs silently. The notes say why a
// Δ has no interval. A side that is not evaluated (no trajectory of it
// has reward information) reads "not evaluated" in the text formats, as
// does its Δ; csv and json give them as null with the note column
// "not evaluated: tuned", "… base" or "… either side".
func generalizationTable(tags []db.RunTags, units analysis.Units, tasks []analysis.TaskTrials, opts analysis.BootstrapOptions, style ciStyle, format string) (*table, []string, error) {
	split := format == "csv" || format == "json"

	byUnit := map[int64][]analysis.TaskTrials{}
	for _, t := range tasks {
		byUnit[t.RunID] = append(byUnit[t.RunID], t)
	}
	type tunedModel struct {
		agent       string
		tuned, base map[string]int64 // domain → unit ID
		train       map[string]bool
	}
	models := map[string]*tunedModel{}
	for _, t := range tags {
		if t.TrainDomains == nil || t.BaseRunID == 0 {
			continue
		}
		tu, ok := units.Of(t.RunID)
		bu, baseOK := units.Of(t.BaseRunID)
		if !ok || !baseOK {
			continue // not selected by --run
		}
		model := analysis.GroupLabel(tu.Key.AgentModel, tu.Key.UserModel, tu.Key.Condition)
		m := models[model]
		if m == nil {
			m = &tunedModel{agent: tu.Key.AgentModel, tuned: map[string]int64{}, base: map[string]int64{}, train: map[string]bool{}}
			models[model] = m
		}
		for _, side := range []struct {
			name string
			id   int64
			at   map[string]int64
		}{{"tuned", tu.ID, m.tuned}, {"base", bu.ID, m.base}} {
			name, id, at := side.name, side.id, side.at
			if prev, seen := at[t.Domain]; seen && prev != id {
				return nil, nil, fmt.Errorf("stats generalization: %s has several %s %s on domain %s (%s and %s): pool them with --pool, or tag only one",
					model, name, unitNoun(units)+"s", t.Domain, unitName(units.ByID(prev)), unitName(units.ByID(id)))
			}
			at[t.Domain] = id
		}
		for _, d := range t.TrainDomains {
			m.train[d] = true
		}
	}
	names := make([]string, 0, len(models))
	agents := map[string]int{}
	for name := range models {
		names = append(names, name)
		agents[models[name].agent]++
	}
	sort.Strings(names)
	t := &table{columns: []string{"model", "domain", "scope", "tuned_pass_1", "base_pass_1", "delta", "paired_tasks", "tuned_run_ids", "base_run_ids"}}
	if split {
		t.columns = append(t.columns, "note")
	}
	var notes []string
	for _, key := range names {
		m := models[key]
		name := m.agent // the agent model, unless it has tuned runs of several user models or conditions
		if agents[m.agent] > 1 {
			name = key
		}
		var train []string
		for d := range m.train {
			train = append(train, d)
		}
		sort.Strings(train)
		tuned, base := map[string][]analysis.TaskTrials{}, map[string][]analysis.TaskTrials{}
		for d, id := range m.tuned {
			tuned[d] = byUnit[id]
		}
		for d, id := range m.base {
			base[d] = byUnit[id]
		}
		res := analysis.Generalization(tuned, base, train, opts)
		for _, d := range res.Domains {
			scope := "out-of-domain"
			if d.InDomain {
				scope = "in-domain"
			}
			either := d.TunedNotEvaluated || d.BaseNotEvaluated
			row := []any{name, d.Domain, scope, notEvaluatedCell(split, d.TunedPass1, d.TunedNotEvaluated), notEvaluatedCell(split, d.BasePass1, d.BaseNotEvaluated),
				notEvaluatedCell(split, withCI(d.Delta, d.CI, style), either), d.PairedTasks,
				runIDList(units.ByID(m.tuned[d.Domain]).RunIDs), runIDList(units.ByID(m.base[d.Domain]).RunIDs)}
			if split {
				row = append(row, sidesNotEvaluated(d.TunedNotEvaluated, d.BaseNotEvaluated, "tuned", "base"))
			}
			t.rows = append(t.rows, row)
			if !d.Paired && !math.IsNaN(d.Delta) {
				notes = append(notes, fmt.Sprintf("%s on %s: 0 paired tasks (the tuned and base runs share no task), so its Δ compares different tasks and has no interval, nor has the %s mean", name, d.Domain, scope))
			}
		}
		var in, out []string
		for _, d := range res.Domains {
			if d.InDomain {
				in = append(in, d.Domain)
			} else {
				out = append(out, d.Domain)
			}
		}
		for _, s := range []struct {
			scope   string
			domains []string
			sum     analysis.DeltaSummary
		}{{"in-domain mean", in, res.InDomain}, {"out-of-domain mean", out, res.OutOfDomain}} {
			row := []any{name, orDash(strings.Join(s.domains, ",")), s.scope, nil, nil, withCI(s.sum.Mean, s.sum.CI, style), nil, nil, nil}
			if split {
				row = append(row, nil)
			}
			t.rows = append(t.rows, row)
		}
	}
	return t, notes, nil
}

func withCI(v float64, ci analysis.CI, style ciStyle) any {
	if style == "none" {
		return v
	}
	return estimate{v: v, ci: ci}
}

// generalizationMatrix is analysis.PooledMatrix of rows (stats passk
// --k 1) as a heatmap: domains (rows) × agent models (columns), with, per
// row, the run ids behind its cells and which cells are not evaluated
// (their value NaN, never 0).
// It returns PooledMatrix's error for a unit given twice.
func generalizationMatrix(rows []analysis.PassKRow, units analysis.Units) (heatmapMatrix, error) {
	pm, err := analysis.PooledMatrix(rows, units)
	if err != nil {
		return heatmapMatrix{}, err
	}
	return heatmapMatrix{
		Heatmap: reports.Heatmap{
			RowName: "domain", ColName: "agent model", Rows: pm.Domains, Cols: pm.Models,
			Values: pm.Pass1, N: pm.Tasks,
		},
		runIDs: pm.RunIDs, notEvaluated: pm.NotEvaluated, matrix: pm,
	}, nil
}

// heatmapMatrix is a heatmap with, per row, the run ids behind its cells
// and which of its cells are not evaluated.
type heatmapMatrix struct {
	reports.Heatmap
	runIDs       [][]int64
	notEvaluated [][]bool
	matrix       analysis.PassMatrix
}

// notEvaluatedCells names the cells that are not evaluated, "column on
// row", in row then column order.
func (m heatmapMatrix) notEvaluatedCells() []string { return m.matrix.NotEvaluatedCells() }

// matrixTable is a heatmap as a table: one row per heatmap row, one column
// per heatmap column, then run_ids, the runs behind the row's cells. A
// cell that is not evaluated reads "not evaluated" in the text formats;
// csv and json give it as null and name its column in the row's note
// ("not evaluated: COL, …"; null when every cell is evaluated or blank).
func matrixTable(m heatmapMatrix, format string) *table {
	split := format == "csv" || format == "json"
	t := &table{columns: append(append([]string{m.RowName}, m.Cols...), "run_ids")}
	if split {
		t.columns = append(t.columns, "note")
	}
	for i, d := range m.Rows {
		row := []any{d}
		var missing []string
		for j, v := range m.Values[i] {
			var c any = v
			if m.notEvaluated[i][j] {
				missing = append(missing, m.Cols[j])
				c = math.NaN()
				if !split {
					c = analysis.NotEvaluatedText
				}
			}
			row = append(row, c)
		}
		row = append(row, runIDList(m.runIDs[i]))
		if split {
			var note any
			if len(missing) > 0 {
				note = analysis.NotEvaluatedText + ": " + strings.Join(missing, ", ")
			}
			row = append(row, note)
		}
		t.rows = append(t.rows, row)
	}
	return t
}
