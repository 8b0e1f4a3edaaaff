package airline

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench/sim"
)

// fixtures finds material for tool tests in the default database, so the
// tests follow the generator instead of hard-coding its ids.
type fixtures struct {
	tb testing.TB
	db *DB
}

func newFixtures(tb testing.TB) fixtures { return fixtures{tb, initialDB()} }

func (f fixtures) user(desc string, ok func(*User) bool) *User {
	f.tb.Helper()
	for _, id := range f.db.Users.Keys() {
		if u := get(&f.db.Users, id); ok(u) {
			return u
		}
	}
	f.tb.Fatalf("no user %s in the default database", desc)
	return nil
}

func (f fixtures) reservation(desc string, ok func(*Reservation, *User) bool) *Reservation {
	f.tb.Helper()
	for _, id := range f.db.Reservations.Keys() {
		if r := get(&f.db.Reservations, id); ok(r, get(&f.db.Users, r.UserID)) {
			return r
		}
	}
	f.tb.Fatalf("no reservation %s in the default database", desc)
	return nil
}

// flight returns the first flight on a date from from on with status and
// at least seats economy seats left.
func (f fixtures) flight(status string, seats int, from string) Segment {
	f.tb.Helper()
	for n, fl := range f.db.Flights.All() {
		for _, d := range flightDates {
			if fd := fl.Dates[d]; d >= from && fd.Status == status && fd.AvailableSeats.Economy >= seats {
				return Segment{FlightNumber: n, Origin: fl.Origin, Destination: fl.Destination, Date: d}
			}
		}
	}
	f.tb.Fatalf("no %s flight with %d economy seats from %s in the default database", status, seats, from)
	return Segment{}
}

func (f fixtures) method(u *User, source string) PaymentMethod {
	f.tb.Helper()
	for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
		if pm := u.PaymentMethods[id]; pm.Source == source {
			return pm
		}
	}
	f.tb.Fatalf("user %s has no %s", u.ID, source)
	return PaymentMethod{}
}

func (f fixtures) pristine(r *Reservation) bool {
	return r.Status == ReservationActive && !f.db.flown(r)
}

func count(u *User, source string) int {
	n := 0
	for _, pm := range u.PaymentMethods {
		if pm.Source == source {
			n++
		}
	}
	return n
}

type toolCase struct {
	name    string
	tool    string
	args    any    // encoded as JSON; a json.RawMessage is sent as is
	want    string // a substring of the result, when the call succeeds
	wantErr string // a substring of the error, when the call fails
	// check, if set, inspects the state after a successful call.
	check func(t *testing.T, db *DB)
	// breaks, if set, names the policy.md rule the call breaks: the tool
	// must still make it, since following the policy is the agent's job.
	breaks string
}

func toolCases(t *testing.T) []toolCase {
	f := newFixtures(t)
	db := f.db
	u := f.user("with a credit card", func(u *User) bool { return count(u, SourceCreditCard) > 0 })
	card := f.method(u, SourceCreditCard)
	avail := f.flight(StatusAvailable, 2, Today)
	delayedFlight := f.flight(StatusDelayed, 2, Today)
	fare := get(&db.Flights, avail.FlightNumber).Dates[avail.Date].Prices.Economy
	me := Passenger{FirstName: u.FirstName, LastName: u.LastName, DOB: u.DOB}
	free := FreeBags(u.Membership, CabinEconomy)
	booking := func(change func(m map[string]any)) map[string]any {
		m := map[string]any{
			"user_id": u.ID, "origin": avail.Origin, "destination": avail.Destination, "trip_type": TripOneWay,
			"cabin": CabinEconomy, "flights": []FlightRef{{avail.FlightNumber, avail.Date}},
			"passengers": []Passenger{me}, "payment_methods": []map[string]any{{"payment_id": card.ID, "amount": fare + BagFee}},
			"total_baggages": free + 1, "nonfree_baggages": 1, "insurance": "no",
		}
		if change != nil {
			change(m)
		}
		return m
	}
	twoCerts := f.user("with two certificates and a credit card", func(u *User) bool {
		return count(u, SourceCertificate) >= 2 && count(u, SourceCreditCard) > 0
	})
	var certIDs []string
	for _, id := range slices.Sorted(maps.Keys(twoCerts.PaymentMethods)) {
		if twoCerts.PaymentMethods[id].Source == SourceCertificate {
			certIDs = append(certIDs, id)
		}
	}
	gift := f.user("with a gift card", func(g *User) bool { return count(g, SourceGiftCard) > 0 && g.ID != u.ID })
	giftCard := f.method(gift, SourceGiftCard)

	recent := f.reservation("booked within 24h", func(r *Reservation, _ *User) bool {
		return f.pristine(r) && bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled)
	})
	refused := f.reservation("not cancellable", func(r *Reservation, _ *User) bool {
		return f.pristine(r) && !bookedWithin24h(r) && r.Cabin != CabinBusiness && r.Insurance == "no" && !db.hasStatus(r, StatusCancelled)
	})
	insured := f.reservation("insured, not business", func(r *Reservation, _ *User) bool {
		return f.pristine(r) && !bookedWithin24h(r) && r.Cabin != CabinBusiness && r.Insurance == "yes" && !db.hasStatus(r, StatusCancelled)
	})
	airlineCancelled := f.reservation("with a cancelled flight", func(r *Reservation, _ *User) bool {
		return f.pristine(r) && db.hasStatus(r, StatusCancelled)
	})
	flown := f.reservation("with a flown flight", func(r *Reservation, _ *User) bool {
		return r.Status == ReservationActive && db.flown(r)
	})
	upgradable := f.reservation("economy with bookable business seats", func(r *Reservation, _ *User) bool {
		if !f.pristine(r) || r.Cabin != CabinEconomy {
			return false
		}
		for _, s := range r.Flights {
			if _, err := db.bookable(s, CabinBusiness, len(r.Passengers)); err != nil {
				return false
			}
		}
		return count(get(&db.Users, r.UserID), SourceCreditCard) > 0 && count(get(&db.Users, r.UserID), SourceCertificate) > 0
	})
	upUser := get(&db.Users, upgradable.UserID)
	delayed := f.reservation("eligible with a delayed flight", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && db.hasStatus(r, StatusDelayed) && !db.hasStatus(r, StatusCancelled) &&
			(u.Membership == MemberGold || r.Insurance == "yes" || r.Cabin == CabinBusiness)
	})
	ineligible := f.reservation("ineligible with a delayed flight", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && db.hasStatus(r, StatusDelayed) &&
			u.Membership != MemberGold && r.Insurance == "no" && r.Cabin != CabinBusiness
	})
	bags := f.reservation("with a credit card and at most one free bag left", func(r *Reservation, u *User) bool {
		return f.pristine(r) && count(u, SourceCreditCard) > 0 && r.TotalBaggages >= FreeBags(u.Membership, r.Cabin)*len(r.Passengers)
	})
	calm := f.reservation("eligible without disruption", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && !db.hasStatus(r, StatusDelayed) && !db.hasStatus(r, StatusCancelled) && eligible(u, r)
	})
	bagged := f.reservation("with checked bags", func(r *Reservation, _ *User) bool { return f.pristine(r) && r.TotalBaggages > 0 })
	basicMovable := f.reservation("basic economy one-way direct, movable, with a credit card", func(r *Reservation, u *User) bool {
		if !f.pristine(r) || r.Cabin != CabinBasicEconomy || r.TripType != TripOneWay || len(r.Flights) != 1 || count(u, SourceCreditCard) == 0 {
			return false
		}
		for _, d := range flightDates {
			if _, err := db.bookable(Segment{FlightNumber: r.Flights[0].FlightNumber, Date: d}, r.Cabin, len(r.Passengers)); err == nil && d > Today && d != r.Flights[0].Date {
				return true
			}
		}
		return false
	})
	var basicTo FlightRef
	for _, d := range flightDates {
		s := basicMovable.Flights[0]
		if _, err := db.bookable(Segment{FlightNumber: s.FlightNumber, Date: d}, basicMovable.Cabin, len(basicMovable.Passengers)); err == nil && d > Today && d != s.Date && basicTo.Date == "" {
			basicTo = FlightRef{s.FlightNumber, d}
		}
	}
	big := f.flight(StatusAvailable, 6, "2024-05-16")
	bigFare := get(&db.Flights, big.FlightNumber).Dates[big.Date].Prices.Economy
	twoCertsCard := f.method(twoCerts, SourceCreditCard)
	status := func(id, want string) func(t *testing.T, db *DB) {
		return func(t *testing.T, db *DB) {
			if got := get(&db.Reservations, id).Status; got != want {
				t.Errorf("reservation %s status = %q, want %q", id, got, want)
			}
		}
	}
	certificates := func(userID string, more int) func(t *testing.T, db *DB) {
		return func(t *testing.T, db *DB) {
			if got, want := count(get(&db.Users, userID), SourceCertificate), count(get(&initialDB().Users, userID), SourceCertificate)+more; got != want {
				t.Errorf("user %s certificates = %d, want %d", userID, got, want)
			}
		}
	}
	bagsUser := get(&db.Users, bags.UserID)
	bagsCard := f.method(bagsUser, SourceCreditCard)
	passengers := func(r *Reservation, edit func(ps []Passenger) []Passenger) map[string]any {
		return map[string]any{"reservation_id": r.ID, "passengers": edit(slices.Clone(r.Passengers))}
	}
	changeDate := func(r *Reservation) (FlightRef, bool) {
		s := r.Flights[0]
		for _, d := range flightDates {
			if d > Today && d != s.Date {
				if _, err := db.bookable(Segment{FlightNumber: s.FlightNumber, Date: d}, r.Cabin, len(r.Passengers)); err == nil {
					return FlightRef{s.FlightNumber, d}, true
				}
			}
		}
		return FlightRef{}, false
	}
	movable := f.reservation("economy one-way direct, movable, with a credit card", func(r *Reservation, u *User) bool {
		_, ok := changeDate(r)
		return f.pristine(r) && r.Cabin == CabinEconomy && r.TripType == TripOneWay && len(r.Flights) == 1 && ok && count(u, SourceCreditCard) > 0
	})
	moveTo, _ := changeDate(movable)
	moveCard := f.method(get(&db.Users, movable.UserID), SourceCreditCard)

	// A one-stop trip: two connecting available flights between airports
	// without a direct route.
	var leg1, leg2 Segment
	if pairs := db.onestopPairs(); len(pairs) > 0 {
		leg1, leg2 = pairs[0][0], pairs[0][1]
	}
	if leg1.FlightNumber == "" {
		t.Fatal("no one-stop connection in the default database")
	}

	return []toolCase{
		{name: "ok", tool: ToolGetUserDetails, args: map[string]any{"user_id": u.ID}, want: `"user_id":"` + u.ID + `"`},
		{name: "unknown user", tool: ToolGetUserDetails, args: map[string]any{"user_id": "nobody_0000"}, wantErr: `user "nobody_0000" not found`},
		{name: "missing argument", tool: ToolGetUserDetails, args: map[string]any{}, wantErr: `missing required argument "user_id"`},
		{name: "unknown argument", tool: ToolGetUserDetails, args: map[string]any{"user_id": u.ID, "name": "x"}, wantErr: `unknown field "name"`},
		{name: "not an object", tool: ToolGetUserDetails, args: json.RawMessage(`[1]`), wantErr: "arguments must be a JSON object"},

		{name: "ok", tool: ToolGetReservationDetails, args: map[string]any{"reservation_id": recent.ID}, want: `"reservation_id":"` + recent.ID + `"`},
		{name: "unknown reservation", tool: ToolGetReservationDetails, args: map[string]any{"reservation_id": "ZZZZZZ"}, wantErr: `reservation "ZZZZZZ" not found`},

		{name: "ok", tool: ToolListAllAirports, args: map[string]any{}, want: `{"iata":"ATL","city":"Atlanta"}`},
		{name: "unexpected argument", tool: ToolListAllAirports, args: map[string]any{"city": "Boston"}, wantErr: `unknown field "city"`},

		{name: "ok", tool: ToolSearchDirectFlight, args: map[string]any{"origin": avail.Origin, "destination": avail.Destination, "date": avail.Date}, want: `"flight_number":"` + avail.FlightNumber + `"`},
		{name: "no route", tool: ToolSearchDirectFlight, args: map[string]any{"origin": leg1.Origin, "destination": leg2.Destination, "date": leg1.Date}, want: `[]`},
		{name: "city instead of code", tool: ToolSearchDirectFlight, args: map[string]any{"origin": "Boston", "destination": "JFK", "date": "2024-05-18"}, wantErr: `origin "Boston" is not an airport we serve`},
		{name: "bad date", tool: ToolSearchDirectFlight, args: map[string]any{"origin": "BOS", "destination": "JFK", "date": "May 18"}, wantErr: `date "May 18" is not a date`},
		{name: "same airports", tool: ToolSearchDirectFlight, args: map[string]any{"origin": "BOS", "destination": "BOS", "date": "2024-05-18"}, wantErr: "origin and destination must differ"},

		{name: "ok", tool: ToolSearchOnestopFlight, args: map[string]any{"origin": leg1.Origin, "destination": leg2.Destination, "date": leg1.Date}, want: `"flight_number":"` + leg2.FlightNumber + `"`},
		{name: "unknown airport", tool: ToolSearchOnestopFlight, args: map[string]any{"origin": "XXX", "destination": "JFK", "date": "2024-05-18"}, wantErr: `origin "XXX" is not an airport`},

		{name: "ok delayed", tool: ToolGetFlightStatus, args: map[string]any{"flight_number": delayedFlight.FlightNumber, "date": delayedFlight.Date}, want: `"status":"delayed","delay_minutes":`},
		{name: "unknown flight", tool: ToolGetFlightStatus, args: map[string]any{"flight_number": "XX1", "date": "2024-05-18"}, wantErr: "flight XX1 not found"},
		{name: "no such date", tool: ToolGetFlightStatus, args: map[string]any{"flight_number": avail.FlightNumber, "date": "2024-06-30"}, wantErr: "does not operate on 2024-06-30"},

		{name: "ok", tool: ToolBookReservation, args: booking(nil), want: `"created_at":"` + Now + `"`,
			check: func(t *testing.T, db *DB) {
				if got, want := get(&db.Flights, avail.FlightNumber).Dates[avail.Date].AvailableSeats.Economy, get(&initialDB().Flights, avail.FlightNumber).Dates[avail.Date].AvailableSeats.Economy-1; got != want {
					t.Errorf("economy seats = %d, want %d", got, want)
				}
				if got, want := len(get(&db.Users, u.ID).Reservations), len(u.Reservations)+1; got != want {
					t.Errorf("user reservations = %d, want %d", got, want)
				}
			}},
		{name: "wrong total", tool: ToolBookReservation, args: booking(func(m map[string]any) {
			m["payment_methods"] = []map[string]any{{"payment_id": card.ID, "amount": fare}}
		}), wantErr: "the payments add up to"},
		{name: "fractional amount", tool: ToolBookReservation, args: booking(func(m map[string]any) {
			m["payment_methods"] = []map[string]any{{"payment_id": card.ID, "amount": 10.5}}
		}), wantErr: "must be a positive whole number of dollars"},
		{name: "gift card balance too low", tool: ToolBookReservation, args: booking(func(m map[string]any) {
			m["user_id"], m["passengers"] = gift.ID, []Passenger{{gift.FirstName, gift.LastName, gift.DOB}}
			m["total_baggages"], m["nonfree_baggages"] = 0, 0
			m["payment_methods"] = []map[string]any{{"payment_id": giftCard.ID, "amount": *giftCard.Amount + 1}}
		}), wantErr: "less than the"},
		{name: "someone else's card", tool: ToolBookReservation, args: booking(func(m map[string]any) {
			m["payment_methods"] = []map[string]any{{"payment_id": giftCard.ID, "amount": fare + BagFee}}
		}), wantErr: "is not in user " + u.ID + "'s profile"},
		{name: "delayed flight", tool: ToolBookReservation, args: booking(func(m map[string]any) {
			m["origin"], m["destination"] = delayedFlight.Origin, delayedFlight.Destination
			m["flights"] = []FlightRef{{delayedFlight.FlightNumber, delayedFlight.Date}}
		}), wantErr: "is delayed and cannot be booked"},
		{name: "trip does not end at destination", tool: ToolBookReservation, args: booking(func(m map[string]any) { m["trip_type"] = TripRoundTrip }), wantErr: "a round trip must reach the destination"},
		{name: "bad dob", tool: ToolBookReservation, args: booking(func(m map[string]any) { m["passengers"] = []Passenger{{"A", "B", "1990-13-01"}} }), wantErr: `passenger 1 dob "1990-13-01" is not a date`},
		{name: "bad insurance", tool: ToolBookReservation, args: booking(func(m map[string]any) { m["insurance"] = "maybe" }), wantErr: `insurance must be yes or no`},

		{name: "ok within 24 hours", tool: ToolCancelReservation, args: map[string]any{"reservation_id": recent.ID, "reason": ReasonChangeOfPlan}, want: `"status":"cancelled"`,
			check: func(t *testing.T, db *DB) {
				if got, want := get(&db.Reservations, recent.ID).TotalPaid(), 0; got != want {
					t.Errorf("net paid after cancelling = %d, want %d", got, want)
				}
			}},
		{name: "ok airline cancelled", tool: ToolCancelReservation, args: map[string]any{"reservation_id": airlineCancelled.ID, "reason": ReasonAirlineCancelled}, want: `"status":"cancelled"`},
		{name: "ok insured health", tool: ToolCancelReservation, args: map[string]any{"reservation_id": insured.ID, "reason": ReasonHealth}, want: `"status":"cancelled"`},
		{name: "unknown reservation", tool: ToolCancelReservation, args: map[string]any{"reservation_id": "ZZZZZZ", "reason": ReasonOther}, wantErr: `reservation "ZZZZZZ" not found`},
		{name: "unknown reason", tool: ToolCancelReservation, args: map[string]any{"reservation_id": recent.ID, "reason": "bored"}, wantErr: `reason "bored" is not one of`},

		{name: "ok upgrade", tool: ToolUpdateReservationFlights, args: map[string]any{"reservation_id": upgradable.ID, "cabin": CabinBusiness, "flights": refs(upgradable.Flights), "payment_id": f.method(upUser, SourceCreditCard).ID}, want: `"cabin":"business"`},
		{name: "ok change date", tool: ToolUpdateReservationFlights, args: map[string]any{"reservation_id": movable.ID, "cabin": movable.Cabin, "flights": []FlightRef{moveTo}, "payment_id": moveCard.ID}, want: `"date":"` + moveTo.Date + `"`},
		{name: "certificate payment", tool: ToolUpdateReservationFlights, args: map[string]any{"reservation_id": upgradable.ID, "cabin": CabinBusiness, "flights": refs(upgradable.Flights), "payment_id": f.method(upUser, SourceCertificate).ID}, wantErr: "certificate can only pay for a new booking"},
		{name: "no payment", tool: ToolUpdateReservationFlights, args: map[string]any{"reservation_id": upgradable.ID, "cabin": CabinBusiness, "flights": refs(upgradable.Flights)}, wantErr: "give payment_id"},
		{name: "nothing changes", tool: ToolUpdateReservationFlights, args: map[string]any{"reservation_id": upgradable.ID, "cabin": CabinEconomy, "flights": refs(upgradable.Flights)}, wantErr: "nothing to change"},
		{name: "wrong route", tool: ToolUpdateReservationFlights, args: map[string]any{"reservation_id": movable.ID, "cabin": movable.Cabin, "flights": []FlightRef{{leg1.FlightNumber, leg1.Date}}, "payment_id": moveCard.ID}, wantErr: "leaves " + leg1.Origin},

		{name: "ok", tool: ToolUpdateReservationPassengers, args: passengers(recent, func(ps []Passenger) []Passenger {
			ps[0] = Passenger{"Nova", "Lind", "1990-02-03"}
			return ps
		}), want: `{"first_name":"Nova","last_name":"Lind","dob":"1990-02-03"}`},
		{name: "one more passenger", tool: ToolUpdateReservationPassengers, args: passengers(recent, func(ps []Passenger) []Passenger {
			return append(ps, Passenger{"Nova", "Lind", "1990-02-03"})
		}), wantErr: "the number of passengers cannot change"},
		{name: "empty name", tool: ToolUpdateReservationPassengers, args: passengers(recent, func(ps []Passenger) []Passenger {
			ps[0].FirstName = " "
			return ps
		}), wantErr: "passenger 1 needs a first and a last name"},
		{name: "unchanged", tool: ToolUpdateReservationPassengers, args: passengers(recent, func(ps []Passenger) []Passenger { return ps }), wantErr: "nothing to change"},

		{name: "ok", tool: ToolUpdateReservationBaggages, args: map[string]any{"reservation_id": bags.ID, "total_baggages": bags.TotalBaggages + 1, "nonfree_baggages": bags.NonfreeBaggages + 1, "payment_id": bagsCard.ID},
			want: `{"payment_id":"` + bagsCard.ID + `","amount":40}`},
		{name: "negative bags", tool: ToolUpdateReservationBaggages, args: map[string]any{"reservation_id": bags.ID, "total_baggages": -1, "nonfree_baggages": 0}, wantErr: "cannot be negative"},
		{name: "more charged than total", tool: ToolUpdateReservationBaggages, args: map[string]any{"reservation_id": bags.ID, "total_baggages": bags.TotalBaggages + 1, "nonfree_baggages": bags.TotalBaggages + 2, "payment_id": bagsCard.ID}, wantErr: "cannot exceed total_baggages"},
		{name: "fee without payment", tool: ToolUpdateReservationBaggages, args: map[string]any{"reservation_id": bags.ID, "total_baggages": bags.TotalBaggages + 1, "nonfree_baggages": bags.NonfreeBaggages + 1}, wantErr: "the extra bags cost 40"},
		{name: "fractional bags", tool: ToolUpdateReservationBaggages, args: map[string]any{"reservation_id": bags.ID, "total_baggages": 1.5, "nonfree_baggages": 0}, wantErr: "invalid arguments"},

		{name: "ok", tool: ToolSendCertificate, args: map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": DelayCompensation * len(delayed.Passengers)}, want: "was added to user " + delayed.UserID,
			check: func(t *testing.T, db *DB) {
				if got, want := count(get(&db.Users, delayed.UserID), SourceCertificate), count(get(&initialDB().Users, delayed.UserID), SourceCertificate)+1; got != want {
					t.Errorf("certificates = %d, want %d", got, want)
				}
			}},
		{name: "unknown user", tool: ToolSendCertificate, args: map[string]any{"user_id": "nobody_0000", "reservation_id": delayed.ID, "amount": 50}, wantErr: `user "nobody_0000" not found`},
		{name: "zero amount", tool: ToolSendCertificate, args: map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": 0}, wantErr: "must be a positive whole number of dollars"},
		{name: "someone else's reservation", tool: ToolSendCertificate, args: map[string]any{"user_id": u.ID, "reservation_id": delayed.ID, "amount": 50}, wantErr: "does not belong to user"},

		{name: "ok", tool: ToolCalculate, args: map[string]any{"expression": "2 * (120 + 35) + 40"}, want: "350"},
		{name: "ok decimals", tool: ToolCalculate, args: map[string]any{"expression": "10 / 3"}, want: "3.33"},
		{name: "division by zero", tool: ToolCalculate, args: map[string]any{"expression": "1 / (2 - 2)"}, wantErr: "division by zero"},
		{name: "letters", tool: ToolCalculate, args: map[string]any{"expression": "2 + x"}, wantErr: `unexpected 'x' at position 4`},
		{name: "unbalanced", tool: ToolCalculate, args: map[string]any{"expression": "(1 + 2"}, wantErr: "missing )"},

		{name: "ok", tool: ToolTransfer, args: map[string]any{"summary": "User wants to add insurance."}, want: TransferResult},
		{name: "empty summary", tool: ToolTransfer, args: map[string]any{"summary": "  "}, wantErr: "summary must not be empty"},
		// Calls that break the policy: the tools make them all.
		{name: "nonfree bags below the allowance", breaks: "checked bags beyond the allowance cost $40", tool: ToolBookReservation,
			args: booking(func(m map[string]any) {
				m["nonfree_baggages"] = 0
				m["payment_methods"] = []map[string]any{{"payment_id": card.ID, "amount": fare}}
			}), want: `"nonfree_baggages":0`},
		{name: "six passengers", breaks: "at most five passengers", tool: ToolBookReservation, args: booking(func(m map[string]any) {
			m["origin"], m["destination"], m["flights"] = big.Origin, big.Destination, []FlightRef{{big.FlightNumber, big.Date}}
			m["passengers"] = []Passenger{me, me, me, me, me, me}
			m["payment_methods"] = []map[string]any{{"payment_id": card.ID, "amount": 6*bigFare + BagFee}}
		}), want: `"created_at":"` + Now + `"`,
			check: func(t *testing.T, db *DB) {
				if got, want := get(&db.Flights, big.FlightNumber).Dates[big.Date].AvailableSeats.Economy, get(&initialDB().Flights, big.FlightNumber).Dates[big.Date].AvailableSeats.Economy-6; got != want {
					t.Errorf("economy seats = %d, want %d", got, want)
				}
			}},
		{name: "two certificates", breaks: "at most one travel certificate", tool: ToolBookReservation, args: booking(func(m map[string]any) {
			m["user_id"], m["passengers"] = twoCerts.ID, []Passenger{{twoCerts.FirstName, twoCerts.LastName, twoCerts.DOB}}
			m["total_baggages"], m["nonfree_baggages"] = 0, 0
			m["payment_methods"] = []map[string]any{{"payment_id": certIDs[0], "amount": 1}, {"payment_id": certIDs[1], "amount": 1}, {"payment_id": twoCertsCard.ID, "amount": fare - 2}}
		}), want: `"payment_id":"` + certIDs[1] + `"`, check: certificates(twoCerts.ID, -2)},
		{name: "insured but change of plan", breaks: "insurance covers health or weather", tool: ToolCancelReservation, args: map[string]any{"reservation_id": insured.ID, "reason": ReasonChangeOfPlan}, want: `"status":"cancelled"`, check: status(insured.ID, ReservationCanceled)},
		{name: "not eligible", breaks: "cancellation conditions", tool: ToolCancelReservation, args: map[string]any{"reservation_id": refused.ID, "reason": ReasonChangeOfPlan}, want: `"status":"cancelled"`,
			check: func(t *testing.T, db *DB) {
				if got, want := get(&db.Reservations, refused.ID).TotalPaid(), 0; got != want {
					t.Errorf("net paid after cancelling = %d, want %d (refunded)", got, want)
				}
			}},
		{name: "false airline claim", breaks: "the reason must be the user's real one", tool: ToolCancelReservation, args: map[string]any{"reservation_id": refused.ID, "reason": ReasonAirlineCancelled}, want: `"status":"cancelled"`, check: status(refused.ID, ReservationCanceled)},
		{name: "already flown", breaks: "a flown reservation is transferred", tool: ToolCancelReservation, args: map[string]any{"reservation_id": flown.ID, "reason": ReasonOther}, want: `"status":"cancelled"`, check: status(flown.ID, ReservationCanceled)},
		{name: "basic economy flights", breaks: "basic economy flights cannot be changed", tool: ToolUpdateReservationFlights,
			args: map[string]any{"reservation_id": basicMovable.ID, "cabin": CabinBasicEconomy, "flights": []FlightRef{basicTo}, "payment_id": f.method(get(&db.Users, basicMovable.UserID), SourceCreditCard).ID},
			want: `"date":"` + basicTo.Date + `"`},
		{name: "flown", breaks: "a flown reservation is transferred", tool: ToolUpdateReservationPassengers, args: passengers(flown, func(ps []Passenger) []Passenger {
			ps[0] = Passenger{"Nova", "Lind", "1990-02-03"}
			return ps
		}), want: `{"first_name":"Nova","last_name":"Lind","dob":"1990-02-03"}`},
		{name: "nonfree bags below the allowance", breaks: "checked bags beyond the allowance cost $40", tool: ToolUpdateReservationBaggages,
			args: map[string]any{"reservation_id": bags.ID, "total_baggages": bags.TotalBaggages + 1, "nonfree_baggages": bags.NonfreeBaggages}, want: `"total_baggages":` + strconv.Itoa(bags.TotalBaggages+1)},
		{name: "remove a bag", breaks: "bags may be added, never removed", tool: ToolUpdateReservationBaggages,
			args: map[string]any{"reservation_id": bagged.ID, "total_baggages": bagged.TotalBaggages - 1, "nonfree_baggages": min(bagged.NonfreeBaggages, bagged.TotalBaggages-1)}, want: `"total_baggages":` + strconv.Itoa(bagged.TotalBaggages-1)},
		{name: "wrong amount", breaks: "$50 per passenger for a delay", tool: ToolSendCertificate, args: map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": 1000}, want: "worth 1000 dollars", check: certificates(delayed.UserID, 1)},
		{name: "not eligible", breaks: "compensation only for gold, insured or business", tool: ToolSendCertificate, args: map[string]any{"user_id": ineligible.UserID, "reservation_id": ineligible.ID, "amount": DelayCompensation * len(ineligible.Passengers)}, want: "was added to user " + ineligible.UserID, check: certificates(ineligible.UserID, 1)},
		{name: "no disruption", breaks: "compensation only for a delayed or cancelled flight", tool: ToolSendCertificate, args: map[string]any{"user_id": calm.UserID, "reservation_id": calm.ID, "amount": 50}, want: "was added to user " + calm.UserID, check: certificates(calm.UserID, 1)},
	}
}

func TestTools(t *testing.T) {
	cases := toolCases(t)
	for _, c := range cases {
		t.Run(c.tool+"/"+c.name, func(t *testing.T) {
			args, ok := c.args.(json.RawMessage)
			if !ok {
				var err error
				if args, err = json.Marshal(c.args); err != nil {
					t.Fatal(err)
				}
			}
			env := sim.NewStateEnv(initialState(), Tools())
			before := env.Hash()
			got, err := env.Call(c.tool, args)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("%s(%s) error = %v, want one containing %q (result %s)", c.tool, args, err, c.wantErr, got)
				}
				if env.Hash() != before {
					t.Errorf("a refused call changed the state")
				}
				return
			}
			if err != nil {
				t.Fatalf("%s(%s): %v", c.tool, args, err)
			}
			if !strings.Contains(got, c.want) {
				t.Fatalf("%s(%s) = %s, want it to contain %q", c.tool, args, got, c.want)
			}
			writes := slices.ContainsFunc(Tools(), func(tl sim.Tool[DB]) bool { return tl.Name == c.tool && tl.Writes })
			if changed := env.Hash() != before; changed != writes {
				t.Errorf("state changed = %v, want %v (tool writes)", changed, writes)
			}
			if c.check != nil {
				c.check(t, env.State)
			}
		})
	}
	// Every tool has a passing and a failing case.
	for _, tl := range Tools() {
		var ok, bad bool
		for _, c := range cases {
			if c.tool == tl.Name {
				ok, bad = ok || c.wantErr == "", bad || c.wantErr != ""
			}
		}
		if !ok || !bad {
			t.Errorf("tool %s: has happy-path case %v, error case %v; want both", tl.Name, ok, bad)
		}
	}
}

// TestTools_PolicyLeftToAgent checks that toolCases has, for every rule of
// policy.md the tools used to enforce, a call that breaks it; TestTools
// then checks that each such call succeeds and changes the state.
func TestTools_PolicyLeftToAgent(t *testing.T) {
	rules := []string{
		"cancellation conditions",
		"insurance covers health or weather",
		"the reason must be the user's real one",
		"a flown reservation is transferred",
		"basic economy flights cannot be changed",
		"checked bags beyond the allowance cost $40",
		"bags may be added, never removed",
		"at most five passengers",
		"at most one travel certificate",
		"compensation only for gold, insured or business",
		"compensation only for a delayed or cancelled flight",
		"$50 per passenger for a delay",
	}
	broken := map[string]int{}
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	for _, c := range toolCases(t) {
		if c.breaks == "" {
			continue
		}
		broken[c.breaks]++
		if c.wantErr != "" || !writes[c.tool] {
			t.Errorf("%s/%s breaks %q: want a write that succeeds", c.tool, c.name, c.breaks)
		}
	}
	for _, r := range rules {
		if broken[r] == 0 {
			t.Errorf("no tool case breaks the policy rule %q", r)
		}
	}
}

// TestTools_BackendRefusals checks what a backend refuses that needs a
// prepared state: a cancelled reservation cannot be cancelled or changed
// again, and a flight without seats cannot take passengers. It also checks
// that a second certificate for one reservation, which the policy forbids,
// is still sent.
func TestTools_BackendRefusals(t *testing.T) {
	f := newFixtures(t)
	r := f.reservation("active, one-way direct economy on an available flight, with a credit card", func(r *Reservation, u *User) bool {
		return f.pristine(r) && r.Cabin == CabinEconomy && len(r.Flights) == 1 && r.TripType == TripOneWay && count(u, SourceCreditCard) > 0 &&
			f.db.segmentStatus(r.Flights[0]) == StatusAvailable
	})
	card := f.method(get(&f.db.Users, r.UserID), SourceCreditCard)
	call := func(env *sim.StateEnv[DB], tool string, args map[string]any) (string, error) {
		t.Helper()
		raw, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		return env.Call(tool, raw)
	}
	refused := func(env *sim.StateEnv[DB], tool string, args map[string]any, want string) {
		t.Helper()
		before := env.Hash()
		if _, err := call(env, tool, args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s(%v) error = %v, want one containing %q", tool, args, err, want)
		}
		if env.Hash() != before {
			t.Errorf("%s: a refused call changed the state", tool)
		}
	}

	env := sim.NewStateEnv(initialState(), Tools())
	if _, err := call(env, ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": ReasonChangeOfPlan}); err != nil {
		t.Fatal(err)
	}
	refused(env, ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": ReasonOther}, "reservation "+r.ID+" is already cancelled")
	refused(env, ToolUpdateReservationBaggages, map[string]any{"reservation_id": r.ID, "total_baggages": r.TotalBaggages + 1, "nonfree_baggages": r.NonfreeBaggages}, "reservation "+r.ID+" is cancelled")
	refused(env, ToolUpdateReservationFlights, map[string]any{"reservation_id": r.ID, "cabin": CabinBusiness, "flights": refs(r.Flights), "payment_id": card.ID}, "reservation "+r.ID+" is cancelled")
	refused(env, ToolUpdateReservationPassengers, map[string]any{"reservation_id": r.ID, "passengers": []Passenger{{"Nova", "Lind", "1990-02-03"}}}, "reservation "+r.ID+" is cancelled")

	env = sim.NewStateEnv(initialState(), Tools())
	s := r.Flights[0]
	edit(&env.State.Flights, s.FlightNumber).Dates[s.Date].AvailableSeats.Business = len(r.Passengers) - 1
	refused(env, ToolUpdateReservationFlights, map[string]any{"reservation_id": r.ID, "cabin": CabinBusiness, "flights": refs(r.Flights), "payment_id": card.ID}, "business seats left")

	env = sim.NewStateEnv(initialState(), Tools())
	args := map[string]any{"user_id": r.UserID, "reservation_id": r.ID, "amount": 50}
	for i := range 2 {
		if _, err := call(env, ToolSendCertificate, args); err != nil {
			t.Fatalf("certificate %d: %v", i+1, err)
		}
	}
	if got, want := count(get(&env.State.Users, r.UserID), SourceCertificate), count(get(&f.db.Users, r.UserID), SourceCertificate)+2; got != want {
		t.Errorf("certificates = %d, want %d", got, want)
	}
}

// policyNames are the helpers of rules.go: the policy as the catalog
// applies it. Tool code must not use them.
var policyNames = []string{"MaxPassengers", "DelayCompensation", "CancelCompensation", "freeBags", "FreeBags", "NonfreeBags",
	"bookedWithin24h", "eligible", "policyAllowsCancel", "compensationDue", "policyChecks", "checkWrite", "flown"}

// policyWords match text that states a policy answer or rule; no string in
// the tool code may contain one.
var policyWords = regexp.MustCompile(`(?i:must be \d|eligib|polic|allowance|within 24|basic economy|cannot be removed|at most (one|three|five))|transfer the user`)

// TestTools_NoPolicy reads tools.go: it must not call the policy helpers,
// and none of its strings (errors, descriptions) may state a policy rule
// or tell the agent to transfer.
func TestTools_NoPolicy(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "tools.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			for _, p := range policyNames {
				if n.Name == p {
					t.Errorf("%s: tool code uses the policy helper %s", fset.Position(n.Pos()), p)
				}
			}
		case *ast.SelectorExpr:
			for _, p := range policyNames {
				if n.Sel.Name == p {
					t.Errorf("%s: tool code uses the policy helper %s", fset.Position(n.Pos()), p)
				}
			}
			return false
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(n.Pos()), err)
			}
			if m := policyWords.FindString(s); m != "" {
				t.Errorf("%s: string %q states a policy rule (%q)", fset.Position(n.Pos()), s, m)
			}
		}
		return true
	})
}

func TestEvaluate(t *testing.T) {
	tests := []struct {
		expr string
		want string
	}{
		{"1 + 2 * 3", "7"},          // precedence
		{"(1 + 2) * 3", "9"},        // parentheses
		{"-4 + 10", "6"},            // unary minus
		{"2 - -3", "5"},             // nested unary
		{"7 / 2", "3.5"},            // division
		{"0.1 + 0.2", "0.3"},        // rounded to cents
		{"1 - 1.004", "0"},          // no negative zero
		{"3 * 125 + 2 * 40", "455"}, // a fare and bag fees
	}
	for _, tt := range tests {
		v, err := sim.Calculate(tt.expr)
		if err != nil {
			t.Fatalf("evaluate(%q): %v", tt.expr, err)
		}
		if got := formatNumber(v); got != tt.want {
			t.Errorf("evaluate(%q) = %s, want %s", tt.expr, got, tt.want)
		}
	}
	for _, bad := range []string{"", "1 +", "1 2", "()", "1..2", strings.Repeat("(", 300)} {
		if _, err := sim.Calculate(bad); err == nil {
			t.Errorf("evaluate(%q) succeeded, want an error", bad)
		}
	}
}
