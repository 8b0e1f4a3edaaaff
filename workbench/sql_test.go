package workbench_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/workbench"
)

// RunSQL answers a query given or read from stdin, in the format asked,
// refuses no query before opening anything, and never writes.
func TestRunSQL(t *testing.T) {
	ctx := context.Background()
	path := ingestedDB(t)
	for _, tc := range []struct {
		query, stdin, format, want string
	}{
		{"SELECT COUNT(*) AS n FROM runs", "", "csv", "n\n1\n"},
		{"", "SELECT 2 AS two", "json", `"two": 2`},
	} {
		var out bytes.Buffer
		if err := workbench.RunSQL(ctx, path, tc.query, strings.NewReader(tc.stdin), 0, &out, tc.format); err != nil || !strings.Contains(out.String(), tc.want) {
			t.Errorf("RunSQL(%q, stdin %q) = %q, %v; want %q", tc.query, tc.stdin, out.String(), err, tc.want)
		}
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if err := workbench.RunSQL(ctx, missing, " ", strings.NewReader(" \n"), 0, &bytes.Buffer{}, "csv"); !errors.Is(err, emobench.ErrRequest) {
		t.Errorf("RunSQL(no query) = %v, want an EREQUEST error", err)
	}
	if err := workbench.RunSQL(ctx, path, "DELETE FROM runs", nil, 0, &bytes.Buffer{}, "csv"); err == nil {
		t.Error("RunSQL(DELETE) wrote to the database")
	}
}
