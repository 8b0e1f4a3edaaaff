package domaintest

import (
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestGroundings: an intent that applies to every other user is grounded
// for the first n of them, in order, each after the authentication call
// (made on its own environment) with the facts it returned.
func TestGroundings(t *testing.T) {
	dom := newShopDomain(t, false)
	users := []string{"u0", "u1", "u2", "u3", "u4", "u5"}
	cat := &sim.Catalog{
		Users: func(sim.Environment) []string { return users },
		Authenticate: func(_ sim.Environment, userID string, _ *rand.Rand) (emobench.Action, map[string]string) {
			return sim.NewAction("find_user_id_by_email", "email", "ana@example.com"), map[string]string{"who": userID}
		},
	}
	in := sim.Intent{Name: "cancel", Ground: func(g sim.GroundContext) (sim.Grounding, bool) {
		if g.UserID == "u1" || g.UserID == "u3" || g.UserID == "u5" {
			return sim.Grounding{}, false
		}
		_, err := g.Env.Call("cancel_pending_order", []byte(`{"order_id": "#W1"}`))
		return sim.Grounding{Facts: map[string]string{"n": g.UserID}}, err == nil // a fresh environment: #W1 is pending
	}}
	got := Groundings(t, dom, cat, in, 1, 2)
	if len(got) != 2 || got[0].UserID != "u0" || got[1].UserID != "u2" {
		t.Fatalf("Groundings = %+v, want u0 and u2", got)
	}
	for _, g := range got {
		if g.AuthFacts["who"] != g.UserID || g.Auth.Name != "find_user_id_by_email" || g.Facts["n"] != g.UserID || g.Env == nil {
			t.Errorf("grounding %+v: want the user's auth facts, auth call, grounding and environment", g)
		}
	}
}
