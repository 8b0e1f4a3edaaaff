package main

import (
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// abandonmentDimensions are the fields stats abandonment reports by.
var abandonmentDimensions = append(emobench.EmotionDimensions, "domain", "agent_model")

func statsAbandonmentCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "abandonment",
		Usage: "rate of user_unsatisfied endings (###UNSATISFIED###) per family, leaf, dimension, domain and agent",
		Description: "Each row: one run's (or, with --pool, one pool's) trajectories, abandoned ones, the rate with a\n" +
			"Wilson interval, and the mean user turn at which users abandoned (the turn of their\n" +
			"###UNSATISFIED### message). Without --by, each dimension is reported in turn.\n\n" +
			"Example:\n   emobench --db runs.db stats abandonment\n   emobench --db runs.db stats abandonment --by emotion_family,agent_model --format latex",
		Before: noArgs,
		Flags: []cli.Flag{
			runFlag(),
			&cli.StringSliceFlag{Name: "by", Usage: "report by these fields jointly (default: each of " + strings.Join(abandonmentDimensions, ", ") + " in turn)"},
			formatFlag(),
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
			poolFlag(),
		},
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if err := checkFormat(format, table.Formats...); err != nil {
				return err
			}
			style, err := parseCIStyle(c.String("ci"))
			if err != nil {
				return err
			}
			joint, err := parseGroupFields(strings.Join(c.StringSlice("by"), ","))
			if err != nil {
				return err
			}
			dims := [][]string{}
			if len(joint) > 0 {
				dims = append(dims, joint)
			} else {
				// Each row is one run's (or pool's): one condition.
				for _, d := range abandonmentDimensions {
					dims = append(dims, []string{d})
				}
			}
			store, s, err := openSelection(c)
			if err != nil {
				return err
			}
			defer store.Close()
			rates, notes, err := workbench.StatsAbandonment(c.Context, store, s, dims)
			e.warnAll(notes)
			if err != nil {
				return err
			}
			t := table.Abandonment(rates, table.Units{Units: s.Units, Names: s.Names}, style)
			return t.ExpandEstimates(format, style).Write(e.stdout, format)
		},
	}
}

func statsBalanceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "balance",
		Usage: "tool calls vs follow-up questions: success by tool-call share, a logistic fit, correlations",
		Description: "Per trajectory, share = tool calls / (tool calls + follow-ups), where a follow-up is an agent\n" +
			"message to the user that asks for information or confirmation: a sentence ending in '?' or\n" +
			"holding a request cue ('could you', 'please provide', 'let me know', ...), closing courtesies\n" +
			"such as 'anything else?' excepted. Parts: bins (success rate by share, Wilson CIs),\n" +
			"regression (logit P(pass) = b0 + b1·share + b2·share², Wald CIs; a middle balance wins when\n" +
			"b2 < 0 and the vertex −b1/2b2 lies in (0, 1), with an intersection-union Wald p-value of\n" +
			"b1 > 0 and b1 + 2·b2 < 0: \"not significant\" when p ≥ 0.05), correlation (share vs turns and vs\n" +
			"abandonment).\n\n" +
			"Example:\n   emobench --db runs.db stats balance\n   emobench --db runs.db stats balance --part regression --format latex",
		Before: noArgs,
		Flags: []cli.Flag{
			runFlag(),
			&cli.StringFlag{Name: "part", Value: "all", Usage: "bins, regression, correlation or all"},
			&cli.IntFlag{Name: "bins", Value: 5, Usage: "equal-width share bins on [0, 1]"},
			formatFlag(),
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
			poolFlag(),
		},
		Action: func(c *cli.Context) error { return runBalance(c, e) },
	}
}

func runBalance(c *cli.Context, e *env) error {
	format, part := c.String("format"), c.String("part")
	if err := checkFormat(format, table.Formats...); err != nil {
		return err
	}
	if part != "all" && part != "bins" && part != "regression" && part != "correlation" {
		return usagef("--part %q is not one of bins, regression, correlation, all", part)
	}
	if part == "all" && table.Split(format) {
		part = "bins"
		e.warn("csv and json hold one table: showing --part bins (choose another with --part)")
	}
	bins := c.Int("bins")
	if bins < 1 {
		return usagef("--bins %d: need at least 1", bins)
	}
	style, err := parseCIStyle(c.String("ci"))
	if err != nil {
		return err
	}
	store, s, err := openSelection(c)
	if err != nil {
		return err
	}
	defer store.Close()
	data, notes, err := workbench.StatsBalance(c.Context, store, s)
	e.warnAll(notes)
	if err != nil {
		return err
	}
	tables := table.Balance(table.Units{Units: s.Units, Names: s.Names}, data, part, bins, format, style)
	for i, t := range tables {
		if i > 0 {
			e.stdout.Write([]byte("\n"))
		}
		if err := t.ExpandEstimates(format, style).Write(e.stdout, format); err != nil {
			return err
		}
	}
	return nil
}
