package main

import (
	"slices"
	"strings"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// poolFlag is --pool, on every stats command and on report.
func poolFlag() cli.Flag {
	return &cli.BoolFlag{Name: "pool", Usage: "pool the runs that share agent model, user model, domain and condition: every trajectory of a task in them is one trial of it; without it, statistics are per run"}
}

// runFlag is --run, on every stats command and on report.
func runFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"}
}

// formatFlag is --format of the stats commands (table.Formats).
func formatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"}
}

// compute runs one workbench computation over the runs of --run (per
// run, or with --pool per pool) in --db (workbench.Compute) and prints its
// notes, also when it fails.
func compute[T any](c *cli.Context, e *env, run workbench.Computation[T]) (T, workbench.Selection, error) {
	res, s, _, err := computeNoting(c, e, run, nil)
	return res, s, err
}

// computeNoting is compute that, when empty(result), also returns
// workbench.NoTrajectoriesNote: the note that no selected run holds a
// trajectory ("" when one does).
func computeNoting[T any](c *cli.Context, e *env, run workbench.Computation[T], empty func(T) bool) (T, workbench.Selection, string, error) {
	res, s, notes, none, err := workbench.Compute(c.Context, c.String("db"), c.StringSlice("run"), c.Bool("pool"), run, empty)
	e.warnAll(notes)
	return res, s, none, err
}

// statsFlags are the flags the stats commands share, read and checked in
// one place, each where its command defines it: --format (table.Formats),
// --by, --convention, a list --k, --ci and the bootstrap flags
// (--ci-method, --resamples, --seed, --level).
type statsFlags struct {
	format string
	fields []string // --by
	conv   analysis.Convention
	ks     []int // --k of passk and emotions (each at least 1)
	style  table.CIStyle
	boot   analysis.BootstrapOptions
}

// statsAction is a stats command's action: it reads the shared flags
// (readStatsFlags) and runs run with them.
func statsAction(e *env, run func(*cli.Context, *env, statsFlags) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		f, err := readStatsFlags(c)
		if err != nil {
			return err
		}
		return run(c, e, f)
	}
}

func readStatsFlags(c *cli.Context) (statsFlags, error) {
	f := statsFlags{format: c.String("format")}
	if err := checkFormat(f.format, table.Formats...); err != nil {
		return f, err
	}
	var err error
	if f.fields, err = workbench.ParseGroupFields(strings.Join(c.StringSlice("by"), ",")); err != nil {
		return f, err
	}
	if hasFlag(c, "convention") {
		if f.conv, err = analysis.ParseConvention(c.String("convention")); err != nil {
			return f, usagef("%v", err)
		}
	}
	f.ks = c.IntSlice("k") // nil where --k is one k (gap) or none
	for _, k := range f.ks {
		if k < 1 {
			return f, usagef("--k %d: k must be at least 1", k)
		}
	}
	if hasFlag(c, "ci") {
		if f.style, err = parseCIStyle(c.String("ci")); err != nil {
			return f, err
		}
	}
	if hasFlag(c, "resamples") {
		f.boot, err = bootstrapFlags(c)
	}
	return f, err
}

// hasFlag reports whether c's command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}
