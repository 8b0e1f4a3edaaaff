package airline

import (
	"fmt"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
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

func TestCheckWrite_Cancellations(t *testing.T) {
	f := newFixtures(t)
	db := f.db
	pick := func(desc string, ok func(*Reservation, *User) bool) *Reservation {
		return f.reservation(desc, func(r *Reservation, u *User) bool { return f.pristine(r) && ok(r, u) })
	}
	plain := func(r *Reservation) bool {
		return !bookedWithin24h(r) && r.Cabin != CabinBusiness && !db.hasStatus(r, StatusCancelled)
	}
	recent := pick("booked within 24h", func(r *Reservation, _ *User) bool { return bookedWithin24h(r) })
	refused := pick("not cancellable", func(r *Reservation, _ *User) bool { return plain(r) && r.Insurance == "no" })
	insured := pick("insured", func(r *Reservation, _ *User) bool { return plain(r) && r.Insurance == "yes" })
	business := pick("business", func(r *Reservation, _ *User) bool { return r.Cabin == CabinBusiness })
	airlineCancelled := pick("with a cancelled flight", func(r *Reservation, _ *User) bool { return db.hasStatus(r, StatusCancelled) })
	flown := f.reservation("with a flown flight", func(r *Reservation, _ *User) bool {
		return r.Status == ReservationActive && db.flown(r)
	})
	delayed := f.reservation("eligible, delayed", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && eligible(u, r) && db.hasStatus(r, StatusDelayed) && !db.hasStatus(r, StatusCancelled)
	})
	ineligible := f.reservation("ineligible, delayed", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && !eligible(u, r) && db.hasStatus(r, StatusDelayed)
	})
	cancel := func(r *Reservation, reason string) emobench.Action {
		return act(ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": reason})
	}
	certificate := func(r *Reservation, amount int) emobench.Action {
		return act(ToolSendCertificate, map[string]any{"user_id": r.UserID, "reservation_id": r.ID, "amount": amount})
	}
	tests := []struct {
		name   string
		action emobench.Action
		want   bool
	}{
		{"cancel within 24 hours", cancel(recent, ReasonChangeOfPlan), true},
		{"cancel without a condition", cancel(refused, ReasonChangeOfPlan), false},
		{"cancel claiming an airline cancellation", cancel(refused, ReasonAirlineCancelled), false},
		{"cancel insured for health", cancel(insured, ReasonHealth), true},
		{"cancel insured for weather", cancel(insured, ReasonWeather), true},
		{"cancel insured for a change of plan", cancel(insured, ReasonChangeOfPlan), false},
		{"cancel business", cancel(business, ReasonOther), true},
		{"cancel after an airline cancellation", cancel(airlineCancelled, ReasonAirlineCancelled), true},
		{"cancel flown", cancel(flown, ReasonAirlineCancelled), false},
		{"cancel unknown", act(ToolCancelReservation, map[string]any{"reservation_id": "ZZZZZZ", "reason": ReasonOther}), false},
		{"certificate due", certificate(delayed, DelayCompensation*len(delayed.Passengers)), true},
		{"certificate of another amount", certificate(delayed, DelayCompensation*len(delayed.Passengers)+1), false},
		{"certificate not eligible", certificate(ineligible, DelayCompensation*len(ineligible.Passengers)), false},
		{"certificate to another user", act(ToolSendCertificate, map[string]any{"user_id": ineligible.UserID, "reservation_id": delayed.ID, "amount": 50}), false},
		{"a read", act(ToolGetUserDetails, map[string]any{"user_id": recent.UserID}), true},
	}
	for _, tt := range tests {
		// The agent serves the owner of the reservation acted on (of the
		// certificate's user when the reservation is unknown).
		args, err := sim.CallArgs(tt.action)
		if err != nil {
			t.Fatal(err)
		}
		user, _ := args["user_id"].(string)
		if r, ok := db.Reservations.Get(fmt.Sprint(args["reservation_id"])); ok && user == "" {
			user = r.UserID
		}
		if got := db.checkWrite(user, tt.action) == nil; got != tt.want {
			t.Errorf("%s: checkWrite(%s) allows = %v, want %v", tt.name, tt.action.Arguments, got, tt.want)
		}
	}
	// At most one certificate per reservation.
	c := cloneDB(t, db)
	edit(&c.Reservations, delayed.ID).Compensated = true
	if _, ok := c.compensationDue(get(&c.Users, delayed.UserID), get(&c.Reservations, delayed.ID)); ok {
		t.Errorf("compensationDue after a certificate was sent = true, want false")
	}
	disrupted := f.reservation("eligible, with a cancelled flight", func(r *Reservation, u *User) bool {
		return r.Status == ReservationActive && eligible(u, r) && db.hasStatus(r, StatusCancelled)
	})
	if got, ok := db.compensationDue(get(&db.Users, disrupted.UserID), disrupted); !ok || got != CancelCompensation*len(disrupted.Passengers) {
		t.Errorf("compensationDue for a cancelled flight = %d, %v, want %d, true", got, ok, CancelCompensation*len(disrupted.Passengers))
	}
}
