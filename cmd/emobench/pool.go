package main

import (
	"cmp"
	"slices"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// poolFlag is --pool, on every stats command and on report.
func poolFlag() cli.Flag {
	return &cli.BoolFlag{Name: "pool", Usage: "pool the runs that share agent model, user model, domain and condition: every trajectory of a task in them is one trial of it; without it, statistics are per run"}
}

// runFlag is --run, on every stats command, report and export.
func runFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"}
}

// statsFlags are a stats command's flags: --run, its own flags, --format
// (table.Formats) and --pool, then, unless ciStyle is "", the bootstrap
// interval flags with --ci defaulting to ciStyle (intervalFlags).
func statsFlags(ciStyle string, own ...cli.Flag) []cli.Flag {
	flags := slices.Concat([]cli.Flag{runFlag()}, own, []cli.Flag{tableFormatFlag(), poolFlag()})
	if ciStyle != "" {
		flags = append(flags, intervalFlags(ciStyle)...)
	}
	return flags
}

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

// statsRequest reads the flags of a stats command or the report into a
// checked workbench.StatsRequest. A flag its command does not define reads
// as "" or nil: the request's default (the report's format is "table").
func statsRequest(c *cli.Context) (workbench.StatsRequest, error) {
	r := workbench.StatsRequest{DB: c.String("db"), Runs: c.StringSlice("run"), Pool: c.Bool("pool"), Format: cmp.Or(c.String("format"), "table"),
		By: c.StringSlice("by"), Ks: c.IntSlice("k"), // Ks: nil where --k is one k (gap) or none
		Convention: c.String("convention"), CI: c.String("ci")}
	if hasFlag(c, "resamples") { // an explicit --resamples 0 is refused, not read as none
		r.Bootstrap = &analysis.BootstrapOptions{Resamples: c.Int("resamples"), Level: c.Float64("level"), Seed: c.Uint64("seed"), Method: c.String("ci-method")}
	}
	return r, r.Check()
}

// statsAction is a stats command's action: it reads its request
// (statsRequest) and runs run with it.
func statsAction(e *env, run func(*cli.Context, *env, workbench.StatsRequest) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		r, err := statsRequest(c)
		if err != nil {
			return err
		}
		return run(c, e, r)
	}
}

// compute runs one workbench computation over r's selection
// (workbench.Compute) and prints its notes, also when it fails. When
// empty(result), it also prints the note that no selected run holds a
// trajectory, and bare is whether the caller had better print nothing
// more (StatsRequest.Bare); none is that note.
func compute[T any](c *cli.Context, e *env, r workbench.StatsRequest, run workbench.Computation[T], empty func(T) bool) (res T, s workbench.Selection, none string, err error) {
	res, s, notes, none, err := workbench.Compute(c.Context, r.DB, r.Runs, r.Pool, run, empty)
	e.warnAll(notes)
	if none != "" {
		e.warn(none)
	}
	return res, s, none, err
}

// hasFlag reports whether c's command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}
