package main

import (
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func statsGapCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "gap",
		Usage: "the pass^k gap: pass^1 − pass^k and pass^k / pass^1 per run (and group)",
		Description: "Average success hides inconsistency: the gap compares pass^1 with pass^k at the largest k\n" +
			"(or --k). Under per-task, pass^k averages only tasks with at least k trials; the tasks_1 and\n" +
			"tasks_k columns say how many tasks each side used.\n\n" +
			"Example:\n   emobench --db runs.db stats gap\n   emobench --db runs.db stats gap --by emotion_family --k 3 --format latex",
		Before: noArgs,
		Flags: statsFlags("",
			&cli.StringSliceFlag{Name: "by", Usage: "group fields besides the run (e.g. emotion_family)"},
			&cli.IntFlag{Name: "k", Usage: "the k to compare with k = 1 (default: the largest k)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
		),
		Action: statsAction(e, func(c *cli.Context, e *env, r workbench.StatsRequest) error {
			if k := c.Int("k"); c.IsSet("k") && k < 2 {
				return usagef("--k %d: compare with k of at least 2", k)
			}
			gap := workbench.GapStats{Fields: r.Fields, Options: analysis.PassKOptions{Convention: r.Conv}, K: c.Int("k")} // --k is 0 when not set
			rows, s, _, err := compute(c, e, r, gap.Compute, nil)
			if err != nil {
				return err
			}
			return r.Write(e.stdout, table.Gap(rows, s.TableUnits(), r.Fields, r.Format))
		}),
	}
}
