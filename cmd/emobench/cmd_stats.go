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
		Flags: append([]cli.Flag{
			runFlag(),
			&cli.StringSliceFlag{Name: "by", Usage: "group fields, comma-separated or repeated (always grouped by run)"},
			&cli.IntSliceFlag{Name: "k", Usage: "k values to report (default: 1 up to the most trials)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
			formatFlag(),
			&cli.StringFlag{Name: "infra-errors", Value: "fail", Usage: "τ²-bench infrastructure_error and context_window_exceeded trajectories: fail (count them as failures) or exclude (as τ²-bench's own metrics do)"},
			&cli.BoolFlag{Name: "strict", Usage: "beside each pass^k, strict pass^k: a trial passes only when every check its reward_info records passed, in its reward_basis or not"},
			poolFlag(),
		}, intervalFlags("none")...),
		Action: statsAction(e, runPassK),
	}
}

func runPassK(c *cli.Context, e *env, f statsFlags) error {
	// Its heap is O(tasks) and the process short: collect 4x less often.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	infra := workbench.InfraErrors(c.String("infra-errors"))
	if infra != workbench.InfraErrorsFail && infra != workbench.InfraErrorsExclude {
		return usagef("--infra-errors %q is not one of fail, exclude", infra)
	}
	stats := workbench.PassKStats{Fields: f.fields, Options: analysis.PassKOptions{Convention: f.conv, Ks: f.ks}, InfraErrors: infra,
		Intervals: f.style != table.NoInterval, Bootstrap: f.boot}
	if c.Bool("strict") {
		return runStrictPassK(c, e, f, stats)
	}
	rows, s, none, err := computeNoting(c, e, stats.Compute, func(r []analysis.PassKRow) bool { return len(r) == 0 })
	if err != nil || e.noTrajectories(none, f.format) {
		return err
	}
	if len(rows) == 0 && none == "" {
		fmt.Fprintln(e.stderr, "no rows: no run matched, or no task has at least k trials (see `emobench runs` for trials per task)")
	}
	t := table.PassK(rows, table.Units{Units: s.Units, Names: s.Names}, f.fields, f.format, f.style)
	return t.ExpandEstimates(f.format, f.style).Write(e.stdout, f.format)
}

// runStrictPassK is stats passk --strict: gated beside strict pass^k.
func runStrictPassK(c *cli.Context, e *env, f statsFlags, stats workbench.PassKStats) error {
	if f.style != table.NoInterval {
		return usagef("--strict gives no intervals: leave out --ci")
	}
	rows, s, none, err := computeNoting(c, e, stats.ComputeStrict, func(r []analysis.StrictPassKRow) bool { return len(r) == 0 })
	if err != nil || e.noTrajectories(none, f.format) {
		return err
	}
	if len(rows) == 0 && none == "" {
		fmt.Fprintln(e.stderr, "no rows: no run matched, or no task has at least k trials (see `emobench runs` for trials per task)")
	}
	return table.StrictPassK(rows, table.Units{Units: s.Units, Names: s.Names}, f.fields, f.format).Write(e.stdout, f.format)
}
