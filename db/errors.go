package db

import (
	"fmt"
	"strings"

	"github.com/emobench/emobench"
)

// ErrNotFound is returned when a requested record does not exist. It is
// emobench.ErrNotFound, so errors.Is matches any ENOTFOUND error with it.
var ErrNotFound = emobench.ErrNotFound

// RunNotFoundError is ResolveRun's error when no run has Ref as its id or
// name. errors.Is(err, ErrNotFound) holds for it.
type RunNotFoundError struct {
	Ref string // the id or name asked for, as given
}

func (e *RunNotFoundError) Error() string {
	return fmt.Sprintf("no run with id or name %q", e.Ref)
}

func (e *RunNotFoundError) Unwrap() error { return ErrNotFound }

// OutdatedSchemaError is RequireCurrent's error for a file whose schema
// (PRAGMA user_version) is older than this build's: the read-only commands
// cannot use it, and a writing open upgrades it. errors.Is(err,
// emobench.ErrInvalid) holds for it.
type OutdatedSchemaError struct {
	Path    string // the database file
	Version int    // the file's schema version
	Want    int    // this build's schema version, SchemaVersion()
}

func (e *OutdatedSchemaError) Error() string {
	return fmt.Sprintf("%s has schema version %d, older than this emobench's %d", e.Path, e.Version, e.Want)
}

func (e *OutdatedSchemaError) Unwrap() error { return emobench.ErrInvalid }

// ForeignTriggersError is Open's error for a file holding triggers that
// emobench did not create: they would run their SQL on every write, so the
// file is not opened for writing. errors.Is(err, emobench.ErrInvalid)
// holds for it.
type ForeignTriggersError struct {
	Path  string   // the database file
	Names []string // the triggers' names
}

func (e *ForeignTriggersError) Error() string {
	return fmt.Sprintf("%s holds triggers (%s) that emobench did not create; they would run on every write, so it is not opened for writing", e.Path, strings.Join(e.Names, ", "))
}

func (e *ForeignTriggersError) Unwrap() error { return emobench.ErrInvalid }

// AlteredSchemaError is Open's error for a file whose schema differs from
// emobench's own (a view replaced, a table turned into a view, a trigger
// or index added to emobench's tables): its reads or writes would run SQL
// emobench did not write. errors.Is(err, emobench.ErrInvalid) holds for it.
type AlteredSchemaError struct {
	Path    string // the database file
	Problem string // the first difference, and how many more there are
}

func (e *AlteredSchemaError) Error() string {
	return fmt.Sprintf("%s: %s: the file was altered outside emobench, which neither reads nor writes a file whose schema differs from its own", e.Path, e.Problem)
}

func (e *AlteredSchemaError) Unwrap() error { return emobench.ErrInvalid }

// RunNameTakenError is CheckNewRunName's error for a name a stored run
// has: a second run of it would make the name ambiguous. Run is the last
// run of that name, the one to continue instead. errors.Is(err,
// emobench.ErrInvalid) holds for it.
type RunNameTakenError struct {
	Run  int64
	Name string
}

func (e *RunNameTakenError) Error() string {
	return fmt.Sprintf("run %d is already called %q", e.Run, e.Name)
}

func (e *RunNameTakenError) Unwrap() error { return emobench.ErrInvalid }

// SelectionExistsError is StoreSelection's error for a name a stored
// selection has, when it is not to be replaced. errors.Is(err,
// emobench.ErrConflict) holds for it.
type SelectionExistsError struct{ Name string }

func (e *SelectionExistsError) Error() string { return fmt.Sprintf("selection %q exists", e.Name) }

func (e *SelectionExistsError) Unwrap() error { return emobench.ErrConflict }
