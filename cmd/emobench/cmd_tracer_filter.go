package main

import (
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func tracerFilterCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "filter",
		Usage: "keep the trajectories worth training on: passed, not abandoned, within a user-dependence bound",
		Description: "A trajectory is kept when its reward is at least --min-reward (1 ± 1e-6 by default), the user did\n" +
			"not abandon it (user_unsatisfied; --keep-unsatisfied keeps those), and, with --max-user-dependence X,\n" +
			"its user_turns_per_fact (user turns / facts the gold actions use) is at most X. Trajectories of\n" +
			"test-split tasks (an embedded test task, a run of --split test, a test task set) are excluded\n" +
			"first and counted (test_excluded) unless --allow-test-tasks. A trajectory whose\n" +
			"dependence is unknown (an imported task without a scenario) is dropped under a bound, kept without.\n" +
			"User dependence left NULL (runs stored before it was recorded) is computed now and stored with the\n" +
			"selection. The funnel per domain and emotion family (none: the without-emotions condition) is\n" +
			"printed and stored with the kept set as selection --selection, all in one transaction; --dry-run\n" +
			"stores nothing. `emobench tracer funnel --selection NAME` prints a stored funnel again.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db tracer filter --run 1 --run 2 --max-user-dependence 2 --selection sft-retail\n" +
			"   emobench --db runs.db tracer filter --dry-run --format json",
		Flags: []cli.Flag{
			runFlag(),
			&cli.Float64Flag{Name: "min-reward", Value: 1, Usage: "least reward kept (a reward within 1e-6 below counts)"},
			&cli.BoolFlag{Name: "drop-unsatisfied", Value: true, Usage: "drop trajectories the user abandoned (user_unsatisfied); the default"},
			&cli.BoolFlag{Name: "keep-unsatisfied", Usage: "keep trajectories the user abandoned (--drop-unsatisfied=false)"},
			&cli.Float64Flag{Name: "max-user-dependence", Usage: "keep only trajectories whose user_turns_per_fact is at most this (equal is kept); default no bound"},
			&cli.StringFlag{Name: "selection", Usage: "`NAME` of the stored selection (required unless --dry-run)"},
			&cli.BoolFlag{Name: "replace", Usage: "replace a stored selection of that name"},
			&cli.BoolFlag{Name: "allow-test-tasks", Usage: "keep trajectories of test-split tasks (excluded by default: they leak the test set)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the funnel and store nothing"},
			formatFlag("table", "table", "json"),
		},
		Before: noArgs,
		Action: func(c *cli.Context) error { return tracerFilter(c, e) },
	}
}

func tracerFilter(c *cli.Context, e *env) error {
	if c.IsSet("keep-unsatisfied") && c.IsSet("drop-unsatisfied") && c.Bool("keep-unsatisfied") == c.Bool("drop-unsatisfied") {
		return usagef("--keep-unsatisfied and --drop-unsatisfied say opposite things: give one")
	}
	criteria := analysis.FilterCriteria{MinReward: c.Float64("min-reward"), KeepAbandoned: c.Bool("keep-unsatisfied") || !c.Bool("drop-unsatisfied"),
		AllowTestTasks: c.Bool("allow-test-tasks"), MaxUserDependence: given(c, "max-user-dependence", c.Float64)}
	req, err := workbench.NewFilterRequest(criteria, c.String("selection"), c.Bool("replace"), c.Bool("dry-run"))
	if err != nil {
		return err
	}
	withDB := e.writeDB
	if req.DryRun {
		withDB = e.readDB
	}
	return withDB(c, func(store *db.DB) error {
		if req.Runs, err = workbench.ResolveRuns(c.Context, store, c.StringSlice("run")); err != nil {
			return err
		}
		res, err := tracer.Filter(c.Context, store, req)
		if err != nil {
			return err
		}
		return workbench.WriteFilterResult(e.stdout, req, res, c.String("format"), e.warn, e.warning)
	})
}

func tracerFunnelCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "funnel",
		Usage: "print the funnel a selection was stored with (tracer filter)",
		Description: "Prints the funnel `tracer filter` stored with selection NAME: per domain and emotion family,\n" +
			"generated tasks, then collected, passed, not abandoned, within dependence and kept trajectories.\n" +
			"Without --selection, it lists the selections. The report's Tracer charts show these numbers.\n\n" +
			"Example:\n   emobench --db runs.db tracer funnel --selection sft-retail --format json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "selection", Usage: "selection name (default: list the selections)"},
			formatFlag("table", "table", "json"),
		},
		Before: noArgs,
		Action: func(c *cli.Context) error {
			return e.readDB(c, func(store *db.DB) error {
				w, err := workbench.WriteFunnel(c.Context, store, c.String("selection"), e.stdout, c.String("format"))
				if w != "" {
					e.warning(w)
				}
				return err
			})
		},
	}
}
