package main

import (
	"github.com/urfave/cli/v2"

	"github.com/emobench/emobench/internal/cliargs"
)

// flagAliases are the old spellings of flags, still read, with a note, as
// the names run uses: --tasks-file FILE, --task-set NAME, --tasks IDS,
// --trials K, and --selection NAME for a selection. tracer collect's old
// --tasks FILE is a tasks file when its value ends in .json or names an
// existing file; else it is run's --tasks IDS.
var flagAliases = []cliargs.Alias{
	{Command: "tracer collect", Old: "tasks", New: "tasks-file", If: cliargs.NamesFile},
	{Command: "tracer collect", Old: "generated", New: "task-set"},
	{Command: "tracer collect", Old: "samples", New: "trials"},
	{Command: "tracer audit", Old: "tasks", New: "tasks-file"},
	{Command: "tracer generate", Old: "name", New: "task-set"},
	{Command: "tracer filter", Old: "name", New: "selection"},
}

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
