package emobench_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/emobench/emobench"
)

func TestError_Is(t *testing.T) {
	notFound := fmt.Errorf("run 7: %w", emobench.Errorf(emobench.ENOTFOUND, "no run with id or name %q", "x"))
	tests := []struct {
		name   string
		err    error
		target error
		want   bool
	}{
		{"OK_SentinelByCode", notFound, emobench.ErrNotFound, true},
		{"OK_LiteralByCode", notFound, &emobench.Error{Code: emobench.ENOTFOUND}, true},
		{"ErrOtherCode", notFound, emobench.ErrInvalid, false},
		{"ErrEmptyCode", notFound, &emobench.Error{}, false},
		{"ErrPlainError", errors.New("not found"), emobench.ErrNotFound, false},
		{"OK_Conflict", emobench.Errorf(emobench.ECONFLICT, "clash"), emobench.ErrConflict, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errors.Is(tt.err, tt.target); got != tt.want {
				t.Fatalf("errors.Is(%v, %v) = %v, want %v", tt.err, tt.target, got, tt.want)
			}
		})
	}
}

func TestErrorCode(t *testing.T) {
	if got, want := emobench.ErrorCode(fmt.Errorf("open: %w", emobench.ErrInvalid)), emobench.EINVALID; got != want {
		t.Fatalf("ErrorCode = %q, want %q", got, want)
	}
	if got := emobench.ErrorCode(errors.New("plain")); got != "" {
		t.Fatalf("ErrorCode of a plain error = %q, want empty", got)
	}
}
