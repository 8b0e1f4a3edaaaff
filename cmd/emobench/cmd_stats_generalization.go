package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
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
			"Example:\n   emobench --db runs.db runs tag 7 --train-domains retail --base 3\n" +
			"   emobench --db runs.db stats generalization\n   emobench --db runs.db stats generalization --part matrix",
		Before: noArgs,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "part", Value: "deltas", Usage: "deltas or matrix"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
		}, intervalFlags("pm")...),
		Action: func(c *cli.Context) error { return runGeneralization(c, e) },
	}
}

func runGeneralization(c *cli.Context, e *env) error {
	format := c.String("format")
	if err := checkFormat(format, formats...); err != nil {
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
	store, err := openCurrent(c)
	if err != nil {
		return err
	}
	defer store.Close()
	tasks, _, err := loadTaskTrials(c.Context, store, nil, []string{"domain", "agent_model"}, analysis.PerTask)
	if err != nil {
		return err
	}
	if part == "matrix" {
		return matrixTable(tasks).write(e.stdout, format)
	}
	tags, err := store.ListRunTags(c.Context)
	if err != nil {
		return err
	}
	t, notes := generalizationTable(tags, tasks, opts, style)
	if len(t.rows) == 0 {
		e.warn("no tuned runs: tag them with emobench runs tag RUN --train-domains D --base RUN")
	}
	for _, n := range notes {
		e.warn(n)
	}
	return t.expandEstimates(format, style).write(e.stdout, format)
}

// generalizationTable compares every tuned model (runs with train domains
// and a base run, grouped by agent model) with its base runs. The notes say
// why a Δ has no interval.
func generalizationTable(tags []db.RunTags, tasks []analysis.TaskTrials, opts analysis.BootstrapOptions, style ciStyle) (*table, []string) {
	byRun := map[int64][]analysis.TaskTrials{}
	for _, t := range tasks {
		byRun[t.RunID] = append(byRun[t.RunID], t)
	}
	runs := map[int64]db.RunTags{}
	for _, t := range tags {
		runs[t.RunID] = t
	}
	type tunedModel struct {
		tuned, base map[string][]analysis.TaskTrials
		train       map[string]bool
	}
	models := map[string]*tunedModel{}
	for _, t := range tags {
		if t.TrainDomains == nil || t.BaseRunID == 0 {
			continue
		}
		m := models[t.AgentModel]
		if m == nil {
			m = &tunedModel{tuned: map[string][]analysis.TaskTrials{}, base: map[string][]analysis.TaskTrials{}, train: map[string]bool{}}
			models[t.AgentModel] = m
		}
		m.tuned[t.Domain] = append(m.tuned[t.Domain], byRun[t.RunID]...)
		m.base[t.Domain] = append(m.base[t.Domain], byRun[t.BaseRunID]...)
		for _, d := range t.TrainDomains {
			m.train[d] = true
		}
	}
	names := make([]string, 0, len(models))
	for name := range models {
		names = append(names, name)
	}
	sort.Strings(names)
	t := &table{columns: []string{"model", "domain", "scope", "tuned_pass_1", "base_pass_1", "delta", "paired_tasks"}}
	var notes []string
	for _, name := range names {
		m := models[name]
		var train []string
		for d := range m.train {
			train = append(train, d)
		}
		sort.Strings(train)
		res := analysis.Generalization(m.tuned, m.base, train, opts)
		for _, d := range res.Domains {
			scope := "out-of-domain"
			if d.InDomain {
				scope = "in-domain"
			}
			t.rows = append(t.rows, []any{name, d.Domain, scope, d.TunedPass1, d.BasePass1, withCI(d.Delta, d.CI, style), d.PairedTasks})
			if !d.Paired && !math.IsNaN(d.Delta) {
				notes = append(notes, fmt.Sprintf("%s on %s: 0 paired tasks (the tuned and base runs share no task), so its Δ compares different tasks and has no interval, nor has the %s mean", name, d.Domain, scope))
			}
		}
		var in, out []string
		for _, d := range res.Domains {
			if d.InDomain {
				in = append(in, d.Domain)
			} else {
				out = append(out, d.Domain)
			}
		}
		for _, s := range []struct {
			scope   string
			domains []string
			sum     analysis.DeltaSummary
		}{{"in-domain mean", in, res.InDomain}, {"out-of-domain mean", out, res.OutOfDomain}} {
			t.rows = append(t.rows, []any{name, orDash(strings.Join(s.domains, ",")), s.scope, nil, nil, withCI(s.sum.Mean, s.sum.CI, style), nil})
		}
	}
	return t, notes
}

func withCI(v float64, ci analysis.CI, style ciStyle) any {
	if style == "none" {
		return v
	}
	return estimate{v: v, ci: ci}
}

// matrixTable is pass^1 (mean over tasks of c/n) of every agent model on
// every domain, pooling a model's runs on the domain: the report's
// generalization heatmap as a table.
func matrixTable(tasks []analysis.TaskTrials) *table {
	h := heatmap(tasks, "agent model", "", false)
	t := &table{columns: append([]string{"domain"}, h.Cols...)}
	for i, d := range h.Rows {
		row := []any{d}
		for _, v := range h.Values[i] {
			row = append(row, v)
		}
		t.rows = append(t.rows, row)
	}
	return t
}
