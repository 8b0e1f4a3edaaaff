package sim

import "fmt"

// This file looks up the row a tool's argument names, with the error an
// agent can act on when there is none.

// Lookup returns the row id of t for reading, or the error
// `<what> "<id>" not found` (what: "user", "order") when t has none.
func Lookup[V any](t *Table[V], what, id string) (*V, error) {
	if v, ok := t.Get(id); ok {
		return v, nil
	}
	return nil, notFound(what, id)
}

// LookupEdit is Lookup for changing the row (Table.Edit).
func LookupEdit[V any](t *Table[V], what, id string) (*V, error) {
	if v, ok := t.Edit(id); ok {
		return v, nil
	}
	return nil, notFound(what, id)
}

func notFound(what, id string) error { return fmt.Errorf("%s %q not found", what, id) }
