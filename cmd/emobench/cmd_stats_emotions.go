package main

import (
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// pairFlag is --pair, on stats emotions and report.
func pairFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "pair", Usage: "`WITH:WITHOUT`: also compare this with-emotions run with this without-emotions run (ids or names; repeatable); runs of one command or of a pair of files pair by themselves"}
}

func statsEmotionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "emotions",
		Usage: "with- vs without-emotions pass^k, paired by task, per family, leaf and dimension",
		Description: "Pairs each task's with-emotions and without-emotions trajectories (same agent model, user\n" +
			"model and domain; a task is its content without the emotion instruction) within a pair of runs\n" +
			"that belong together: the two runs one `run` (or `tracer collect`) command started, two runs\n" +
			"ingested from files whose names differ only in the condition words (…-with-emotions.json,\n" +
			"…-without-emotions.json), or two runs named with --pair WITH:WITHOUT; with --pool, a pool with a\n" +
			"pool. Other runs are not compared: rows with dimension \"unpaired\" and a note say which and why.\n" +
			"Reports Δpass^k = pass^k(with) − pass^k(without) with a paired bootstrap CI over tasks and, at\n" +
			"k = 1, the exact McNemar test on trial-matched pairs with Holm's correction across a dimension's\n" +
			"values (p is empty when no (task, trial) pair matches). pairs counts tasks; mcnemar_b counts\n" +
			"(task, trial) pairs that passed only with emotions, mcnemar_c only without. With several trials\n" +
			"per task those pairs are not independent: cite the bootstrap CI.\n\n" +
			"Example:\n   emobench --db runs.db stats emotions\n   emobench --db runs.db stats emotions --pool\n" +
			"   emobench --db runs.db stats emotions --pair 5:7 --pair 6:8\n" +
			"   emobench --db runs.db stats emotions --k 1,2 --format latex --ci brackets",
		Before: noArgs,
		Flags: statsFlags("pm",
			&cli.IntSliceFlag{Name: "k", Usage: "k values (default 1)"},
			pairFlag(),
		),
		Action: statsAction(e, func(c *cli.Context, e *env, r workbench.StatsRequest) error {
			res, _, _, err := compute(c, e, r, workbench.EmotionsStats{Ks: r.Ks, Bootstrap: r.Boot, Pairs: c.StringSlice("pair")}.Compute, nil)
			if err != nil {
				return err
			}
			return r.Write(e.stdout, table.Emotions(res, r.Format, r.Style))
		}),
	}
}
