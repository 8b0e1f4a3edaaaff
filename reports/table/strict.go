package table

import (
	"math"

	"github.com/emobench/emobench/analysis"
)

// StrictPassK is one row per StrictPassKRow, gated beside strict: its
// unit, the group fields, k, pass_hat_k (gated), strict_pass_hat_k,
// strict_delta (strict − gated pass^k), pass_at_k, strict_pass_at_k,
// demoted (trajectories that pass gated, not strictly), tasks,
// trajectories and convention.
func StrictPassK(rows []analysis.StrictPassKRow, u Units, fields []string, format string) *Table {
	split := Split(format)
	t := &Table{Columns: append(append(u.columns(), fields...),
		"k", "pass_hat_k", "strict_pass_hat_k", "strict_delta", "pass_at_k", "strict_pass_at_k", "demoted", "tasks", "trajectories", "convention")}
	if split {
		t.Columns = append(t.Columns, "note")
	}
	for _, r := range rows {
		g := r.Gated
		row := groupCells(u.cells(g.RunID), g.Group)
		values := []any{g.PassHatK, r.Strict.PassHatK, r.Delta, g.PassAtK, r.Strict.PassAtK}
		var note any
		if g.NotEvaluated {
			note = analysis.NotEvaluatedText
			for i := range values {
				values[i] = math.NaN()
				if !split {
					values[i] = analysis.NotEvaluatedText
				}
			}
		}
		row = append(append(append(row, g.K), values...), r.Demoted, g.Tasks, g.Trajectories, string(g.Convention))
		if split {
			row = append(row, note)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
