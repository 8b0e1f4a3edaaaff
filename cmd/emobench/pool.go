package main

import (
	"context"
	"slices"
	"strings"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
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

// compute opens the database, resolves --run into a selection of units
// (per run, or with --pool per pool), runs one workbench computation (an
// XStats's Compute, ReportOptions.Build) over it and prints its notes,
// also when it fails. The store is closed when it returns.
func compute[T any](c *cli.Context, e *env, run func(context.Context, *db.DB, workbench.Selection) (T, []string, error)) (T, workbench.Selection, error) {
	var none T
	store, runIDs, err := openRuns(c)
	if err != nil {
		return none, workbench.Selection{}, err
	}
	defer store.Close()
	s, err := workbench.Select(c.Context, store, runIDs, c.Bool("pool"))
	if err != nil {
		return none, s, err
	}
	res, notes, err := run(c.Context, store, s)
	e.warnAll(notes)
	return res, s, err
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
