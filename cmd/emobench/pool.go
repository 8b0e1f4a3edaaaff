package main

import (
	"github.com/emobench/emobench/db"
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

// openSelection opens the database, resolves --run and makes the units of
// the selected runs, per run or with --pool per pool. The caller closes the
// store.
func openSelection(c *cli.Context) (*db.DB, workbench.Selection, error) {
	store, runIDs, err := openRuns(c)
	if err != nil {
		return nil, workbench.Selection{}, err
	}
	s, err := workbench.Select(c.Context, store, runIDs, c.Bool("pool"))
	if err != nil {
		store.Close()
		return nil, workbench.Selection{}, err
	}
	return store, s, nil
}
