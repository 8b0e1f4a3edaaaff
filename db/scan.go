package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
)

// eachIntRow runs query, the text of one of sqlcdb's generated queries
// (its exported constant) whose every column is an integer, with args in
// the order of its parameters (?1, ?2, …), and calls row with each row's
// values, in a slice reused from row to row. It reads the driver's rows
// directly: database/sql's Rows.Scan converts every value by reflection,
// which was a third of the CPU time of pass^k's scan of 12,000 (run, task)
// counts. A NULL or non-integer value is an error naming the query and
// column; so is an error row returns, which ends the scan.
func (db *DB) eachIntRow(ctx context.Context, query string, args []any, row func(values []int64) error) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		queryer, ok := dc.(driver.QueryerContext)
		if !ok {
			return errors.New("the sqlite driver's connection cannot run queries directly")
		}
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		}
		rows, err := queryer.QueryContext(ctx, query, named)
		if err != nil {
			return err
		}
		err = scanIntRows(query, rows, row)
		// The driver's rows must be closed once only (twice faults).
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// scanIntRows is eachIntRow's loop over rows, which it leaves open.
func scanIntRows(query string, rows driver.Rows, row func(values []int64) error) error {
	columns := rows.Columns()
	dest := make([]driver.Value, len(columns))
	values := make([]int64, len(columns))
	for {
		switch err := rows.Next(dest); {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		for i, v := range dest {
			n, ok := v.(int64)
			if !ok {
				return fmt.Errorf("%s: column %s is %T, not an integer", queryName(query), columns[i], v)
			}
			values[i] = n
		}
		if err := row(values); err != nil {
			return err
		}
	}
}

// queryName is the name of a sqlc-generated query, from its first line
// ("-- name: ListRunTaskCounts :many").
func queryName(query string) string {
	first, _, _ := strings.Cut(query, "\n")
	name, ok := strings.CutPrefix(first, "-- name: ")
	if !ok {
		return "query"
	}
	name, _, _ = strings.Cut(name, " ")
	return name
}
