package retail

import (
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench/sim"
)

// minGroundable is the least number of the 500 users every forbidden
// and transfer intent must ground for on the initial data, alone (no
// earlier intent in the task), so that a test split can hold each at least
// twice on distinct users and orders.
const minGroundable = 25

// TestCatalog_RefusalsAndTransfersGroundForManyUsers counts, for every
// forbidden and transfer intent, the users it grounds for as a task's
// first intent, and logs the counts.
func TestCatalog_RefusalsAndTransfersGroundForManyUsers(t *testing.T) {
	c := Catalog()
	env := New().NewEnvironment()
	users := c.Users(env)
	for _, in := range c.Intents {
		if in.Kind != sim.IntentForbidden && in.Kind != sim.IntentTransfer {
			continue
		}
		n := 0
		for i, u := range users {
			if _, ok := in.Ground(sim.GroundContext{Env: env, UserID: u, Rand: rand.New(rand.NewPCG(uint64(i), 1))}); ok {
				n++
			}
		}
		t.Logf("%s: %d of %d users", in.Name, n, len(users))
		if n < minGroundable {
			t.Errorf("%s grounds for %d of %d users, want >= %d", in.Name, n, len(users), minGroundable)
		}
	}
}
