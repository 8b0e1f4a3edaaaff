package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func statsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "stats",
		Usage:       "statistics over the stored runs",
		Description: "Example:\n   emobench --db runs.db stats passk --by condition,emotion_family",
		Action:      cli.ShowSubcommandHelp, // markUsageErrors refuses an unknown subcommand
		Subcommands: []*cli.Command{
			passkCommand(e),
			statsEmotionsCommand(e),
			statsGapCommand(e),
			statsAbandonmentCommand(e),
			statsBalanceCommand(e),
			statsGeneralizationCommand(e),
		},
	}
}

func passkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "passk",
		Usage: "pass^k (all k trials pass) and pass@k (at least one passes) per run and group",
		Description: "pass^k = mean over tasks of C(c,k)/C(n,k); pass@k = mean over tasks of 1 − C(n−c,k)/C(n,k),\n" +
			"with n a task's trials and c its passes (a trial passes when its reward is within 1 ± 1e-6).\n" +
			"Conventions: per-task (τ²-bench; default) uses each task's own n and leaves out tasks with n < k;\n" +
			"min-trials (τ-bench v1) uses the run's number of distinct trials as n for every task, with a\n" +
			"note naming the n when a run's trial numbers look sparse (e.g. a trial equal to the task id).\n" +
			"A run, pool or group with no evaluated trajectory (no reward information) is \"not evaluated\":\n" +
			"its pass^k and pass@k read so in text, and are null with note \"not evaluated\" in csv and json, never 0.\n" +
			"Group fields: " + strings.Join(emobench.GroupFields, ", ") + ".\n" +
			"Rows are per run; --pool pools the runs sharing agent model, user model, domain and condition\n" +
			"(every trajectory of a task in them is one trial of it) and names their run_ids.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db stats passk --by condition\n" +
			"   emobench --db runs.db stats passk --k 1 --pool\n" +
			"   emobench --db runs.db stats passk --run 3 --by emotion_family --k 1,2,4 --format markdown\n" +
			"   emobench --db runs.db stats passk --ci brackets   # bootstrap CIs over tasks",
		Before: noArgs,
		Flags: statsFlags("none",
			&cli.StringSliceFlag{Name: "by", Usage: "group fields, comma-separated or repeated (always grouped by run)"},
			&cli.IntSliceFlag{Name: "k", Usage: "k values to report (default: 1 up to the most trials)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
			&cli.StringFlag{Name: "infra-errors", Value: "fail", Usage: "τ²-bench infrastructure_error and context_window_exceeded trajectories: fail (count them as failures) or exclude (as τ²-bench's own metrics do)"},
			&cli.BoolFlag{Name: "strict", Usage: "beside each pass^k, strict pass^k: a trial passes only when every check its reward_info records passed, in its reward_basis or not"},
		),
		Action: statsAction(e, runPassK),
	}
}

func runPassK(c *cli.Context, e *env, r workbench.StatsRequest) error {
	// Its heap is O(tasks) and the process short: collect 4x less often.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	stats := workbench.PassKStats{Fields: r.Fields, Options: analysis.PassKOptions{Convention: r.Conv, Ks: r.Ks},
		InfraErrors: workbench.InfraErrors(c.String("infra-errors")), Intervals: r.Style != table.NoInterval, Bootstrap: r.Boot}
	if err := stats.InfraErrors.Check(); err != nil {
		return err
	}
	if c.Bool("strict") && r.Style != table.NoInterval {
		return usagef("--strict gives no intervals: leave out --ci")
	}
	t, _, none, err := compute(c, e, r, stats.Table(r, c.Bool("strict")), workbench.NoRows)
	if err != nil || r.Bare(none) {
		return err
	}
	if len(t.Rows) == 0 && none == "" {
		fmt.Fprintln(e.stderr, "no rows: no run matched, or no task has at least k trials (see `emobench runs` for trials per task)")
	}
	return r.Write(e.stdout, t)
}
