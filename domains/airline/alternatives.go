package airline

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file is Catalog.Alternatives: the other writes a user's words
// (choice.go) still allow, which Tracer's audit checks against the
// policy.

// named reports whether some fact names pm as describeMethod does: the
// user stated the method, so no other one is allowed.
func named(facts map[string]string, u *User, pm PaymentMethod) bool {
	desc := describeMethod(u, pm)
	return slices.ContainsFunc(slices.Collect(maps.Values(facts)), func(v string) bool { return strings.Contains(v, desc) })
}

// reasonWords are the words of a reason fact that state each
// cancellation reason.
var reasonWords = map[string]string{
	"plans changed": ReasonChangeOfPlan, "airline cancelled": ReasonAirlineCancelled,
	"am ill": ReasonHealth, "storm": ReasonWeather,
}

// alternatives is Catalog.Alternatives: the other writes that the user's
// facts allow for gold, policy aside. A booking may take another
// itinerary the flight choice allows or, when the user named no method,
// another payment method; a change of flights another method the user
// did not name, or another flight on a segment's route and date unless
// the user kept the flight numbers ("same flight LK123", an upgrade);
// added bags another method, or the count a conditional request picks;
// a cancellation another reason the user stated.
func alternatives(env sim.Environment, userID string, facts map[string]string, gold emobench.Action) []emobench.Action {
	db, ok := sim.StateOf[DB](env)
	if !ok {
		return nil
	}
	u := db.Users.At(userID)
	args, err := sim.CallArgs(gold)
	if u == nil || err != nil {
		return nil
	}
	var out []emobench.Action
	otherMethods := func(current string) {
		if pm, ok := u.PaymentMethods[current]; !ok || named(facts, u, pm) {
			return
		}
		for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
			if id != current {
				out = append(out, sim.WithArgs(gold, "payment_id", id))
			}
		}
	}
	switch gold.Name {
	case ToolBookReservation:
		return db.bookingAlternatives(u, facts, gold, args)
	case ToolUpdateReservationFlights:
		id, _ := args["payment_id"].(string)
		otherMethods(id)
		flights, _ := args["flights"].([]any)
		rid, _ := args["reservation_id"].(string)
		if r, _ := db.Reservations.Get(rid); r != nil && keepsFlights(r, flights) {
			break // the user asked for the same flights (another date or cabin)
		}
		for i, f := range flights {
			ref, _ := f.(map[string]any)
			number, _ := ref["flight_number"].(string)
			date, _ := ref["date"].(string)
			fl := db.flight(number)
			if fl == nil {
				continue
			}
			for _, fi := range db.departures(fl.Origin, date) {
				if fi.Destination != fl.Destination || fi.FlightNumber == number {
					continue
				}
				changed := slices.Clone(flights)
				changed[i] = map[string]any{"flight_number": fi.FlightNumber, "date": date}
				out = append(out, sim.WithArgs(gold, "flights", changed))
			}
		}
	case ToolUpdateReservationBaggages:
		id, _ := args["payment_id"].(string)
		otherMethods(id)
		// A conditional request allows the count its condition picks.
		rid, _ := args["reservation_id"].(string)
		r, _ := db.Reservations.Get(rid)
		for _, v := range sim.FactValues(facts, "bags") {
			ref, condition, _ := strings.Cut(v, ": ")
			var two, limit, one int
			if _, err := fmt.Sscanf(condition, bagCondition, &two, &limit, &one); err != nil || r == nil || !db.names(u, r, ref) {
				continue
			}
			want := two
			if bagFee(u, r, two) > limit {
				want = one
			}
			if total, _ := args["total_baggages"].(float64); int(total) != want {
				nonfree := NonfreeBags(u.Membership, r.Cabin, len(r.Passengers), want)
				out = append(out, sim.WithArgs(gold, "total_baggages", want, "nonfree_baggages", nonfree))
			}
		}
	case ToolCancelReservation:
		for words, reason := range reasonWords {
			if reason != args["reason"] && slices.ContainsFunc(sim.FactValues(facts, "reason"), func(v string) bool { return strings.Contains(v, words) }) {
				out = append(out, sim.WithArgs(gold, "reason", reason))
			}
		}
		slices.SortFunc(out, func(a, b emobench.Action) int { return strings.Compare(string(a.Arguments), string(b.Arguments)) })
	}
	return out
}

// keepsFlights reports whether flights (a write's decoded list) are r's
// flight numbers in order.
func keepsFlights(r *Reservation, flights []any) bool {
	if len(flights) != len(r.Flights) {
		return false
	}
	for i, f := range flights {
		if ref, _ := f.(map[string]any); ref["flight_number"] != r.Flights[i].FlightNumber {
			return false
		}
	}
	return true
}

// bookingAlternatives are the other writes of booking, a gold
// book_reservation whose arguments are args: its other itineraries the
// user's flight choice allows, each paid as the gold is for its own total,
// and, when the user named no method, the gold itinerary paid with another
// method.
func (db *DB) bookingAlternatives(u *User, facts map[string]string, booking emobench.Action, args map[string]any) []emobench.Action {
	origin, _ := args["origin"].(string)
	destination, _ := args["destination"].(string)
	cabin, _ := args["cabin"].(string)
	passengers, _ := args["passengers"].([]any)
	payments, _ := args["payment_methods"].([]any)
	flights, _ := args["flights"].([]any)
	bags, _ := args["nonfree_baggages"].(float64)
	if len(flights) == 0 || len(payments) == 0 || len(passengers) == 0 {
		return nil
	}
	date, _ := flights[0].(map[string]any)["date"].(string)
	var gold itinerary
	for _, f := range flights {
		number, _ := f.(map[string]any)["flight_number"].(string)
		gold = append(gold, Segment{FlightNumber: number, Date: date})
	}
	pax := len(passengers)
	extras := BagFee * int(bags)
	if args["insurance"] == "yes" {
		extras += InsuranceFee * pax
	}
	var out []emobench.Action
	options := db.itineraries(origin, destination, date, cabin, pax)
	choices := sim.FactValues(facts, "flight_choice")
	for _, it := range options {
		if sameItinerary(it, gold) || len(choices) > 0 && !slices.ContainsFunc(choices, func(c string) bool { return db.choiceAllows(c, it, options, cabin) }) {
			continue
		}
		// The last payment takes what the total changes by.
		total := db.fare(it, cabin)*pax + extras
		repaid := slices.Clone(payments)
		last, _ := repaid[len(repaid)-1].(map[string]any)
		last = maps.Clone(last)
		for _, p := range repaid[:len(repaid)-1] {
			amount, _ := p.(map[string]any)["amount"].(float64)
			total -= int(amount)
		}
		last["amount"] = total
		repaid[len(repaid)-1] = last
		out = append(out, sim.WithArgs(booking, "payment_methods", repaid, "flights", refs(it)))
	}
	if len(payments) == 1 {
		p, _ := payments[0].(map[string]any)
		id, _ := p["payment_id"].(string)
		if pm, ok := u.PaymentMethods[id]; ok && !named(facts, u, pm) {
			for _, other := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
				if other != id {
					out = append(out, sim.WithArgs(booking, "payment_methods", []map[string]any{{"payment_id": other, "amount": p["amount"]}}))
				}
			}
		}
	}
	return out
}
