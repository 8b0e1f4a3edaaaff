package main

import (
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/reports/table"
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

// warn prints msg as a note on stderr, unless --quiet.
func (e *env) warn(msg string) {
	if e.quiet {
		return
	}
	e.stderr.Write([]byte("note: " + table.Printable(msg) + "\n")) // the data's escape sequences never reach the terminal
}

// warnAll writes every note of notes, in order.
func (e *env) warnAll(notes []string) {
	for _, n := range notes {
		e.warn(n)
	}
}
