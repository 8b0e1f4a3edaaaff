package main

import "github.com/urfave/cli/v2"

// tracerCommand groups Tracer's steps: generate, audit, collect, filter and
// export. Each subcommand lives in its own cmd_tracer_<step>.go.
func tracerCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "tracer",
		Usage: "Tracer: generate grounded tasks, collect trajectories, filter them and export SFT data",
		Description: "Tracer turns a domain's intent catalog into tasks, runs agents on them, keeps the\n" +
			"trajectories worth training on and exports them as supervision data.",
		Subcommands: []*cli.Command{
			tracerGenerateCommand(e),
			tracerAuditCommand(e),
			tracerCollectCommand(e),
			tracerFilterCommand(e),
			tracerFunnelCommand(e),
			tracerExportCommand(e),
		},
	}
}
