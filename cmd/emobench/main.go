// Command emobench is the τ-Emotion-Bench workbench: it ingests result files
// of τ-bench-style benchmarks into one SQLite file, computes pass^k
// statistics, answers read-only SQL and writes offline HTML reports.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// Exit codes (cliargs.ExitCode): 2 means the command line was wrong and
// nothing was done.
const (
	exitOK      = cliargs.ExitOK
	exitFailure = cliargs.ExitFailure
	exitUsage   = cliargs.ExitUsage
)

func main() {
	ctx, stop := signalContext()
	defer stop()
	app := newApp(os.Stdin, os.Stdout, os.Stderr)
	os.Exit(run(ctx, app, os.Args, os.Stderr))
}

// signalContext is a context that ends at Ctrl-C (SIGINT) or SIGTERM; every
// command watches it and stops within a second, storing nothing half-done.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// run runs the app and maps its error to an exit code, printing the error.
func run(ctx context.Context, app *cli.App, args []string, stderr io.Writer) int {
	args, notes := cliargs.Rename(app, args, flagAliases)
	for _, n := range notes {
		fmt.Fprintln(stderr, n)
	}
	args, err := cliargs.Normalize(app, args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	code := cliargs.ExitCode(err)
	var reported *reportedError
	switch {
	case err == nil, errors.As(err, &reported):
	case code == exitUsage:
		fmt.Fprintf(stderr, "emobench: %s%s\n", cliargs.DoubleDash(err.Error()), workbench.Hint(err))
		fmt.Fprintln(stderr, "Run 'emobench --help' or 'emobench COMMAND --help' for usage.")
	case err == context.Canceled: // a bare cancellation says nothing of its cause
		fmt.Fprintln(stderr, "emobench: interrupted (Ctrl-C or SIGTERM); what was stored before it is kept")
	default:
		fmt.Fprintf(stderr, "emobench: %s%s\n", table.Printable(err.Error()), workbench.Hint(err)) // no escape sequence from the data
	}
	return code
}

// usagef is a mistake in the command line (a flag's value, arguments that
// do not fit): an emobench.EREQUEST error, exit 2. Say the flag and the
// value: "--trials 0: need at least 1".
func usagef(format string, args ...any) error { return cliargs.Usagef(format, args...) }

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, terminal: workbench.Terminal(stderr)}
	app := &cli.App{
		Name:  "emobench",
		Usage: "τ-Emotion-Bench workbench: ingest agent benchmark runs into SQLite, compute pass^k, query and report",
		Description: "emobench keeps every run, native (emobench run) or imported (τ-bench, τ-Emotion-Bench and τ²-bench\n" +
			"result files), in one SQLite file, with the statistics and report a paper needs.\n\n" +
			"Example:\n" +
			"   emobench demo\n" +
			"   emobench --db runs.db ingest results/*.json\n" +
			"   emobench --db runs.db stats passk --by condition\n" +
			"   emobench --db runs.db sql \"SELECT domain, AVG(passed) FROM trajectory_outcomes GROUP BY domain\"",
		Version:   cliargs.BuildVersion(debug.ReadBuildInfo()),
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:    "db",
				Usage:   "SQLite database `PATH`",
				EnvVars: []string{"EMOBENCH_DB"},
				Value:   "emobench.db",
			},
			&cli.BoolFlag{Name: "quiet", Usage: "print no notes (errors and warnings about the data still print)"},
		},
		Commands: []*cli.Command{
			ingestCommand(e),
			exportCommand(e),
			runsCommand(e),
			statsCommand(e),
			sqlCommand(e),
			reportCommand(e),
			demoCommand(e),
			runCommand(e),
			emotionsCommand(e),
			domainsCommand(e),
			mergeCommand(e),
			vacuumCommand(e),
			checkCommand(e),
			migrateCommand(e),
			showCommand(e),
			evaluateCommand(e),
			tracerCommand(e),
		},
		ExitErrHandler: func(*cli.Context, error) {}, // main picks exit codes
		Before: func(c *cli.Context) error {
			e.quiet = c.Bool("quiet")
			// An empty --db (or EMOBENCH_DB set to "") would make SQLite open a temporary
			// database: an ingest or a paid run would be stored nowhere.
			return cliargs.RequireValue(c, "db", "--db is empty (given as --db '' or EMOBENCH_DB=''): name the database file, e.g. --db runs.db",
				"demo", "emotions", "domains") // they do not use --db
		},
		Action: cli.ShowAppHelp,
	}
	cliargs.MarkUsageErrors(app) // flag errors and unknown commands exit 2
	cliargs.NameSettings(app)    // a setting's error names its flag
	return app
}

// noArgs refuses stray arguments of a command that takes none.
var noArgs = cliargs.NoArgs
