package main

import (
	"fmt"

	"github.com/emobench/emobench/internal/atomicfile"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func reportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "write a self-contained offline HTML report",
		Description: "Charts pass^k against k per run (with bootstrap bands), the pass^1 vs pass^k gap, pass^1 per\n" +
			"emotion family, with- vs without-emotions pass^1 per model and domain, Δpass^1 by family and\n" +
			"dimension, abandonment, the tool-call/follow-up balance, the generalization matrix, published\n" +
			"leaderboard results, and a table of runs. Statistics are per run, or with --pool per pool (runs\n" +
			"sharing agent model, user model, domain and condition); each caption names the emobench stats\n" +
			"command that prints its numbers. Intervals use the same bootstrap as the stats commands\n" +
			"(--resamples, --seed, --level, --ci-method). The echarts library is embedded: the file opens\n" +
			"offline and can be shared or printed.\n\n" +
			"An existing --out file is kept unless --force is given.\n\n" +
			"Example:\n   emobench --db runs.db report --out report.html --run 1 --run 2\n   emobench --db runs.db report --out pooled.html --pool",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "HTML `FILE` to write (required)"},
			runFlag(),
			&cli.StringFlag{Name: "title", Value: "emobench report", Usage: "report title"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file"},
			poolFlag(),
			pairFlag(),
		}, intervalFlags("pm")[1:]...), // the stats commands' bootstrap flags and defaults
		Before: noArgs,
		Action: func(c *cli.Context) error {
			if c.String("out") == "" {
				return usagef("report needs --out FILE.html")
			}
			// An existing --out is kept unless --force, as export and vacuum do (exit 2);
			// one that is not a regular file is never replaced (exit 1).
			if err := cliargs.CheckOutFiles(c.Bool("force"), atomicfile.Target, "out", c.String("out")); err != nil {
				return err
			}
			r, err := statsRequest(c)
			if err != nil {
				return err
			}
			rep, _, _, err := compute(c, e, r, workbench.ReportOptions{Title: c.String("title"), Bootstrap: r.Boot, Pairs: c.StringSlice("pair")}.Build, nil)
			if err != nil {
				return err
			}
			if err := workbench.WriteReport(c.Context, c.String("out"), rep.Input); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote %s (%s)\n", c.String("out"), plural(len(rep.Input.Runs), "run", "runs"))
			return nil
		},
	}
}
