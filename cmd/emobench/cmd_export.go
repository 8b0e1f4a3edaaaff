package main

import (
	"fmt"

	"github.com/emobench/emobench/export"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func exportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write runs as τ-bench or τ²-bench files, Parquet or CSV tables, or JSON Lines",
		Description: "Formats:\n" +
			"   taubench  one τ-bench result file per run (emobench ingest reads it back)\n" +
			"   tau2      one τ²-bench Results file per run\n" +
			"   parquet   a directory: runs, tasks, trajectories, messages .parquet (DuckDB, pandas, Spark)\n" +
			"   csv       a directory: runs.csv, trajectories.csv, messages.csv\n" +
			"   jsonl     one file, one JSON object per trajectory\n" +
			"taubench and tau2 write --out DIR/<run-name>.json per run, or --out FILE.json for exactly one run.\n" +
			"Files are written to temporary names and renamed together once all are complete.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db export --format parquet --out tables/\n" +
			"   emobench --db runs.db export --format taubench --run 3 --out gpt-4.1-retail.json",
		Flags: []cli.Flag{
			cliargs.Choice("format", "", cliargs.OrList(export.Formats)+" (required)", export.Formats...),
			&cli.StringFlag{Name: "out", Usage: "output `PATH`: a file or a directory, by format (required)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing file, or write into a non-empty directory"},
			runFlag(),
		},
		Before: noArgs,
		Action: func(c *cli.Context) error { return runExport(c, e) },
	}
}

func runExport(c *cli.Context, e *env) error {
	written, err := workbench.Export(c.Context, c.String("db"), c.StringSlice("run"), c.String("format"), c.String("out"), c.Bool("force"))
	if err != nil {
		return err
	}
	for _, w := range written {
		fmt.Fprintln(e.stdout, w)
		if w.Warning != "" {
			fmt.Fprintf(e.stderr, "warning: %s: %s\n", w.Path, w.Warning)
		}
	}
	return nil
}
