package table

import (
	"math"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

// The builders below turn analysis results into the tables of the stats
// commands. In every one, a value that is not evaluated (no trajectory
// behind it has reward information) reads "not evaluated" in the text
// formats; csv and json (Split) give it as null, with a trailing note
// column naming what is not evaluated (null on other rows).

// Units names the rows' units: analysis units and their runs' names.
type Units struct {
	Units analysis.Units
	Names map[int64]string // run id → name
}

func (u Units) columns() []string { return UnitColumns(u.Units.Pooled()) }

func (u Units) cells(id int64) []any {
	return UnitCells(u.Units.ByID(id), u.Units.Pooled(), u.Names)
}

func groupCells(row []any, group []string) []any {
	for _, g := range group {
		row = append(row, g)
	}
	return row
}

// PassK is one row per PassKRow: its unit, the group fields, k, pass^k and
// pass@k (with their HatCI and AtCI unless style is NoInterval), tasks,
// trajectories and convention. Write it after ExpandEstimates.
func PassK(rows []analysis.PassKRow, u Units, fields []string, format string, style CIStyle) *Table {
	split := Split(format)
	t := &Table{Columns: append(append(u.columns(), fields...),
		"k", "pass_hat_k", "pass_at_k", "tasks", "trajectories", "convention")}
	if split {
		t.Columns = append(t.Columns, "note")
	}
	for _, r := range rows {
		row := groupCells(u.cells(r.RunID), r.Group)
		var hat, at, note any = r.PassHatK, r.PassAtK, nil
		if style != NoInterval {
			hat, at = Estimate{V: r.PassHatK, CI: r.HatCI}, Estimate{V: r.PassAtK, CI: r.AtCI}
		}
		if r.NotEvaluated {
			hat, at, note = math.NaN(), math.NaN(), analysis.NotEvaluatedText
			if style != NoInterval {
				hat, at = Estimate{V: math.NaN(), CI: NoCI}, Estimate{V: math.NaN(), CI: NoCI}
			}
			if !split {
				hat, at = analysis.NotEvaluatedText, analysis.NotEvaluatedText
			}
		}
		row = append(row, r.K, hat, at, r.Tasks, r.Trajectories, string(r.Convention))
		if split {
			row = append(row, note)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Gap is one row per GapRow: its unit, the group fields, k, pass_1,
// pass_k, gap, ratio, tasks_1, tasks_k and convention.
func Gap(rows []analysis.GapRow, u Units, fields []string, format string) *Table {
	split := Split(format)
	t := &Table{Columns: append(append(u.columns(), fields...),
		"k", "pass_1", "pass_k", "gap", "ratio", "tasks_1", "tasks_k", "convention")}
	if split {
		t.Columns = append(t.Columns, "note")
	}
	for _, r := range rows {
		row := groupCells(u.cells(r.RunID), r.Group)
		values := []any{r.Pass1, r.PassK, r.Diff, r.Ratio}
		var note any
		if r.NotEvaluated {
			note = analysis.NotEvaluatedText
			for i := range values {
				values[i] = math.NaN()
				if !split {
					values[i] = analysis.NotEvaluatedText
				}
			}
		}
		row = append(append(append(row, r.K), values...), r.Tasks1, r.TasksK, string(r.Convention))
		if split {
			row = append(row, note)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Emotions is one row per EmotionDelta of res: its comparison, dimension
// and value, k, pairs, both sides' pass^k, the delta (with its CI unless
// style is NoInterval), McNemar's b and c (k = 1 only), p and p_holm (empty
// when no (task, trial) pair matches); then one row per unit left unpaired,
// its dimension "unpaired" and every number empty. The note (csv and json)
// names the side not evaluated ("not evaluated: with emotions", "…
// without emotions" or "… either side"), that no (task, trial) pair
// matches, or why a unit is unpaired.
func Emotions(res analysis.EmotionsResult, format string, style CIStyle) *Table {
	split := Split(format)
	t := &Table{Columns: []string{"group", "with_run_ids", "without_run_ids", "dimension", "value", "k", "pairs", "with", "without", "delta", "mcnemar_b", "mcnemar_c", "p", "p_holm"}}
	if split {
		t.Columns = append(t.Columns, "note")
	}
	for _, r := range res.Rows {
		notEvaluated := r.WithNotEvaluated || r.WithoutNotEvaluated
		delta := WithCI(r.Delta, r.CI, style)
		if notEvaluated {
			delta = WithCI(math.NaN(), NoCI, style)
		}
		row := []any{
			r.Group, IDs(r.WithRuns), IDs(r.WithoutRuns), r.Dimension, Dash(r.Value), r.K, r.Pairs,
			NotEvaluatedCell(split, r.With, r.WithNotEvaluated), NotEvaluatedCell(split, r.Without, r.WithoutNotEvaluated), NotEvaluatedCell(split, delta, notEvaluated),
			IntIf(r.B, r.K == 1), IntIf(r.C, r.K == 1), r.P, r.PHolm,
		}
		if split {
			note := SidesNotEvaluated(r.WithNotEvaluated, r.WithoutNotEvaluated, "with emotions", "without emotions")
			if r.K == 1 && r.Matched == 0 && !notEvaluated {
				note = analysis.NoMatchedTrialsNote
			}
			row = append(row, note)
		}
		t.Rows = append(t.Rows, row)
	}
	nan := math.NaN()
	for _, u := range res.Unpaired {
		with, without := IDs(u.Unit.RunIDs), IDs{}
		if u.Unit.Key.Condition != string(emobench.ConditionWithEmotions) {
			with, without = without, with
		}
		row := []any{analysis.KnownLabel(u.Unit.Key.AgentModel, u.Unit.Key.UserModel, u.Unit.Key.Domain), with, without, "unpaired", "-", nan, 0,
			nan, nan, WithCI(nan, NoCI, style), nan, nan, nan, nan}
		if split {
			row = append(row, u.Note())
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Abandonment is one row per rate of each UnitAbandonment: the unit, the
// fields reported by, the group's values, trajectories, abandoned, the
// rate (with its Wilson CI unless style is NoInterval) and the mean
// abandonment turn.
func Abandonment(by []analysis.UnitAbandonment, u Units, style CIStyle) *Table {
	t := &Table{Columns: append(u.columns(), "dimension", "value", "trajectories", "abandoned", "rate", "mean_turn")}
	for _, ua := range by {
		for _, r := range ua.Rates {
			row := append(UnitCells(ua.Unit, u.Units.Pooled(), u.Names), strings.Join(ua.Fields, ","), GroupLabel(r.Group), r.N, r.Abandoned, WithCI(r.Rate, r.CI, style), r.MeanTurn)
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// PerUnit is one table of parts (one per unit, from part, in unit order)
// with the unit's columns first. Units missing from data are left out; an
// empty result still has part's columns.
func PerUnit(u Units, data map[int64]analysis.BalanceSample, part func(analysis.BalanceSample) *Table) *Table {
	var all *Table
	for _, unit := range u.Units.List() {
		d, ok := data[unit.ID]
		if !ok {
			continue
		}
		t := part(d)
		if all == nil {
			all = &Table{Columns: append(u.columns(), t.Columns...)}
		}
		for _, row := range t.Rows {
			all.Rows = append(all.Rows, append(UnitCells(unit, u.Units.Pooled(), u.Names), row...))
		}
	}
	if all == nil {
		all = &Table{Columns: append(u.columns(), part(analysis.BalanceSample{}).Columns...)}
	}
	return all
}

// Balance is stats balance's tables, one per part ("bins", "regression",
// "correlation", or "all" for the three in turn), each with the rows of
// every unit in turn; bins is the number of share bins.
func Balance(u Units, data map[int64]analysis.BalanceSample, part string, bins int, format string, style CIStyle) []*Table {
	var tables []*Table
	if part == "all" || part == "bins" {
		tables = append(tables, PerUnit(u, data, func(d analysis.BalanceSample) *Table {
			return ShareBins(d.Bins(bins), format, style)
		}))
	}
	if part == "all" || part == "regression" {
		tables = append(tables, PerUnit(u, data, func(d analysis.BalanceSample) *Table {
			fit, err := d.Regression()
			return BalanceRegression(fit, len(d.Shares), err, format, style)
		}))
	}
	if part == "all" || part == "correlation" {
		tables = append(tables, PerUnit(u, data, func(d analysis.BalanceSample) *Table {
			return BalanceCorrelations(d.Correlations(), format)
		}))
	}
	return tables
}

// ShareBins is one row per bin: share_lo, share_hi, trajectories, passed
// and success_rate (with its Wilson CI unless style is NoInterval).
func ShareBins(bins []analysis.ShareBin, format string, style CIStyle) *Table {
	split := Split(format)
	t := &Table{Columns: []string{"share_lo", "share_hi", "trajectories", "passed", "success_rate"}}
	if split {
		t.Columns = append(t.Columns, "note")
	}
	for _, b := range bins {
		rate := WithCI(b.Rate, b.CI, style)
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
		t.Rows = append(t.Rows, row)
	}
	return t
}

// BalanceRegression is the balance regression fit (err: no fit, one row
// saying why): per term its coefficient (with its Wald CI unless style is
// NoInterval), se, z, p, n, and on share^2 the vertex and middle_wins. Text
// formats show middle_wins as BalanceFit.Verdict; csv and json give
// middle_wins (the point estimate's shape) and middle_wins_p.
func BalanceRegression(fit analysis.BalanceFit, n int, err error, format string, style CIStyle) *Table {
	split := Split(format)
	columns := []string{"term", "coefficient", "se", "z", "p", "n", "vertex", "middle_wins"}
	if split {
		columns = append(columns, "middle_wins_p")
	}
	t := &Table{Columns: columns}
	if err != nil {
		row := []any{"(no fit: " + err.Error() + ")", math.NaN(), math.NaN(), math.NaN(), math.NaN(), n, math.NaN(), ""}
		if split {
			row[len(row)-1] = nil // json null, as middle_wins_p's NaN
			row = append(row, math.NaN())
		}
		t.Rows = append(t.Rows, row)
		return t
	}
	for i, term := range []string{"intercept", "share", "share^2"} {
		coef := WithCI(fit.Model.Coef[i], fit.Model.CI[i], style)
		vertex, wins, p := math.NaN(), any(""), math.NaN()
		if split {
			wins = nil // only share^2 has a verdict: null, not "", beside its false or true
		}
		if i == 2 {
			vertex, wins, p = fit.Vertex, fit.Verdict(), fit.MiddleWinsP
			if split {
				wins = fit.Interior
			}
		}
		row := []any{term, coef, fit.Model.SE[i], fit.Model.Z[i], fit.Model.P[i], fit.N, vertex, wins}
		if split {
			row = append(row, p)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// BalanceCorrelations is one row per correlation of the share: quantity,
// pearson_r and n.
func BalanceCorrelations(c analysis.BalanceCorrelations, format string) *Table {
	split := Split(format)
	var success, note any = c.Success, nil
	if c.SuccessNotEvaluated {
		success, note = math.NaN(), analysis.NotEvaluatedText
		if !split {
			success = analysis.NotEvaluatedText
		}
	}
	t := &Table{Columns: []string{"quantity", "pearson_r", "n"}, Rows: [][]any{
		{"share vs turns", c.Turns, c.N},
		{"share vs abandonment (point-biserial)", c.Abandonment, c.N},
		{"share vs success (point-biserial)", success, c.N},
	}}
	if split {
		t.Columns = append(t.Columns, "note")
		t.Rows[0], t.Rows[1], t.Rows[2] = append(t.Rows[0], nil), append(t.Rows[1], nil), append(t.Rows[2], note)
	}
	return t
}

// Generalization is, per tuned model, one row per domain (model, domain,
// scope, tuned and base pass^1 over the paired tasks when there are any,
// delta with its CI unless style is NoInterval, paired tasks and both
// sides' run ids) and then its
// in-domain and out-of-domain means. The note names the side not
// evaluated ("not evaluated: tuned", "… base" or "… either side").
func Generalization(models []analysis.ModelGeneralization, format string, style CIStyle) *Table {
	split := Split(format)
	t := &Table{Columns: []string{"model", "domain", "scope", "tuned_pass_1", "base_pass_1", "delta", "paired_tasks", "tuned_run_ids", "base_run_ids"}}
	if split {
		t.Columns = append(t.Columns, "note")
	}
	for _, m := range models {
		var in, out []string
		for _, d := range m.Result.Domains {
			scope := "out-of-domain"
			if d.InDomain {
				scope, in = "in-domain", append(in, d.Domain)
			} else {
				out = append(out, d.Domain)
			}
			either := d.TunedNotEvaluated || d.BaseNotEvaluated
			row := []any{m.Name, d.Domain, scope, NotEvaluatedCell(split, d.TunedPass1, d.TunedNotEvaluated), NotEvaluatedCell(split, d.BasePass1, d.BaseNotEvaluated),
				NotEvaluatedCell(split, WithCI(d.Delta, d.CI, style), either), d.PairedTasks,
				IDs(m.Tuned[d.Domain].RunIDs), IDs(m.Base[d.Domain].RunIDs)}
			if split {
				row = append(row, SidesNotEvaluated(d.TunedNotEvaluated, d.BaseNotEvaluated, "tuned", "base"))
			}
			t.Rows = append(t.Rows, row)
		}
		for _, s := range []struct {
			scope   string
			domains []string
			sum     analysis.DeltaSummary
		}{{"in-domain mean", in, m.Result.InDomain}, {"out-of-domain mean", out, m.Result.OutOfDomain}} {
			row := []any{m.Name, Dash(strings.Join(s.domains, ",")), s.scope, nil, nil, WithCI(s.sum.Mean, s.sum.CI, style), nil, nil, nil}
			if split {
				row = append(row, nil)
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// Matrix is a labelled matrix of values, as a heatmap shows it.
type Matrix struct {
	RowName      string
	Rows, Cols   []string
	Values       [][]float64 // [row][col]; NaN: no value
	RunIDs       [][]int64   // per row, the runs behind its cells
	NotEvaluated [][]bool    // [row][col]: the cell's value is not evaluated
}

// PassMatrix is the pass^1 matrix pm (stats generalization --part
// matrix) as a MatrixTable: domains (rows) × agent models (columns).
func PassMatrix(pm analysis.PassMatrix, format string) *Table {
	return MatrixTable(Matrix{RowName: "domain", Rows: pm.Domains, Cols: pm.Models, Values: pm.Pass1, RunIDs: pm.RunIDs, NotEvaluated: pm.NotEvaluated}, format)
}

// MatrixTable is m as a table: one row per matrix row, one column per
// matrix column, then run_ids. A cell that is not evaluated reads "not
// evaluated" in the text formats; csv and json give it as null and name
// its column in the row's note ("not evaluated: COL, …"; null when every
// cell is evaluated or blank).
func MatrixTable(m Matrix, format string) *Table {
	split := Split(format)
	t := &Table{Columns: append(append([]string{m.RowName}, m.Cols...), "run_ids")}
	if split {
		t.Columns = append(t.Columns, "note")
	}
	for i, d := range m.Rows {
		row := []any{d}
		var missing []string
		for j, v := range m.Values[i] {
			var c any = v
			if m.NotEvaluated[i][j] {
				missing = append(missing, m.Cols[j])
				c = math.NaN()
				if !split {
					c = analysis.NotEvaluatedText
				}
			}
			row = append(row, c)
		}
		row = append(row, IDs(m.RunIDs[i]))
		if split {
			var note any
			if len(missing) > 0 {
				note = analysis.NotEvaluatedText + ": " + strings.Join(missing, ", ")
			}
			row = append(row, note)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
