package sim

import (
	"maps"
	"math/rand/v2"

	"github.com/emobench/emobench"
)

// This file holds a Catalog's Users and Authenticate for the common case:
// the users are the rows of one table, and a user proves who they are by
// one of a few lookups (an email, a name and a zip code), each a tool
// call whose arguments the user knows as facts.

// Login is one way a user identifies themself: a call of the lookup Tool
// with Args, which the user knows as Facts.
type Login struct {
	// Tool is the lookup tool's name.
	Tool string
	// Weight is how often this login is drawn, relative to the user's
	// other logins; at least 1.
	Weight int
	// Facts are what the user says (fact key → value).
	Facts map[string]string
	// Args are the lookup's arguments (name → value); nil: Facts, when
	// the facts are named as the tool's arguments.
	Args map[string]string
}

// UsersOf returns a Catalog.Users that lists the ids of the rows of the
// table rows picks from a StateEnv over S, sorted; none for another
// environment.
func UsersOf[S, V any](rows func(*S) *Table[V]) func(Environment) []string {
	return func(env Environment) []string {
		s, ok := StateOf[S](env)
		if !ok {
			return nil
		}
		return rows(s).Keys()
	}
}

// Authenticator returns a Catalog.Authenticate for users that are the
// rows of the table rows picks from a StateEnv over S: it draws one of
// logins(user) with WeightedIndex (one r.IntN(sum of the weights), the
// first login taking the lowest values), and returns its lookup call and
// a fresh copy of its facts. For an unknown user or another environment
// it returns no action, empty facts and no draw.
func Authenticator[S, V any](rows func(*S) *Table[V], logins func(*V) []Login) func(Environment, string, *rand.Rand) (emobench.Action, map[string]string) {
	return func(env Environment, userID string, r *rand.Rand) (emobench.Action, map[string]string) {
		facts := map[string]string{}
		s, ok := StateOf[S](env)
		if !ok || rows(s).At(userID) == nil {
			return emobench.Action{}, facts
		}
		ways := logins(rows(s).At(userID))
		weights := make([]int, len(ways))
		for i, l := range ways {
			weights[i] = l.Weight
		}
		l := ways[WeightedIndex(r, weights...)]
		args := l.Args
		if args == nil {
			args = l.Facts
		}
		maps.Copy(facts, l.Facts)
		kv := make([]any, 0, 2*len(args))
		for k, v := range args {
			kv = append(kv, k, v)
		}
		return NewAction(l.Tool, kv...), facts
	}
}
