package main

import (
	"slices"
	"strings"

	"github.com/emobench/emobench/reports/table"
)

// checkFormat is a usage error unless format is one of allowed.
func checkFormat(format string, allowed ...string) error {
	if !slices.Contains(allowed, format) {
		return usagef("--format %q is not one of %s", format, strings.Join(allowed, ", "))
	}
	return nil
}

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
