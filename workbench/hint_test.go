package workbench

import (
	"errors"
	"fmt"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// A hint comes from the error's type, wrapped or not, never from its text.
func TestHint(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("open: %w", &db.OutdatedSchemaError{Path: "old.db", Version: 2, Want: 9}), ": upgrade it with `emobench --db old.db migrate`"},
		{&db.RunNotFoundError{Ref: "x"}, " (see `emobench runs`)"},
		{fmt.Errorf("ingest a.json: %w", &db.ForeignTriggersError{Path: "their.db", Names: []string{"t"}}), " (inspect it with `emobench --db their.db check`)"},
		{&ResumableError{Run: 4, Err: errors.New("5 episodes in a row ended in error")}, " (`emobench run --resume 4`)"},
		{emobench.Errorf(emobench.ENOTFOUND, "no trajectory with id 9"), ""},
		{errors.New("see `emobench runs`"), ""},
	} {
		if got := Hint(tt.err); got != tt.want {
			t.Errorf("Hint(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
