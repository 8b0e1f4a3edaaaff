package airline

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

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
