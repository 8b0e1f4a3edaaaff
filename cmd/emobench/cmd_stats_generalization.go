package main

import (
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
	"github.com/urfave/cli/v2"
)

func statsGeneralizationCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "generalization",
		Usage: "tuned vs base model Δpass^1 per domain, in-domain and out-of-domain, and a domain × model matrix",
		Description: "A tuned run is one tagged with its train domains and base run (emobench runs tag, or run\n" +
			"--train-domains/--base-run). Runs of the same tuned model on several domains are compared with\n" +
			"their base runs domain by domain; each domain is in-domain when the model was trained on it.\n" +
			"The mean in-domain and out-of-domain Δ come with bootstrap CIs. Δ is paired over the tasks both\n" +
			"runs share; a domain with 0 paired tasks gets an unpaired Δ without an interval (and a note).\n" +
			"--part matrix shows pass^1 of every model on every domain.\n\n" +
			"Example:\n   emobench --db runs.db runs tag 7 --train-domains retail --base-run 3\n" +
			"   emobench --db runs.db stats generalization\n   emobench --db runs.db stats generalization --part matrix",
		Before: noArgs,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringFlag{Name: "part", Value: "deltas", Usage: "deltas or matrix"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
			poolFlag(),
		}, intervalFlags("pm")...),
		Action: func(c *cli.Context) error { return runGeneralization(c, e) },
	}
}

func runGeneralization(c *cli.Context, e *env) error {
	format := c.String("format")
	if err := checkFormat(format, table.Formats...); err != nil {
		return err
	}
	opts, style, err := bootstrapOptions(c)
	if err != nil {
		return err
	}
	part := c.String("part")
	if part != "deltas" && part != "matrix" {
		return usagef("--part %q is not one of deltas, matrix", part)
	}
	store, runIDs, err := openRuns(c)
	if err != nil {
		return err
	}
	defer store.Close()
	units, _, err := loadUnits(c.Context, e, store, runIDs, c.Bool("pool"))
	if err != nil {
		return err
	}
	rows, tasks, overlaps, err := computePassK(c.Context, store, units, runIDs, nil, analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}})
	if err != nil {
		return err
	}
	noteOverlaps(e, overlaps)
	if part == "matrix" {
		m, err := analysis.PooledMatrix(rows, units)
		if err != nil {
			return err
		}
		return table.PassMatrix(m, format).Write(e.stdout, format)
	}
	tags, err := store.ListRunTags(c.Context)
	if err != nil {
		return err
	}
	tagged := make([]analysis.TunedRun, len(tags))
	for i, t := range tags {
		tagged[i] = analysis.TunedRun{RunID: t.RunID, BaseRunID: t.BaseRunID, Domain: t.Domain, TrainDomains: t.TrainDomains}
	}
	models, notes, err := analysis.GeneralizationByModel(tagged, units, tasks, opts)
	if err != nil {
		return err
	}
	t := table.Generalization(models, format, style)
	if len(t.Rows) == 0 {
		e.warn("no tuned runs: tag them with emobench runs tag RUN --train-domains D --base-run RUN")
	}
	e.warnAll(notes)
	return t.ExpandEstimates(format, style).Write(e.stdout, format)
}
