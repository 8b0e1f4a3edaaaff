package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
)

// computeNoting is compute that, when empty(result), also returns
// workbench.NoTrajectoriesNote: the note that no selected run holds a
// trajectory ("" when one does).
func computeNoting[T any](c *cli.Context, e *env, run func(context.Context, *db.DB, workbench.Selection) (T, []string, error), empty func(T) bool) (T, workbench.Selection, string, error) {
	var note string
	res, s, err := compute(c, e, func(ctx context.Context, store *db.DB, s workbench.Selection) (T, []string, error) {
		res, notes, err := run(ctx, store, s)
		if err == nil && empty(res) {
			note, err = workbench.NoTrajectoriesNote(ctx, store, s)
		}
		return res, notes, err
	})
	return res, s, note, err
}

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
