package main

import (
	"fmt"
	"math"

	"github.com/emobench/emobench/analysis"
)

// estimate is a table value with a confidence interval. Text formats show
// it in one cell (brackets, or ± half-width in LaTeX by default); csv and
// json split it into NAME, NAME_lo and NAME_hi.
type estimate struct {
	v  float64
	ci analysis.CI
}

// nanCI is no interval: both bounds NaN (null in csv and json).
var nanCI = analysis.CI{Lo: math.NaN(), Hi: math.NaN()}

// ciStyle says how text formats show an interval: "brackets", "pm" or
// "none".
type ciStyle string

func parseCIStyle(s string) (ciStyle, error) {
	switch style := ciStyle(s); style {
	case "pm", "brackets", "none":
		return style, nil
	}
	return "", usagef("--ci %q is not one of pm, brackets, none", s)
}

func (e estimate) text(style ciStyle, latex bool) string {
	if math.IsNaN(e.v) {
		return ""
	}
	e.v, e.ci.Lo, e.ci.Hi = noNegativeZero(e.v), noNegativeZero(e.ci.Lo), noNegativeZero(e.ci.Hi)
	if latex {
		return e.latex(style)
	}
	if math.IsNaN(e.ci.Lo) || math.IsNaN(e.ci.Hi) {
		return fmt.Sprintf("%.4f", e.v)
	}
	if style == "pm" {
		up, down, symmetric := e.halfWidths()
		if symmetric {
			return fmt.Sprintf("%.4f ± %.4f", e.v, up)
		}
		return fmt.Sprintf("%.4f +%.4f/-%.4f", e.v, up, down)
	}
	return fmt.Sprintf("%.4f [%.4f, %.4f]", e.v, e.ci.Lo, e.ci.Hi)
}

// latex writes e in math mode, so that minus signs typeset as minus signs,
// with the 4 decimals of every other number in the table.
func (e estimate) latex(style ciStyle) string {
	if math.IsNaN(e.ci.Lo) || math.IsNaN(e.ci.Hi) {
		return fmt.Sprintf("$%.4f$", e.v)
	}
	if style == "pm" {
		up, down, symmetric := e.halfWidths()
		if symmetric {
			return fmt.Sprintf("$%.4f \\pm %.4f$", e.v, up)
		}
		return fmt.Sprintf("$%.4f^{+%.4f}_{-%.4f}$", e.v, up, down) // asymmetric, as Wilson's near 0 or 1
	}
	return fmt.Sprintf("$%.4f$ [$%.4f$, $%.4f$]", e.v, e.ci.Lo, e.ci.Hi)
}

// halfWidths returns how far the interval reaches above and below the
// value, and whether the two are equal.
func (e estimate) halfWidths() (up, down float64, symmetric bool) {
	up, down = math.Max(0, e.ci.Hi-e.v), math.Max(0, e.v-e.ci.Lo)
	return up, down, math.Abs(up-down) <= 1e-9*math.Max(1, math.Abs(e.v))
}

// expandEstimates rewrites t for format: estimates become one text cell,
// or three numeric columns for csv and json.
func (t *table) expandEstimates(format string, style ciStyle) *table {
	split := format == "csv" || format == "json"
	isEstimate := make([]bool, len(t.columns))
	for _, row := range t.rows {
		for j, v := range row {
			if _, ok := v.(estimate); ok {
				isEstimate[j] = true
			}
		}
	}
	out := &table{}
	for j, c := range t.columns {
		out.columns = append(out.columns, c)
		if split && isEstimate[j] {
			out.columns = append(out.columns, c+"_lo", c+"_hi")
		}
	}
	for _, row := range t.rows {
		var cells []any
		for j, v := range row {
			e, ok := v.(estimate)
			switch {
			case !isEstimate[j]:
				cells = append(cells, v)
			case !ok:
				cells = append(cells, v)
				if split {
					cells = append(cells, nil, nil)
				}
			case split:
				cells = append(cells, e.v, e.ci.Lo, e.ci.Hi)
			default:
				cells = append(cells, rawCell(e.text(style, format == "latex")))
			}
		}
		out.rows = append(out.rows, cells)
	}
	return out
}

// rawCell is text that the LaTeX writer must not escape (it holds math).
type rawCell string

// noNegativeZero rounds values that would print as -0.0000 to 0, so a
// zero difference never shows a sign.
func noNegativeZero(v float64) float64 {
	if v < 0 && v > -0.00005 {
		return 0
	}
	return v
}
