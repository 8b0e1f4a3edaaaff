package airline

import (
	"encoding/json"
	"maps"
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
	for _, id := range sortedKeys(db.Users) {
		cards = nil
		for _, pmID := range sortedKeys(db.Users[id].PaymentMethods) {
			if db.Users[id].PaymentMethods[pmID].Source == SourceCreditCard {
				cards = append(cards, pmID)
			}
		}
		if len(cards) >= 2 {
			user = db.Users[id]
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
