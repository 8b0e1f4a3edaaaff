package main

import (
	"fmt"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func mergeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "copy the runs and leaderboard results of other emobench files into this one (one transaction per file)",
		ArgsUsage: "OTHER.db...",
		Description: "Imported runs already present (same source sha256) are skipped. Native runs join the run of\n" +
			"the same name (or the name-2, name-3, … a merge gave it) and settings, gaining only the\n" +
			"(task, trial) pairs it lacks, so the shards of a run (emobench run --shard I/N on several\n" +
			"machines) merge into one run. Tasks are shared by\n" +
			"content; ids are renumbered. A run added under a name a stored run has gets a distinct name\n" +
			"(name-2, name-3, …), with a note. The other files are opened read-only.\n\n" +
			"Example:\n   emobench --db all.db merge shard-0.db shard-1.db shard-2.db",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("merge needs at least one OTHER.db")
			}
			return e.writeDB(c, func(store *db.DB) error {
				return workbench.MergeFiles(c.Context, store, c.String("db"), c.Args().Slice(), e.println, e.warn)
			})
		},
	}
}

func vacuumCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "vacuum",
		Usage:       "write a compact copy of the database for sharing (VACUUM INTO)",
		Description: "Example:\n   emobench --db runs.db vacuum --out runs-compact.db",
		Before:      noArgs,
		Flags:       []cli.Flag{&cli.StringFlag{Name: "out", Usage: "`FILE` to write; must not exist"}},
		Action: func(c *cli.Context) error {
			out := c.String("out")
			size, err := workbench.Vacuum(c.Context, c.String("db"), out, e.warn, e.waitNotices(c.String("db"))...)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote %s (%d bytes)\n", out, size)
			return nil
		},
	}
}

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "check a database: SQLite integrity and emobench's schema (safe on files from others)",
		Description: "Opens the file read-only (trusted_schema off, defensive mode, no extensions), runs\n" +
			"PRAGMA integrity_check, and compares every table, view, index and trigger with the schema\n" +
			"emobench creates. Exit 1 when anything is wrong.\n\n" +
			"Example:\n   emobench --db colleague.db check",
		Before: noArgs,
		Action: func(c *cli.Context) error {
			rep, err := workbench.CheckDB(c.Context, c.String("db"))
			if rep == nil {
				return err
			}
			for _, line := range rep.Lines(c.String("db")) {
				fmt.Fprintln(e.stdout, line)
			}
			if len(rep.Problems) > 0 {
				return &reportedError{fmt.Errorf("%d problems", len(rep.Problems))}
			}
			return err
		},
	}
}

func migrateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "migrate",
		Usage:       "upgrade a database to this emobench's schema (other writing commands do it too)",
		Description: "Example:\n   emobench --db old.db migrate",
		Before:      noArgs,
		Action: func(c *cli.Context) error {
			return e.writeDB(c, func(*db.DB) error {
				_, err := fmt.Fprintf(e.stdout, "%s: schema version %d\n", c.String("db"), db.SchemaVersion())
				return err
			})
		},
	}
}
