package main

import (
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func statsGeneralizationCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "generalization",
		Usage: "tuned vs base model Δpass^1 per domain, in-domain and out-of-domain, and a domain × model matrix",
		Description: "A tuned run is one tagged with its train domains and base run (emobench runs tag, or run\n" +
			"--train-domains/--base-run). Runs of the same tuned model on several domains are compared with\n" +
			"their base runs domain by domain; each domain is in-domain when the model was trained on it.\n" +
			"The mean in-domain and out-of-domain Δ come with bootstrap CIs. Δ, tuned_pass_1 and base_pass_1\n" +
			"are over the tasks both runs share (paired_tasks; a note counts the tasks left out of each);\n" +
			"a domain with 0 paired tasks gets an unpaired Δ without an interval (and a note).\n" +
			"With --pool, tuned runs pool only with tuned runs of the same train domains and base; untagged\n" +
			"runs are not tuned and pool apart.\n" +
			"--part matrix shows pass^1 of every model on every domain.\n\n" +
			"Example:\n   emobench --db runs.db runs tag 7 --train-domains retail --base-run 3\n" +
			"   emobench --db runs.db stats generalization\n   emobench --db runs.db stats generalization --part matrix",
		Before: noArgs,
		Flags: statsFlags("pm",
			cliargs.Choice("part", "deltas", "", "deltas", "matrix"),
		),
		Action: statsAction(e, runGeneralization),
	}
}

func runGeneralization(c *cli.Context, e *env, r workbench.StatsRequest) error {
	if c.String("part") == "matrix" {
		m, _, _, err := compute(c, e, r, workbench.MatrixStats{}.Compute, nil)
		if err != nil {
			return err
		}
		return r.Write(e.stdout, table.PassMatrix(m, r.Format))
	}
	models, _, _, err := compute(c, e, r, workbench.GeneralizationStats{Bootstrap: r.Boot}.Compute, nil)
	if err != nil {
		return err
	}
	return r.Write(e.stdout, table.Generalization(models, r.Format, r.Style))
}
