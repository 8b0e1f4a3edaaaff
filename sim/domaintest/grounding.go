package domaintest

import (
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file grounds an intent for a domain's own tests, which check what
// a grounding promises beyond the suite (a refusal's alternatives, a
// write's single end state) on many users.

// Grounding is an intent grounded for a user after their
// authentication, on the environment it was grounded on.
type Grounding struct {
	UserID string
	// Auth is the gold call that identified the user, already made on
	// Env; AuthFacts are the facts the user identified themselves by.
	Auth      emobench.Action
	AuthFacts map[string]string
	sim.Grounding
	Env sim.Environment
}

// Groundings returns up to n groundings of in for cat's users in order,
// each on a fresh environment of dom after the user's authentication,
// user j's with the random source (seed, j); users the intent does not
// apply to are skipped. It fails t when an authentication fails.
func Groundings(t testing.TB, dom sim.Domain, cat *sim.Catalog, in sim.Intent, seed uint64, n int) []Grounding {
	t.Helper()
	var out []Grounding
	for j, userID := range cat.Users(dom.NewEnvironment()) {
		if len(out) >= n {
			break
		}
		env, r := dom.NewEnvironment(), rand.New(rand.NewPCG(seed, uint64(j)))
		auth, facts := cat.Authenticate(env, userID, r)
		if _, err := env.Call(auth.Name, auth.Arguments); err != nil {
			t.Fatalf("%s: authenticate %s: %v", in.Name, userID, err)
		}
		never := func(string) bool { return false }
		if g, ok := in.Ground(sim.GroundContext{Env: env, UserID: userID, Rand: r, Used: never}); ok {
			out = append(out, Grounding{UserID: userID, Auth: auth, AuthFacts: facts, Grounding: g, Env: env})
		}
	}
	return out
}
