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

// Settingf's message begins with the setting's name, which it records;
// a %w keeps the wrapped error's chain.
func TestSettingf(t *testing.T) {
	err := emobench.Settingf(emobench.EINVALID, "trials", "%d: need at least 1", 0)
	if got, want := err.Error(), "trials 0: need at least 1"; got != want || err.Setting != "trials" {
		t.Fatalf("Settingf = %q (setting %q), want %q (setting trials)", got, err.Setting, want)
	}
	if got, want := emobench.Settingf(emobench.EREQUEST, "tasks-file", ": %v", "no tasks").Error(), "tasks-file: no tasks"; got != want {
		t.Fatalf("Settingf with a colon = %q, want %q", got, want)
	}
	wrapped := emobench.Settingf(emobench.ENOTFOUND, "base-run", ": %w", emobench.ErrNotFound)
	if !errors.Is(wrapped, emobench.ErrNotFound) || wrapped.Error() != "base-run: not found" {
		t.Fatalf("Settingf with %%w = %q, want base-run: not found, matching ErrNotFound", wrapped)
	}
}

// AsRequest recodes EINVALID alone, keeps the message and the chain, and
// keeps the setting only while the message still begins with it.
func TestAsRequest(t *testing.T) {
	bad := emobench.Settingf(emobench.EINVALID, "split", "%q is not test or train", "dev")
	got := emobench.AsRequest(bad)
	var e *emobench.Error
	if !errors.As(got, &e) || e.Code != emobench.EREQUEST || e.Setting != "split" || got.Error() != bad.Error() || !errors.Is(got, emobench.ErrInvalid) {
		t.Fatalf("AsRequest(%v) = %#v, want EREQUEST of setting split wrapping it", bad, got)
	}
	if errors.As(emobench.AsRequest(fmt.Errorf("plan: %w", bad)), &e); e.Setting != "" {
		t.Fatalf("AsRequest of a wrapped error kept setting %q, want none", e.Setting)
	}
	for _, err := range []error{nil, emobench.ErrNotFound, errors.New("disk full")} {
		if got := emobench.AsRequest(err); got != err {
			t.Errorf("AsRequest(%v) = %v, want it unchanged", err, got)
		}
	}
}
