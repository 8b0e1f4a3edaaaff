package table

import (
	"math"
	"strconv"
	"strings"

	"github.com/emobench/emobench/analysis"
)

// IDs is a cell naming runs: a JSON array in json, "3,5" elsewhere.
type IDs []int64

// String joins the ids with commas.
func (l IDs) String() string {
	s := make([]string, len(l))
	for i, id := range l {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}

// Dash is s, or "-" when s is blank.
func Dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// GroupLabel is analysis.GroupLabel with each empty value shown as "-".
func GroupLabel(values []string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = Dash(v)
	}
	return analysis.GroupLabel(parts...)
}

// IntIf is n where it is defined, else NaN (empty, or null in json).
func IntIf(n int, defined bool) any {
	if !defined {
		return math.NaN()
	}
	return n
}

// NotEvaluatedCell is v, or in a text format (split false: not csv or
// json, which give null and a note column) "not evaluated" when
// notEvaluated.
func NotEvaluatedCell(split bool, v any, notEvaluated bool) any {
	if notEvaluated && !split {
		return analysis.NotEvaluatedText
	}
	return v
}

// SidesNotEvaluated is the note of a comparison whose side a, b or both
// has nothing evaluated (nil when both are evaluated).
func SidesNotEvaluated(a, b bool, aName, bName string) any {
	switch {
	case a && b:
		return analysis.NotEvaluatedText + ": either side"
	case a:
		return analysis.NotEvaluatedText + ": " + aName
	case b:
		return analysis.NotEvaluatedText + ": " + bName
	}
	return nil
}

// UnitColumns are the leading columns naming a row's unit: run_id and run
// per run; pool (agent / user / domain / condition) and run_ids pooled.
func UnitColumns(pooled bool) []string {
	if pooled {
		return []string{"pool", "run_ids"}
	}
	return []string{"run_id", "run"}
}

// UnitCells are the cells of UnitColumns for u, runs named by names. A
// pool kept apart (its agent model or domain unknown) is named as its run
// (analysis.Unit.Label).
func UnitCells(u analysis.Unit, pooled bool, names map[int64]string) []any {
	if pooled && !u.Key.Poolable() {
		return []any{u.Label(names), IDs(u.RunIDs)}
	}
	if pooled {
		return []any{u.Key.Label(), IDs(u.RunIDs)}
	}
	return []any{u.ID, names[u.ID]}
}
