package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports/table"
	"github.com/urfave/cli/v2"
)

func statsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "stats",
		Usage:       "statistics over the stored runs",
		Description: "Example:\n   emobench --db runs.db stats passk --by condition,emotion_family",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("no stats command %q (try: emobench stats passk)", c.Args().First())
			}
			return cli.ShowSubcommandHelp(c)
		},
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
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringSliceFlag{Name: "by", Usage: "group fields, comma-separated or repeated (always grouped by run)"},
			&cli.IntSliceFlag{Name: "k", Usage: "k values to report (default: 1 up to the most trials)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
			&cli.StringFlag{Name: "infra-errors", Value: "fail", Usage: "τ²-bench infrastructure_error and context_window_exceeded trajectories: fail (count them as failures) or exclude (as τ²-bench's own metrics do)"},
			poolFlag(),
		}, intervalFlags("none")...),
		Action: func(c *cli.Context) error { return runPassK(c, e) },
	}
}

func parseGroupFields(by string) ([]string, error) {
	if by == "" {
		return nil, nil
	}
	var fields []string
	for _, f := range strings.Split(by, ",") {
		f = strings.TrimSpace(f)
		if f == "run" {
			continue // always grouped by run
		}
		if !slices.Contains(emobench.GroupFields, f) {
			return nil, usagef("--by %q: no field %q (fields: %s)", by, f, strings.Join(emobench.GroupFields, ", "))
		}
		fields = append(fields, f)
	}
	return fields, nil
}

func runPassK(c *cli.Context, e *env) error {
	// Its heap is O(tasks) and the process short: collect 4x less often.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	if err := noArgs(c); err != nil {
		return err
	}
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
	ks := c.IntSlice("k")
	for _, k := range ks {
		if k < 1 {
			return usagef("--k %d: k must be at least 1", k)
		}
	}
	store, runIDs, err := openRuns(c)
	if err != nil {
		return err
	}
	defer store.Close()
	bopts, style, err := bootstrapOptions(c)
	if err != nil {
		return err
	}
	withoutInfra := false
	switch c.String("infra-errors") {
	case "fail":
	case "exclude":
		withoutInfra = true
	default:
		return usagef("--infra-errors %q is not one of fail, exclude", c.String("infra-errors"))
	}
	if n, err := store.CountInfraErrors(c.Context, runIDs); err == nil && n > 0 {
		verb := map[string]string{"fail": "counted as failures", "exclude": "left out of every denominator"}[c.String("infra-errors")]
		e.warn(fmt.Sprintf("%s in a τ²-bench infrastructure_error or context_window_exceeded: %s (--infra-errors %s)",
			plural(n, "trajectory ended", "trajectories ended"), verb, c.String("infra-errors")))
	}
	units, names, err := loadUnits(c.Context, e, store, runIDs, c.Bool("pool"))
	if err != nil {
		return err
	}
	if err := warnSuspectTrials(c.Context, e, store, runIDs, names, conv); err != nil {
		return err
	}
	in, runTrials, overlaps, err := pooledTaskTrials(c.Context, withoutInfra, store, units, runIDs, fields, conv)
	if err != nil {
		return err
	}
	noteOverlaps(e, overlaps)
	rows, err := analysis.PassK(in, analysis.PassKOptions{Convention: conv, Ks: ks, RunTrials: runTrials})
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		fmt.Fprintln(e.stderr, "no rows: no run matched, or no task has at least k trials (see `emobench runs` for trials per task)")
	} else if !units.Pooled() {
		noteRunsWithoutRows(e, runIDs, rows, names)
	}
	if style != table.NoInterval {
		analysis.PassKIntervals(rows, in, runTrials, bopts)
	}
	t := table.PassK(rows, table.Units{Units: units, Names: names}, fields, format, style)
	return t.ExpandEstimates(format, style).Write(e.stdout, format)
}

// noteRunsWithoutRows names each run asked for with --run that has no
// row: it holds no trajectory, or no task with k trials.
func noteRunsWithoutRows(e *env, runIDs []int64, rows []analysis.PassKRow, names map[int64]string) {
	has := map[int64]bool{}
	for _, r := range rows {
		has[r.RunID] = true
	}
	for _, id := range runIDs {
		if !has[id] {
			e.warn(fmt.Sprintf("run %d (%s) has no row: it holds no trajectory, or no task with k trials (see `emobench runs`)", id, names[id]))
		}
	}
}

// warnSuspectTrials warns, under --convention min-trials, about every run
// of runIDs (all when empty) whose n, its number of distinct trial values,
// is in doubt (analysis.SuspectTrialNotes), naming the n used and the run
// by names.
func warnSuspectTrials(ctx context.Context, e *env, store *db.DB, runIDs []int64, names map[int64]string, conv analysis.Convention) error {
	if conv != analysis.MinTrials {
		return nil
	}
	numbers, err := store.ListTrialNumbers(ctx)
	if err != nil {
		return err
	}
	listed, err := store.ListTaskTrials(ctx, runIDs)
	if err != nil {
		return err
	}
	tasks := taskTrials(listed, nil)
	trialNumbers := make(map[int64]analysis.TrialNumbers, len(numbers))
	for id, n := range numbers {
		trialNumbers[id] = analysis.TrialNumbers{Distinct: n.Distinct, First: n.First, Last: n.Last}
	}
	e.warnAll(analysis.SuspectTrialNotes(trialNumbers, tasks, names))
	return nil
}

func resolveRuns(ctx context.Context, store *db.DB, refs []string) ([]int64, error) {
	var ids []int64
	for _, ref := range refs {
		id, err := store.ResolveRun(ctx, ref)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// computePassK loads the (run, task) counts of runIDs, pools them into
// units and computes pass^k rows grouped by unit and fields. It also
// returns the pooled task outcomes and the overlaps of pooled runs.
func computePassK(ctx context.Context, store *db.DB, units analysis.Units, runIDs []int64, fields []string, opts analysis.PassKOptions) ([]analysis.PassKRow, []analysis.TaskTrials, []analysis.Overlap, error) {
	in, runTrials, overlaps, err := pooledTaskTrials(ctx, false, store, units, runIDs, fields, opts.Convention)
	if err != nil {
		return nil, nil, nil, err
	}
	opts.RunTrials = runTrials
	rows, err := analysis.PassK(in, opts)
	return rows, in, overlaps, err
}

// loadTaskTrialsFrom returns, through ListTaskTrials (or, withoutInfra,
// the listing without infrastructure errors), one analysis.TaskTrials per
// (run, task) with the group fields' values and its unevaluated trials,
// and for MinTrials each run's distinct trial count.
func loadTaskTrialsFrom(ctx context.Context, withoutInfra bool, store *db.DB, runIDs []int64, fields []string, conv analysis.Convention) ([]analysis.TaskTrials, map[int64]int, error) {
	list := store.ListTaskTrials
	if withoutInfra {
		list = store.ListTaskTrialsWithoutInfraErrors
	}
	tasks, err := list(ctx, runIDs)
	if err != nil {
		return nil, nil, err
	}
	var runTrials map[int64]int
	if conv == analysis.MinTrials {
		if runTrials, err = store.CountRunTrials(ctx); err != nil {
			return nil, nil, err
		}
	}
	return taskTrials(tasks, fields), runTrials, nil
}

// taskTrials are listed as analysis takes them, grouped by fields.
func taskTrials(listed []db.TaskTrials, fields []string) []analysis.TaskTrials {
	in := make([]analysis.TaskTrials, len(listed))
	for i, t := range listed {
		group := make([]string, len(fields))
		for j, f := range fields {
			group[j] = t.Field(f)
		}
		in[i] = analysis.TaskTrials{RunID: t.RunID, TaskID: t.TaskID, Group: group, Trials: t.Trials, Passes: t.Passes,
			Unevaluated: t.Unevaluated}
	}
	return in
}
