package airline

import (
	"encoding/json"
	"fmt"

	"github.com/emobench/emobench"
)

// The helpers below build the gold calls and descriptions grounders use.

// act returns the action calling name with kwargs.
func act(name string, kwargs map[string]any) emobench.Action {
	raw, err := json.Marshal(kwargs)
	if err != nil {
		panic(fmt.Sprintf("airline: action %s: %v", name, err)) // a bug in a draft function
	}
	return emobench.Action{Name: name, Arguments: raw}
}

func getReservation(r *Reservation) emobench.Action {
	return act(ToolGetReservationDetails, map[string]any{"reservation_id": r.ID})
}

func flightStatus(s Segment) emobench.Action {
	return act(ToolGetFlightStatus, map[string]any{"flight_number": s.FlightNumber, "date": s.Date})
}

func searchDirect(origin, destination, date string) emobench.Action {
	return act(ToolSearchDirectFlight, map[string]any{"origin": origin, "destination": destination, "date": date})
}

func refs(segs []Segment) []FlightRef {
	out := make([]FlightRef, len(segs))
	for i, s := range segs {
		out[i] = FlightRef{s.FlightNumber, s.Date}
	}
	return out
}

func request(text string, tools ...string) emobench.Request {
	return emobench.Request{Text: text, Tools: tools}
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// booking is a planned new reservation.
type booking struct {
	origin, destination, date, cabin string
	flights                          []Segment
	passengers                       []Passenger
	bags, nonfree                    int
	insurance                        string
	total                            int
}

func (bk booking) act(u *User, payments []map[string]any) emobench.Action {
	return act(ToolBookReservation, map[string]any{
		"user_id": u.ID, "origin": bk.origin, "destination": bk.destination, "trip_type": TripOneWay,
		"cabin": bk.cabin, "flights": refs(bk.flights), "passengers": bk.passengers,
		"payment_methods": payments, "total_baggages": bk.bags, "nonfree_baggages": bk.nonfree,
		"insurance": bk.insurance,
	})
}

func fullName(first, last string) string { return first + " " + last }

// futureFlights returns the available (flight, date) pairs after Today in
// a stable order.
func (db *DB) futureFlights() []Segment {
	var out []Segment
	for n, f := range db.Flights.All() {
		for _, d := range flightDates {
			if d > Today && f.Dates[d].Status == StatusAvailable {
				out = append(out, Segment{FlightNumber: n, Origin: f.Origin, Destination: f.Destination, Date: d})
			}
		}
	}
	return out
}

// onestopPairs returns the connections, on one date after Today, between
// airports with no direct route, in the order of futureFlights.
func (db *DB) onestopPairs() [][2]Segment {
	direct := map[[2]string]bool{}
	for _, f := range db.Flights.All() {
		direct[[2]string{f.Origin, f.Destination}] = true
	}
	opts := db.futureFlights()
	from := map[[2]string][]Segment{} // by date and origin
	for _, s := range opts {
		k := [2]string{s.Date, s.Origin}
		from[k] = append(from[k], s)
	}
	pairs := [][2]Segment{}
	for _, s1 := range opts {
		for _, s2 := range from[[2]string{s1.Date, s1.Destination}] {
			if s2.Destination == s1.Origin || direct[[2]string{s1.Origin, s2.Destination}] ||
				!connects(db.flight(s1.FlightNumber), db.flight(s2.FlightNumber)) {
				continue
			}
			pairs = append(pairs, [2]Segment{s1, s2})
		}
	}
	return pairs
}

// dollars writes an amount as an output says it: "$40".
func dollars(n int) string { return fmt.Sprintf("$%d", max(n, -n)) }

// bagCount writes a bag allowance as an output says it, any form of
// which counts: "2 checked bags|2 free checked bags|2 bags|2 free bags".
func bagCount(n int) string {
	return fmt.Sprintf("%[1]d checked bags|%[1]d free checked bags|%[1]d bags|%[1]d free bags", n)
}

// statusWords are a flight status as an answer may say it, any member
// of the set counting: "available", the word the tools use for a flight
// that has not left, is said "on time" or "on schedule".
var statusWords = map[string]string{
	StatusAvailable: "on time|on schedule|scheduled|as scheduled|not delayed",
	StatusDelayed:   "delayed|running late",
	StatusCancelled: "cancelled|canceled",
	StatusFlying:    "in the air|in flight|airborne|flying|en route",
	StatusLanded:    "landed|arrived",
}
