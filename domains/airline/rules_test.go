package airline

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

func TestNonfreeBags(t *testing.T) {
	tests := []struct {
		membership, cabin string
		pax, total, want  int
	}{
		{MemberRegular, CabinBasicEconomy, 1, 2, 2},
		{MemberRegular, CabinEconomy, 2, 3, 1},
		{MemberSilver, CabinEconomy, 1, 2, 0},
		{MemberGold, CabinBusiness, 2, 7, 1},
		{MemberGold, CabinBusiness, 2, 0, 0},
		{"platinum", CabinEconomy, 1, 2, 2}, // unknown membership: no allowance
	}
	for _, tt := range tests {
		if got := NonfreeBags(tt.membership, tt.cabin, tt.pax, tt.total); got != tt.want {
			t.Errorf("NonfreeBags(%s, %s, %d, %d) = %d, want %d", tt.membership, tt.cabin, tt.pax, tt.total, got, tt.want)
		}
	}
}

// TestCheckWrite tests each policy predicate with one allowed and one
// violating call.
func TestCheckWrite(t *testing.T) {
	f := newFixtures(t)
	db := f.db
	pick := func(desc string, ok func(*Reservation, *User) bool) *Reservation {
		return f.reservation(desc, func(r *Reservation, u *User) bool {
			return f.pristine(r) && r.Status == ReservationActive && !db.flown(r) && ok(r, u)
		})
	}
	recent := pick("booked within 24h", func(r *Reservation, _ *User) bool {
		return bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled)
	})
	plain := pick("not cancellable", func(r *Reservation, _ *User) bool {
		return !bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled) && r.Insurance == "no"
	})
	insured := pick("insured", func(r *Reservation, _ *User) bool {
		return !bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled) && r.Insurance == "yes"
	})
	basic := pick("basic economy, one flight", func(r *Reservation, _ *User) bool {
		return r.Cabin == CabinBasicEconomy && len(r.Flights) == 1
	})
	economy := pick("economy", func(r *Reservation, _ *User) bool { return r.Cabin == CabinEconomy })
	business := pick("business", func(r *Reservation, _ *User) bool { return r.Cabin == CabinBusiness })
	airlineCancelled := pick("eligible, with a cancelled flight", func(r *Reservation, u *User) bool { return eligible(u, r) && db.hasStatus(r, StatusCancelled) })
	flown := f.reservation("with a flown flight", func(r *Reservation, _ *User) bool {
		return r.Status == ReservationActive && db.flown(r)
	})
	delayed := f.reservation("eligible, delayed", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && !r.Compensated && eligible(u, r) && db.hasStatus(r, StatusDelayed) && !db.hasStatus(r, StatusCancelled)
	})
	ineligible := f.reservation("ineligible, delayed", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && !eligible(u, r) && db.hasStatus(r, StatusDelayed)
	})
	owner := func(r *Reservation) *User { return get(&db.Users, r.UserID) }
	other := func(id string) string { return f.user("other than "+id, func(u *User) bool { return u.ID != id }).ID }
	method := func(u *User, source string) string {
		for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
			if u.PaymentMethods[id].Source == source {
				return id
			}
		}
		return ""
	}
	certUser := f.user("with a certificate and a credit card", func(u *User) bool {
		return method(u, SourceCertificate) != "" && method(u, SourceCreditCard) != ""
	})
	twoCerts := f.user("with two certificates", func(u *User) bool {
		n := 0
		for _, pm := range u.PaymentMethods {
			if pm.Source == SourceCertificate {
				n++
			}
		}
		return n >= 2
	})
	cancel := func(r *Reservation, reason string) emobench.Action { return cancelAction(r, reason) }
	bags := func(r *Reservation, total, nonfree int) emobench.Action {
		return act(ToolUpdateReservationBaggages, map[string]any{"reservation_id": r.ID, "total_baggages": total, "nonfree_baggages": nonfree})
	}
	nextDay := func(r *Reservation) []FlightRef {
		s := r.Flights[0]
		for _, d := range flightDates {
			if d > s.Date {
				return []FlightRef{{s.FlightNumber, d}}
			}
		}
		return []FlightRef{{s.FlightNumber, s.Date}}
	}
	flights := func(r *Reservation, cabin string, fl []FlightRef, payment string) emobench.Action {
		kwargs := map[string]any{"reservation_id": r.ID, "cabin": cabin, "flights": fl}
		if payment != "" {
			kwargs["payment_id"] = payment
		}
		return act(ToolUpdateReservationFlights, kwargs)
	}
	passengers := func(r *Reservation, ps []Passenger) emobench.Action {
		return act(ToolUpdateReservationPassengers, map[string]any{"reservation_id": r.ID, "passengers": ps})
	}
	renamed := slices.Clone(economy.Passengers)
	renamed[0].FirstName = "Zed"
	seg := f.flight(StatusAvailable, 2, Today)
	book := func(u *User, pax int, total, nonfree int, payments ...string) emobench.Action {
		ps := make([]Passenger, pax)
		for i := range ps {
			ps[i] = Passenger{FirstName: "P", LastName: fmt.Sprint("N", i), DOB: "1990-01-01"}
		}
		var pay []map[string]any
		for _, p := range payments {
			pay = append(pay, map[string]any{"payment_id": p, "amount": 1})
		}
		return act(ToolBookReservation, map[string]any{"user_id": u.ID, "origin": seg.Origin, "destination": seg.Destination, "trip_type": TripOneWay,
			"cabin": CabinEconomy, "flights": []FlightRef{{seg.FlightNumber, seg.Date}}, "passengers": ps, "payment_methods": pay,
			"total_baggages": total, "nonfree_baggages": nonfree, "insurance": "no"})
	}
	free := func(u *User, cabin string, pax int) int { return FreeBags(u.Membership, cabin) * pax }
	certs := []string{}
	for _, id := range slices.Sorted(maps.Keys(twoCerts.PaymentMethods)) {
		if twoCerts.PaymentMethods[id].Source == SourceCertificate {
			certs = append(certs, id)
		}
	}
	ecoUser := owner(economy)
	ecoFree := FreeBags(ecoUser.Membership, economy.Cabin) * len(economy.Passengers)
	ecoTotal := max(economy.TotalBaggages, ecoFree) + 1
	tests := []struct {
		name, user string
		action     emobench.Action
		wantErr    string // "" means allowed
	}{
		{"cancel within 24 hours", recent.UserID, cancel(recent, ReasonChangeOfPlan), ""},
		{"cancel another user's reservation", plain.UserID, cancel(recent, ReasonChangeOfPlan), "authenticated user"},
		{"cancel without a condition", plain.UserID, cancel(plain, ReasonChangeOfPlan), "more than 24 hours"},
		{"cancel claiming an airline cancellation", plain.UserID, cancel(plain, ReasonAirlineCancelled), "no flight"},
		{"cancel insured for health", insured.UserID, cancel(insured, ReasonHealth), ""},
		{"cancel insured for weather", insured.UserID, cancel(insured, ReasonWeather), ""},
		{"cancel business", business.UserID, cancel(business, ReasonOther), ""},
		{"cancel after an airline cancellation", airlineCancelled.UserID, cancel(airlineCancelled, ReasonAirlineCancelled), ""},
		{"cancel an unknown reservation", plain.UserID, act(ToolCancelReservation, map[string]any{"reservation_id": "ZZZZZZ", "reason": ReasonOther}), "does not exist"},
		{"cancel insured for a change of plan", insured.UserID, cancel(insured, ReasonChangeOfPlan), "insured for a health or weather"},
		{"cancel flown", flown.UserID, cancel(flown, ReasonOther), "has been flown"},
		{"change basic economy cabin, same flights", basic.UserID, flights(basic, CabinEconomy, refs(basic.Flights), method(owner(basic), SourceCreditCard)), ""},
		{"change basic economy flights", basic.UserID, flights(basic, CabinBasicEconomy, nextDay(basic), method(owner(basic), SourceCreditCard)), "basic economy"},
		{"change flights of a flown reservation", flown.UserID, flights(flown, flown.Cabin, refs(flown.Flights), ""), "has been flown"},
		{"rename a passenger", economy.UserID, passengers(economy, renamed), ""},
		{"drop a passenger", economy.UserID, passengers(economy, renamed[:len(renamed)-1]), "number cannot change"},
		{"add a bag, nonfree by the table", economy.UserID, bags(economy, ecoTotal, ecoTotal-ecoFree), ""},
		{"add a bag, wrong nonfree", economy.UserID, bags(economy, ecoTotal, ecoTotal-ecoFree+1), "beyond the allowance"},
		{"remove a bag", economy.UserID, bags(economy, economy.TotalBaggages-1, 0), "never removed"},
		{"book within the limits", certUser.ID, book(certUser, 2, free(certUser, CabinEconomy, 2), 0, method(certUser, SourceCertificate), method(certUser, SourceCreditCard)), ""},
		{"book six passengers", certUser.ID, book(certUser, 6, 0, 0, method(certUser, SourceCreditCard)), "1 to 5 passengers"},
		{"book with two certificates", twoCerts.ID, book(twoCerts, 1, 0, 0, certs[0], certs[1]), "at most 1 certificate"},
		{"book with a method of another user", certUser.ID, book(certUser, 1, 0, 0, "credit_card_0000000"), "not in the profile"},
		{"book, wrong nonfree bags", certUser.ID, book(certUser, 1, free(certUser, CabinEconomy, 1)+1, 0), "beyond the allowance"},
		{"book for another user", other(certUser.ID), book(certUser, 1, 0, 0, method(certUser, SourceCreditCard)), "authenticated user"},
		{"certificate due", delayed.UserID, act(ToolSendCertificate, map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": DelayCompensation * len(delayed.Passengers)}), ""},
		{"certificate of another amount", delayed.UserID, act(ToolSendCertificate, map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": CancelCompensation * len(delayed.Passengers)}), "not"},
		{"certificate to another user", ineligible.UserID, act(ToolSendCertificate, map[string]any{"user_id": ineligible.UserID, "reservation_id": delayed.ID, "amount": 50}), "is not one of"},
		{"certificate not due", ineligible.UserID, act(ToolSendCertificate, map[string]any{"user_id": ineligible.UserID, "reservation_id": ineligible.ID, "amount": DelayCompensation * len(ineligible.Passengers)}), "no compensation is due"},
		{"a read", plain.UserID, getReservation(plain), ""},
		{"the transfer", plain.UserID, act(ToolTransfer, map[string]any{"summary": "x"}), ""},
	}
	for _, tt := range tests {
		if tt.action.Name == "" {
			continue
		}
		err := db.checkWrite(tt.user, tt.action)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: checkWrite = %v, want allowed", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: checkWrite = %v, want an error with %q", tt.name, err, tt.wantErr)
		}
	}
	// On a copy: a change paid with a certificate, two credit cards or four
	// gift cards on a booking, and a second certificate for one
	// reservation break the policy.
	c := cloneDB(t, db)
	eu := get(&c.Users, economy.UserID)
	amount := 500
	for i, source := range []string{SourceCertificate, SourceCreditCard, SourceGiftCard, SourceGiftCard, SourceGiftCard, SourceGiftCard} {
		id := fmt.Sprintf("%s_%07d", source, 9_000_000+i)
		eu.PaymentMethods[id] = PaymentMethod{ID: id, Source: source, Amount: &amount}
	}
	cert := fmt.Sprintf("%s_%07d", SourceCertificate, 9_000_000)
	if err := c.checkWrite(eu.ID, flights(economy, CabinBusiness, refs(economy.Flights), cert)); err == nil || !strings.Contains(err.Error(), "travel certificate") {
		t.Errorf("change paid with a certificate: checkWrite = %v", err)
	}
	cards := []string{method(eu, SourceCreditCard), fmt.Sprintf("%s_%07d", SourceCreditCard, 9_000_001)}
	if err := c.checkWrite(eu.ID, book(eu, 1, 0, 0, cards...)); err == nil || !strings.Contains(err.Error(), "at most 1 credit card") {
		t.Errorf("booking paid with two credit cards: checkWrite = %v", err)
	}
	var gifts []string
	for i := 2; i < 6; i++ {
		gifts = append(gifts, fmt.Sprintf("%s_%07d", SourceGiftCard, 9_000_000+i))
	}
	if err := c.checkWrite(eu.ID, book(eu, 1, 0, 0, gifts[:3]...)); err != nil {
		t.Errorf("booking paid with three gift cards: checkWrite = %v, want allowed", err)
	}
	if err := c.checkWrite(eu.ID, book(eu, 1, 0, 0, gifts...)); err == nil || !strings.Contains(err.Error(), "at most 3 gift cards") {
		t.Errorf("booking paid with four gift cards: checkWrite = %v", err)
	}
	edit(&c.Reservations, delayed.ID).Compensated = true
	if _, ok := c.compensationDue(get(&c.Users, delayed.UserID), get(&c.Reservations, delayed.ID)); ok {
		t.Errorf("compensationDue after a certificate was sent = true, want false")
	}
	if got, ok := db.compensationDue(owner(airlineCancelled), airlineCancelled); !ok || got != CancelCompensation*len(airlineCancelled.Passengers) {
		t.Errorf("compensationDue for a cancelled flight = %d, %v, want %d, true", got, ok, CancelCompensation*len(airlineCancelled.Passengers))
	}
	if err := c.checkWrite(delayed.UserID, act(ToolSendCertificate, map[string]any{"user_id": delayed.UserID, "reservation_id": delayed.ID, "amount": DelayCompensation * len(delayed.Passengers)})); err == nil || !strings.Contains(err.Error(), "at most one certificate") {
		t.Errorf("second certificate: checkWrite = %v", err)
	}
	if err := db.checkWrite(plain.UserID, emobench.Action{Name: ToolCancelReservation, Arguments: json.RawMessage(`{`)}); err == nil {
		t.Error("malformed arguments pass the policy")
	}
}
