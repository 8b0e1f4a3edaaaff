package sim

import (
	"encoding/json"

	"github.com/emobench/emobench"
)

// WithArgs returns a call of a's tool with a's arguments but for the
// alternating names and values kv (as NewAction takes them), re-encoded
// with sorted keys: the alternative to a gold call that differs in some
// arguments (Catalog.Alternatives). It returns a itself when a's
// arguments are no JSON object or a value cannot be encoded; it panics on
// a name that is not a string, a bug in the caller.
func WithArgs(a emobench.Action, kv ...any) emobench.Action {
	var args map[string]any
	if err := json.Unmarshal(a.Arguments, &args); err != nil || args == nil {
		return a
	}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return a
	}
	return emobench.Action{Name: a.Name, Arguments: raw}
}
