package main

import (
	"context"
	"fmt"
	"os"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/urfave/cli/v2"
)

func mergeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "copy the runs and leaderboard results of other emobench files into this one (one transaction per file)",
		ArgsUsage: "OTHER.db...",
		Description: "Imported runs already present (same source sha256) are skipped. Native runs join the run of\n" +
			"the same name and settings, gaining only the (task, trial) pairs it lacks, so the shards of a\n" +
			"run (emobench run --shard I/N on several machines) merge into one run. Tasks are shared by\n" +
			"content; ids are renumbered. The other files are opened read-only.\n\n" +
			"Example:\n   emobench --db all.db merge shard-0.db shard-1.db shard-2.db",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("merge needs at least one OTHER.db")
			}
			store, err := e.openWrite(c.Context, c.String("db"))
			if err != nil {
				return err
			}
			defer store.Close()
			for _, path := range c.Args().Slice() {
				src, err := db.OpenReadOnly(c.Context, path)
				if err != nil {
					return err
				}
				rep, err := store.Merge(c.Context, src, ingest.RedactTrajectory)
				src.Close()
				if err != nil {
					return fmt.Errorf("merge %s: %w (nothing of it was stored)", path, err)
				}
				fmt.Fprintf(e.stdout, "%s: %d runs added, %d extended, %d skipped; %d trajectories copied, %d (task, trial) pairs already present; %d leaderboard files copied\n",
					path, rep.RunsAdded, rep.RunsExtended, rep.RunsSkipped, rep.Trajectories, rep.PairsSkipped, rep.PublishedFiles)
			}
			return e.scrub(c.Context, store, c.String("db")) // configs copied from older files
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
			if out == "" {
				return usagef("vacuum needs --out FILE")
			}
			if err := db.CheckVacuumTarget(out); err != nil {
				return asUsage(err)
			}
			// The read-only open refuses a missing file (openWrite would create
			// it); it is closed first, since a writer waits for an immutable
			// reader of the file.
			store, err := db.OpenReadOnly(c.Context, c.String("db"))
			if err != nil {
				return err
			}
			store.Close()
			rw, err := e.openWrite(c.Context, c.String("db"))
			if err != nil {
				return err
			}
			defer rw.Close()
			if err := rw.VacuumInto(c.Context, out); err != nil {
				return fmt.Errorf("vacuum into %s: %w", out, err)
			}
			info, err := os.Stat(out)
			if err != nil {
				return fmt.Errorf("vacuum into %s: %w", out, err)
			}
			fmt.Fprintf(e.stdout, "wrote %s (%d bytes)\n", out, info.Size())
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
			store, err := db.OpenReadOnly(c.Context, c.String("db"))
			if err != nil {
				return err
			}
			defer store.Close()
			rep, err := store.Check(c.Context)
			if err != nil {
				return fmt.Errorf("check %s: %w", c.String("db"), err)
			}
			fmt.Fprintf(e.stdout, "%s: schema version %d (this emobench writes %d)\n", c.String("db"), rep.SchemaVersion, db.SchemaVersion())
			for _, p := range rep.Problems {
				fmt.Fprintln(e.stdout, "problem: "+p)
			}
			if len(rep.Problems) > 0 {
				return &reportedError{fmt.Errorf("%d problems", len(rep.Problems))}
			}
			fmt.Fprintln(e.stdout, "ok: integrity and schema as expected")
			if rep.SchemaVersion >= db.SchemaVersion() {
				if err := printProvenance(c.Context, e, store); err != nil {
					return fmt.Errorf("check %s: %w", c.String("db"), err)
				}
			}
			if rep.SchemaVersion < db.SchemaVersion() {
				fmt.Fprintf(e.stdout, "note: the read commands need schema version %d: upgrade with `emobench --db %s migrate`\n", db.SchemaVersion(), c.String("db"))
			}
			return nil
		},
	}
}

// printProvenance prints how many runs came from where, and one line per
// run not ingested here.
func printProvenance(ctx context.Context, e *env, store *db.DB) error {
	lines, err := store.ProvenanceLines(ctx)
	for _, line := range lines {
		fmt.Fprintln(e.stdout, line)
	}
	return err
}

// openCurrent opens the database read-only and requires the current schema,
// which the analysis commands query.
func openCurrent(c *cli.Context) (*db.DB, error) {
	store, err := db.OpenReadOnly(c.Context, c.String("db"))
	if err != nil {
		return nil, err
	}
	if err := store.RequireCurrent(c.Context); err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

// openWrite opens the database at path for writing (creating and
// migrating it), then redacts credentials that older emobench versions
// stored in run configs.
func (e *env) openWrite(ctx context.Context, path string) (*db.DB, error) {
	store, err := db.Open(ctx, path, db.OnWait(func() {
		fmt.Fprintf(e.stderr, "waiting: another process is writing to %s; emobench waits until it is done (Ctrl-C stops)\n", path)
	}), db.OnReaderWait(func() {
		fmt.Fprintf(e.stderr, "waiting: another process is reading %s, which is in WAL mode with no -wal file; emobench writes when it is done (Ctrl-C stops)\n", path)
	}))
	if err != nil {
		return nil, err
	}
	if err := e.scrub(ctx, store, path); err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

// scrub redacts credentials in the run configs of store, saying which, and,
// once per file, in the trajectories an older emobench stored.
func (e *env) scrub(ctx context.Context, store *db.DB, path string) error {
	notes, err := store.Scrub(ctx, path, ingest.RedactTrajectory)
	e.warnAll(notes)
	return err
}

// openRuns opens the database like openCurrent and resolves the command's
// --run flags (all runs when none is given).
func openRuns(c *cli.Context) (*db.DB, []int64, error) {
	store, err := openCurrent(c)
	if err != nil {
		return nil, nil, err
	}
	runIDs, err := resolveRuns(c.Context, store, c.StringSlice("run"))
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	return store, runIDs, nil
}

func migrateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "migrate",
		Usage:       "upgrade a database to this emobench's schema (other writing commands do it too)",
		Description: "Example:\n   emobench --db old.db migrate",
		Before:      noArgs,
		Action: func(c *cli.Context) error {
			store, err := e.openWrite(c.Context, c.String("db"))
			if err != nil {
				return err
			}
			defer store.Close()
			fmt.Fprintf(e.stdout, "%s: schema version %d\n", c.String("db"), db.SchemaVersion())
			return nil
		},
	}
}
