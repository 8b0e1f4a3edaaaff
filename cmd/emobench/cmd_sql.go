package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func sqlCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "sql",
		Usage:     "run a read-only SQL query (argument or stdin)",
		ArgsUsage: "[QUERY]",
		Description: "The database is opened read-only (mode=ro, PRAGMA query_only), so a shared .db cannot be\n" +
			"changed by accident: INSERT, UPDATE, DELETE and DDL fail. See the README for the schema.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db sql \"SELECT condition, AVG(passed) FROM trajectory_outcomes GROUP BY condition\"\n" +
			"   echo 'SELECT * FROM runs' | emobench --db runs.db sql --format csv",
		Flags: []cli.Flag{
			formatFlag("table", "table", "csv", "json", "markdown"),
			&cli.DurationFlag{Name: "timeout", Value: 5 * time.Minute, Usage: "stop the statement after this long (0: no limit)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("sql takes one QUERY argument (quote it), got %d", c.NArg())
			}
			err := workbench.RunSQL(c.Context, c.String("db"), c.Args().First(), e.stdin, c.Duration("timeout"), e.stdout, c.String("format"))
			if timeout := (*db.QueryTimeoutError)(nil); errors.As(err, &timeout) {
				return fmt.Errorf("sql: %w (--timeout)", err)
			}
			return err
		},
	}
}
