package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func ingestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "ingest",
		Usage:     "read result files into the database, one transaction per file",
		ArgsUsage: "FILE|DIR|-...",
		Description: "Reads τ-bench / τ-Emotion-Bench result files (a JSON array of {task_id, reward, info, traj, trial}),\n" +
			"τ²-bench Results files ({timestamp, info, tasks, simulations}) and run directories (results.json + simulations/),\n" +
			"and τ²-bench leaderboard submission.json files (stored as published results). --format auto tells them apart.\n" +
			"Directories are walked for *.json and *.jsonl (JSON Lines of records); a folder holding results.json and\n" +
			"simulations/ is one τ²-bench run; symlinks to files are followed. A file already ingested (same sha256) is\n" +
			"skipped. - reads standard input; pipes, FIFOs and devices are read as a stream.\n" +
			"Model, domain and condition come from the flags, else from the file's content (a τ²-bench file's info, the\n" +
			"info.emobench of emobench's τ-bench export), else from file names like <model>-<domain>-(with|without)-emotions.json\n" +
			"or <model>-<domain>.json, else 'unknown'. A name taken by a stored run gets a suffix (-2, -3, …).\n\n" +
			"Example:\n" +
			"   emobench --db runs.db ingest results/*.json\n" +
			"   emobench --db runs.db ingest tau2-results/ submission.json\n" +
			"   zcat run.json.gz | emobench --db runs.db ingest --name run1 -\n" +
			"   emobench --db runs.db ingest --model gpt-4.1 --domain retail --condition none run1.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "auto", Usage: "input format: auto, " + strings.Join(ingest.FormatNames(), ", ")},
			&cli.StringFlag{Name: "model", Usage: "agent model of the run(s)"},
			&cli.StringFlag{Name: "user-model", Usage: "user simulator model of the run(s)"},
			&cli.StringFlag{Name: "domain", Usage: "domain of the run(s), e.g. retail"},
			&cli.StringFlag{Name: "condition", Usage: "with-emotions, without-emotions or none"},
			&cli.StringFlag{Name: "name", Usage: "run name (one file only; default: the file name)"},
			&cli.StringFlag{Name: "on-duplicate", Value: "refuse", Usage: "a repeated (task_id, trial) in a file: refuse or keep-last"},
			&cli.BoolFlag{Name: "reingest", Usage: "replace a run merged from another db (or of unknown provenance) that has the file's sha256 with the file's own content"},
			&cli.StringFlag{Name: "max-spool", Value: "4GiB", Usage: "the most a pipe's τ²-bench simulations may take in a temporary file, when they come before its tasks"},
			&cli.StringFlag{Name: "max-record", Value: defaultMaxRecord, Usage: "the most one record (a τ-bench record, a τ²-bench simulation, results.json) may take; a larger one fails its file"},
		},
		Action: func(c *cli.Context) error { return runIngest(c, e) },
	}
}

// defaultMaxRecord is --max-record's default, ingest.DefaultMaxRecord.
const defaultMaxRecord = "3MiB"

func runIngest(c *cli.Context, e *env) error {
	opts, err := workbench.IngestFlags{
		Format: c.String("format"), Name: c.String("name"), Model: c.String("model"), UserModel: c.String("user-model"),
		Domain: c.String("domain"), Condition: c.String("condition"), OnDuplicate: c.String("on-duplicate"),
		Reingest: c.Bool("reingest"), MaxSpool: c.String("max-spool"), MaxRecord: c.String("max-record"), DBPath: c.String("db"),
	}.Options()
	if err != nil {
		return err
	}
	opts.Progress, opts.AfterHash = workbench.IngestProgress(e.terminal), e.afterHash // a progress bar for large files on a terminal
	open := func(ctx context.Context) (*db.DB, error) { return e.openWrite(ctx, c.String("db")) }
	failed, inputs, err := workbench.IngestArgs(c.Context, c.Args().Slice(), e.stdin, opts, open, e.stdout, e.stderr, e.warn)
	if err == nil && failed > 0 {
		err = &reportedError{fmt.Errorf("%d of %d inputs failed", failed, inputs)}
	}
	return err
}
