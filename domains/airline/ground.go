package airline

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// The grounders of the intents of Catalog: each reads the working copy
// of a task (a *sim.StateEnv[DB]) and never changes it.

// grounding is a grounder's view: the working copy's state, its user and
// the context's randomness.
type grounding struct {
	sim.GroundContext
	db *DB
	u  *User
}

// newGrounding returns the grounding of g's user; false when g has no
// airline state or no such user.
func newGrounding(g sim.GroundContext) (*grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.Users.At(g.UserID) == nil {
		return nil, false
	}
	return &grounding{GroundContext: g, db: db, u: db.Users.At(g.UserID)}, true
}

// grounder grounds an intent on the grounding of the context's user.
type grounder = func(*grounding) (sim.Grounding, bool)

// on makes a grounder of f, which sees the grounding of the context's
// user; false when the context has no airline state or no such user.
func on(f grounder) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		x, ok := newGrounding(g)
		if !ok {
			return sim.Grounding{}, false
		}
		return f(x)
	}
}

// onReservation makes a grounder of ground, which acts on one of the
// user's reservations that keep accepts (picked by grounding.reservation);
// false when there is none.
func onReservation(keep func(x *grounding, r *Reservation) bool, ground func(x *grounding, r *Reservation) (sim.Grounding, bool)) grounder {
	return func(x *grounding) (sim.Grounding, bool) {
		r, ok := x.reservation(func(r *Reservation) bool { return keep(x, r) })
		if !ok {
			return sim.Grounding{}, false
		}
		return ground(x, r)
	}
}

// notFlown accepts a reservation none of whose flights has left.
func notFlown(x *grounding, r *Reservation) bool { return !x.db.flown(r) }

func (x *grounding) used(id string) bool { return x.Used != nil && x.Used(id) }

// usedInTask reports whether an earlier intent of the task used id.
func (x *grounding) usedInTask(id string) bool { return sim.UsedInTask(x.GroundContext, id) }

// reservation picks one of the user's active reservations that ok
// accepts, never one an earlier intent of the task used (no second bag
// question or refusal about it), preferring those no kept task used, then
// those the task's earlier intents left as they were in the initial
// database (so that two intents of one task act on different reservations
// when they can).
func (x *grounding) reservation(ok func(r *Reservation) bool) (*Reservation, bool) {
	ids := slices.DeleteFunc(slices.Clone(x.u.Reservations), func(id string) bool {
		r, _ := x.db.Reservations.Get(id)
		// A reservation without flights or passengers is malformed: no
		// intent applies to it.
		return r == nil || r.Status != ReservationActive || len(r.Flights) == 0 || len(r.Passengers) == 0 || !ok(r)
	})
	id, found := sim.PickPreferred(x.GroundContext, ids, func(id string) bool { return !x.used(id) }, func(id string) bool {
		orig, _ := initialDB().Reservations.Get(id)
		return orig != nil && reflect.DeepEqual(*orig, *x.db.Reservations.At(id))
	})
	return x.db.Reservations.At(id), found
}

// plain reports whether r meets none of the cancellation conditions other
// than insurance: booked over 24 hours ago, not business, no cancelled
// flight, nothing flown.
func (x *grounding) plain(r *Reservation) bool {
	return !bookedWithin24h(r) && r.Cabin != CabinBusiness && !x.db.hasStatus(r, StatusCancelled) && !x.db.flown(r)
}

func (x *grounding) trip(r *Reservation) string {
	from, to := x.db.city(r.Origin), x.db.city(r.Destination)
	if r.TripType == TripRoundTrip {
		return fmt.Sprintf("round trip between %s and %s", from, to)
	}
	return fmt.Sprintf("trip from %s to %s", from, to)
}

func (x *grounding) place(code string) string { return x.db.place(code) }

// payer picks a credit card, or a gift card whose balance covers amount,
// from the user's payment methods.
func (x *grounding) payer(amount int) (PaymentMethod, bool) {
	var opts []PaymentMethod
	for _, id := range slices.Sorted(maps.Keys(x.u.PaymentMethods)) {
		pm := x.u.PaymentMethods[id]
		if uniquelyNamed(x.u, pm) && (pm.Source == SourceCreditCard || pm.Source == SourceGiftCard && *pm.Amount >= amount) {
			opts = append(opts, pm)
		}
	}
	if len(opts) == 0 {
		return PaymentMethod{}, false
	}
	return opts[x.Rand.IntN(len(opts))], true
}

// newPerson draws a passenger who is none of ps.
func (x *grounding) newPerson(ps []Passenger) Passenger {
	for {
		p := Passenger{
			FirstName: words.FirstNames[x.Rand.IntN(len(words.FirstNames))],
			LastName:  words.LastNames[x.Rand.IntN(len(words.LastNames))],
			DOB:       fmt.Sprintf("%d-%02d-%02d", 1955+x.Rand.IntN(50), 1+x.Rand.IntN(12), 1+x.Rand.IntN(28)),
		}
		if !slices.ContainsFunc(ps, func(q Passenger) bool { return q.FirstName == p.FirstName && q.LastName == p.LastName }) {
			return p
		}
	}
}

// disrupted returns r's first segment with the given status.
func (x *grounding) disrupted(r *Reservation, status string) (Segment, bool) {
	for _, s := range r.Flights {
		if x.db.segmentStatus(s) == status {
			return s, true
		}
	}
	return Segment{}, false
}

// calculation is the calculate call that gives an amount a write passes.
func calculation(expression string) emobench.Action {
	return act(ToolCalculate, map[string]any{"expression": expression})
}

// cancelAction is a cancellation of r; the reason, which the policy
// turns on and the state does not keep, is compared with the agent's.
func cancelAction(r *Reservation, reason string) emobench.Action {
	return sim.WithCompareArgs(act(ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": reason}), "reservation_id", "reason")
}

func cancelRequest(r *Reservation, tools ...string) emobench.Request {
	return request(fmt.Sprintf("Cancel reservation %s and refund it.", r.ID), tools...)
}

// cancelGrounding is the common shape of an allowed cancellation, false
// when an earlier intent of the task cancelled for another reason: one
// reason a task, so that the user's reason is about its own reservation.
func (x *grounding) cancelGrounding(r *Reservation, reason, reasonText string, slots map[string]string, reads ...emobench.Action) (sim.Grounding, bool) {
	if !x.reasonFree(reason) {
		return sim.Grounding{}, false
	}
	if slots == nil {
		slots = map[string]string{}
	}
	slots["reservation"], slots["trip"] = r.ID, x.trip(r)
	actions := append([]emobench.Action{getReservation(r)}, reads...)
	return sim.Grounding{
		Slots:   slots,
		Facts:   map[string]string{"reservation_id": r.ID, "reason": reasonText},
		Request: cancelRequest(r, ToolCancelReservation),
		Actions: append(actions, cancelAction(r, reason)),
		Uses:    append(x.reasonUses(reason), r.ID),
	}, true
}

// reasonFree reports whether the task may ask to cancel for reason: no
// earlier intent stated another reason, so that a reason fact is about
// the reservation it was given for (Catalog.Alternatives).
func (x *grounding) reasonFree(reason string) bool {
	key := x.u.ID + "/cancel_reason"
	return !x.usedInTask(key) || x.usedInTask(key+"/"+reason)
}

// reasonUses are the Uses keys of a request that states reason.
func (x *grounding) reasonUses(reason string) []string {
	key := x.u.ID + "/cancel_reason"
	return []string{key, key + "/" + reason}
}

// groundCancelPlans cancels, for a change of plan, a reservation the
// policy lets the agent cancel for it: nothing flown, no flight cancelled,
// and business (uninsured, booked over a day ago) or booked within a day
// (not business).
func groundCancelPlans(business bool) grounder {
	return onReservation(func(x *grounding, r *Reservation) bool {
		return (r.Cabin == CabinBusiness) == business && (!business || r.Insurance == "no") && bookedWithin24h(r) != business &&
			!x.db.flown(r) && !x.db.hasStatus(r, StatusCancelled)
	}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
		return x.cancelGrounding(r, ReasonChangeOfPlan, "my plans changed", nil)
	})
}

var groundCancelAirline = onReservation(func(x *grounding, r *Reservation) bool {
	return !x.db.flown(r) && x.db.hasStatus(r, StatusCancelled)
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	s, _ := x.disrupted(r, StatusCancelled)
	gr, ok := x.cancelGrounding(r, ReasonAirlineCancelled, fmt.Sprintf("the airline cancelled my flight %s", s.FlightNumber),
		map[string]string{"flight": s.FlightNumber, "date": s.Date}, flightStatus(s))
	if ok {
		gr.Facts["flight_number"] = s.FlightNumber
	}
	return gr, ok
})

var groundCancelInsured = onReservation(func(x *grounding, r *Reservation) bool {
	return r.Insurance == "yes" && x.plain(r)
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	reason, text, why := ReasonHealth, "I am ill and my doctor told me not to fly", "I have come down with an illness and my doctor has told me not to fly"
	if x.Rand.IntN(2) == 1 {
		reason, text, why = ReasonWeather, "a severe storm is forecast where I am going", "A severe storm is forecast at my destination and I don't want to travel into it"
	}
	slots := map[string]string{"why": why, "why_lower": strings.ToLower(why[:1]) + why[1:]}
	return x.cancelGrounding(r, reason, text, slots)
})

// bagPlan is k bags added to a reservation of cabin: the new counts, the
// fee, and the payment method for it.
type bagPlan struct {
	added, total, nonfree, fee int
	pm                         PaymentMethod
}

// planBags adds 1 or 2 bags to r as if its cabin were cabin.
func (x *grounding) planBags(r *Reservation, cabin string) (bagPlan, bool) {
	p := bagPlan{added: 1 + x.Rand.IntN(2)}
	p.total = r.TotalBaggages + p.added
	p.nonfree = NonfreeBags(x.u.Membership, cabin, len(r.Passengers), p.total)
	p.fee = BagFee * max(0, p.nonfree-r.NonfreeBaggages)
	pm, ok := x.payer(p.fee)
	p.pm = pm
	return p, ok
}

// add adds p to gr, a grounding of a change to r: the bag slots and
// fact, and the bag write after gr's actions.
func (p bagPlan) add(gr sim.Grounding, r *Reservation) sim.Grounding {
	gr.Slots["added"], gr.Slots["total"] = plural(p.added, "checked bag"), fmt.Sprint(p.total)
	gr.Facts["bags"] = fmt.Sprintf("%d more, %d checked bags in total", p.added, p.total)
	gr.Actions = append(gr.Actions, p.action(r))
	return gr
}

func (p bagPlan) action(r *Reservation) emobench.Action {
	kwargs := map[string]any{"reservation_id": r.ID, "total_baggages": p.total, "nonfree_baggages": p.nonfree}
	if p.fee > 0 {
		kwargs["payment_id"] = p.pm.ID
	}
	return act(ToolUpdateReservationBaggages, kwargs)
}

var groundAddBags = onReservation(notFlown, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	p, ok := x.planBags(r, r.Cabin)
	if !ok {
		return sim.Grounding{}, false
	}
	return p.add(sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "payment": describeMethod(x.u, p.pm)},
		Facts:   map[string]string{"reservation_id": r.ID, "payment_method": describeMethod(x.u, p.pm)},
		Request: request(fmt.Sprintf("Add %s to reservation %s.", plural(p.added, "checked bag"), r.ID), ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r)},
		Uses:    []string{r.ID},
		Outputs: amountDue(p.fee),
	}, r), true
})

// bagCondition is the fact of a conditional bag request, after "<the
// reservation as the user names it>: ": the total with two more bags, the
// most the user pays for them, the total with one.
const bagCondition = "2 more checked bags (%d in total) if their fee is at most $%d, otherwise 1 more (%d in total)"

// bagFee is the fee for raising r's checked bags to total.
func bagFee(u *User, r *Reservation, total int) int {
	return BagFee * max(0, NonfreeBags(u.Membership, r.Cabin, len(r.Passengers), total)-r.NonfreeBaggages)
}

// groundAddBagsIfCheap asks for two more bags if their fee is within a
// limit, else one (emobench.TraitConditional): the data decides.
var groundAddBagsIfCheap = onReservation(func(x *grounding, r *Reservation) bool {
	return !x.db.flown(r) && bagFee(x.u, r, r.TotalBaggages+2) > 0
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	two := r.TotalBaggages + 2
	limit := bagFee(x.u, r, two) + 20*x.Rand.IntN(3)
	if x.Rand.IntN(2) == 0 {
		limit = bagFee(x.u, r, two) - 10*(1+x.Rand.IntN(3))
	}
	p := bagPlan{added: 2, total: two}
	if bagFee(x.u, r, two) > limit {
		p = bagPlan{added: 1, total: two - 1}
	}
	p.nonfree, p.fee = NonfreeBags(x.u.Membership, r.Cabin, len(r.Passengers), p.total), bagFee(x.u, r, p.total)
	var ok bool
	if p.pm, ok = x.payer(bagFee(x.u, r, two)); !ok {
		return sim.Grounding{}, false
	}
	return sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "limit": fmt.Sprint(limit), "payment": describeMethod(x.u, p.pm)},
		Facts: map[string]string{"reservation_id": r.ID, "bags": fmt.Sprintf("reservation %s: "+bagCondition, r.ID, two, limit, two-1),
			"payment_method": describeMethod(x.u, p.pm)},
		Request: request(fmt.Sprintf("Add checked bags to reservation %s: two if their fee is at most $%d, otherwise one.", r.ID, limit),
			ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r), p.action(r)},
		Traits:  []string{emobench.TraitConditional},
		Uses:    []string{r.ID},
		Outputs: amountDue(p.fee),
	}, true
})

var groundChangePassenger = onReservation(notFlown, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	j := x.Rand.IntN(len(r.Passengers))
	old := r.Passengers[j]
	p := x.newPerson(r.Passengers)
	ps := slices.Clone(r.Passengers)
	ps[j] = p
	oldName, newName := fullName(old.FirstName, old.LastName), fullName(p.FirstName, p.LastName)
	return sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "old": oldName, "new": newName, "dob": p.DOB},
		Facts: map[string]string{
			"reservation_id": r.ID, "current_passenger": oldName,
			"first_name": p.FirstName, "last_name": p.LastName, "date_of_birth": p.DOB,
		},
		Request: request(fmt.Sprintf("Replace %s with %s on reservation %s.", oldName, newName, r.ID), ToolUpdateReservationPassengers),
		Actions: []emobench.Action{getReservation(r),
			act(ToolUpdateReservationPassengers, map[string]any{"reservation_id": r.ID, "passengers": ps})},
		Uses: []string{r.ID},
	}, true
})

// change is a planned change of a reservation's flights or cabin: its
// grounding (slots, facts and uses, the reservation read and the write),
// which callers complete, and the price difference for all passengers
// (negative: a refund) with the method it goes to.
type change struct {
	gr   sim.Grounding
	diff int
	pm   PaymentMethod
}

// upgrade plans moving r to a dearer cabin on all its flights, paid by
// one of the user's methods.
func (x *grounding) upgrade(r *Reservation) (change, bool) {
	cabin := CabinBusiness
	if r.Cabin == CabinBasicEconomy && x.Rand.IntN(2) == 0 {
		cabin = CabinEconomy
	}
	diff := 0
	for _, s := range r.Flights {
		price, err := x.db.bookable(s, cabin, len(r.Passengers))
		if err != nil {
			return change{}, false
		}
		diff += (price - s.Price) * len(r.Passengers)
	}
	if diff <= 0 {
		return change{}, false
	}
	pm, ok := x.payer(diff)
	return change{gr: sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "trip": x.trip(r), "cabin": strings.ReplaceAll(cabin, "_", " "), "payment": describeMethod(x.u, pm)},
		Facts: map[string]string{"reservation_id": r.ID, "cabin": cabin, "payment_method": describeMethod(x.u, pm)},
		Actions: []emobench.Action{getReservation(r),
			act(ToolUpdateReservationFlights, map[string]any{"reservation_id": r.ID, "cabin": cabin, "flights": refs(r.Flights), "payment_id": pm.ID})},
		Uses: []string{r.ID},
	}, diff: diff, pm: pm}, ok
}

func (x *grounding) upgradable(r *Reservation) bool {
	return r.Cabin != CabinBusiness && !x.db.flown(r)
}

var groundUpgradeCabin = onReservation((*grounding).upgradable, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	c, ok := x.upgrade(r)
	if !ok {
		return sim.Grounding{}, false
	}
	for i, s := range r.Flights {
		c.gr.Actions = slices.Insert(c.gr.Actions, 1+i, searchDirect(s.Origin, s.Destination, s.Date))
	}
	c.gr.Request = request(fmt.Sprintf("Upgrade reservation %s to %s.", r.ID, c.gr.Slots["cabin"]), ToolUpdateReservationFlights)
	c.gr.Outputs = []string{dollars(c.diff)}
	return c.gr, true
})

// dateMove plans moving a one-way, one-flight reservation r to the same
// flight on another bookable date.
func (x *grounding) dateMove(r *Reservation) (change, bool) {
	s := r.Flights[0]
	var dates []string
	for _, d := range flightDates {
		if d > Today && d != s.Date {
			if _, err := x.db.bookable(Segment{FlightNumber: s.FlightNumber, Date: d}, r.Cabin, len(r.Passengers)); err == nil {
				dates = append(dates, d)
			}
		}
	}
	if len(dates) == 0 {
		return change{}, false
	}
	date := dates[x.Rand.IntN(len(dates))]
	diff := (x.db.price(s.FlightNumber, date, r.Cabin) - s.Price) * len(r.Passengers)
	pm, ok := x.payer(diff)
	move := map[string]any{"reservation_id": r.ID, "cabin": r.Cabin, "flights": []FlightRef{{s.FlightNumber, date}}}
	if diff != 0 {
		move["payment_id"] = pm.ID
	}
	return change{gr: sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "old_date": s.Date, "date": date, "payment": describeMethod(x.u, pm)},
		Facts:   map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": date, "payment_method": describeMethod(x.u, pm)},
		Actions: []emobench.Action{getReservation(r), act(ToolUpdateReservationFlights, move)},
		Uses:    []string{r.ID},
	}, diff: diff, pm: pm}, ok
}

// searchFirst puts before c's write the search for its new date that an
// agent makes before moving a reservation there.
func (c change) searchFirst(r *Reservation) change {
	s := r.Flights[0]
	c.gr.Actions = slices.Insert(c.gr.Actions, 1, searchDirect(s.Origin, s.Destination, c.gr.Facts["date"]))
	return c
}

func (x *grounding) oneFlight(r *Reservation) bool {
	return r.TripType == TripOneWay && len(r.Flights) == 1 && !x.db.flown(r)
}

// movable accepts a one-flight reservation the policy lets the user move
// to another date: not basic economy.
func movable(x *grounding, r *Reservation) bool {
	return r.Cabin != CabinBasicEconomy && x.oneFlight(r)
}

var groundChangeDate = onReservation(movable, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	c, ok := x.dateMove(r)
	if !ok {
		return sim.Grounding{}, false
	}
	c = c.searchFirst(r)
	c.gr.Request = request(fmt.Sprintf("Move reservation %s to %s.", r.ID, c.gr.Facts["date"]), ToolUpdateReservationFlights)
	c.gr.Outputs = amountDue(c.diff)
	return c.gr, true
})

// withCabin returns a copy of r in cabin, as the bag allowance sees it
// after an upgrade.
func withCabin(r *Reservation, cabin string) *Reservation {
	c := *r
	c.Cabin = cabin
	return &c
}

var groundUpgradeAddBags = onReservation((*grounding).upgradable, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	c, ok := x.upgrade(r)
	if !ok {
		return sim.Grounding{}, false
	}
	cabin := c.gr.Facts["cabin"]
	p, ok := x.planBags(withCabin(r, cabin), cabin)
	// One method pays both: the bag fee must fit what is left on a gift card.
	if !ok || p.fee > 0 && c.pm.Source == SourceGiftCard && *c.pm.Amount < c.diff+p.fee {
		return sim.Grounding{}, false
	}
	p.pm = c.pm
	gr := p.add(c.gr, r)
	gr.Request = request(fmt.Sprintf("Upgrade reservation %s to %s and add %s.", r.ID, gr.Slots["cabin"], gr.Slots["added"]),
		ToolUpdateReservationFlights, ToolUpdateReservationBaggages)
	gr.Outputs = []string{dollars(c.diff + p.fee)}
	return gr, true
})

var groundChangeDateAddBags = onReservation(movable, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	c, ok := x.dateMove(r)
	if !ok || c.pm.Source != SourceCreditCard {
		return sim.Grounding{}, false // a credit card takes both a refund and a fee
	}
	p, ok := x.planBags(r, r.Cabin)
	if !ok {
		return sim.Grounding{}, false
	}
	p.pm = c.pm
	gr := p.add(c.gr, r)
	gr.Request = request(fmt.Sprintf("Move reservation %s to %s and add %s.", r.ID, gr.Facts["date"], gr.Slots["added"]),
		ToolUpdateReservationFlights, ToolUpdateReservationBaggages)
	gr.Outputs = amountDue(c.diff + p.fee)
	return gr, true
})

// planBooking drafts a one-way booking for the user over flights (on one
// date): cabin, passengers, bags and insurance drawn from the context's
// randomness, or false when the flights cannot take them.
func (x *grounding) planBooking(flights []Segment) (booking, bool) {
	u := x.u
	bk := booking{
		origin: flights[0].Origin, destination: flights[len(flights)-1].Destination, date: flights[0].Date,
		cabin: cabins[x.Rand.IntN(len(cabins))], insurance: "no",
	}
	bk.passengers = []Passenger{{FirstName: u.FirstName, LastName: u.LastName, DOB: u.DOB}}
	// A companion comes from the saved passengers, whose details the
	// profile gives.
	if x.Rand.IntN(2) == 0 && len(u.SavedPassengers) > 0 {
		bk.passengers = append(bk.passengers, u.SavedPassengers[x.Rand.IntN(len(u.SavedPassengers))])
	}
	pax := len(bk.passengers)
	per := 0
	for _, s := range flights {
		price, err := x.db.bookable(s, bk.cabin, pax)
		if err != nil {
			return bk, false
		}
		per += price
	}
	bk.flights = flights
	if x.Rand.IntN(3) == 0 {
		bk.insurance = "yes"
	}
	bk.bags = x.Rand.IntN(pax + 2)
	bk.nonfree = NonfreeBags(u.Membership, bk.cabin, pax, bk.bags)
	bk.total = per*pax + BagFee*bk.nonfree
	if bk.insurance == "yes" {
		bk.total += InsuranceFee * pax
	}
	return bk, true
}

// totalExpression is the calculation of bk's total: fares times
// passengers, plus the bag fees and the insurance.
func (x *grounding) totalExpression(bk booking) string {
	fares := make([]string, len(bk.flights))
	for i, s := range bk.flights {
		fares[i] = fmt.Sprint(x.db.price(s.FlightNumber, s.Date, bk.cabin))
	}
	pax := len(bk.passengers)
	e := fmt.Sprintf("%d * (%s)", pax, strings.Join(fares, " + "))
	if bk.nonfree > 0 {
		e += fmt.Sprintf(" + %d * %d", bk.nonfree, BagFee)
	}
	if bk.insurance == "yes" {
		e += fmt.Sprintf(" + %d * %d", pax, InsuranceFee)
	}
	return e
}

// futureFlight draws an available flight on a date after Today.
func (x *grounding) futureFlight() (Segment, bool) {
	numbers := x.db.Flights.Keys()
	for range 20 {
		f := x.db.flight(numbers[x.Rand.IntN(len(numbers))])
		d := flightDates[x.Rand.IntN(len(flightDates))]
		if fd := f.Dates[d]; d > Today && fd != nil && fd.Status == StatusAvailable {
			return Segment{FlightNumber: f.Number, Origin: f.Origin, Destination: f.Destination, Date: d}, true
		}
	}
	return Segment{}, false
}

// bookingGrounding is a booking's slots, facts and request, with the
// flight choice that picks bk's flights (for a third of them a price
// condition, emobench.TraitConditional); the caller adds the actions and
// outputs. False when no choice picks them or the task already books:
// one booking a task, so that each flight choice is about its own route.
func (x *grounding) bookingGrounding(bk booking, payment string) (sim.Grounding, bool) {
	if x.usedInTask(x.u.ID + "/booking") {
		return sim.Grounding{}, false
	}
	conditional := x.Rand.IntN(3) == 0
	choice, ok := x.chooseFlight(bk.flights, bk.cabin, len(bk.passengers), conditional)
	if !ok && conditional {
		conditional = false
		choice, ok = x.chooseFlight(bk.flights, bk.cabin, len(bk.passengers), false)
	}
	if !ok {
		return sim.Grounding{}, false
	}
	var traits []string
	if conditional {
		traits = []string{emobench.TraitConditional}
	}
	who, whoFact := "for myself only", "just me"
	if len(bk.passengers) > 1 {
		p := bk.passengers[1]
		who = fmt.Sprintf("for myself and %s (born %s)", fullName(p.FirstName, p.LastName), p.DOB)
		whoFact = fmt.Sprintf("me and %s, born %s", fullName(p.FirstName, p.LastName), p.DOB)
	}
	bags := "no checked bags"
	if bk.bags > 0 {
		bags = plural(bk.bags, "checked bag") + " in total"
	}
	ins := "I don't want travel insurance"
	if bk.insurance == "yes" {
		ins = "I want travel insurance"
	}
	return sim.Grounding{
		Slots: map[string]string{
			"cabin": strings.ReplaceAll(bk.cabin, "_", " "), "origin": x.place(bk.origin), "destination": x.place(bk.destination),
			"date": bk.date, "who": who, "bags": bags, "bags_cap": strings.ToUpper(bags[:1]) + bags[1:],
			"insurance": ins, "payment": payment, "choice": "I'd like " + choice + ".",
		},
		Facts: map[string]string{
			"origin": x.place(bk.origin), "destination": x.place(bk.destination),
			"date": bk.date, "cabin": bk.cabin, "passengers": whoFact, "bags": bags,
			"insurance": bk.insurance, "payment_method": payment, "flight_choice": choice,
		},
		Request: request(fmt.Sprintf("Book a one-way flight from %s to %s on %s: %s.", bk.origin, bk.destination, bk.date, choice), ToolBookReservation),
		Traits:  traits,
		Uses:    []string{x.u.ID + "/booking"},
	}, true
}

// bookOneMethod grounds booking flights, which search finds, paid in
// full by one of the user's methods: the booking's grounding with the
// search, the calculation of its total and the booking, the total its
// output.
func (x *grounding) bookOneMethod(flights []Segment, search emobench.Action) (sim.Grounding, bool) {
	bk, ok := x.planBooking(flights)
	if !ok {
		return sim.Grounding{}, false
	}
	pm, ok := x.payer(bk.total)
	if !ok {
		return sim.Grounding{}, false
	}
	gr, ok := x.bookingGrounding(bk, describeMethod(x.u, pm))
	if !ok {
		return sim.Grounding{}, false
	}
	gr.Actions = []emobench.Action{search, calculation(x.totalExpression(bk)),
		bk.act(x.u, []map[string]any{{"payment_id": pm.ID, "amount": bk.total}})}
	gr.Outputs = []string{dollars(bk.total)}
	return gr, true
}

func groundBookDirect(x *grounding) (sim.Grounding, bool) {
	s, ok := x.futureFlight()
	if !ok {
		return sim.Grounding{}, false
	}
	return x.bookOneMethod([]Segment{s}, searchDirect(s.Origin, s.Destination, s.Date))
}

func groundBookCertificate(x *grounding) (sim.Grounding, bool) {
	var cert, card PaymentMethod
	for _, id := range slices.Sorted(maps.Keys(x.u.PaymentMethods)) {
		pm := x.u.PaymentMethods[id]
		if !uniquelyNamed(x.u, pm) {
			continue
		}
		switch pm.Source {
		case SourceCertificate:
			if cert.ID == "" {
				cert = pm
			}
		case SourceCreditCard:
			if card.ID == "" {
				card = pm
			}
		}
	}
	if cert.ID == "" || card.ID == "" || x.used(cert.ID) {
		return sim.Grounding{}, false
	}
	s, ok := x.futureFlight()
	if !ok {
		return sim.Grounding{}, false
	}
	bk, ok := x.planBooking([]Segment{s})
	if !ok || bk.total <= *cert.Amount {
		return sim.Grounding{}, false
	}
	payment := fmt.Sprintf("%s for as much as it covers, and the rest on %s", describeMethod(x.u, cert), describeMethod(x.u, card))
	rest := bk.total - *cert.Amount
	gr, ok := x.bookingGrounding(bk, payment)
	gr.Actions = []emobench.Action{searchDirect(bk.origin, bk.destination, bk.date),
		calculation(fmt.Sprintf("%s - %d", x.totalExpression(bk), *cert.Amount)),
		bk.act(x.u, []map[string]any{{"payment_id": cert.ID, "amount": *cert.Amount}, {"payment_id": card.ID, "amount": rest}})}
	gr.Outputs = []string{dollars(bk.total), dollars(rest)}
	gr.Uses = append(gr.Uses, cert.ID)
	return gr, ok
}

func groundBookOnestop(x *grounding) (sim.Grounding, bool) {
	direct := map[[2]string]bool{}
	for _, f := range x.db.Flights.All() {
		direct[[2]string{f.Origin, f.Destination}] = true
	}
	var pair []Segment
	for range 20 {
		s1, ok := x.futureFlight()
		if !ok {
			continue
		}
		var seconds []Segment
		for _, fi := range x.db.departures(s1.Destination, s1.Date) {
			if fi.Destination != s1.Origin && !direct[[2]string{s1.Origin, fi.Destination}] &&
				connects(x.db.flight(s1.FlightNumber), x.db.flight(fi.FlightNumber)) {
				seconds = append(seconds, Segment{FlightNumber: fi.FlightNumber, Origin: fi.Origin, Destination: fi.Destination, Date: s1.Date})
			}
		}
		if len(seconds) > 0 {
			pair = []Segment{s1, seconds[x.Rand.IntN(len(seconds))]}
			break
		}
	}
	if pair == nil {
		return sim.Grounding{}, false
	}
	origin, destination, date := pair[0].Origin, pair[1].Destination, pair[0].Date
	gr, ok := x.bookOneMethod(pair, act(ToolSearchOnestopFlight, map[string]any{"origin": origin, "destination": destination, "date": date}))
	if !ok {
		return sim.Grounding{}, false
	}
	gr.Slots["via"] = x.place(pair[0].Destination)
	gr.Facts["connection"] = "via " + x.place(pair[0].Destination)
	gr.Request.Text = fmt.Sprintf("Book a one-way trip from %s to %s on %s with one stop: %s.", origin, destination, date, gr.Facts["flight_choice"])
	return gr, true
}

// compensation grounds a certificate for r's flight s with the given
// status, due to an eligible user.
func (x *grounding) compensation(r *Reservation, s Segment, amount int) sim.Grounding {
	fd := x.db.flight(s.FlightNumber).Dates[s.Date]
	return sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "date": s.Date, "delay": fmt.Sprint(fd.DelayMinutes)},
		Facts: map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": s.Date},
		Request: request(fmt.Sprintf("Compensate me for the %s of flight %s.",
			map[string]string{StatusDelayed: "delay", StatusCancelled: "cancellation"}[fd.Status], s.FlightNumber), ToolSendCertificate),
		Actions: []emobench.Action{getReservation(r), flightStatus(s),
			calculation(fmt.Sprintf("%d * %d", amount/len(r.Passengers), len(r.Passengers))),
			act(ToolSendCertificate, map[string]any{"user_id": x.u.ID, "reservation_id": r.ID, "amount": amount})},
		Outputs: []string{dollars(amount)},
		Uses:    []string{r.ID},
	}
}

// groundCompensation sends the certificate the policy grants an eligible
// user for a flight with status (delayed: when none is cancelled).
func groundCompensation(status string) grounder {
	per := map[string]int{StatusDelayed: DelayCompensation, StatusCancelled: CancelCompensation}[status]
	return onReservation(func(x *grounding, r *Reservation) bool {
		return !r.Compensated && eligible(x.u, r) && x.db.hasStatus(r, status) && (status == StatusCancelled || !x.db.hasStatus(r, StatusCancelled))
	}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
		s, _ := x.disrupted(r, status)
		return x.compensation(r, s, per*len(r.Passengers)), true
	})
}

var groundCompensationThenCancel = onReservation(func(x *grounding, r *Reservation) bool {
	return !r.Compensated && eligible(x.u, r) && !x.db.flown(r) && x.db.hasStatus(r, StatusCancelled)
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	s, _ := x.disrupted(r, StatusCancelled)
	gr := x.compensation(r, s, CancelCompensation*len(r.Passengers))
	gr.Facts["reason"] = fmt.Sprintf("the airline cancelled my flight %s", s.FlightNumber)
	gr.Request = request(fmt.Sprintf("Compensate me for the cancellation of flight %s, then cancel reservation %s and refund it.", s.FlightNumber, r.ID),
		ToolSendCertificate, ToolCancelReservation)
	gr.Actions = append(gr.Actions, cancelAction(r, ReasonAirlineCancelled))
	gr.Uses = append(gr.Uses, x.reasonUses(ReasonAirlineCancelled)...)
	return gr, x.reasonFree(ReasonAirlineCancelled)
})

var groundReservationTotal = onReservation(func(_ *grounding, r *Reservation) bool {
	return len(r.Passengers) >= 2 || r.TotalBaggages > 0
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	purpose := sim.OneOf(x.Rand, words.Purposes["reservation_total"]...)
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "trip": x.trip(r), "purpose": purpose},
		Facts:   map[string]string{"reservation_id": r.ID, "purpose": purpose},
		Request: request(fmt.Sprintf("Tell me the total paid for reservation %s.", r.ID), ToolGetReservationDetails),
		Actions: []emobench.Action{getReservation(r)},
		Outputs: []string{dollars(r.TotalPaid())},
		Uses:    []string{r.ID},
	}, true
})

func groundAllTotal(x *grounding) (sim.Grounding, bool) {
	if len(x.u.Reservations) < 2 || len(x.u.Reservations) > 4 || x.used(x.u.ID+"/all_reservations_total") || x.usedInTask(x.u.ID+"/all_reservations_total") {
		return sim.Grounding{}, false
	}
	var actions []emobench.Action
	var terms []string
	sum := 0
	for _, id := range x.u.Reservations {
		r, _ := x.db.Reservations.Get(id)
		actions = append(actions, getReservation(r))
		terms = append(terms, fmt.Sprint(r.TotalPaid()))
		sum += r.TotalPaid()
	}
	actions = append(actions, calculation(strings.Join(terms, " + ")))
	purpose := sim.OneOf(x.Rand, words.Purposes["all_reservations_total"]...)
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: request("Tell me the total paid for all my reservations.", ToolCalculate),
		Actions: actions,
		Outputs: []string{dollars(sum)},
		Uses:    []string{x.u.ID + "/all_reservations_total"},
	}, true
}

// comingFlight returns r's first flight from Today on that has not landed.
func comingFlight(x *grounding, r *Reservation) (Segment, bool) {
	i := slices.IndexFunc(r.Flights, func(s Segment) bool { return s.Date >= Today && x.db.segmentStatus(s) != StatusLanded })
	if i < 0 {
		return Segment{}, false
	}
	return r.Flights[i], true
}

var groundFlightStatus = onReservation(func(x *grounding, r *Reservation) bool {
	_, ok := comingFlight(x, r)
	return ok
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	seg, _ := comingFlight(x, r)
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "flight": seg.FlightNumber, "date": seg.Date},
		Facts:   map[string]string{"reservation_id": r.ID, "flight_number": seg.FlightNumber, "date": seg.Date},
		Request: request(fmt.Sprintf("Tell me the status of flight %s on %s.", seg.FlightNumber, seg.Date), ToolGetFlightStatus),
		Actions: []emobench.Action{getReservation(r), flightStatus(seg)},
		Outputs: []string{statusWords[x.db.segmentStatus(seg)]},
		Uses:    []string{r.ID},
	}, true
})

var groundBagAllowance = onReservation(func(x *grounding, r *Reservation) bool {
	// An allowance of at least two reads as a count, not a stray digit.
	return FreeBags(x.u.Membership, r.Cabin)*len(r.Passengers) >= 2
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	free := FreeBags(x.u.Membership, r.Cabin) * len(r.Passengers)
	purpose := sim.OneOf(x.Rand, words.Purposes["bag_allowance"]...)
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "trip": x.trip(r), "purpose": purpose},
		Facts:   map[string]string{"reservation_id": r.ID, "purpose": purpose},
		Request: request(fmt.Sprintf("Tell me how many free checked bags reservation %s allows.", r.ID), ToolGetReservationDetails),
		Actions: []emobench.Action{getReservation(r)},
		Outputs: []string{bagCount(free)},
		Uses:    []string{r.ID},
	}, true
})

// groundCancelChangeOfPlan refuses to cancel, for a change of plan, a
// reservation that meets no cancellation condition, with travel insurance
// ("yes", which covers health and weather only) or without ("no").
func groundCancelChangeOfPlan(insurance string) grounder {
	return onReservation(func(x *grounding, r *Reservation) bool {
		return r.Insurance == insurance && x.plain(r)
	}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
		if !x.reasonFree(ReasonChangeOfPlan) {
			return sim.Grounding{}, false
		}
		return sim.RefusedWrite(sim.Grounding{
			Slots:   map[string]string{"reservation": r.ID, "trip": x.trip(r)},
			Facts:   map[string]string{"reservation_id": r.ID, "reason": "my plans changed"},
			Request: cancelRequest(r),
			Actions: []emobench.Action{getReservation(r), cancelAction(r, ReasonChangeOfPlan)},
			Uses:    append(x.reasonUses(ReasonChangeOfPlan), r.ID),
		}, "reservation_id"), true
	})
}

var groundChangeBasicEconomy = onReservation(func(x *grounding, r *Reservation) bool {
	return r.Cabin == CabinBasicEconomy && x.oneFlight(r)
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	c, ok := x.dateMove(r)
	if !ok {
		return sim.Grounding{}, false
	}
	c = c.searchFirst(r)
	c.gr.Request = request(fmt.Sprintf("Change reservation %s to flight %s on %s.", r.ID, r.Flights[0].FlightNumber, c.gr.Facts["date"]))
	return sim.RefusedWrite(c.gr, "reservation_id"), true
})

var groundCompensationNotDue = onReservation(func(x *grounding, r *Reservation) bool {
	return !eligible(x.u, r) && (x.db.hasStatus(r, StatusDelayed) || x.db.hasStatus(r, StatusCancelled))
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	s, ok := x.disrupted(r, StatusDelayed)
	what, amount := "is delayed", DelayCompensation*len(r.Passengers)
	if !ok {
		s, _ = x.disrupted(r, StatusCancelled)
		what, amount = "was cancelled", CancelCompensation*len(r.Passengers)
	}
	// Any certificate to the user is forbidden, whatever its amount or the
	// reservation it names.
	return sim.RefusedWrite(sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "date": s.Date, "what": what},
		Facts:   map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": s.Date},
		Request: request(fmt.Sprintf("Compensate me for flight %s.", s.FlightNumber)),
		Actions: []emobench.Action{getReservation(r), flightStatus(s),
			act(ToolSendCertificate, map[string]any{"user_id": x.u.ID, "reservation_id": r.ID, "amount": amount})},
		Uses: []string{r.ID},
	}, "user_id"), true
})

var groundRemoveBags = onReservation(func(x *grounding, r *Reservation) bool {
	return r.TotalBaggages >= 2 && r.NonfreeBaggages >= 1 && !x.db.flown(r)
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	total := r.TotalBaggages - 1
	return sim.RefusedWrite(sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "had": plural(r.TotalBaggages, "checked bag"), "total": plural(total, "checked bag")},
		Facts: map[string]string{"reservation_id": r.ID, "bags": fmt.Sprintf("only %s now instead of %d", plural(total, "checked bag"), r.TotalBaggages)},
		Request: request(fmt.Sprintf("Update reservation %s so it has only %s; I want the fee for the other one back.", r.ID,
			plural(total, "checked bag"))),
		Actions: []emobench.Action{getReservation(r), act(ToolUpdateReservationBaggages,
			map[string]any{"reservation_id": r.ID, "total_baggages": total, "nonfree_baggages": min(total, r.NonfreeBaggages)})},
		Uses: []string{r.ID},
	}, "reservation_id"), true
})

func groundTooManyPassengers(x *grounding) (sim.Grounding, bool) {
	const pax = MaxPassengers + 1
	var s Segment
	var price int
	found, ok := false, false
	for range 20 {
		if s, ok = x.futureFlight(); !ok {
			continue
		}
		if p, err := x.db.bookable(s, CabinEconomy, pax); err == nil {
			price, found = p, true
			break
		}
	}
	if !found {
		return sim.Grounding{}, false
	}
	passengers := []Passenger{{FirstName: x.u.FirstName, LastName: x.u.LastName, DOB: x.u.DOB}}
	for len(passengers) < pax {
		passengers = append(passengers, x.newPerson(passengers))
	}
	pm, ok := x.payer(price * pax)
	if !ok {
		return sim.Grounding{}, false
	}
	bk := booking{origin: s.Origin, destination: s.Destination, cabin: CabinEconomy, flights: []Segment{s}, passengers: passengers, insurance: "no"}
	return sim.RefusedWrite(sim.Grounding{
		Slots: map[string]string{"count": fmt.Sprint(pax), "flight": s.FlightNumber, "origin": x.place(s.Origin), "destination": x.place(s.Destination),
			"date": s.Date, "cabin": "economy", "payment": describeMethod(x.u, pm)},
		Facts: map[string]string{"origin": x.place(s.Origin), "destination": x.place(s.Destination), "date": s.Date,
			"flight_number": s.FlightNumber, "cabin": CabinEconomy, "passengers": fmt.Sprintf("%d people, me included", pax), "payment_method": describeMethod(x.u, pm)},
		Request: request(fmt.Sprintf("Book flight %s on %s for %d passengers on one reservation.", s.FlightNumber, s.Date, pax)),
		Actions: []emobench.Action{searchDirect(s.Origin, s.Destination, s.Date), bk.act(x.u, []map[string]any{{"payment_id": pm.ID, "amount": price * pax}})},
	}, "user_id"), true
}

var groundTransferFlown = onReservation(func(x *grounding, r *Reservation) bool {
	last := r.Flights[len(r.Flights)-1]
	st := x.db.segmentStatus(last)
	return r.TripType == TripRoundTrip && x.db.flown(r) && last.Date >= Today && (st == StatusAvailable || st == StatusDelayed)
}, func(x *grounding, r *Reservation) (sim.Grounding, bool) {
	if !x.reasonFree(ReasonChangeOfPlan) {
		return sim.Grounding{}, false
	}
	last := r.Flights[len(r.Flights)-1]
	summary := fmt.Sprintf("User %s wants to cancel the return flight %s on %s of reservation %s, whose outbound flight has already been flown.", x.u.ID, last.FlightNumber, last.Date, r.ID)
	return sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "trip": x.trip(r), "flight": last.FlightNumber, "date": last.Date},
		Facts: map[string]string{
			"reservation_id": r.ID, "flight_number": last.FlightNumber, "date": last.Date, "reason": "my plans changed",
		},
		Request:   request(fmt.Sprintf("Cancel the return flight of reservation %s.", r.ID), ToolTransfer),
		Actions:   []emobench.Action{getReservation(r), act(ToolTransfer, map[string]any{"summary": summary})},
		Forbidden: []emobench.Action{sim.WithCompareArgs(cancelAction(r, ReasonChangeOfPlan), "reservation_id")},
		Uses:      append(x.reasonUses(ReasonChangeOfPlan), r.ID),
	}, true
})

func groundOutOfScope(x *grounding) (sim.Grounding, bool) {
	if x.used(x.u.ID+"/transfer_out_of_scope") || x.usedInTask(x.u.ID+"/transfer_out_of_scope") {
		return sim.Grounding{}, false
	}
	topic := words.OutOfScope[x.Rand.IntN(len(words.OutOfScope))]
	contact := sim.OneOf(x.Rand, words.ContactPreferences...)
	return sim.Grounding{
		Slots:   map[string]string{"topic": topic, "topic_cap": strings.ToUpper(topic[:1]) + topic[1:], "preferred_contact": contact},
		Facts:   map[string]string{"preferred_contact": contact},
		Request: request(fmt.Sprintf("Please help me: %s.", topic), ToolTransfer),
		Actions: []emobench.Action{act(ToolTransfer, map[string]any{"summary": fmt.Sprintf("User %s: %s.", x.u.ID, topic)})},
		Uses:    []string{x.u.ID + "/transfer_out_of_scope"},
	}, true
}

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

// amountDue is the output of an amount the user is told: none when it is
// zero.
func amountDue(n int) []string {
	if n == 0 {
		return nil
	}
	return []string{dollars(n)}
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
