package main

import (
	"context"
	"fmt"
	"io"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// env holds the streams commands write to, so tests run the CLI in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// afterHash, when set (by tests), runs after ingest has hashed an
	// input and before it parses it: where another program may change it.
	afterHash func(path string)
	// quiet is --quiet: notes are not printed.
	quiet bool
	// terminal is stderr when it is a terminal (for progress bars), else nil.
	terminal io.Writer
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

// warning prints msg on stderr as a warning about the data: unlike a
// note, --quiet keeps it.
func (e *env) warning(msg string) { fmt.Fprintf(e.stderr, "warning: %s\n", msg) }

// println prints line and a newline on stdout.
func (e *env) println(line string) { fmt.Fprintln(e.stdout, line) }

// plural is "1 one" for n = 1, else "n many".
var plural = workbench.Plural

// openWrite opens the database at path for writing (creating and
// migrating it), then redacts credentials that older emobench versions
// stored in run configs.
func (e *env) openWrite(ctx context.Context, path string) (*db.DB, error) {
	return workbench.OpenWrite(ctx, path, e.warn, e.waitNotices(path)...)
}

// waitNotices print on stderr that opening path waits for another process.
func (e *env) waitNotices(path string) []db.Option {
	return workbench.WaitNotices(path, func(line string) { fmt.Fprintln(e.stderr, line) })
}

// readDB runs f on --db opened read-only at the current schema, which the
// analysis commands query, and closes it when f returns.
func (e *env) readDB(c *cli.Context, f func(store *db.DB) error) error {
	store, err := workbench.OpenCurrent(c.Context, c.String("db"))
	if err != nil {
		return err
	}
	defer store.Close()
	return f(store)
}

// writeDB runs f on --db opened for writing (openWrite) and closes it
// when f returns.
func (e *env) writeDB(c *cli.Context, f func(store *db.DB) error) error {
	store, err := e.openWrite(c.Context, c.String("db"))
	if err != nil {
		return err
	}
	defer store.Close()
	return f(store)
}

// reportedError is a failure whose details the command already printed.
type reportedError struct{ err error }

func (e *reportedError) Error() string { return e.err.Error() }
func (e *reportedError) Unwrap() error { return e.err }
