package airline

import (
	"testing"

	"github.com/emobench/emobench/sim"
)

func hashOf(db *DB) string { return sim.NewStateEnv(db, Tools()).Hash() }

func TestGenerateDB_Deterministic(t *testing.T) {
	if got, want := hashOf(GenerateDB(Seed)), hashOf(GenerateDB(Seed)); got != want {
		t.Fatalf("two databases from seed %d hash %s and %s", Seed, got, want)
	}
	if a, b := hashOf(GenerateDB(1)), hashOf(GenerateDB(2)); a == b {
		t.Fatalf("seeds 1 and 2 give the same database (hash %s)", a)
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

func TestCabins(t *testing.T) {
	c := Cabins{BasicEconomy: 1, Economy: 2, Business: 3}
	c.Add(CabinBusiness, 2)
	c.Add("first", 5) // ignored
	if got, want := c.Get(CabinBusiness), 5; got != want {
		t.Errorf("business = %d, want %d", got, want)
	}
	if got, want := c.Get("first"), 0; got != want {
		t.Errorf("unknown cabin = %d, want %d", got, want)
	}
	if got, want := FreeBags(MemberGold, CabinBusiness), 3; got != want {
		t.Errorf("FreeBags(gold, business) = %d, want %d", got, want)
	}
}
