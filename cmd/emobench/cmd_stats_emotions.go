package main

import (
	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports/table"
	"github.com/urfave/cli/v2"
)

// intervalFlags configure confidence intervals, shared by the stats commands.
func intervalFlags(defaultStyle string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "ci", Value: defaultStyle, Usage: "how tables show intervals: pm (±), brackets, or none"},
		&cli.StringFlag{Name: "ci-method", Value: analysis.MethodPercentile, Usage: "bootstrap interval: percentile or bca"},
		&cli.IntFlag{Name: "resamples", Value: 2000, Usage: "bootstrap resamples (tasks are resampled)"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "bootstrap seed: the same seed gives the same intervals"},
		&cli.Float64Flag{Name: "level", Value: 0.95, Usage: "confidence level"},
	}
}

func bootstrapOptions(c *cli.Context) (analysis.BootstrapOptions, table.CIStyle, error) {
	style, err := parseCIStyle(c.String("ci"))
	if err != nil {
		return analysis.BootstrapOptions{}, "", err
	}
	opts, err := bootstrapFlags(c)
	return opts, style, err
}

// bootstrapFlags reads --ci-method, --resamples, --seed and --level.
func bootstrapFlags(c *cli.Context) (analysis.BootstrapOptions, error) {
	method := c.String("ci-method")
	if method != analysis.MethodPercentile && method != analysis.MethodBCa {
		return analysis.BootstrapOptions{}, usagef("--ci-method %q is not one of percentile, bca", method)
	}
	if r := c.Int("resamples"); r < 100 {
		return analysis.BootstrapOptions{}, usagef("--resamples %d: use at least 100", r)
	}
	if l := c.Float64("level"); l <= 0 || l >= 1 {
		return analysis.BootstrapOptions{}, usagef("--level %v is not in (0, 1)", l)
	}
	return analysis.BootstrapOptions{
		Resamples: c.Int("resamples"), Level: c.Float64("level"), Seed: c.Uint64("seed"), Method: method,
	}, nil
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
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.IntSliceFlag{Name: "k", Usage: "k values (default 1)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
			poolFlag(),
		}, intervalFlags("pm")...),
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if err := checkFormat(format, table.Formats...); err != nil {
				return err
			}
			opts, style, err := bootstrapOptions(c)
			if err != nil {
				return err
			}
			ks := c.IntSlice("k")
			for _, k := range ks {
				if k < 1 {
					return usagef("--k %d: k must be at least 1", k)
				}
			}
			outcomes, units, _, err := loadOutcomes(c, e)
			if err != nil {
				return err
			}
			noteOverlaps(e, outcomeOverlaps(units, outcomes))
			res := analysis.EmotionsWithNotes(conditionTrials(outcomes), units, ks, opts)
			e.warnAll(res.Notes)
			return table.Emotions(res.Rows, format, style).ExpandEstimates(format, style).Write(e.stdout, format)
		},
	}
}

func conditionTrials(outcomes []db.TrajectoryOutcome) []analysis.ConditionTrial {
	var out []analysis.ConditionTrial
	for _, o := range outcomes {
		cond := emobench.Condition(o.Fields["condition"])
		if cond != emobench.ConditionWithEmotions && cond != emobench.ConditionWithoutEmotions {
			continue
		}
		out = append(out, analysis.ConditionTrial{
			RunID:   o.RunID,
			PairKey: o.PairKey,
			Trial:   o.Trial,
			Passed:  o.Passed,
			// Unevaluated: no reward information, so its failure is not measured.
			Unevaluated: !o.Evaluated,
			Profile:     o.Fields, // holds every emobench.EmotionDimensions key; shared, read only
		})
	}
	return out
}
