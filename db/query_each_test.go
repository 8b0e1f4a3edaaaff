package db_test

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// QueryEach gives the columns, then every row in order, and stops at the
// first error its callbacks return.
func TestQueryEach(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	q := "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, NULL ORDER BY a"
	var cols []string
	var rows [][]any
	err := store.QueryEach(ctx, q, func(c []string) error {
		cols = c
		return nil
	}, func(vals []any) error {
		rows = append(rows, slices.Clone(vals))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cols, []string{"a", "b"}) {
		t.Errorf("columns = %q, want a, b", cols)
	}
	if len(rows) != 2 || rows[0][0] != int64(1) || rows[0][1] != "x" || rows[1][0] != int64(2) || rows[1][1] != nil {
		t.Errorf("rows = %v, want [[1 x] [2 <nil>]]", rows)
	}

	stop := errors.New("stop")
	n := 0
	err = store.QueryEach(ctx, q, func([]string) error { return nil }, func([]any) error {
		n++
		return stop
	})
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("QueryEach with a failing row callback = %v after %d rows, want stop after 1", err, n)
	}
	if err := store.QueryEach(ctx, "SELECT * FROM no_such_table", nil, nil); err == nil {
		t.Error("QueryEach of a bad query: no error")
	}
}
