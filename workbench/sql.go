package workbench

import (
	"context"
	"fmt"
	"io"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
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
