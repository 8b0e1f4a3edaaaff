package workbench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/reports/table"
)

// MaxStdinQuery bounds a query read from stdin (16 MiB), so /dev/zero
// cannot fill memory.
const MaxStdinQuery = 16 << 20

// ReadQuery reads an SQL query from stdin, until its end or until ctx is
// done (a terminal or a silent pipe may never end: Ctrl-C and SIGTERM
// must stop it). A query longer than MaxStdinQuery is an EREQUEST error.
func ReadQuery(ctx context.Context, stdin io.Reader) (string, error) {
	r := ingest.NewContextReader(ctx, stdin)
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, MaxStdinQuery+1))
	if err != nil {
		return "", fmt.Errorf("reading the query from stdin: %w", err)
	}
	if len(b) > MaxStdinQuery {
		return "", emobench.Errorf(emobench.EREQUEST, "the query on stdin is longer than %d MiB", MaxStdinQuery>>20)
	}
	return string(b), nil
}

// RunSQL runs query read-only on the database at dbPath (db.OpenReadOnly:
// a write fails) for at most timeout (0: no limit), writing its rows to w
// in format (table.NewQueryWriter: csv and json row by row). A query ""
// is read from stdin (ReadQuery; nil: none). No query is an EREQUEST
// error, checked before the database is opened; a query stopped by
// timeout is a *db.QueryTimeoutError.
func RunSQL(ctx context.Context, dbPath, query string, stdin io.Reader, timeout time.Duration, w io.Writer, format string) error {
	if query == "" && stdin != nil {
		var err error
		if query, err = ReadQuery(ctx, stdin); err != nil {
			return err
		}
	}
	if strings.TrimSpace(query) == "" {
		return requestf("sql needs a QUERY argument or a query on stdin")
	}
	store, err := db.OpenReadOnly(ctx, dbPath)
	if err != nil {
		return err
	}
	defer store.Close()
	out := table.NewQueryWriter(w, format)
	if err := store.QueryEachWithin(ctx, timeout, query, out.Header, out.Row); err != nil {
		return err
	}
	return out.End()
}
