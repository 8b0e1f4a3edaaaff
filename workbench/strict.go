package workbench

import (
	"context"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
)

// LoadStrictTaskTrials is LoadTaskTrials with each task's strict passes
// as its passes (db.ListStrictTaskTrials: passed, with every check its
// reward_info records passed), pooled into s's units the same way, so
// that it lines up with LoadTaskTrials' Tasks entry by entry. Errors are
// the database's.
func LoadStrictTaskTrials(ctx context.Context, store *db.DB, s Selection, fields []string, withoutInfra bool) ([]analysis.TaskTrials, error) {
	listed, err := store.ListStrictTaskTrials(ctx, s.RunIDs, withoutInfra)
	if err != nil {
		return nil, err
	}
	return analysis.PoolTasks(TaskTrials(listed, fields), s.Units), nil
}

// ComputeStrict is stats passk --strict: Compute's rows scored gated and
// strict side by side (analysis.StrictPassK), for native and imported runs
// alike. Its notes are Compute's; it gives no intervals (Intervals is
// ignored). Errors are the database's or analysis.StrictPassK's.
func (p PassKStats) ComputeStrict(ctx context.Context, store *db.DB, s Selection) ([]analysis.StrictPassKRow, []string, error) {
	p.Intervals = false
	_, notes, err := p.Compute(ctx, store, s)
	if err != nil {
		return nil, notes, err
	}
	exclude := p.InfraErrors == InfraErrorsExclude
	gated, err := LoadTaskTrials(ctx, store, s, p.Fields, p.Options.Convention, exclude)
	if err != nil {
		return nil, notes, err
	}
	strict, err := LoadStrictTaskTrials(ctx, store, s, p.Fields, exclude)
	if err != nil {
		return nil, notes, err
	}
	opts := p.Options
	opts.RunTrials = gated.RunTrials
	rows, err := analysis.StrictPassK(gated.Tasks, strict, opts)
	return rows, notes, err
}
