package table

import (
	"fmt"
	"math"

	"github.com/emobench/emobench/analysis"
)

// Estimate is a value with a confidence interval. Text formats show it in
// one cell (brackets, or ± half-width by CIStyle); csv and json split it
// into NAME, NAME_lo and NAME_hi (ExpandEstimates).
type Estimate struct {
	V  float64
	CI analysis.CI
}

// NoCI is no interval: both bounds NaN (null in csv and json).
var NoCI = analysis.CI{Lo: math.NaN(), Hi: math.NaN()}

// CIStyle says how text formats show an interval: "brackets", "pm" or
// "none" (no interval, the bare value).
type CIStyle string

// The styles of CIStyle.
const (
	Brackets   CIStyle = "brackets"
	PlusMinus  CIStyle = "pm"
	NoInterval CIStyle = "none"
)

// ParseCIStyle returns the style spelled s, or an error naming the styles.
func ParseCIStyle(s string) (CIStyle, error) {
	switch style := CIStyle(s); style {
	case PlusMinus, Brackets, NoInterval:
		return style, nil
	}
	return "", fmt.Errorf("--ci %q is not one of pm, brackets, none", s)
}

// WithCI is v with its interval, or the bare v when style is NoInterval.
func WithCI(v float64, ci analysis.CI, style CIStyle) any {
	if style == NoInterval {
		return v
	}
	return Estimate{V: v, CI: ci}
}

func (e Estimate) text(style CIStyle, latex bool) string {
	if math.IsNaN(e.V) {
		return ""
	}
	e.V, e.CI.Lo, e.CI.Hi = noNegativeZero(e.V), noNegativeZero(e.CI.Lo), noNegativeZero(e.CI.Hi)
	if latex {
		return e.latex(style)
	}
	if math.IsNaN(e.CI.Lo) || math.IsNaN(e.CI.Hi) {
		return fmt.Sprintf("%.4f", e.V)
	}
	if style == PlusMinus {
		up, down, symmetric := e.halfWidths()
		if symmetric {
			return fmt.Sprintf("%.4f ± %.4f", e.V, up)
		}
		return fmt.Sprintf("%.4f +%.4f/-%.4f", e.V, up, down)
	}
	return fmt.Sprintf("%.4f [%.4f, %.4f]", e.V, e.CI.Lo, e.CI.Hi)
}

// latex writes e in math mode, so that minus signs typeset as minus signs,
// with the 4 decimals of every other number in the table.
func (e Estimate) latex(style CIStyle) string {
	if math.IsNaN(e.CI.Lo) || math.IsNaN(e.CI.Hi) {
		return fmt.Sprintf("$%.4f$", e.V)
	}
	if style == PlusMinus {
		up, down, symmetric := e.halfWidths()
		if symmetric {
			return fmt.Sprintf("$%.4f \\pm %.4f$", e.V, up)
		}
		return fmt.Sprintf("$%.4f^{+%.4f}_{-%.4f}$", e.V, up, down) // asymmetric, as Wilson's near 0 or 1
	}
	return fmt.Sprintf("$%.4f$ [$%.4f$, $%.4f$]", e.V, e.CI.Lo, e.CI.Hi)
}

// halfWidths returns how far the interval reaches above and below the
// value, and whether the two are equal.
func (e Estimate) halfWidths() (up, down float64, symmetric bool) {
	up, down = math.Max(0, e.CI.Hi-e.V), math.Max(0, e.V-e.CI.Lo)
	return up, down, math.Abs(up-down) <= 1e-9*math.Max(1, math.Abs(e.V))
}

// ExpandEstimates returns t rewritten for format: each Estimate becomes
// one text cell (Raw, shown by style), or for csv and json three numeric
// columns NAME, NAME_lo and NAME_hi (other cells of such a column get
// null bounds). t is not changed.
func (t *Table) ExpandEstimates(format string, style CIStyle) *Table {
	split := Split(format)
	isEstimate := make([]bool, len(t.Columns))
	for _, row := range t.Rows {
		for j, v := range row {
			if _, ok := v.(Estimate); ok {
				isEstimate[j] = true
			}
		}
	}
	out := &Table{}
	for j, c := range t.Columns {
		out.Columns = append(out.Columns, c)
		if split && isEstimate[j] {
			out.Columns = append(out.Columns, c+"_lo", c+"_hi")
		}
	}
	for _, row := range t.Rows {
		var cells []any
		for j, v := range row {
			e, ok := v.(Estimate)
			switch {
			case !isEstimate[j]:
				cells = append(cells, v)
			case !ok:
				cells = append(cells, v)
				if split {
					cells = append(cells, nil, nil)
				}
			case split:
				cells = append(cells, e.V, e.CI.Lo, e.CI.Hi)
			default:
				cells = append(cells, Raw(e.text(style, format == "latex")))
			}
		}
		out.Rows = append(out.Rows, cells)
	}
	return out
}

// noNegativeZero rounds values that would print as -0.0000 to 0, so a
// zero difference never shows a sign.
func noNegativeZero(v float64) float64 {
	if v < 0 && v > -0.00005 {
		return 0
	}
	return v
}
