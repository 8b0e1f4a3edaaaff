package main

import (
	"github.com/emobench/emobench"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// formatFlag is a command's --format: def by default, one of allowed
// (listed in its usage; another value is a usage error).
func formatFlag(def string, allowed ...string) cli.Flag {
	return cliargs.Choice("format", def, "", allowed...)
}

// tableFormatFlag is the --format of the commands that print one table
// (table.Formats): the stats commands, runs and domains.
func tableFormatFlag() cli.Flag { return formatFlag("table", table.Formats...) }

// runFlag is --run, on every stats command, report and export.
func runFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"}
}

// poolFlag is --pool, on every stats command and on report.
func poolFlag() cli.Flag {
	return &cli.BoolFlag{Name: "pool", Usage: "pool the runs that share agent model, user model, domain and condition: every trajectory of a task in them is one trial of it; without it, statistics are per run"}
}

// pairFlag is --pair, on stats emotions and report.
func pairFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "pair", Usage: "`WITH:WITHOUT`: also compare this with-emotions run with this without-emotions run (ids or names; repeatable); runs of one command or of a pair of files pair by themselves"}
}

// intervalFlags configure confidence intervals, shared by the stats commands.
func intervalFlags(defaultStyle string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "ci", Value: defaultStyle, Usage: "how tables show intervals: pm (±), brackets, or none"},
		&cli.StringFlag{Name: "ci-method", Value: workbench.DefaultBootstrap.Method, Usage: "bootstrap interval: percentile or bca"},
		&cli.IntFlag{Name: "resamples", Value: workbench.DefaultBootstrap.Resamples, Usage: "bootstrap resamples (tasks are resampled)"},
		&cli.Uint64Flag{Name: "seed", Value: workbench.DefaultBootstrap.Seed, Usage: "bootstrap seed: the same seed gives the same intervals"},
		&cli.Float64Flag{Name: "level", Value: workbench.DefaultBootstrap.Level, Usage: "confidence level"},
	}
}

// modelBaseURLFlag and modelKeyEnvFlag are the endpoint and key variable
// flags of a command's one --ROLE model (evaluate's and audit's judge,
// generate's paraphrase); modelRole reads them.
func modelBaseURLFlag(role string) cli.Flag {
	return &cli.StringFlag{Name: role + "-base-url", EnvVars: []string{"OPENAI_BASE_URL"}, Usage: "OpenAI-compatible endpoint of the --" + role + " model"}
}

func modelKeyEnvFlag(role string) cli.Flag {
	return &cli.StringFlag{Name: role + "-api-key-env", Value: sim.DefaultAPIKeyEnv, Usage: "environment variable holding the --" + role + " model's API key"}
}

func modelRole(c *cli.Context, role string) emobench.LLMRole {
	return emobench.LLMRole{BaseURL: c.String(role + "-base-url"), APIKeyEnv: c.String(role + "-api-key-env")}
}

// given is the value of the flag name, read by get (c.String, c.Int, …),
// when it was given; nil otherwise.
func given[T any](c *cli.Context, name string, get func(name string) T) *T {
	if !c.IsSet(name) {
		return nil
	}
	v := get(name)
	return &v
}
