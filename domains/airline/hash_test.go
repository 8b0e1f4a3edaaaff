package airline

import (
	"encoding/json"
	"reflect"
	"testing"
)

// roundTrip returns db through JSON: an equal database that is no clone,
// so its StateHash encodes every entity.
func roundTrip(t *testing.T, db *DB) *DB {
	t.Helper()
	b, err := json.Marshal(db)
	if err != nil {
		t.Fatal(err)
	}
	var out DB
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func TestStateHash_IncrementalEqualsFull(t *testing.T) {
	root := GenerateDB(Seed)
	c := root.Clone()
	if got, want := c.StateHash(), roundTrip(t, root).StateHash(); got != want {
		t.Fatalf("clone hash %s, full hash %s", got, want)
	}
	before := c.StateHash()
	// Change one entity of each kind.
	n := sortedKeys(c.Flights)[7]
	d := flightDates[20]
	c.writableDate(n, d).AvailableSeats.Add(CabinBusiness, -1)
	r := c.Reservations[sortedKeys(c.Reservations)[3]]
	r.Passengers = append(r.Passengers, Passenger{"Nova", "Lind", "1990-02-03"})
	u := c.Users[sortedKeys(c.Users)[5]]
	u.Membership = MemberGold + "x"
	after := c.StateHash()
	if after == before {
		t.Fatal("changing the clone left its hash unchanged")
	}
	if got := roundTrip(t, c).StateHash(); got != after {
		t.Fatalf("changed clone hash %s, full hash %s", after, got)
	}
	if got, want := root.Clone().StateHash(), before; got != want {
		t.Fatalf("the root moved: a new clone hashes %s, want %s", got, want)
	}
	if got := root.Flights[n].Dates[d].AvailableSeats.Business; got != c.Flights[n].Dates[d].AvailableSeats.Business+1 {
		t.Fatalf("root business seats %d, clone %d: want one more in the root", got, c.Flights[n].Dates[d].AvailableSeats.Business)
	}
}

// A clone of a clone shares the flights its source copied; the source's
// next write must copy again.
func TestClone_CopyOnWriteChain(t *testing.T) {
	a := GenerateDB(Seed).Clone()
	n := sortedKeys(a.Flights)[0]
	d := flightDates[25]
	a.writableDate(n, d).AvailableSeats.Add(CabinEconomy, -1)
	seats := a.Flights[n].Dates[d].AvailableSeats.Economy
	b := a.Clone()
	hb := b.StateHash()
	a.writableDate(n, d).AvailableSeats.Add(CabinEconomy, -1)
	if got := b.Flights[n].Dates[d].AvailableSeats.Economy; got != seats {
		t.Fatalf("b economy seats = %d after a wrote, want %d", got, seats)
	}
	if got := b.StateHash(); got != hb {
		t.Fatal("b's hash moved when a wrote")
	}
	if a.StateHash() == hb {
		t.Fatal("a and b differ but hash equally")
	}
	b.writableDate(n, d).AvailableSeats.Add(CabinEconomy, -1)
	if a.StateHash() != b.StateHash() {
		t.Fatal("a and b are equal again but hash differently")
	}
}

// The equal functions of StateHash list every field: a new field must be
// added to them too.
func TestStateHash_EqualFunctionsCoverFields(t *testing.T) {
	for _, c := range []struct {
		v    any
		want int
	}{{User{}, 9}, {PaymentMethod{}, 5}, {Flight{}, 6}, {Reservation{}, 15}} {
		if got := reflect.TypeOf(c.v).NumField(); got != c.want {
			t.Errorf("%T has %d fields, equal functions know %d: update hash.go", c.v, got, c.want)
		}
	}
}
