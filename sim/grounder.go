package sim

import (
	"math/rand/v2"

	"github.com/emobench/emobench"
)

// This file holds small helpers the grounders of every catalog share.

// GroundOn adapts a grounder over a domain's state S to Intent.Ground:
// on an environment that is no StateEnv over S it grounds nothing.
func GroundOn[S any](ground func(GroundContext, *S) (Grounding, bool)) Grounder {
	return func(g GroundContext) (Grounding, bool) {
		if s, ok := StateOf[S](g.Env); ok {
			return ground(g, s)
		}
		return Grounding{}, false
	}
}

// OneOf returns one of options, drawn with one r.IntN: a grounder's
// choice of wording (a reason, an excuse, a purpose).
func OneOf(r *rand.Rand, options ...string) string { return options[r.IntN(len(options))] }

// WithCompareArgs returns a, a forbidden entry, matched on args alone
// (emobench.Action.CompareArgs): the refused variant of a write, which
// another variant the policy allows must not match.
func WithCompareArgs(a emobench.Action, args ...string) emobench.Action {
	a.CompareArgs = args
	return a
}
