package telehealth

import (
	"iter"
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/sim/domaintest"
)

// TestDomain runs the conformance suite every domain shares; the other
// tests hold what is particular to telehealth.
func TestDomain(t *testing.T) { domaintest.Run(t, New()) }

// newEnv returns an environment over a fresh fork of the initial state.
func newEnv() *sim.StateEnv[DB] { return New().NewEnvironment().(*sim.StateEnv[DB]) }

// initialState returns a fresh fork of the initial state.
func initialState() *DB { return newEnv().State }

// envOver returns an environment over db with the telehealth tools; it
// changes db.
func envOver(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, tools()) }

// find returns the first row of all that keep accepts.
func find[V any](t *testing.T, all iter.Seq2[string, *V], keep func(v *V) bool) *V {
	t.Helper()
	for _, v := range all {
		if keep(v) {
			return v
		}
	}
	t.Fatal("no record fits")
	return nil
}

// grounded is an intent grounded for a patient after their verification.
type grounded struct {
	userID   string
	auth     emobench.Action
	authFact map[string]string
	g        sim.Grounding
	env      *sim.StateEnv[DB] // the state it was grounded on
}

// groundFor grounds in for the j-th patient on a fresh environment, with
// the random source of (seed, j); false when it does not apply to them.
func groundFor(t *testing.T, in sim.Intent, j int, seed uint64) (grounded, bool) {
	t.Helper()
	env, c := newEnv(), Catalog()
	r := rand.New(rand.NewPCG(seed, uint64(j)))
	userID := env.State.Patients.Keys()[j]
	auth, facts := c.Authenticate(env, userID, r)
	if _, err := env.Call(auth.Name, auth.Arguments); err != nil {
		t.Fatalf("%s: authenticate %s: %v", in.Name, userID, err)
	}
	g, ok := in.Ground(sim.GroundContext{Env: env, UserID: userID, Rand: r, Used: func(string) bool { return false }})
	return grounded{userID: userID, auth: auth, authFact: facts, g: g, env: env}, ok
}
