package airline

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestDescribeMethod_NoIDs(t *testing.T) {
	db := initialState()
	for _, id := range db.Users.Keys() {
		u := get(&db.Users, id)
		seen := map[string]string{}
		for _, pmID := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
			d := describeMethod(u, u.PaymentMethods[pmID])
			if strings.Contains(d, pmID) || strings.Contains(d, "_") {
				t.Fatalf("%s: %q names an id", id, d)
			}
			if other, ok := seen[d]; ok && (uniquelyNamed(u, u.PaymentMethods[pmID]) || uniquelyNamed(u, u.PaymentMethods[other])) {
				t.Errorf("%s: %q names both %s and %s, yet counts as unique", id, d, other, pmID)
			}
			seen[d] = pmID
		}
	}
}

func TestChoiceAllows(t *testing.T) {
	db := initialState()
	checked := 0
	for _, s := range db.futureFlights()[:200] {
		options := db.itineraries(s.Origin, s.Destination, s.Date, CabinEconomy, 1)
		for _, it := range options {
			for _, phrase := range db.choicePhrases(it, options, CabinEconomy) {
				var picked []itinerary
				for _, o := range options {
					if db.choiceAllows(phrase, o, options, CabinEconomy) {
						picked = append(picked, o)
					}
				}
				if len(picked) != 1 || !sameItinerary(picked[0], it) {
					t.Fatalf("%q picks %v, want only %v", phrase, picked, it)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d phrases checked", checked)
	}
}

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
