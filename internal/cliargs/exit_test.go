package cliargs

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/emobench/emobench"
)

// Only a request error, wrapped or not, is a usage error; every other
// error, with a code or without, is a failure.
func TestExitCode(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{Usagef("bad flag"), ExitUsage},
		{fmt.Errorf("runs tag: %w", Usagef("bad flag")), ExitUsage},
		{emobench.AsRequest(fmt.Errorf("--task-set: %w", emobench.ErrInvalid)), ExitUsage},
		{emobench.Errorf(emobench.ECONFLICT, "selection exists"), ExitFailure},
		{emobench.Errorf(emobench.ENOTFOUND, "no trajectory with id 9"), ExitFailure},
		{emobench.ErrInvalid, ExitFailure},
		{context.Canceled, ExitFailure},
		{errors.New("disk full"), ExitFailure},
	} {
		if got := ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}
