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

// on makes a grounder of f, which sees the grounding of the context's
// user; false when the context has no airline state or no such user.
func on(f func(*grounding) (sim.Grounding, bool)) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		x, ok := newGrounding(g)
		if !ok {
			return sim.Grounding{}, false
		}
		return f(x)
	}
}

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
			FirstName: firstNames[x.Rand.IntN(len(firstNames))],
			LastName:  lastNames[x.Rand.IntN(len(lastNames))],
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
func groundCancelPlans(business bool) func(*grounding) (sim.Grounding, bool) {
	return func(x *grounding) (sim.Grounding, bool) {
		r, ok := x.reservation(func(r *Reservation) bool {
			return (r.Cabin == CabinBusiness) == business && (!business || r.Insurance == "no") && bookedWithin24h(r) != business &&
				!x.db.flown(r) && !x.db.hasStatus(r, StatusCancelled)
		})
		if !ok {
			return sim.Grounding{}, false
		}
		return x.cancelGrounding(r, ReasonChangeOfPlan, "my plans changed", nil)
	}
}

func groundCancelAirline(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return !x.db.flown(r) && x.db.hasStatus(r, StatusCancelled) })
	if !ok {
		return sim.Grounding{}, false
	}
	s, _ := x.disrupted(r, StatusCancelled)
	gr, ok := x.cancelGrounding(r, ReasonAirlineCancelled, fmt.Sprintf("the airline cancelled my flight %s", s.FlightNumber),
		map[string]string{"flight": s.FlightNumber, "date": s.Date}, flightStatus(s))
	if ok {
		gr.Facts["flight_number"] = s.FlightNumber
	}
	return gr, ok
}

func groundCancelInsured(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return r.Insurance == "yes" && x.plain(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	reason, text, why := ReasonHealth, "I am ill and my doctor told me not to fly", "I have come down with an illness and my doctor has told me not to fly"
	if x.Rand.IntN(2) == 1 {
		reason, text, why = ReasonWeather, "a severe storm is forecast where I am going", "A severe storm is forecast at my destination and I don't want to travel into it"
	}
	slots := map[string]string{"why": why, "why_lower": strings.ToLower(why[:1]) + why[1:]}
	return x.cancelGrounding(r, reason, text, slots)
}

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

func (p bagPlan) action(r *Reservation) emobench.Action {
	kwargs := map[string]any{"reservation_id": r.ID, "total_baggages": p.total, "nonfree_baggages": p.nonfree}
	if p.fee > 0 {
		kwargs["payment_id"] = p.pm.ID
	}
	return act(ToolUpdateReservationBaggages, kwargs)
}

func groundAddBags(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return !x.db.flown(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	p, ok := x.planBags(r, r.Cabin)
	if !ok {
		return sim.Grounding{}, false
	}
	return sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "added": plural(p.added, "checked bag"), "total": fmt.Sprint(p.total), "payment": describeMethod(x.u, p.pm)},
		Facts: map[string]string{
			"reservation_id": r.ID,
			"bags":           fmt.Sprintf("%d more, %d checked bags in total", p.added, p.total),
			"payment_method": describeMethod(x.u, p.pm),
		},
		Request: request(fmt.Sprintf("Add %s to reservation %s.", plural(p.added, "checked bag"), r.ID), ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r), p.action(r)},
		Uses:    []string{r.ID},
		Outputs: amountDue(p.fee),
	}, true
}

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
func groundAddBagsIfCheap(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return !x.db.flown(r) && bagFee(x.u, r, r.TotalBaggages+2) > 0 })
	if !ok {
		return sim.Grounding{}, false
	}
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
}

func groundChangePassenger(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return !x.db.flown(r) })
	if !ok {
		return sim.Grounding{}, false
	}
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
}

// upgrade plans moving r to a dearer cabin on all its flights: the cabin,
// the price difference for all passengers, and the method that pays it.
func (x *grounding) upgrade(r *Reservation) (cabin string, diff int, pm PaymentMethod, ok bool) {
	cabin = CabinBusiness
	if r.Cabin == CabinBasicEconomy && x.Rand.IntN(2) == 0 {
		cabin = CabinEconomy
	}
	for _, s := range r.Flights {
		price, err := x.db.bookable(s, cabin, len(r.Passengers))
		if err != nil {
			return "", 0, pm, false
		}
		diff += (price - s.Price) * len(r.Passengers)
	}
	if diff <= 0 {
		return "", 0, pm, false
	}
	pm, ok = x.payer(diff)
	return cabin, diff, pm, ok
}

func (x *grounding) upgradable(r *Reservation) bool {
	return r.Cabin != CabinBusiness && !x.db.flown(r)
}

func groundUpgradeCabin(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(x.upgradable)
	if !ok {
		return sim.Grounding{}, false
	}
	cabin, diff, pm, ok := x.upgrade(r)
	if !ok {
		return sim.Grounding{}, false
	}
	actions := []emobench.Action{getReservation(r)}
	for _, s := range r.Flights {
		actions = append(actions, searchDirect(s.Origin, s.Destination, s.Date))
	}
	actions = append(actions, act(ToolUpdateReservationFlights, map[string]any{
		"reservation_id": r.ID, "cabin": cabin, "flights": refs(r.Flights), "payment_id": pm.ID,
	}))
	label := strings.ReplaceAll(cabin, "_", " ")
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "trip": x.trip(r), "cabin": label, "payment": describeMethod(x.u, pm)},
		Facts:   map[string]string{"reservation_id": r.ID, "cabin": cabin, "payment_method": describeMethod(x.u, pm)},
		Request: request(fmt.Sprintf("Upgrade reservation %s to %s.", r.ID, label), ToolUpdateReservationFlights),
		Actions: actions,
		Outputs: []string{dollars(diff)},
		Uses:    []string{r.ID},
	}, true
}

// dateMove plans moving a one-way, one-flight reservation r to the same
// flight on another bookable date: the date, the fare difference for all
// passengers (negative: a refund) and the method it goes to.
func (x *grounding) dateMove(r *Reservation) (date string, diff int, pm PaymentMethod, ok bool) {
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
		return "", 0, pm, false
	}
	date = dates[x.Rand.IntN(len(dates))]
	diff = (x.db.price(s.FlightNumber, date, r.Cabin) - s.Price) * len(r.Passengers)
	pm, ok = x.payer(diff)
	return date, diff, pm, ok
}

func (x *grounding) oneFlight(r *Reservation) bool {
	return r.TripType == TripOneWay && len(r.Flights) == 1 && !x.db.flown(r)
}

func moveAction(r *Reservation, date string, diff int, pm PaymentMethod) emobench.Action {
	kwargs := map[string]any{"reservation_id": r.ID, "cabin": r.Cabin, "flights": []FlightRef{{r.Flights[0].FlightNumber, date}}}
	if diff != 0 {
		kwargs["payment_id"] = pm.ID
	}
	return act(ToolUpdateReservationFlights, kwargs)
}

func groundChangeDate(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return r.Cabin != CabinBasicEconomy && x.oneFlight(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	date, diff, pm, ok := x.dateMove(r)
	if !ok {
		return sim.Grounding{}, false
	}
	s := r.Flights[0]
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "old_date": s.Date, "date": date, "payment": describeMethod(x.u, pm)},
		Facts:   map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": date, "payment_method": describeMethod(x.u, pm)},
		Request: request(fmt.Sprintf("Move reservation %s to %s.", r.ID, date), ToolUpdateReservationFlights),
		Actions: []emobench.Action{getReservation(r), searchDirect(s.Origin, s.Destination, date), moveAction(r, date, diff, pm)},
		Uses:    []string{r.ID},
		Outputs: amountDue(diff),
	}, true
}

// withCabin returns a copy of r in cabin, as the bag allowance sees it
// after an upgrade.
func withCabin(r *Reservation, cabin string) *Reservation {
	c := *r
	c.Cabin = cabin
	return &c
}

func groundUpgradeAddBags(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(x.upgradable)
	if !ok {
		return sim.Grounding{}, false
	}
	cabin, diff, pm, ok := x.upgrade(r)
	if !ok {
		return sim.Grounding{}, false
	}
	p, ok := x.planBags(withCabin(r, cabin), cabin)
	// One method pays both: the bag fee must fit what is left on a gift card.
	if !ok || p.fee > 0 && pm.Source == SourceGiftCard && *pm.Amount < diff+p.fee {
		return sim.Grounding{}, false
	}
	p.pm = pm
	label := strings.ReplaceAll(cabin, "_", " ")
	return sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "trip": x.trip(r), "cabin": label, "payment": describeMethod(x.u, pm),
			"added": plural(p.added, "checked bag"), "total": fmt.Sprint(p.total)},
		Facts: map[string]string{"reservation_id": r.ID, "cabin": cabin, "payment_method": describeMethod(x.u, pm),
			"bags": fmt.Sprintf("%d more, %d checked bags in total", p.added, p.total)},
		Request: request(fmt.Sprintf("Upgrade reservation %s to %s and add %s.", r.ID, label, plural(p.added, "checked bag")),
			ToolUpdateReservationFlights, ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r),
			act(ToolUpdateReservationFlights, map[string]any{"reservation_id": r.ID, "cabin": cabin, "flights": refs(r.Flights), "payment_id": pm.ID}),
			p.action(r)},
		Outputs: []string{dollars(diff + p.fee)},
		Uses:    []string{r.ID},
	}, true
}

func groundChangeDateAddBags(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return r.Cabin != CabinBasicEconomy && x.oneFlight(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	date, diff, pm, ok := x.dateMove(r)
	if !ok || pm.Source != SourceCreditCard {
		return sim.Grounding{}, false // a credit card takes both a refund and a fee
	}
	p, ok := x.planBags(r, r.Cabin)
	if !ok {
		return sim.Grounding{}, false
	}
	p.pm = pm
	s := r.Flights[0]
	return sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "old_date": s.Date, "date": date,
			"payment": describeMethod(x.u, pm), "added": plural(p.added, "checked bag"), "total": fmt.Sprint(p.total)},
		Facts: map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": date, "payment_method": describeMethod(x.u, pm),
			"bags": fmt.Sprintf("%d more, %d checked bags in total", p.added, p.total)},
		Request: request(fmt.Sprintf("Move reservation %s to %s and add %s.", r.ID, date, plural(p.added, "checked bag")),
			ToolUpdateReservationFlights, ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r), moveAction(r, date, diff, pm), p.action(r)},
		Uses:    []string{r.ID},
		Outputs: amountDue(diff + p.fee),
	}, true
}

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

func groundBookDirect(x *grounding) (sim.Grounding, bool) {
	s, ok := x.futureFlight()
	if !ok {
		return sim.Grounding{}, false
	}
	bk, ok := x.planBooking([]Segment{s})
	if !ok {
		return sim.Grounding{}, false
	}
	pm, ok := x.payer(bk.total)
	if !ok {
		return sim.Grounding{}, false
	}
	gr, ok := x.bookingGrounding(bk, describeMethod(x.u, pm))
	gr.Actions = []emobench.Action{searchDirect(bk.origin, bk.destination, bk.date), calculation(x.totalExpression(bk)),
		bk.act(x.u, []map[string]any{{"payment_id": pm.ID, "amount": bk.total}})}
	gr.Outputs = []string{dollars(bk.total)}
	return gr, ok
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
	bk, ok := x.planBooking(pair)
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
	gr.Slots["via"] = x.place(pair[0].Destination)
	gr.Facts["connection"] = "via " + x.place(pair[0].Destination)
	gr.Request.Text = fmt.Sprintf("Book a one-way trip from %s to %s on %s with one stop: %s.", bk.origin, bk.destination, bk.date, gr.Facts["flight_choice"])
	gr.Actions = []emobench.Action{
		act(ToolSearchOnestopFlight, map[string]any{"origin": bk.origin, "destination": bk.destination, "date": bk.date}),
		calculation(x.totalExpression(bk)),
		bk.act(x.u, []map[string]any{{"payment_id": pm.ID, "amount": bk.total}})}
	gr.Outputs = []string{dollars(bk.total)}
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
func groundCompensation(status string) func(*grounding) (sim.Grounding, bool) {
	per := map[string]int{StatusDelayed: DelayCompensation, StatusCancelled: CancelCompensation}[status]
	return func(x *grounding) (sim.Grounding, bool) {
		r, ok := x.reservation(func(r *Reservation) bool {
			return !r.Compensated && eligible(x.u, r) && x.db.hasStatus(r, status) && (status == StatusCancelled || !x.db.hasStatus(r, StatusCancelled))
		})
		if !ok {
			return sim.Grounding{}, false
		}
		s, _ := x.disrupted(r, status)
		return x.compensation(r, s, per*len(r.Passengers)), true
	}
}

func groundCompensationThenCancel(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool {
		return !r.Compensated && eligible(x.u, r) && !x.db.flown(r) && x.db.hasStatus(r, StatusCancelled)
	})
	if !ok {
		return sim.Grounding{}, false
	}
	s, _ := x.disrupted(r, StatusCancelled)
	gr := x.compensation(r, s, CancelCompensation*len(r.Passengers))
	gr.Facts["reason"] = fmt.Sprintf("the airline cancelled my flight %s", s.FlightNumber)
	gr.Request = request(fmt.Sprintf("Compensate me for the cancellation of flight %s, then cancel reservation %s and refund it.", s.FlightNumber, r.ID),
		ToolSendCertificate, ToolCancelReservation)
	gr.Actions = append(gr.Actions, cancelAction(r, ReasonAirlineCancelled))
	gr.Uses = append(gr.Uses, x.reasonUses(ReasonAirlineCancelled)...)
	return gr, x.reasonFree(ReasonAirlineCancelled)
}

// What a user asks for information for, and how they want to be reached
// after a hand-off: the preference an information or transfer request
// states (the audit's tool_task_with_preference), as the instruction
// words it.
var (
	totalPurposes = []string{
		"for my expense report",
		"for my records",
		"for an expense claim at work",
	}
	allTotalPurposes = []string{
		"for my yearly travel budget",
		"for my tax return",
		"to compare it with my card statement",
	}
	bagPurposes = []string{
		"so I know how many suitcases to pack",
		"so I can decide whether to buy extra bags later",
		"so I can tell the others travelling with me",
	}
	contactPreferences = []string{
		"a phone call back",
		"a live chat with them",
		"an email with the next steps",
	}
)

func groundReservationTotal(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return len(r.Passengers) >= 2 || r.TotalBaggages > 0 })
	if !ok {
		return sim.Grounding{}, false
	}
	purpose := sim.OneOf(x.Rand, totalPurposes...)
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "trip": x.trip(r), "purpose": purpose},
		Facts:   map[string]string{"reservation_id": r.ID, "purpose": purpose},
		Request: request(fmt.Sprintf("Tell me the total paid for reservation %s.", r.ID), ToolGetReservationDetails),
		Actions: []emobench.Action{getReservation(r)},
		Outputs: []string{dollars(r.TotalPaid())},
		Uses:    []string{r.ID},
	}, true
}

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
	purpose := sim.OneOf(x.Rand, allTotalPurposes...)
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: request("Tell me the total paid for all my reservations.", ToolCalculate),
		Actions: actions,
		Outputs: []string{dollars(sum)},
		Uses:    []string{x.u.ID + "/all_reservations_total"},
	}, true
}

func groundFlightStatus(x *grounding) (sim.Grounding, bool) {
	var seg Segment
	r, ok := x.reservation(func(r *Reservation) bool {
		for _, s := range r.Flights {
			if s.Date >= Today && x.db.segmentStatus(s) != StatusLanded {
				return true
			}
		}
		return false
	})
	if !ok {
		return sim.Grounding{}, false
	}
	for _, s := range r.Flights {
		if s.Date >= Today && x.db.segmentStatus(s) != StatusLanded {
			seg = s
			break
		}
	}
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "flight": seg.FlightNumber, "date": seg.Date},
		Facts:   map[string]string{"reservation_id": r.ID, "flight_number": seg.FlightNumber, "date": seg.Date},
		Request: request(fmt.Sprintf("Tell me the status of flight %s on %s.", seg.FlightNumber, seg.Date), ToolGetFlightStatus),
		Actions: []emobench.Action{getReservation(r), flightStatus(seg)},
		Outputs: []string{statusWords[x.db.segmentStatus(seg)]},
		Uses:    []string{r.ID},
	}, true
}

func groundBagAllowance(x *grounding) (sim.Grounding, bool) {
	// An allowance of at least two reads as a count, not a stray digit.
	r, ok := x.reservation(func(r *Reservation) bool { return FreeBags(x.u.Membership, r.Cabin)*len(r.Passengers) >= 2 })
	if !ok {
		return sim.Grounding{}, false
	}
	free := FreeBags(x.u.Membership, r.Cabin) * len(r.Passengers)
	purpose := sim.OneOf(x.Rand, bagPurposes...)
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "trip": x.trip(r), "purpose": purpose},
		Facts:   map[string]string{"reservation_id": r.ID, "purpose": purpose},
		Request: request(fmt.Sprintf("Tell me how many free checked bags reservation %s allows.", r.ID), ToolGetReservationDetails),
		Actions: []emobench.Action{getReservation(r)},
		Outputs: []string{bagCount(free)},
		Uses:    []string{r.ID},
	}, true
}

// refusal is a forbidden intent's grounding: reads only, the refused
// write matched by the ids in keys alone, so that a careless call with
// other details still counts.
func refusal(slots, facts map[string]string, req emobench.Request, reads []emobench.Action, uses []string, forbidden emobench.Action, keys ...string) sim.Grounding {
	return sim.Grounding{Slots: slots, Facts: facts, Request: req, Actions: reads, Forbidden: []emobench.Action{sim.WithCompareArgs(forbidden, keys...)}, Uses: uses}
}

// groundCancelChangeOfPlan refuses to cancel, for a change of plan, a
// reservation that meets no cancellation condition, with travel insurance
// ("yes", which covers health and weather only) or without ("no").
func groundCancelChangeOfPlan(insurance string) func(x *grounding) (sim.Grounding, bool) {
	return func(x *grounding) (sim.Grounding, bool) {
		r, ok := x.reservation(func(r *Reservation) bool { return r.Insurance == insurance && x.plain(r) })
		if !ok || !x.reasonFree(ReasonChangeOfPlan) {
			return sim.Grounding{}, false
		}
		return refusal(map[string]string{"reservation": r.ID, "trip": x.trip(r)},
			map[string]string{"reservation_id": r.ID, "reason": "my plans changed"},
			cancelRequest(r, ToolGetReservationDetails), []emobench.Action{getReservation(r)}, append(x.reasonUses(ReasonChangeOfPlan), r.ID),
			cancelAction(r, ReasonChangeOfPlan), "reservation_id"), true
	}
}

func groundChangeBasicEconomy(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return r.Cabin == CabinBasicEconomy && x.oneFlight(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	date, diff, pm, ok := x.dateMove(r)
	if !ok {
		return sim.Grounding{}, false
	}
	s := r.Flights[0]
	return refusal(
		map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "old_date": s.Date, "date": date, "payment": describeMethod(x.u, pm)},
		map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": date, "payment_method": describeMethod(x.u, pm)},
		request(fmt.Sprintf("Change reservation %s to flight %s on %s.", r.ID, s.FlightNumber, date), ToolSearchDirectFlight),
		[]emobench.Action{getReservation(r), searchDirect(s.Origin, s.Destination, date)}, []string{r.ID},
		moveAction(r, date, diff, pm), "reservation_id"), true
}

func groundCompensationNotDue(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool {
		return !eligible(x.u, r) && (x.db.hasStatus(r, StatusDelayed) || x.db.hasStatus(r, StatusCancelled))
	})
	if !ok {
		return sim.Grounding{}, false
	}
	s, ok := x.disrupted(r, StatusDelayed)
	what, amount := "is delayed", DelayCompensation*len(r.Passengers)
	if !ok {
		s, _ = x.disrupted(r, StatusCancelled)
		what, amount = "was cancelled", CancelCompensation*len(r.Passengers)
	}
	return refusal(
		map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "date": s.Date, "what": what},
		map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": s.Date},
		request(fmt.Sprintf("Compensate me for flight %s.", s.FlightNumber), ToolGetFlightStatus),
		[]emobench.Action{getReservation(r), flightStatus(s)}, []string{r.ID},
		// Any certificate to the user is forbidden, whatever its amount or
		// the reservation it names.
		act(ToolSendCertificate, map[string]any{"user_id": x.u.ID, "reservation_id": r.ID, "amount": amount}), "user_id"), true
}

func groundRemoveBags(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool { return r.TotalBaggages >= 2 && r.NonfreeBaggages >= 1 && !x.db.flown(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	total := r.TotalBaggages - 1
	return refusal(
		map[string]string{"reservation": r.ID, "had": plural(r.TotalBaggages, "checked bag"), "total": plural(total, "checked bag")},
		map[string]string{"reservation_id": r.ID, "bags": fmt.Sprintf("only %s now instead of %d", plural(total, "checked bag"), r.TotalBaggages)},
		request(fmt.Sprintf("Update reservation %s so it has only %s; I want the fee for the other one back.", r.ID, plural(total, "checked bag")), ToolGetReservationDetails),
		[]emobench.Action{getReservation(r)}, []string{r.ID},
		act(ToolUpdateReservationBaggages, map[string]any{"reservation_id": r.ID, "total_baggages": total, "nonfree_baggages": min(total, r.NonfreeBaggages)}),
		"reservation_id"), true
}

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
	return refusal(
		map[string]string{"count": fmt.Sprint(pax), "flight": s.FlightNumber, "origin": x.place(s.Origin), "destination": x.place(s.Destination),
			"date": s.Date, "cabin": "economy", "payment": describeMethod(x.u, pm)},
		map[string]string{"origin": x.place(s.Origin), "destination": x.place(s.Destination), "date": s.Date,
			"flight_number": s.FlightNumber, "cabin": CabinEconomy, "passengers": fmt.Sprintf("%d people, me included", pax), "payment_method": describeMethod(x.u, pm)},
		request(fmt.Sprintf("Book flight %s on %s for %d passengers on one reservation.", s.FlightNumber, s.Date, pax), ToolSearchDirectFlight),
		[]emobench.Action{searchDirect(s.Origin, s.Destination, s.Date)}, nil,
		act(ToolBookReservation, map[string]any{
			"user_id": x.u.ID, "origin": s.Origin, "destination": s.Destination, "trip_type": TripOneWay,
			"cabin": CabinEconomy, "flights": refs([]Segment{s}), "passengers": passengers,
			"payment_methods": []map[string]any{{"payment_id": pm.ID, "amount": price * pax}},
			"total_baggages":  0, "nonfree_baggages": 0, "insurance": "no",
		}), "user_id"), true
}

func groundTransferFlown(x *grounding) (sim.Grounding, bool) {
	r, ok := x.reservation(func(r *Reservation) bool {
		last := r.Flights[len(r.Flights)-1]
		st := x.db.segmentStatus(last)
		return r.TripType == TripRoundTrip && x.db.flown(r) && last.Date >= Today && (st == StatusAvailable || st == StatusDelayed)
	})
	if !ok || !x.reasonFree(ReasonChangeOfPlan) {
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
}

// outOfScope are requests no tool serves, which the policy hands to a
// human agent.
var outOfScope = []string{
	"I left my laptop on my last flight and need to file a lost property claim",
	"my checked suitcase never arrived and I need to open a claim for the lost bag",
	"I need wheelchair assistance arranged at the airport for my next trip",
	"I want to bring my dog in the cabin and need that arranged",
	"I want to request a special meal for a food allergy on my flights",
	"I'd like my frequent flyer miles from another airline merged into my account",
}

func groundOutOfScope(x *grounding) (sim.Grounding, bool) {
	if x.used(x.u.ID+"/transfer_out_of_scope") || x.usedInTask(x.u.ID+"/transfer_out_of_scope") {
		return sim.Grounding{}, false
	}
	topic := outOfScope[x.Rand.IntN(len(outOfScope))]
	contact := sim.OneOf(x.Rand, contactPreferences...)
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
