package main

import (
	"context"
	"slices"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports"
)

// defaultBootstrap is the bootstrap of the stats commands' defaults, which
// the report uses unless its flags say otherwise: figures and tables agree.
var defaultBootstrap = analysis.BootstrapOptions{Resamples: 2000, Level: 0.95, Seed: 1, Method: analysis.MethodPercentile}

// addPaperSections loads and computes, for runIDs per unit, what the
// report's CI-bearing sections show, each with the functions of the stats
// command (cmd) that prints its numbers, into d.
func addPaperSections(ctx context.Context, store *db.DB, runIDs []int64, units analysis.Units, d *reports.Data, boot analysis.BootstrapOptions, cmd reports.CommandLine) error {
	d.Gaps = analysis.GapAtMaxK(d.PassK)
	d.Commands.Gap = cmd.Stats("gap", false)

	outcomes, err := store.ListTrajectoryOutcomes(ctx, runIDs)
	if err != nil {
		return err
	}
	compared, _ := analysis.CompareEmotions(conditionTrials(outcomes), units, []int{1}, boot)
	d.Emotions = compared
	d.Commands.Emotions = cmd.Stats("emotions", true, "--k", "1")

	for _, a := range analysis.AbandonmentByUnit(abandonmentTrajectories(outcomes), units, [][]string{{"emotion_family"}}) {
		d.Abandonment = append(d.Abandonment, reports.UnitRates{Unit: a.Unit.ID, Rates: a.Rates})
	}
	d.Commands.Abandonment = cmd.Stats("abandonment", false, "--by", "emotion_family")

	balance, err := loadBalance(ctx, store, outcomes, units)
	if err != nil {
		return err
	}
	for _, u := range units.List() {
		b, ok := balance[u.ID]
		if !ok {
			continue
		}
		ub := reports.UnitBalance{
			Unit:       u.ID,
			Bins:       b.Bins(5),
			Evaluated:  slices.Contains(b.Evaluated, true),
			Command:    cmd.ForUnit(u).Stats("balance", false, "--part", "bins", "--bins", "5"),
			FitCommand: cmd.ForUnit(u).Stats("balance", false, "--part", "regression"),
		}
		if ub.Evaluated {
			if fit, err := b.Regression(); err != nil {
				ub.FitErr = err
			} else {
				ub.Fit, ub.MiddleWins = &fit, fit.Verdict()
			}
		}
		d.Balance = append(d.Balance, ub)
	}

	var first []analysis.PassKRow
	for _, r := range d.PassK {
		if r.K == 1 {
			first = append(first, r)
		}
	}
	if d.Matrix, err = analysis.PooledMatrix(first, units); err != nil {
		return err
	}
	d.Commands.Generalization = cmd.Stats("generalization", false, "--part", "matrix")

	d.Commands.Published = `emobench sql "SELECT domain, model, pass_hat_k FROM published_results WHERE k = 1 ORDER BY domain, model"`
	published, err := store.ListPublished(ctx)
	if err != nil {
		return err
	}
	for _, p := range published {
		d.Published = append(d.Published, reports.PublishedResult{
			Domain: p.Domain, Model: p.Model, Modality: p.Modality, SourceFile: p.SourceFile, K: p.K, PassHatK: p.PassHatK,
		})
	}
	return nil
}
