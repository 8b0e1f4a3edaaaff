package main

import (
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
)

// noTrajectories writes note, when set, and reports whether the caller is
// done: a text table would be a bare header, so text formats stop at the
// note; csv and json still write their empty table for the programs that
// read them.
func (e *env) noTrajectories(note, format string) bool {
	if note == "" {
		return false
	}
	e.warn(note)
	return !table.Split(format)
}

// noBalanceSamples reports whether stats balance has no unit to show.
func noBalanceSamples(samples map[int64]analysis.BalanceSample) bool { return len(samples) == 0 }
