package airline

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/emobench/emobench"
)

// This file is the policy of policy.md as the catalog applies it: its
// grounders pick allowed and forbidden writes by it, and Catalog's
// CheckPolicy runs its predicates. The tools never call it: following the
// policy is the agent's job (see domains/README.md), and
// TestTools_NoPolicy checks that tools.go does not use these names.

// Policy facts. Money is in whole US dollars.
const (
	// MaxPassengers is the most passengers the policy lets one reservation
	// hold.
	MaxPassengers = 5
	// DelayCompensation and CancelCompensation are the certificate amounts
	// per passenger the policy grants for a delayed and for a cancelled
	// flight.
	DelayCompensation  = 50
	CancelCompensation = 100
)

// freeBags is the policy's free checked bags per passenger, by membership
// and cabin.
var freeBags = map[string]Cabins{
	MemberRegular: {BasicEconomy: 0, Economy: 1, Business: 2},
	MemberSilver:  {BasicEconomy: 1, Economy: 2, Business: 2},
	MemberGold:    {BasicEconomy: 1, Economy: 2, Business: 3},
}

// FreeBags returns the policy's free checked bags per passenger for a
// membership level and cabin, or 0 when either is unknown.
func FreeBags(membership, cabin string) int {
	return freeBags[membership].Get(cabin)
}

// NonfreeBags returns how many of total checked bags for pax passengers
// the policy charges BagFee for, given the booking user's membership and
// the cabin.
func NonfreeBags(membership, cabin string, pax, total int) int {
	return max(0, total-FreeBags(membership, cabin)*pax)
}

// bookedWithin24h reports whether r was created less than 24 hours before
// Now.
func bookedWithin24h(r *Reservation) bool {
	t, err := time.Parse(dateTimeLayout, r.CreatedAt)
	if err != nil {
		return false
	}
	return !t.After(nowTime) && nowTime.Sub(t) < 24*time.Hour
}

// eligible reports whether the policy compensates u for disruptions of r:
// a gold member, travel insurance or a business cabin.
func eligible(u *User, r *Reservation) bool {
	return u.Membership == MemberGold || r.Insurance == "yes" || r.Cabin == CabinBusiness
}

// policyAllowsCancel reports whether the policy lets the agent cancel r
// for reason: nothing flown, and booked within 24 hours, a flight
// cancelled by the airline (the reason then being that), a business cabin,
// or insurance with a health or weather reason.
func (db *DB) policyAllowsCancel(r *Reservation, reason string) bool {
	switch {
	case r.Status != ReservationActive, db.flown(r):
		return false
	case reason == ReasonAirlineCancelled:
		return db.hasStatus(r, StatusCancelled)
	case bookedWithin24h(r), r.Cabin == CabinBusiness:
		return true
	}
	return r.Insurance == "yes" && (reason == ReasonHealth || reason == ReasonWeather)
}

// compensationDue returns the certificate amount the policy grants u for a
// disruption of r, and false when it grants none: u is not eligible, r was
// already compensated, or no flight of r is delayed or cancelled.
func (db *DB) compensationDue(u *User, r *Reservation) (int, bool) {
	switch {
	case r.Compensated || !eligible(u, r):
		return 0, false
	case db.hasStatus(r, StatusCancelled):
		return CancelCompensation * len(r.Passengers), true
	case db.hasStatus(r, StatusDelayed):
		return DelayCompensation * len(r.Passengers), true
	}
	return 0, false
}

// The policy predicates below are what Catalog().CheckPolicy runs before a
// gold write: one check per rule of policy.md a careless agent could
// break, each error naming the rule. They read db and never change it.

// checkWrite reports whether the policy lets the agent serving userID make
// the call a on db's current state: nil when it does, an error naming the
// rule it breaks otherwise. Reads, calculate and the transfer are always
// allowed; arguments that do not decode are an error.
func (db *DB) checkWrite(userID string, a emobench.Action) error {
	check, ok := policyChecks[a.Name]
	if !ok {
		return nil
	}
	if err := check(db, userID, a.Arguments); err != nil {
		return fmt.Errorf("policy: %s: %w", a.Name, err)
	}
	return nil
}

// policyChecks are the predicates of the writes, by tool.
var policyChecks = map[string]func(*DB, string, json.RawMessage) error{
	ToolBookReservation:             policyCheck((*DB).checkBook),
	ToolCancelReservation:           policyCheck((*DB).checkCancel),
	ToolUpdateReservationFlights:    policyCheck((*DB).checkChangeFlights),
	ToolUpdateReservationPassengers: policyCheck((*DB).checkChangePassengers),
	ToolUpdateReservationBaggages:   policyCheck((*DB).checkAddBags),
	ToolSendCertificate:             policyCheck((*DB).checkCertificate),
}

// policyCheck makes a predicate over a write's raw arguments of check,
// which gets them decoded into A.
func policyCheck[A any](check func(*DB, string, *A) error) func(*DB, string, json.RawMessage) error {
	return func(db *DB, userID string, raw json.RawMessage) error {
		var a A
		if err := json.Unmarshal(raw, &a); err != nil {
			return fmt.Errorf("arguments: %w", err)
		}
		return check(db, userID, &a)
	}
}

// changeable returns the reservation id names if userID owns it, it is
// active and none of its flights has been flown: the policy's conditions
// for any change or cancellation.
func (db *DB) changeable(userID, id string) (*Reservation, *User, error) {
	r, ok := db.Reservations.Get(id)
	switch {
	case !ok:
		return nil, nil, fmt.Errorf("reservation %q does not exist", id)
	case r.UserID != userID:
		return nil, nil, fmt.Errorf("reservation %s belongs to %s, not to the authenticated user %s", id, r.UserID, userID)
	case r.Status != ReservationActive:
		return nil, nil, fmt.Errorf("reservation %s is not active", id)
	case db.flown(r):
		return nil, nil, fmt.Errorf("reservation %s has a flight that has been flown: only a human agent may act on it", id)
	}
	u, ok := db.Users.Get(userID)
	if !ok {
		return nil, nil, fmt.Errorf("user %q does not exist", userID)
	}
	return r, u, nil
}

// checkChangePayment checks the method a change is charged or refunded
// to: a credit card or gift card in u's profile, never a certificate.
func checkChangePayment(u *User, paymentID string) error {
	if paymentID == "" {
		return nil
	}
	pm, ok := u.PaymentMethods[paymentID]
	switch {
	case !ok:
		return fmt.Errorf("payment method %s is not in the profile of %s", paymentID, u.ID)
	case pm.Source == SourceCertificate:
		return fmt.Errorf("a travel certificate (%s) pays only for new bookings, not for changes", paymentID)
	}
	return nil
}

// checkCancel: nothing flown, and one of the four cancellation conditions.
func (db *DB) checkCancel(userID string, a *cancelArgs) error {
	r, _, err := db.changeable(userID, a.ReservationID)
	if err != nil {
		return err
	}
	switch {
	case a.Reason == ReasonAirlineCancelled && !db.hasStatus(r, StatusCancelled):
		return fmt.Errorf("reason %s, but no flight of reservation %s was cancelled", a.Reason, r.ID)
	case !db.policyAllowsCancel(r, a.Reason):
		return fmt.Errorf("reservation %s was booked more than 24 hours ago, is not business, has no flight the airline cancelled, and is not insured for a health or weather reason (reason %s)", r.ID, a.Reason)
	}
	return nil
}

// checkChangeFlights: nothing flown; a basic economy reservation keeps
// its flights (only its cabin may change); a difference goes to a credit
// card or gift card of the profile.
func (db *DB) checkChangeFlights(userID string, a *flightsArgs) error {
	r, u, err := db.changeable(userID, a.ReservationID)
	if err != nil {
		return err
	}
	if r.Cabin == CabinBasicEconomy && !sameFlights(r.Flights, a.Flights) {
		return fmt.Errorf("reservation %s is basic economy: its flights cannot be changed", r.ID)
	}
	return checkChangePayment(u, a.PaymentID)
}

// sameFlights reports whether refs names exactly the flights of segs, in
// order.
func sameFlights(segs []Segment, refs []FlightRef) bool {
	if len(segs) != len(refs) {
		return false
	}
	for i, s := range segs {
		if refs[i] != (FlightRef{s.FlightNumber, s.Date}) {
			return false
		}
	}
	return true
}

// checkChangePassengers: nothing flown, the number of passengers kept.
func (db *DB) checkChangePassengers(userID string, a *passengersArgs) error {
	r, _, err := db.changeable(userID, a.ReservationID)
	if err != nil {
		return err
	}
	if len(a.Passengers) != len(r.Passengers) {
		return fmt.Errorf("reservation %s has %d passengers; their number cannot change (%d given)", r.ID, len(r.Passengers), len(a.Passengers))
	}
	return nil
}

// checkAddBags: nothing flown, bags only added, nonfree_baggages the
// count beyond the allowance for the owner's membership, the cabin and
// the passengers, the fee on a credit card or gift card of the profile.
func (db *DB) checkAddBags(userID string, a *bagsArgs) error {
	r, u, err := db.changeable(userID, a.ReservationID)
	if err != nil {
		return err
	}
	if a.TotalBaggages < r.TotalBaggages {
		return fmt.Errorf("reservation %s has %d checked bags; bags can be added, never removed (%d given)", r.ID, r.TotalBaggages, a.TotalBaggages)
	}
	if want := NonfreeBags(u.Membership, r.Cabin, len(r.Passengers), a.TotalBaggages); a.NonfreeBaggages != want {
		return fmt.Errorf("%d bags for %d %s passengers of a %s member: %d are beyond the allowance, not %d", a.TotalBaggages, len(r.Passengers), r.Cabin, u.Membership, want, a.NonfreeBaggages)
	}
	return checkChangePayment(u, a.PaymentID)
}

// checkBook: booked for the authenticated user, at most MaxPassengers,
// nonfree_baggages by the allowance table, and at most one certificate,
// one credit card and three gift cards, each from the profile.
func (db *DB) checkBook(userID string, a *bookArgs) error {
	u, ok := db.Users.Get(a.UserID)
	switch {
	case a.UserID != userID:
		return fmt.Errorf("the booking is for user %s, not the authenticated user %s", a.UserID, userID)
	case !ok:
		return fmt.Errorf("user %q does not exist", a.UserID)
	case len(a.Passengers) == 0 || len(a.Passengers) > MaxPassengers:
		return fmt.Errorf("a reservation holds 1 to %d passengers, not %d", MaxPassengers, len(a.Passengers))
	}
	for _, f := range a.Flights {
		if _, fd, err := db.flightDate(f.FlightNumber, f.Date); err != nil || fd.Status != StatusAvailable {
			return fmt.Errorf("flight %s on %s is not available for booking", f.FlightNumber, f.Date)
		}
	}
	if want := NonfreeBags(u.Membership, a.Cabin, len(a.Passengers), a.TotalBaggages); a.NonfreeBaggages != want {
		return fmt.Errorf("%d bags for %d %s passengers of a %s member: %d are beyond the allowance, not %d", a.TotalBaggages, len(a.Passengers), a.Cabin, u.Membership, want, a.NonfreeBaggages)
	}
	limits := map[string]int{SourceCertificate: 1, SourceCreditCard: 1, SourceGiftCard: 3}
	count := map[string]int{}
	for _, p := range a.PaymentMethods {
		pm, ok := u.PaymentMethods[p.PaymentID]
		if !ok {
			return fmt.Errorf("payment method %s is not in the profile of %s", p.PaymentID, u.ID)
		}
		if count[pm.Source]++; count[pm.Source] > limits[pm.Source] {
			return fmt.Errorf("a reservation may be paid with at most %s", plural(limits[pm.Source], strings.ReplaceAll(pm.Source, "_", " ")))
		}
	}
	return nil
}

// checkCertificate: the user's own reservation, compensation due (gold,
// insured or business, a delayed or cancelled flight, none sent yet), and
// exactly the amount per passenger the policy grants.
func (db *DB) checkCertificate(userID string, a *certificateArgs) error {
	r, ok := db.Reservations.Get(a.ReservationID)
	u, _ := db.Users.Get(userID)
	switch {
	case a.UserID != userID:
		return fmt.Errorf("the certificate is for user %s, not the authenticated user %s", a.UserID, userID)
	case !ok || u == nil || r.UserID != userID:
		return fmt.Errorf("reservation %q is not one of %s's", a.ReservationID, userID)
	case r.Compensated:
		return fmt.Errorf("reservation %s was already compensated: at most one certificate per reservation", r.ID)
	case !eligible(u, r):
		return fmt.Errorf("no compensation is due: %s is a %s member, reservation %s is %s without insurance", u.ID, u.Membership, r.ID, r.Cabin)
	}
	due, ok := db.compensationDue(u, r)
	switch {
	case !ok:
		return fmt.Errorf("no flight of reservation %s is delayed or cancelled", r.ID)
	case float64(due) != a.Amount:
		return fmt.Errorf("the compensation due for reservation %s is %d, not %v", r.ID, due, a.Amount)
	}
	return nil
}
