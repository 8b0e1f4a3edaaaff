package main

import (
	"fmt"
	"math"

	"github.com/emobench/emobench/db"
	"github.com/urfave/cli/v2"
)

func runsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "runs",
		Usage: "list the runs in the database",
		Description: "Shows each run's id, name, model, domain, condition, number of tasks, trials per task,\n" +
			"trajectories, pass^1 (per-task convention) and user_unsatisfied (abandoned) count.\n\n" +
			"Example:\n   emobench --db runs.db runs --format csv",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json or csv"},
		},
		Subcommands: []*cli.Command{tagCommand(e)},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			format := c.String("format")
			if err := checkFormat(format, "table", "json", "csv"); err != nil {
				return err
			}
			store, err := openCurrent(c)
			if err != nil {
				return err
			}
			defer store.Close()
			runs, err := store.ListRunSummaries(c.Context)
			if err != nil {
				return err
			}
			return runsTable(runs).write(e.stdout, format)
		},
	}
}

func runsTable(runs []db.RunSummary) *table {
	t := &table{columns: []string{"id", "name", "model", "domain", "condition", "tasks", "trials_per_task", "trajectories", "pass_hat_1", "abandoned"}}
	for _, r := range runs {
		pass1 := math.NaN()
		if r.Pass1.Valid {
			pass1 = r.Pass1.Float64
		}
		t.rows = append(t.rows, []any{
			r.ID, r.Name, r.AgentModel, r.Domain, string(r.Condition),
			r.Tasks, trialsPerTask(r.MinTrials, r.MaxTrials), r.Trajectories, pass1, r.Abandoned,
		})
	}
	return t
}

// trialsPerTask shows "4", or "2-4" when tasks have different trial counts.
func trialsPerTask(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

func tagCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "tag",
		Usage:     "record generalization metadata: the domains a tuned model was trained on and its base run",
		ArgsUsage: "RUN",
		Description: "stats generalization compares a tuned run with its base run, domain by domain, marking\n" +
			"each domain in-domain (trained on) or out-of-domain.\n\n" +
			"Example:\n   emobench --db runs.db runs tag 7 --train-domains retail --base 3",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "train-domains", Usage: "domains the model was trained on, comma-separated"},
			&cli.StringFlag{Name: "base", Usage: "run id or name of the base (untuned) model on the same tasks"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("runs tag takes one RUN (id or name), got %d arguments", c.NArg())
			}
			if !c.IsSet("train-domains") && !c.IsSet("base") {
				return usagef("runs tag needs --train-domains and/or --base")
			}
			store, err := db.Open(c.Context, c.String("db"))
			if err != nil {
				return err
			}
			defer store.Close()
			id, err := store.ResolveRun(c.Context, c.Args().First())
			if err != nil {
				return err
			}
			var base int64
			if ref := c.String("base"); ref != "" {
				if base, err = store.ResolveRun(c.Context, ref); err != nil {
					return err
				}
				if base == id {
					return usagef("a run cannot be its own base")
				}
			}
			domains := splitList(c.StringSlice("train-domains"))
			warnUnlikelyTags(c, e, store, id, domains, base)
			if err := store.TagRun(c.Context, id, domains, base); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "run %d: train domains %v, base run %d\n", id, domains, base)
			return nil
		},
	}
}

// warnUnlikelyTags points out tags that look like typos: a train domain no
// run has, or a base run of another domain.
func warnUnlikelyTags(c *cli.Context, e *env, store *db.DB, id int64, domains []string, base int64) {
	runs, err := store.ListRunSummaries(c.Context)
	if err != nil {
		return
	}
	known := map[string]bool{}
	domainOf := map[int64]string{}
	for _, r := range runs {
		known[r.Domain] = true
		domainOf[r.ID] = r.Domain
	}
	for _, d := range domains {
		if !known[d] {
			e.warn(fmt.Sprintf("no run in this database is on domain %q (a typo?); tagged anyway", d))
		}
	}
	if base != 0 && domainOf[base] != domainOf[id] {
		e.warn(fmt.Sprintf("base run %d is on domain %s, run %d on %s: stats generalization compares runs domain by domain", base, domainOf[base], id, domainOf[id]))
	}
}
