package main

import (
	"strings"

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
		Flags: []cli.Flag{
			runFlag(),
			&cli.StringSliceFlag{Name: "by", Usage: "group fields besides the run (e.g. emotion_family)"},
			&cli.IntFlag{Name: "k", Usage: "the k to compare with k = 1 (default: the largest k)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
			formatFlag(),
			poolFlag(),
		},
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if err := checkFormat(format, table.Formats...); err != nil {
				return err
			}
			fields, err := parseGroupFields(strings.Join(c.StringSlice("by"), ","))
			if err != nil {
				return err
			}
			conv, err := analysis.ParseConvention(c.String("convention"))
			if err != nil {
				return &usageError{err}
			}
			opts := analysis.PassKOptions{Convention: conv}
			if k := c.Int("k"); c.IsSet("k") {
				if k < 2 {
					return usagef("--k %d: compare with k of at least 2", k)
				}
				opts.Ks = []int{1, k}
			}
			store, s, err := openSelection(c)
			if err != nil {
				return err
			}
			defer store.Close()
			rows, notes, err := workbench.StatsGap(c.Context, store, s, fields, opts, c.Int("k")) // --k is 0 when not set
			e.warnAll(notes)
			if err != nil {
				return err
			}
			return table.Gap(rows, table.Units{Units: s.Units, Names: s.Names}, fields, format).Write(e.stdout, format)
		},
	}
}
