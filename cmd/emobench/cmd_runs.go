package main

import (
	"fmt"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func runsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "runs",
		Usage: "list the runs in the database",
		Description: "Shows each run's id, name, model, domain, condition, number of tasks, trials per task,\n" +
			"trajectories, pass^1 (per-task convention; \"not evaluated\" when no trajectory has reward\n" +
			"information), mean_reward (runs with partial-credit rewards), user_unsatisfied (abandoned) count\n" +
			"and provenance (ingested, native, evaluated by evaluate --store, merged from another db, or unknown: stored before provenance\n" +
			"was recorded).\n\n" +
			"Example:\n   emobench --db runs.db runs --format csv",
		Flags:       []cli.Flag{tableFormatFlag()},
		Subcommands: []*cli.Command{tagCommand(e), setCommand(e), removeCommand(e)},
		Action: func(c *cli.Context) error {
			return e.readDB(c, func(store *db.DB) error {
				rows, notes, err := workbench.ListRuns(c.Context, store)
				e.warnAll(notes)
				if err != nil {
					return err
				}
				return table.Runs(rows, c.String("format")).Write(e.stdout, c.String("format"))
			})
		},
	}
}

func tagCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "tag",
		Usage:     "record or remove generalization metadata: the domains a tuned model was trained on and its base run",
		ArgsUsage: "RUN",
		Description: "stats generalization compares a tuned run with its base run, domain by domain, marking\n" +
			"each domain in-domain (trained on) or out-of-domain. A tag not named keeps its value;\n" +
			"--remove clears tags (train-domains, base-run, or all).\n\n" +
			"Example:\n" +
			"   emobench --db runs.db runs tag 7 --train-domains retail --base-run 3\n" +
			"   emobench --db runs.db runs tag 7 --remove base-run",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "train-domains", Usage: "domains the model was trained on, comma-separated"},
			&cli.StringFlag{Name: "base-run", Usage: "run id or name of the base (untuned) model on the same tasks"},
			&cli.StringFlag{Name: "base", Hidden: true}, // the old name of --base-run
			&cli.StringSliceFlag{Name: "remove", Usage: "tags to clear: train-domains, base-run or all (comma-separated)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("runs tag takes one RUN (id or name), got %d arguments", c.NArg())
			}
			baseRef, baseSet, err := cliargs.Renamed(c, "base-run", "base")
			if err != nil {
				return err
			}
			edit := workbench.TagEdit{TrainDomains: c.StringSlice("train-domains"), SetTrainDomains: c.IsSet("train-domains"),
				BaseRun: baseRef, SetBaseRun: baseSet, Remove: c.StringSlice("remove")}
			if err := edit.Check(); err != nil {
				return err
			}
			return e.runDB(c, func(store *db.DB, id int64) error {
				tags, notes, err := workbench.TagRun(c.Context, store, id, edit)
				if err == nil {
					e.warnAll(notes)
					fmt.Fprintf(e.stdout, "run %d: %s\n", id, tags)
				}
				return err
			})
		},
	}
}

// runDB runs f on the existing --db file opened for writing and the run
// id the command's one RUN argument (an id or a name) resolves to, and
// closes the database when f returns.
func (e *env) runDB(c *cli.Context, f func(store *db.DB, id int64) error) error {
	path := c.String("db")
	store, id, err := workbench.OpenRun(c.Context, path, c.Args().First(), e.warn, e.waitNotices(path)...)
	if err != nil {
		return err
	}
	defer store.Close()
	return f(store, id)
}

func setCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "set",
		Usage:     "correct a run's name, models or condition (e.g. after ingesting without flags)",
		ArgsUsage: "RUN",
		Description: "Re-ingesting a file is a no-op (its sha256 is known), so metadata is corrected here. The\n" +
			"domain is part of the tasks' content: to change it, `runs rm` the run and ingest the file again\n" +
			"with --domain. Runs made by `emobench run` keep their recorded settings: only the name changes.\n\n" +
			"Example:\n   emobench --db runs.db runs set 3 --model qwen3-32b --condition with-emotions",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "run name"},
			&cli.StringFlag{Name: "model", Usage: "agent model"},
			&cli.StringFlag{Name: "user-model", Usage: "user simulator model"},
			&cli.StringFlag{Name: "condition", Usage: "with-emotions, without-emotions or none"},
			&cli.StringFlag{Name: "domain", Hidden: true}, // refused below, with the way to do it
		},
		Action: func(c *cli.Context) error {
			if c.IsSet("domain") {
				return usagef("runs set cannot change a domain, part of the tasks' content: `runs rm` the run and ingest its file again with --domain")
			}
			if c.NArg() != 1 {
				return usagef("runs set takes one RUN (id or name), got %d arguments", c.NArg())
			}
			edit := workbench.RunEdit{Name: given(c, "name", c.String), AgentModel: given(c, "model", c.String),
				UserModel: given(c, "user-model", c.String), Condition: given(c, "condition", c.String)}
			m, err := edit.Metadata()
			if err != nil {
				return err
			}
			return e.runDB(c, func(store *db.DB, id int64) error {
				r, err := workbench.SetRunMetadata(c.Context, store, id, m)
				if err == nil && r.ID == id {
					fmt.Fprintf(e.stdout, "run %d (%s): model %s, domain %s, condition %s\n", id, r.Name, r.AgentModel, r.Domain, r.Condition)
				}
				return err
			})
		},
	}
}

func removeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "rm",
		Usage:     "delete runs with their trajectories and messages (tasks no other run uses go too)",
		ArgsUsage: "RUN...",
		Description: "All the runs go in one transaction, or none when one is unknown. The source file is\n" +
			"untouched, so a removed run can be ingested again.\n\n" +
			"Example:\n   emobench --db runs.db runs rm 3 gpt-4o-retail-old",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("runs rm takes one or more RUNs (ids or names)")
			}
			store, err := workbench.OpenExisting(c.Context, c.String("db"), e.warn, e.waitNotices(c.String("db"))...)
			if err != nil {
				return err
			}
			defer store.Close()
			ids, tasks, notes, err := workbench.RemoveRuns(c.Context, store, c.Args().Slice())
			if err != nil {
				return err
			}
			e.warnAll(notes)
			fmt.Fprintf(e.stdout, "removed %s %v and %s no other run used\n", plural(len(ids), "run", "runs"), ids, plural(int(tasks), "task", "tasks"))
			return nil
		},
	}
}
