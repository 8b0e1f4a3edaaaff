package db

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// eachIntRow hands over every row's integers, in order, with the query's
// parameters bound by position; a value that is not an integer is an
// error naming the query and its column, and so is one row returns.
func TestEachIntRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, err := Open(ctx, filepath.Join(t.TempDir(), "scan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	const query = "-- name: Numbers :many\nSELECT value, value * ?1 AS scaled FROM json_each(?2) ORDER BY value"
	var got [][]int64
	err = store.eachIntRow(ctx, query, []any{int64(10), "[3, 1, 2]"}, func(v []int64) error {
		got = append(got, slices.Clone(v))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int64{{1, 10}, {2, 20}, {3, 30}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("rows %v, want %v", got, want)
	}

	err = store.eachIntRow(ctx, query, []any{int64(1), `[1, "x"]`}, func([]int64) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "Numbers: column value is string, not an integer") {
		t.Errorf("a text value: error %v, want one naming query Numbers and column value", err)
	}
	stop := context.Canceled
	n := 0
	err = store.eachIntRow(ctx, query, []any{int64(1), "[1, 2, 3]"}, func([]int64) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("row's error: eachIntRow returned %v after %d rows, want %v after 1", err, n, stop)
	}
	// The connection is back in the pool, usable.
	if _, err := store.ListTaskTrials(ctx, nil); err != nil {
		t.Errorf("after the scans: %v", err)
	}
}

func TestQueryName(t *testing.T) {
	t.Parallel()
	for query, want := range map[string]string{
		"-- name: ListAllRunTaskCounts :many\nSELECT 1": "ListAllRunTaskCounts",
		"SELECT 1": "query",
	} {
		if got := queryName(query); got != want {
			t.Errorf("queryName(%q) = %q, want %q", query, got, want)
		}
	}
}
