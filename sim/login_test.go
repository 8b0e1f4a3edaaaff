package sim_test

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

type loginUser struct{ Email, Phone, Zip string }

type loginState struct {
	Users sim.Table[loginUser] `json:"users"`
}

func TestAuthenticator(t *testing.T) {
	s := &loginState{Users: sim.NewTable(map[string]*loginUser{
		"ana": {Email: "ana@example.com", Phone: "555-0100", Zip: "80203"},
		"ben": {Email: "ben@example.com", Phone: "555-0101", Zip: "97201"},
	})}
	users := func(s *loginState) *sim.Table[loginUser] { return &s.Users }
	auth := sim.Authenticator(users, func(u *loginUser) []sim.Login {
		return []sim.Login{
			{Tool: "find_by_phone", Weight: 1, Facts: map[string]string{"phone": u.Phone}, Args: map[string]string{"phone_number": u.Phone}},
			{Tool: "find_by_email", Weight: 2, Facts: map[string]string{"email": u.Email, "zip": u.Zip}},
		}
	})
	env := sim.NewStateEnv(s, nil)
	if got := sim.UsersOf(users)(env); !slices.Equal(got, []string{"ana", "ben"}) {
		t.Errorf("UsersOf = %v, want [ana ben]", got)
	}
	// The draw is r.IntN(3): 0 is the phone, 1 and 2 the email.
	for seed := range uint64(30) {
		a, facts := auth(env, "ana", rand.New(rand.NewPCG(seed, 2)))
		wantTool, wantArgs, wantFacts := "find_by_email", `{"email":"ana@example.com","zip":"80203"}`, map[string]string{"email": "ana@example.com", "zip": "80203"}
		if rand.New(rand.NewPCG(seed, 2)).IntN(3) == 0 {
			wantTool, wantArgs, wantFacts = "find_by_phone", `{"phone_number":"555-0100"}`, map[string]string{"phone": "555-0100"}
		}
		if a.Name != wantTool || string(a.Arguments) != wantArgs || !maps.Equal(facts, wantFacts) {
			t.Errorf("seed %d: %s%s with facts %v, want %s%s and %v", seed, a.Name, a.Arguments, facts, wantTool, wantArgs, wantFacts)
		}
	}
	if a, facts := auth(env, "nobody", rand.New(rand.NewPCG(1, 2))); a.Name != "" || facts == nil || len(facts) != 0 {
		t.Errorf("unknown user: %v, %v; want no action and empty facts", a, facts)
	}
	other := sim.NewStateEnv(&struct{}{}, nil)
	if a, _ := auth(other, "ana", rand.New(rand.NewPCG(1, 2))); a.Name != "" || sim.UsersOf(users)(other) != nil {
		t.Error("another environment: an action or users")
	}
}
