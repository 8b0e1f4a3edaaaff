package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports/table"
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
			query, err := readQuery(c, e.stdin)
			if err != nil {
				return err
			}
			store, err := db.OpenReadOnly(c.Context, c.String("db"))
			if err != nil {
				return err
			}
			defer store.Close()
			out := table.NewQueryWriter(e.stdout, c.String("format")) // csv and json row by row
			var timeout *db.QueryTimeoutError
			if err := store.QueryEachWithin(c.Context, c.Duration("timeout"), query, out.Header, out.Row); errors.As(err, &timeout) {
				return fmt.Errorf("sql: %w (--timeout)", err)
			} else if err != nil {
				return err
			}
			return out.End()
		},
	}
}

func readQuery(c *cli.Context, stdin io.Reader) (query string, err error) {
	if c.NArg() > 1 {
		return "", usagef("sql takes one QUERY argument (quote it), got %d", c.NArg())
	}
	if query = c.Args().First(); query == "" && stdin != nil {
		if query, err = workbench.ReadQuery(c.Context, stdin); err != nil {
			return "", err
		}
	}
	if strings.TrimSpace(query) == "" {
		return "", usagef("sql needs a QUERY argument or a query on stdin")
	}
	return query, nil
}
