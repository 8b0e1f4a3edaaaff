package main

import (
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// intervalFlags configure confidence intervals, shared by the stats commands.
func intervalFlags(defaultStyle string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "ci", Value: defaultStyle, Usage: "how tables show intervals: pm (±), brackets, or none"},
		&cli.StringFlag{Name: "ci-method", Value: workbench.DefaultBootstrap.Method, Usage: "bootstrap interval: percentile or bca"},
		&cli.IntFlag{Name: "resamples", Value: workbench.DefaultBootstrap.Resamples, Usage: "bootstrap resamples (tasks are resampled)"},
		&cli.Uint64Flag{Name: "seed", Value: workbench.DefaultBootstrap.Seed, Usage: "bootstrap seed: the same seed gives the same intervals"},
		&cli.Float64Flag{Name: "level", Value: workbench.DefaultBootstrap.Level, Usage: "confidence level"},
	}
}

// bootstrapFlags reads --ci-method, --resamples, --seed and --level.
func bootstrapFlags(c *cli.Context) (analysis.BootstrapOptions, error) {
	boot := analysis.BootstrapOptions{Resamples: c.Int("resamples"), Level: c.Float64("level"), Seed: c.Uint64("seed"), Method: c.String("ci-method")}
	if err := workbench.CheckBootstrap(boot); err != nil {
		return analysis.BootstrapOptions{}, &usageError{err}
	}
	return boot, nil
}

func statsEmotionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "emotions",
		Usage: "with- vs without-emotions pass^k, paired by task, per family, leaf and dimension",
		Description: "Pairs each task's with-emotions and without-emotions trajectories (same agent model, user\n" +
			"model and domain; a task is its content without the emotion instruction) within one pair of\n" +
			"runs (every with-emotions run against every without-emotions run, each row naming both), or,\n" +
			"with --pool, within one pair of pools. Reports Δpass^k = pass^k(with) − pass^k(without) with a\n" +
			"paired bootstrap CI over tasks and, at k = 1, the exact McNemar test on trial-matched pairs with\n" +
			"Holm's correction across a dimension's values. pairs counts tasks; mcnemar_b counts (task, trial)\n" +
			"pairs that passed only with emotions, mcnemar_c only without. With several trials per task those\n" +
			"pairs are not independent: cite the bootstrap CI.\n\n" +
			"Example:\n   emobench --db runs.db stats emotions\n   emobench --db runs.db stats emotions --pool\n" +
			"   emobench --db runs.db stats emotions --k 1,2 --format latex --ci brackets",
		Before: noArgs,
		Flags: append([]cli.Flag{
			runFlag(),
			&cli.IntSliceFlag{Name: "k", Usage: "k values (default 1)"},
			formatFlag(),
			poolFlag(),
		}, intervalFlags("pm")...),
		Action: statsAction(e, func(c *cli.Context, e *env, f statsFlags) error {
			rows, _, err := compute(c, e, workbench.EmotionsStats{Ks: f.ks, Bootstrap: f.boot}.Compute)
			if err != nil {
				return err
			}
			return table.Emotions(rows, f.format, f.style).ExpandEstimates(f.format, f.style).Write(e.stdout, f.format)
		}),
	}
}
