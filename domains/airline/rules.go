package airline

import (
	"encoding/json"
	"time"

	"github.com/emobench/emobench"
)

// This file is the policy of policy.md as the task builder applies it to
// ground gold actions and refusals. The tools never call it: following
// the policy is the agent's job (see domains/README.md), and
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

// policyAllowsWrite reports whether the policy lets the agent make the
// cancel_reservation or send_certificate call a on db's current state;
// other calls are not judged here and are allowed.
func (db *DB) policyAllowsWrite(a emobench.Action) bool {
	var args struct {
		UserID        string  `json:"user_id"`
		ReservationID string  `json:"reservation_id"`
		Reason        string  `json:"reason"`
		Amount        float64 `json:"amount"`
	}
	if json.Unmarshal(a.Arguments, &args) != nil {
		return false
	}
	r, ok := db.Reservations[args.ReservationID]
	switch {
	case a.Name != ToolCancelReservation && a.Name != ToolSendCertificate:
		return true
	case !ok:
		return false
	case a.Name == ToolCancelReservation:
		return db.policyAllowsCancel(r, args.Reason)
	}
	u, ok := db.Users[args.UserID]
	if !ok || r.UserID != u.ID {
		return false
	}
	due, ok := db.compensationDue(u, r)
	return ok && float64(due) == args.Amount
}
