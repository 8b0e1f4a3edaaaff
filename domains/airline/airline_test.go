package airline

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/sim/domaintest"
)

// testDomain is New(), made once for the package's tests.
var testDomain = sync.OnceValue(New)

// initialState returns a copy-on-write fork of the initial database, as
// an episode gets it: change it through Edit and Put only.
func initialState() *DB {
	db, _ := sim.StateOf[DB](testDomain().NewEnvironment())
	return db
}

func newEnv(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, Tools()) }

// get returns the row id of t, nil when there is none.
func get[V any](t *sim.Table[V], id string) *V {
	v, _ := t.Get(id)
	return v
}

// edit returns the row id of t for changing.
func edit[V any](t *sim.Table[V], id string) *V {
	v, _ := t.Edit(id)
	return v
}

func TestDomain(t *testing.T) { domaintest.Run(t, New()) }

// TestPolicy checks that policy.md states the rules the catalog applies.
func TestPolicy(t *testing.T) {
	for _, rule := range []string{"2024-05-15 15:00", "explicit **yes**", "one travel certificate", "basic economy", "24 hours", "$40", "$100 per passenger", "$50 per passenger", "transfer_to_human_agents"} {
		if !strings.Contains(policy, rule) {
			t.Errorf("policy does not mention %q", rule)
		}
	}
}

// TestGenerateDB_Consistent checks the generated data against the rules the
// tools enforce, for several seeds.
func TestGenerateDB_Consistent(t *testing.T) {
	for _, seed := range []uint64{Seed, 1, 2, 3} {
		db := GenerateDB(seed)
		if got, want := db.Users.Len(), numUsers; got != want {
			t.Errorf("seed %d: %d users, want %d", seed, got, want)
		}
		if got, want := db.Reservations.Len(), numReservations; got != want {
			t.Errorf("seed %d: %d reservations, want %d", seed, got, want)
		}
		if got, want := db.Flights.Len(), numFlights; got != want {
			t.Errorf("seed %d: %d flights, want %d", seed, got, want)
		}
		for id, r := range db.Reservations.All() {
			u, ok := db.Users.Get(r.UserID)
			if !ok {
				t.Fatalf("seed %d: reservation %s: unknown user %s", seed, id, r.UserID)
			}
			if _, err := db.itinerary(r.Origin, r.Destination, r.TripType, refs(r.Flights)); err != nil {
				t.Errorf("seed %d: reservation %s: %v", seed, id, err)
			}
			if err := checkPassengers(r.Passengers); err != nil {
				t.Errorf("seed %d: reservation %s: %v", seed, id, err)
			}
			if len(r.Passengers) > MaxPassengers {
				t.Errorf("seed %d: reservation %s: %d passengers, more than the policy's %d", seed, id, len(r.Passengers), MaxPassengers)
			}
			if got, want := r.NonfreeBaggages, NonfreeBags(u.Membership, r.Cabin, len(r.Passengers), r.TotalBaggages); got != want {
				t.Errorf("seed %d: reservation %s: nonfree_baggages %d, want the policy's %d", seed, id, got, want)
			}
			want := BagFee * r.NonfreeBaggages
			for _, s := range r.Flights {
				want += s.Price * len(r.Passengers)
			}
			if r.Insurance == "yes" {
				want += InsuranceFee * len(r.Passengers)
			}
			if got := r.TotalPaid(); got != want {
				t.Errorf("seed %d: reservation %s: paid %d, want %d", seed, id, got, want)
			}
			for _, p := range r.PaymentHistory {
				if _, ok := u.PaymentMethods[p.PaymentID]; !ok {
					t.Errorf("seed %d: reservation %s: payment %s is not the user's", seed, id, p.PaymentID)
				}
			}
			if r.CreatedAt > Now || r.CreatedAt >= r.Flights[0].Date {
				t.Errorf("seed %d: reservation %s: created %s, after now or its first flight on %s", seed, id, r.CreatedAt, r.Flights[0].Date)
			}
		}
		for id, u := range db.Users.All() {
			for _, rid := range u.Reservations {
				if r, ok := db.Reservations.Get(rid); !ok || r.UserID != id {
					t.Errorf("seed %d: user %s lists reservation %s that is not theirs", seed, id, rid)
				}
			}
		}
	}
}

// A reservation's passengers and payments are sets: the same booking with
// its payment methods or passengers listed in another order hashes alike
// (Reservation.StateForm), and another split of the fare does not (#21).
func TestStateHash_BookingListsAreSets(t *testing.T) {
	var gold map[string]any
	for _, task := range New().Tasks() {
		for _, a := range task.Actions {
			if a.Name != ToolBookReservation || gold != nil {
				continue
			}
			var args map[string]any
			if err := json.Unmarshal(a.Arguments, &args); err != nil {
				t.Fatal(err)
			}
			// One passenger, no paid bags or insurance, one payment: its
			// amount is the fare of a seat, which the test books twice.
			if len(args["passengers"].([]any)) == 1 && args["cabin"] == "economy" && args["nonfree_baggages"] == 0.0 && args["insurance"] == "no" && len(args["payment_methods"].([]any)) == 1 {
				gold = args
			}
		}
	}
	if gold == nil {
		t.Fatal("no gold book_reservation among the test tasks")
	}
	fare := gold["payment_methods"].([]any)[0].(map[string]any)["amount"].(float64)
	var user *User
	var cards []string
	db := initialDB()
	for _, id := range db.Users.Keys() {
		cards = nil
		for _, pmID := range slices.Sorted(maps.Keys(get(&db.Users, id).PaymentMethods)) {
			if get(&db.Users, id).PaymentMethods[pmID].Source == SourceCreditCard {
				cards = append(cards, pmID)
			}
		}
		if len(cards) >= 2 {
			user = get(&db.Users, id)
			break
		}
	}
	if user == nil {
		t.Fatal("no user with two credit cards")
	}
	me := Passenger{user.FirstName, user.LastName, user.DOB}
	other := Passenger{"Nova", "Lind", "1990-02-03"}
	hashAfter := func(passengers []Passenger, payments ...map[string]any) string {
		args := maps.Clone(gold)
		args["user_id"], args["passengers"], args["payment_methods"] = user.ID, passengers, payments
		b, _ := json.Marshal(args)
		env := New().NewEnvironment()
		if _, err := env.Call(ToolBookReservation, b); err != nil {
			t.Fatal(err)
		}
		return env.Hash()
	}
	pay := func(card string, amount float64) map[string]any {
		return map[string]any{"payment_id": card, "amount": amount}
	}
	want := hashAfter([]Passenger{me, other}, pay(cards[0], fare), pay(cards[1], fare))
	if got := hashAfter([]Passenger{me, other}, pay(cards[1], fare), pay(cards[0], fare)); got != want {
		t.Error("payment methods in another order hash differently")
	}
	if got := hashAfter([]Passenger{other, me}, pay(cards[0], fare), pay(cards[1], fare)); got != want {
		t.Error("passengers in another order hash differently")
	}
	if got := hashAfter([]Passenger{me, other}, pay(cards[0], fare-1), pay(cards[1], fare+1)); got == want {
		t.Error("another split of the fare hashes alike")
	}
}

// TestCatalog_GroundMalformed grounds every intent for a user whose
// reservations have no flights or passengers, and for an unknown user and
// a foreign environment: no grounder panics, and none grounds.
func TestCatalog_GroundMalformed(t *testing.T) {
	db := initialState()
	u := get(&db.Users, db.Users.Keys()[0])
	for _, id := range u.Reservations {
		r := edit(&db.Reservations, id)
		r.Flights, r.Passengers = nil, nil
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, in := range Catalog().Intents {
		for _, g := range []sim.GroundContext{
			{Env: newEnv(db), UserID: "nobody_0000", Rand: rng},
			{Env: sim.NewStateEnv(&struct{}{}, nil), UserID: u.ID, Rand: rng},
		} {
			if _, ok := in.Ground(g); ok {
				t.Errorf("%s grounded for %s in a malformed environment", in.Name, g.UserID)
			}
		}
		gr, ok := in.Ground(sim.GroundContext{Env: newEnv(db), UserID: u.ID, Rand: rng})
		for _, id := range gr.Uses {
			if slices.Contains(u.Reservations, id) {
				t.Errorf("%s grounded on reservation %s, which has no flights (ok %v)", in.Name, id, ok)
			}
		}
	}
}
