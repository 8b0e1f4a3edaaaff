package main

import (
	"strings"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/internal/cliargs"

	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func statsAbandonmentCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "abandonment",
		Usage: "rate of user_unsatisfied endings (###UNSATISFIED###) per family, leaf, dimension, domain and agent",
		Description: "Each row: one run's (or, with --pool, one pool's) trajectories, abandoned ones, the rate with a\n" +
			"Wilson interval, and the mean user turn at which users abandoned (the turn of their\n" +
			"###UNSATISFIED### message). Without --by, each dimension is reported in turn.\n\n" +
			"Example:\n   emobench --db runs.db stats abandonment\n   emobench --db runs.db stats abandonment --by emotion_family,agent_model --format latex",
		Before: noArgs,
		Flags: statsFlags("",
			&cli.StringSliceFlag{Name: "by", Usage: "report by these fields jointly (default: each of " + strings.Join(workbench.AbandonmentDimensions, ", ") + " in turn)"},
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
		),
		Action: statsAction(e, func(c *cli.Context, e *env, r workbench.StatsRequest) error {
			rates, s, _, err := compute(c, e, r, workbench.AbandonmentStats{Fields: r.Fields}.Compute, nil)
			if err != nil {
				return err
			}
			return r.Write(e.stdout, table.Abandonment(rates, s.TableUnits(), r.Style))
		}),
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
		Flags: statsFlags("",
			cliargs.Choice("part", "all", "", "bins", "regression", "correlation", "all"),
			&cli.IntFlag{Name: "bins", Value: 5, Usage: "equal-width share bins on [0, 1]"},
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
		),
		Action: statsAction(e, runBalance),
	}
}

func runBalance(c *cli.Context, e *env, r workbench.StatsRequest) error {
	part := c.String("part")
	if part == "all" && table.Split(r.Format) {
		part = "bins"
		e.warn("csv and json hold one table: showing --part bins (choose another with --part)")
	}
	if bins := c.Int("bins"); bins < 1 {
		return usagef("--bins %d: need at least 1", bins)
	}
	data, s, none, err := compute(c, e, r, workbench.BalanceStats{}.Compute, func(m map[int64]analysis.BalanceSample) bool { return len(m) == 0 })
	if err != nil || r.Bare(none) {
		return err
	}
	for i, t := range table.Balance(s.TableUnits(), data, part, c.Int("bins"), r.Format, r.Style) {
		if i > 0 {
			e.stdout.Write([]byte("\n"))
		}
		if err := r.Write(e.stdout, t); err != nil {
			return err
		}
	}
	return nil
}
