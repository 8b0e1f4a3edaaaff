package workbench

import (
	"errors"
	"fmt"

	"github.com/emobench/emobench/db"
)

// Hint is what the emobench command adds to err's message to say what to
// type next, chosen by the type of an error in err's chain (never by its
// text): the run to resume, the database to migrate or check, the flag
// that avoids a clash. It is "" when nothing helps.
func Hint(err error) string {
	var outdated *db.OutdatedSchemaError
	var noRun *db.RunNotFoundError
	var triggers *db.ForeignTriggersError
	var resumable *ResumableError
	var altered *db.AlteredSchemaError
	var taken *db.RunNameTakenError
	var selection *db.SelectionExistsError
	switch {
	case errors.As(err, &altered):
		return fmt.Sprintf("; see `emobench --db %s check`", altered.Path)
	case errors.As(err, &taken):
		return fmt.Sprintf(": continue it with `emobench run --resume %d`, or give --name for a new run", taken.Run)
	case errors.As(err, &selection):
		return ": choose another --name, or give --replace"
	case errors.As(err, &resumable):
		return fmt.Sprintf(" (`emobench run --resume %d`)", resumable.Run)
	case errors.As(err, &outdated):
		return fmt.Sprintf(": upgrade it with `emobench --db %s migrate`", outdated.Path)
	case errors.As(err, &triggers):
		return fmt.Sprintf(" (inspect it with `emobench --db %s check`)", triggers.Path)
	case errors.As(err, &noRun):
		return " (see `emobench runs`)"
	}
	return ""
}
