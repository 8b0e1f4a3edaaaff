package airline

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestTaskSeed is the seed BuildTasks is given for the embedded test tasks.
const TestTaskSeed uint64 = 7

// NumTestTasks is the number of embedded test tasks.
const NumTestTasks = 40

// BuildTasks returns up to n tasks of the given split grounded in db. It
// walks the database for material for each kind of task (cancellations
// allowed and refused, bags, passenger changes, upgrades, date changes,
// bookings, questions about totals, complaints, transfers), taking the
// kinds in turn, and keeps a task only if replaying its gold actions on a
// copy of db succeeds, every gold cancellation and certificate is one the
// policy allows, and the writes a refusal task forbids are absent from its
// gold, refused by the policy and accepted by the tools (so an agent that
// makes one changes the database). Emotion
// profiles are assigned in turn over every family and leaf of
// emobench.Taxonomy, with the three dimensions drawn from a seeded shuffle of
// their 27 combinations. Equal arguments give equal tasks; db is not
// changed. Fewer than n tasks are returned when db runs out of material.
func BuildTasks(db *DB, seed uint64, n int, split emobench.Split) []emobench.TaskSpec {
	tasks, _ := buildTasks(db, seed, n, split)
	return tasks
}

// buildTasks is BuildTasks that also returns each refusal task's forbidden
// writes by task id (also in each TaskSpec's Forbidden).
func buildTasks(db *DB, seed uint64, n int, split emobench.Split) ([]emobench.TaskSpec, map[string][]emobench.Action) {
	b := &builder{
		db:   db,
		rng:  rand.New(rand.NewPCG(seed, seed^0x7a5c_0b1d_2e3f_4a5b)),
		used: map[string]bool{},
	}
	queues := make([][]string, len(taskKinds))
	for i, k := range taskKinds {
		queues[i] = k.candidates(b)
		b.rng.Shuffle(len(queues[i]), func(x, y int) { queues[i][x], queues[i][y] = queues[i][y], queues[i][x] })
	}
	var tasks []emobench.TaskSpec
	forbidden := map[string][]emobench.Action{}
	users := map[string]bool{} // users already in a task
	for live := true; live && len(tasks) < n; {
		live = false
		for i, k := range taskKinds {
			if len(tasks) >= n {
				break
			}
			// Prefer a user who is in no task yet.
			d := b.take(&queues[i], k, users)
			if d == nil {
				d = b.take(&queues[i], k, nil)
			}
			if d != nil {
				users[d.user.ID] = true
				spec := d.spec(len(tasks), split)
				if len(d.forbidden) > 0 {
					forbidden[spec.ID] = d.forbidden
				}
				tasks = append(tasks, spec)
				live = true
			}
		}
	}
	assignEmotions(tasks, b.rng)
	return tasks, forbidden
}

// taskKind is one kind of task: where its material comes from (user or
// reservation ids, in a stable order) and how a task is drafted from one.
type taskKind struct {
	name       string
	candidates func(b *builder) []string
	draft      func(b *builder, id string) *draft
}

var taskKinds = []taskKind{
	{"cancel_recent", reservations, draftCancelRecent},
	{"add_bags", reservations, draftAddBags},
	{"book_direct", users, draftBookDirect},
	{"complaint_delayed", reservations, draftComplaintDelayed},
	{"reservation_total", reservations, draftReservationTotal},
	{"change_passenger", reservations, draftChangePassenger},
	{"cancel_airline_cancelled", reservations, draftCancelAirline},
	{"upgrade_cabin", reservations, draftUpgradeCabin},
	{"cancel_refused", reservations, draftCancelRefused},
	{"book_with_certificate", users, draftBookCertificate},
	{"complaint_cancelled_then_cancel", reservations, draftComplaintCancel},
	{"change_date", reservations, draftChangeDate},
	{"cancel_insured", reservations, draftCancelInsured},
	{"book_onestop", users, draftBookOnestop},
	{"complaint_ineligible", reservations, draftComplaintIneligible},
	{"cancel_business", reservations, draftCancelBusiness},
	{"all_reservations_total", users, draftAllTotal},
	{"transfer_flown", reservations, draftTransferFlown},
}

// take drafts a task from the first candidate in queue that yields a
// verified draft, skipping candidates of users in skip, and removes the
// candidates it tried from the queue.
func (b *builder) take(queue *[]string, k taskKind, skip map[string]bool) *draft {
	q := *queue
	defer func() { *queue = q }()
	for j := 0; j < len(q); j++ {
		id := q[j]
		if skip[b.userOf(id)] {
			continue
		}
		q = slices.Delete(q, j, j+1)
		j--
		if b.used[id] {
			continue
		}
		if d := k.draft(b, id); d != nil && b.verify(d) {
			b.used[id] = true
			return d
		}
	}
	return nil
}

// userOf returns the user of a candidate id: a user or a reservation id.
func (b *builder) userOf(id string) string {
	if r, ok := b.db.Reservations[id]; ok {
		return r.UserID
	}
	return id
}

type builder struct {
	db    *DB
	rng   *rand.Rand
	used  map[string]bool // candidate ids already in a task
	pairs *[][2]Segment   // onestopPairs, once computed
}

// draft is a task before its id and emotion are set.
type draft struct {
	user        *User
	instruction string
	facts       map[string]string
	requests    []emobench.Request
	actions     []emobench.Action
	outputs     []string
	// forbidden are writes the policy forbids in this task. The tools
	// accept them: refusing is the agent's job.
	forbidden []emobench.Action
}

func (d *draft) spec(i int, split emobench.Split) emobench.TaskSpec {
	outputs := d.outputs
	if outputs == nil {
		outputs = []string{}
	}
	return emobench.TaskSpec{
		ID:          fmt.Sprintf("%s-%s-%03d", Name, split, i),
		Domain:      Name,
		Split:       split,
		UserID:      d.user.ID,
		Instruction: d.instruction,
		Scenario:    emobench.Scenario{Facts: d.facts, Requests: d.requests},
		Actions:     d.actions,
		Outputs:     outputs,
		Forbidden:   d.forbidden,
	}
}

// verify replays d's actions on a copy of the database and reports whether
// all succeed and each is allowed by the policy where it is made, and
// whether every forbidden write is absent from the gold, refused by the
// policy and accepted by the tools, changing the state, on a fresh copy.
func (b *builder) verify(d *draft) bool {
	env := sim.NewStateEnv(b.db.Clone(), tools())
	for _, a := range d.actions {
		if !env.State.policyAllowsWrite(a) {
			return false
		}
		if _, err := env.Call(a.Name, a.Arguments); err != nil {
			return false
		}
	}
	for _, f := range d.forbidden {
		if slices.ContainsFunc(d.actions, func(a emobench.Action) bool { return a.Name == f.Name }) {
			return false
		}
		env := sim.NewStateEnv(b.db.Clone(), tools())
		before := env.Hash()
		if b.db.policyAllowsWrite(f) {
			return false
		}
		if _, err := env.Call(f.Name, f.Arguments); err != nil || env.Hash() == before {
			return false
		}
	}
	return true
}

func reservations(b *builder) []string { return sortedKeys(b.db.Reservations) }
func users(b *builder) []string        { return sortedKeys(b.db.Users) }

// act returns the action calling name with kwargs.
func act(name string, kwargs map[string]any) emobench.Action {
	raw, err := json.Marshal(kwargs)
	if err != nil {
		panic(fmt.Sprintf("airline: action %s: %v", name, err)) // a bug in a draft function
	}
	return emobench.Action{Name: name, Arguments: raw}
}

func getUser(u *User) emobench.Action {
	return act(ToolGetUserDetails, map[string]any{"user_id": u.ID})
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

// owner returns reservation id and its user if the reservation is active.
func (b *builder) owner(id string) (*Reservation, *User) {
	r := b.db.Reservations[id]
	u := b.db.Users[r.UserID]
	if r.Status != ReservationActive {
		return nil, nil
	}
	return r, u
}

func fullName(first, last string) string { return first + " " + last }

func (b *builder) place(code string) string {
	return fmt.Sprintf("%s (%s)", b.db.Airports[code].City, code)
}

// trip describes r's route in words.
func (b *builder) trip(r *Reservation) string {
	if r.TripType == TripRoundTrip {
		return fmt.Sprintf("round trip between %s and %s", b.db.Airports[r.Origin].City, b.db.Airports[r.Destination].City)
	}
	return fmt.Sprintf("trip from %s to %s", b.db.Airports[r.Origin].City, b.db.Airports[r.Destination].City)
}

// describeMethod names a payment method as a user would, with its id.
func describeMethod(pm PaymentMethod) string {
	switch pm.Source {
	case SourceCreditCard:
		return fmt.Sprintf("my %s credit card ending in %s (%s)", pm.Brand, pm.LastFour, pm.ID)
	case SourceGiftCard:
		return fmt.Sprintf("my gift card (%s)", pm.ID)
	}
	return fmt.Sprintf("my travel certificate (%s)", pm.ID)
}

// payer picks a credit card, or a gift card whose balance covers amount,
// from u's payment methods.
func (b *builder) payer(u *User, amount int) (PaymentMethod, bool) {
	var opts []PaymentMethod
	for _, id := range sortedKeys(u.PaymentMethods) {
		pm := u.PaymentMethods[id]
		if pm.Source == SourceCreditCard || pm.Source == SourceGiftCard && *pm.Amount >= amount {
			opts = append(opts, pm)
		}
	}
	if len(opts) == 0 {
		return PaymentMethod{}, false
	}
	return opts[b.rng.IntN(len(opts))], true
}

// newPerson draws a passenger who is none of ps.
func (b *builder) newPerson(ps []Passenger) Passenger {
	for {
		p := Passenger{
			FirstName: firstNames[b.rng.IntN(len(firstNames))],
			LastName:  lastNames[b.rng.IntN(len(lastNames))],
			DOB:       fmt.Sprintf("%d-%02d-%02d", 1955+b.rng.IntN(50), 1+b.rng.IntN(12), 1+b.rng.IntN(28)),
		}
		if !slices.ContainsFunc(ps, func(q Passenger) bool { return q.FirstName == p.FirstName && q.LastName == p.LastName }) {
			return p
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// cancelDraft is the common shape of a cancellation task.
func (b *builder) cancelDraft(r *Reservation, u *User, reason, reasonText, instruction string, extra ...emobench.Action) *draft {
	actions := []emobench.Action{getUser(u), getReservation(r)}
	actions = append(actions, extra...)
	actions = append(actions, act(ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": reason}))
	return &draft{
		user:        u,
		instruction: instruction,
		facts:       map[string]string{"user_id": u.ID, "reservation_id": r.ID, "reason": reasonText},
		requests:    []emobench.Request{request(fmt.Sprintf("Cancel reservation %s and refund it.", r.ID), ToolCancelReservation)},
		actions:     actions,
	}
}

func draftCancelRecent(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || !bookedWithin24h(r) || b.db.flown(r) || b.db.hasStatus(r, StatusCancelled) || r.Cabin == CabinBusiness {
		return nil
	}
	return b.cancelDraft(r, u, ReasonChangeOfPlan, "my plans changed",
		fmt.Sprintf("I am %s, user id %s. Less than a day ago I booked reservation %s, a %s, but my plans have changed and I no longer need it. I want it cancelled with a full refund.",
			fullName(u.FirstName, u.LastName), u.ID, r.ID, b.trip(r)))
}

func draftCancelAirline(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || b.db.flown(r) || !b.db.hasStatus(r, StatusCancelled) {
		return nil
	}
	i := slices.IndexFunc(r.Flights, func(s Segment) bool { return b.db.segmentStatus(s) == StatusCancelled })
	s := r.Flights[i]
	d := b.cancelDraft(r, u, ReasonAirlineCancelled, fmt.Sprintf("the airline cancelled my flight %s", s.FlightNumber),
		fmt.Sprintf("I am %s, user id %s. You cancelled my flight %s on %s, which is part of reservation %s. I don't want to rebook: cancel the whole reservation and refund me. I am not asking for anything else.",
			fullName(u.FirstName, u.LastName), u.ID, s.FlightNumber, s.Date, r.ID),
		flightStatus(s))
	d.facts["flight_number"] = s.FlightNumber
	return d
}

func draftCancelInsured(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || r.Insurance != "yes" || r.Cabin == CabinBusiness || bookedWithin24h(r) || b.db.flown(r) || b.db.hasStatus(r, StatusCancelled) {
		return nil
	}
	reason, text, why := ReasonHealth, "I am ill and my doctor told me not to fly", "I have come down with an illness and my doctor has told me not to fly"
	if b.rng.IntN(2) == 1 {
		reason, text, why = ReasonWeather, "a severe storm is forecast where I am going", "a severe storm is forecast at my destination and I don't want to travel into it"
	}
	return b.cancelDraft(r, u, reason, text,
		fmt.Sprintf("I am %s, user id %s. %s, so I need to cancel reservation %s, my %s. I bought travel insurance with it, so I expect a refund.",
			fullName(u.FirstName, u.LastName), u.ID, why, r.ID, b.trip(r)))
}

func draftCancelBusiness(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || r.Cabin != CabinBusiness || r.Insurance != "no" || bookedWithin24h(r) || b.db.flown(r) || b.db.hasStatus(r, StatusCancelled) {
		return nil
	}
	return b.cancelDraft(r, u, ReasonChangeOfPlan, "my plans changed",
		fmt.Sprintf("I am %s, user id %s. My plans have changed and I want to cancel reservation %s, my business class %s, with a refund.",
			fullName(u.FirstName, u.LastName), u.ID, r.ID, b.trip(r)))
}

func draftCancelRefused(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || r.Cabin == CabinBusiness || r.Insurance != "no" || bookedWithin24h(r) || b.db.flown(r) || b.db.hasStatus(r, StatusCancelled) {
		return nil
	}
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. My plans have changed and I want to cancel reservation %s, my %s, and get my money back; I don't want to change it instead.",
			fullName(u.FirstName, u.LastName), u.ID, r.ID, b.trip(r)),
		facts:     map[string]string{"user_id": u.ID, "reservation_id": r.ID, "reason": "my plans changed"},
		requests:  []emobench.Request{request(fmt.Sprintf("Cancel reservation %s and refund it.", r.ID), ToolGetReservationDetails)},
		actions:   []emobench.Action{getUser(u), getReservation(r)},
		forbidden: []emobench.Action{act(ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": ReasonChangeOfPlan})},
	}
}

func draftAddBags(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || b.db.flown(r) {
		return nil
	}
	k := 1 + b.rng.IntN(2)
	total := r.TotalBaggages + k
	nonfree := NonfreeBags(u.Membership, r.Cabin, len(r.Passengers), total)
	fee := BagFee * max(0, nonfree-r.NonfreeBaggages)
	pm, ok := b.payer(u, fee)
	if !ok {
		return nil
	}
	kwargs := map[string]any{"reservation_id": r.ID, "total_baggages": total, "nonfree_baggages": nonfree}
	d := &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. I want to add %s to reservation %s, so that it has %d in all. If there is a fee, I will pay it with %s, and I want to know how much it is.",
			fullName(u.FirstName, u.LastName), u.ID, plural(k, "checked bag"), r.ID, total, describeMethod(pm)),
		facts: map[string]string{
			"user_id": u.ID, "reservation_id": r.ID,
			"bags":           fmt.Sprintf("%d more, %d checked bags in total", k, total),
			"payment_method": describeMethod(pm),
		},
		requests: []emobench.Request{request(fmt.Sprintf("Add %s to reservation %s.", plural(k, "checked bag"), r.ID), ToolUpdateReservationBaggages)},
	}
	if fee > 0 {
		kwargs["payment_id"] = pm.ID
		d.outputs = []string{fmt.Sprint(fee)}
	}
	d.actions = []emobench.Action{getUser(u), getReservation(r), act(ToolUpdateReservationBaggages, kwargs)}
	return d
}

func draftChangePassenger(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || b.db.flown(r) {
		return nil
	}
	j := len(r.Passengers) - 1
	old := r.Passengers[j]
	p := b.newPerson(r.Passengers)
	ps := slices.Clone(r.Passengers)
	ps[j] = p
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. %s can no longer travel on reservation %s. I want to put %s, born %s, in that seat instead.",
			fullName(u.FirstName, u.LastName), u.ID, fullName(old.FirstName, old.LastName), r.ID, fullName(p.FirstName, p.LastName), p.DOB),
		facts: map[string]string{
			"user_id": u.ID, "reservation_id": r.ID,
			"current_passenger": fullName(old.FirstName, old.LastName),
			"first_name":        p.FirstName,
			"last_name":         p.LastName,
			"date_of_birth":     p.DOB,
		},
		requests: []emobench.Request{request(fmt.Sprintf("Replace %s with %s on reservation %s.", fullName(old.FirstName, old.LastName), fullName(p.FirstName, p.LastName), r.ID), ToolUpdateReservationPassengers)},
		actions: []emobench.Action{getUser(u), getReservation(r),
			act(ToolUpdateReservationPassengers, map[string]any{"reservation_id": r.ID, "passengers": ps})},
	}
}

func draftUpgradeCabin(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || r.Cabin == CabinBusiness || b.db.flown(r) {
		return nil
	}
	cabin := CabinBusiness
	if r.Cabin == CabinBasicEconomy && b.rng.IntN(2) == 0 {
		cabin = CabinEconomy
	}
	diff := 0
	actions := []emobench.Action{getUser(u), getReservation(r)}
	for _, s := range r.Flights {
		price, err := b.db.bookable(s, cabin, len(r.Passengers))
		if err != nil {
			return nil
		}
		diff += (price - s.Price) * len(r.Passengers)
		actions = append(actions, searchDirect(s.Origin, s.Destination, s.Date))
	}
	pm, ok := b.payer(u, diff)
	if !ok || diff <= 0 {
		return nil
	}
	actions = append(actions, act(ToolUpdateReservationFlights, map[string]any{
		"reservation_id": r.ID, "cabin": cabin, "flights": refs(r.Flights), "payment_id": pm.ID,
	}))
	label := strings.ReplaceAll(cabin, "_", " ")
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. I want to upgrade reservation %s, my %s, to %s for the whole trip, and pay the difference with %s. I want to know what the upgrade costs.",
			fullName(u.FirstName, u.LastName), u.ID, r.ID, b.trip(r), label, describeMethod(pm)),
		facts: map[string]string{
			"user_id": u.ID, "reservation_id": r.ID, "cabin": cabin, "payment_method": describeMethod(pm),
		},
		requests: []emobench.Request{request(fmt.Sprintf("Upgrade reservation %s to %s.", r.ID, label), ToolUpdateReservationFlights)},
		actions:  actions,
		outputs:  []string{fmt.Sprint(diff)},
	}
}

func draftChangeDate(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || r.Cabin == CabinBasicEconomy || r.TripType != TripOneWay || len(r.Flights) != 1 || b.db.flown(r) {
		return nil
	}
	s := r.Flights[0]
	var dates []string
	for _, d := range flightDates {
		moved := Segment{FlightNumber: s.FlightNumber, Date: d}
		if d > Today && d != s.Date {
			if _, err := b.db.bookable(moved, r.Cabin, len(r.Passengers)); err == nil {
				dates = append(dates, d)
			}
		}
	}
	if len(dates) == 0 {
		return nil
	}
	date := dates[b.rng.IntN(len(dates))]
	price := b.db.Flights[s.FlightNumber].Dates[date].Prices.Get(r.Cabin)
	diff := (price - s.Price) * len(r.Passengers)
	pm, ok := b.payer(u, diff)
	if !ok {
		return nil
	}
	kwargs := map[string]any{"reservation_id": r.ID, "cabin": r.Cabin, "flights": []FlightRef{{s.FlightNumber, date}}}
	d := &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. I need to move reservation %s, flight %s on %s, to the same flight on %s. Any difference in price goes on %s; I want to know how much it is.",
			fullName(u.FirstName, u.LastName), u.ID, r.ID, s.FlightNumber, s.Date, date, describeMethod(pm)),
		facts: map[string]string{
			"user_id": u.ID, "reservation_id": r.ID, "date": date, "payment_method": describeMethod(pm),
		},
		requests: []emobench.Request{request(fmt.Sprintf("Move reservation %s to %s.", r.ID, date), ToolUpdateReservationFlights)},
	}
	if diff != 0 {
		kwargs["payment_id"] = pm.ID
		d.outputs = []string{fmt.Sprint(max(diff, -diff))}
	}
	d.actions = []emobench.Action{getUser(u), getReservation(r), searchDirect(s.Origin, s.Destination, date), act(ToolUpdateReservationFlights, kwargs)}
	return d
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

// planBooking drafts a one-way booking for u over flights (on one date):
// cabin, passengers, bags and insurance drawn from the rng, or false when
// the flights cannot take them.
func (b *builder) planBooking(u *User, flights []Segment) (booking, bool) {
	bk := booking{
		origin: flights[0].Origin, destination: flights[len(flights)-1].Destination, date: flights[0].Date,
		cabin: cabins[b.rng.IntN(len(cabins))], insurance: "no",
	}
	bk.passengers = []Passenger{{FirstName: u.FirstName, LastName: u.LastName, DOB: u.DOB}}
	if b.rng.IntN(2) == 0 {
		if len(u.SavedPassengers) > 0 {
			bk.passengers = append(bk.passengers, u.SavedPassengers[0])
		} else {
			bk.passengers = append(bk.passengers, b.newPerson(bk.passengers))
		}
	}
	pax := len(bk.passengers)
	per := 0
	for _, s := range flights {
		price, err := b.db.bookable(s, bk.cabin, pax)
		if err != nil {
			return bk, false
		}
		per += price
	}
	bk.flights = flights
	if b.rng.IntN(3) == 0 {
		bk.insurance = "yes"
	}
	bk.bags = b.rng.IntN(pax + 2)
	bk.nonfree = NonfreeBags(u.Membership, bk.cabin, pax, bk.bags)
	bk.total = per*pax + BagFee*bk.nonfree
	if bk.insurance == "yes" {
		bk.total += InsuranceFee * pax
	}
	return bk, true
}

func (bk booking) act(u *User, payments []map[string]any) emobench.Action {
	return act(ToolBookReservation, map[string]any{
		"user_id": u.ID, "origin": bk.origin, "destination": bk.destination, "trip_type": TripOneWay,
		"cabin": bk.cabin, "flights": refs(bk.flights), "passengers": bk.passengers,
		"payment_methods": payments, "total_baggages": bk.bags, "nonfree_baggages": bk.nonfree,
		"insurance": bk.insurance,
	})
}

// bookingFacts returns what the user knows of bk.
func (b *builder) bookingFacts(u *User, bk booking, payment string) map[string]string {
	who := "just me"
	if len(bk.passengers) > 1 {
		p := bk.passengers[1]
		who = fmt.Sprintf("me and %s, born %s", fullName(p.FirstName, p.LastName), p.DOB)
	}
	bags := "no checked bags"
	if bk.bags > 0 {
		bags = plural(bk.bags, "checked bag")
	}
	return map[string]string{
		"user_id": u.ID, "origin": b.place(bk.origin), "destination": b.place(bk.destination),
		"date": bk.date, "cabin": bk.cabin, "passengers": who, "bags": bags,
		"insurance": bk.insurance, "payment_method": payment,
	}
}

func (b *builder) bookingInstruction(u *User, bk booking, payment string) string {
	who := "for myself only"
	if len(bk.passengers) > 1 {
		p := bk.passengers[1]
		who = fmt.Sprintf("for myself and %s (born %s)", fullName(p.FirstName, p.LastName), p.DOB)
	}
	ins := "I don't want travel insurance"
	if bk.insurance == "yes" {
		ins = "I want travel insurance"
	}
	bags := "no checked bags"
	if bk.bags > 0 {
		bags = plural(bk.bags, "checked bag") + " in total"
	}
	return fmt.Sprintf("I am %s, user id %s. I want to book a one-way %s trip from %s to %s on %s, %s, with %s. %s. I will pay with %s, and I want to know the total price.",
		fullName(u.FirstName, u.LastName), u.ID, strings.ReplaceAll(bk.cabin, "_", " "), b.place(bk.origin), b.place(bk.destination), bk.date, who, bags, ins, payment)
}

// futureFlights returns the available (flight, date) pairs after Today in
// a stable order.
func (b *builder) futureFlights() []Segment {
	var out []Segment
	for _, n := range sortedKeys(b.db.Flights) {
		f := b.db.Flights[n]
		for _, d := range flightDates {
			if d > Today && f.Dates[d].Status == StatusAvailable {
				out = append(out, Segment{FlightNumber: n, Origin: f.Origin, Destination: f.Destination, Date: d})
			}
		}
	}
	return out
}

func draftBookDirect(b *builder, id string) *draft {
	u := b.db.Users[id]
	opts := b.futureFlights()
	bk, ok := b.planBooking(u, []Segment{opts[b.rng.IntN(len(opts))]})
	if !ok {
		return nil
	}
	pm, ok := b.payer(u, bk.total)
	if !ok {
		return nil
	}
	return &draft{
		user:        u,
		instruction: b.bookingInstruction(u, bk, describeMethod(pm)),
		facts:       b.bookingFacts(u, bk, describeMethod(pm)),
		requests:    []emobench.Request{request(fmt.Sprintf("Book a one-way flight from %s to %s on %s.", bk.origin, bk.destination, bk.date), ToolBookReservation)},
		actions: []emobench.Action{getUser(u), searchDirect(bk.origin, bk.destination, bk.date),
			bk.act(u, []map[string]any{{"payment_id": pm.ID, "amount": bk.total}})},
		outputs: []string{fmt.Sprint(bk.total)},
	}
}

func draftBookCertificate(b *builder, id string) *draft {
	u := b.db.Users[id]
	var cert, card PaymentMethod
	for _, pid := range sortedKeys(u.PaymentMethods) {
		switch pm := u.PaymentMethods[pid]; pm.Source {
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
	if cert.ID == "" || card.ID == "" {
		return nil
	}
	opts := b.futureFlights()
	bk, ok := b.planBooking(u, []Segment{opts[b.rng.IntN(len(opts))]})
	if !ok || bk.total <= *cert.Amount {
		return nil
	}
	payment := fmt.Sprintf("%s for as much as it covers, and the rest on %s", describeMethod(cert), describeMethod(card))
	rest := bk.total - *cert.Amount
	return &draft{
		user:        u,
		instruction: b.bookingInstruction(u, bk, payment),
		facts:       b.bookingFacts(u, bk, payment),
		requests:    []emobench.Request{request(fmt.Sprintf("Book a one-way flight from %s to %s on %s.", bk.origin, bk.destination, bk.date), ToolBookReservation)},
		actions: []emobench.Action{getUser(u), searchDirect(bk.origin, bk.destination, bk.date),
			bk.act(u, []map[string]any{{"payment_id": cert.ID, "amount": *cert.Amount}, {"payment_id": card.ID, "amount": rest}})},
		outputs: []string{fmt.Sprint(bk.total), fmt.Sprint(rest)},
	}
}

func draftBookOnestop(b *builder, id string) *draft {
	u := b.db.Users[id]
	pairs := b.onestopPairs()
	if len(pairs) == 0 {
		return nil
	}
	p := pairs[b.rng.IntN(len(pairs))]
	bk, ok := b.planBooking(u, p[:])
	if !ok {
		return nil
	}
	pm, ok := b.payer(u, bk.total)
	if !ok {
		return nil
	}
	facts := b.bookingFacts(u, bk, describeMethod(pm))
	facts["connection"] = "via " + b.place(p[0].Destination)
	return &draft{
		user:        u,
		instruction: b.bookingInstruction(u, bk, describeMethod(pm)) + fmt.Sprintf(" There is no direct flight, so I will connect in %s.", b.db.Airports[p[0].Destination].City),
		facts:       facts,
		requests:    []emobench.Request{request(fmt.Sprintf("Book a one-way trip from %s to %s on %s with one stop.", bk.origin, bk.destination, bk.date), ToolBookReservation)},
		actions: []emobench.Action{getUser(u), searchDirect(bk.origin, bk.destination, bk.date),
			act(ToolSearchOnestopFlight, map[string]any{"origin": bk.origin, "destination": bk.destination, "date": bk.date}),
			bk.act(u, []map[string]any{{"payment_id": pm.ID, "amount": bk.total}})},
		outputs: []string{fmt.Sprint(bk.total)},
	}
}

// onestopPairs returns the connections, on one date after Today, between
// airports with no direct route, in the order of futureFlights; it is
// computed once per builder (the builder never changes its database).
func (b *builder) onestopPairs() [][2]Segment {
	if b.pairs != nil {
		return *b.pairs
	}
	direct := map[[2]string]bool{}
	for _, f := range b.db.Flights {
		direct[[2]string{f.Origin, f.Destination}] = true
	}
	opts := b.futureFlights()
	from := map[[2]string][]Segment{} // by date and origin
	for _, s := range opts {
		k := [2]string{s.Date, s.Origin}
		from[k] = append(from[k], s)
	}
	pairs := [][2]Segment{}
	for _, s1 := range opts {
		for _, s2 := range from[[2]string{s1.Date, s1.Destination}] {
			if s2.Destination == s1.Origin || direct[[2]string{s1.Origin, s2.Destination}] ||
				!connects(b.db.Flights[s1.FlightNumber], b.db.Flights[s2.FlightNumber]) {
				continue
			}
			pairs = append(pairs, [2]Segment{s1, s2})
		}
	}
	b.pairs = &pairs
	return pairs
}

func draftReservationTotal(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || len(r.Passengers) < 2 && r.TotalBaggages == 0 {
		return nil
	}
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. I am doing my expenses and need to know the total I paid for reservation %s, my %s, with every passenger, bag and insurance included. I don't want to change anything.",
			fullName(u.FirstName, u.LastName), u.ID, r.ID, b.trip(r)),
		facts:    map[string]string{"user_id": u.ID, "reservation_id": r.ID},
		requests: []emobench.Request{request(fmt.Sprintf("Tell me the total paid for reservation %s.", r.ID), ToolGetReservationDetails)},
		actions:  []emobench.Action{getUser(u), getReservation(r)},
		outputs:  []string{fmt.Sprint(r.TotalPaid())},
	}
}

func draftAllTotal(b *builder, id string) *draft {
	u := b.db.Users[id]
	if len(u.Reservations) < 2 || len(u.Reservations) > 4 {
		return nil
	}
	actions := []emobench.Action{getUser(u)}
	var terms []string
	sum := 0
	for _, rid := range u.Reservations {
		r := b.db.Reservations[rid]
		if r.Status != ReservationActive || b.used[rid] {
			return nil
		}
		actions = append(actions, getReservation(r))
		terms = append(terms, fmt.Sprint(r.TotalPaid()))
		sum += r.TotalPaid()
	}
	actions = append(actions, act(ToolCalculate, map[string]any{"expression": strings.Join(terms, " + ")}))
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. I need the total amount I have paid for all of my reservations together. I don't want to change anything.",
			fullName(u.FirstName, u.LastName), u.ID),
		facts:    map[string]string{"user_id": u.ID},
		requests: []emobench.Request{request("Tell me the total paid for all my reservations.", ToolCalculate)},
		actions:  actions,
		outputs:  []string{fmt.Sprint(sum)},
	}
}

// disrupted returns r's first segment with the given status.
func (b *builder) disrupted(r *Reservation, status string) (Segment, bool) {
	for _, s := range r.Flights {
		if b.db.segmentStatus(s) == status {
			return s, true
		}
	}
	return Segment{}, false
}

func draftComplaintDelayed(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || !eligible(u, r) || b.db.hasStatus(r, StatusCancelled) {
		return nil
	}
	s, ok := b.disrupted(r, StatusDelayed)
	if !ok {
		return nil
	}
	amount := DelayCompensation * len(r.Passengers)
	delay := b.db.Flights[s.FlightNumber].Dates[s.Date].DelayMinutes
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. My flight %s on %s, on reservation %s, is delayed by %d minutes, and this has thrown my plans into disarray. I want to complain and get some compensation for it. I don't want to change or cancel the trip.",
			fullName(u.FirstName, u.LastName), u.ID, s.FlightNumber, s.Date, r.ID, delay),
		facts:    map[string]string{"user_id": u.ID, "reservation_id": r.ID, "flight_number": s.FlightNumber, "date": s.Date},
		requests: []emobench.Request{request(fmt.Sprintf("Compensate me for the delay of flight %s.", s.FlightNumber), ToolSendCertificate)},
		actions: []emobench.Action{getUser(u), getReservation(r), flightStatus(s),
			act(ToolSendCertificate, map[string]any{"user_id": u.ID, "reservation_id": r.ID, "amount": amount})},
		outputs: []string{fmt.Sprint(amount)},
	}
}

func draftComplaintCancel(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || !eligible(u, r) || b.db.flown(r) {
		return nil
	}
	s, ok := b.disrupted(r, StatusCancelled)
	if !ok {
		return nil
	}
	amount := CancelCompensation * len(r.Passengers)
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. You cancelled my flight %s on %s, on reservation %s. I am unhappy about it and want compensation. Then I want the whole reservation cancelled with a refund, as I will make other plans.",
			fullName(u.FirstName, u.LastName), u.ID, s.FlightNumber, s.Date, r.ID),
		facts: map[string]string{
			"user_id": u.ID, "reservation_id": r.ID, "flight_number": s.FlightNumber, "date": s.Date,
			"reason": fmt.Sprintf("the airline cancelled my flight %s", s.FlightNumber),
		},
		requests: []emobench.Request{
			request(fmt.Sprintf("Compensate me for the cancellation of flight %s.", s.FlightNumber), ToolSendCertificate),
			request(fmt.Sprintf("Cancel reservation %s and refund it.", r.ID), ToolCancelReservation),
		},
		actions: []emobench.Action{getUser(u), getReservation(r), flightStatus(s),
			act(ToolSendCertificate, map[string]any{"user_id": u.ID, "reservation_id": r.ID, "amount": amount}),
			act(ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": ReasonAirlineCancelled})},
		outputs: []string{fmt.Sprint(amount)},
	}
}

func draftComplaintIneligible(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || eligible(u, r) {
		return nil
	}
	s, ok := b.disrupted(r, StatusDelayed)
	what, amount := "is delayed", DelayCompensation*len(r.Passengers)
	if !ok {
		if s, ok = b.disrupted(r, StatusCancelled); !ok {
			return nil
		}
		what, amount = "was cancelled", CancelCompensation*len(r.Passengers)
	}
	// Any certificate to the user is forbidden, whatever its amount or the
	// reservation it names.
	certificate := act(ToolSendCertificate, map[string]any{"user_id": u.ID, "reservation_id": r.ID, "amount": amount})
	certificate.CompareArgs = []string{"user_id"}
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. My flight %s on %s, on reservation %s, %s, and I want compensation for it. I don't want to change or cancel anything.",
			fullName(u.FirstName, u.LastName), u.ID, s.FlightNumber, s.Date, r.ID, what),
		facts:     map[string]string{"user_id": u.ID, "reservation_id": r.ID, "flight_number": s.FlightNumber, "date": s.Date},
		requests:  []emobench.Request{request(fmt.Sprintf("Compensate me for flight %s.", s.FlightNumber), ToolGetFlightStatus)},
		actions:   []emobench.Action{getUser(u), getReservation(r), flightStatus(s)},
		forbidden: []emobench.Action{certificate},
	}
}

func draftTransferFlown(b *builder, id string) *draft {
	r, u := b.owner(id)
	if r == nil || r.TripType != TripRoundTrip || !b.db.flown(r) {
		return nil
	}
	last := r.Flights[len(r.Flights)-1]
	if last.Date <= Today || b.db.segmentStatus(last) != StatusAvailable {
		return nil
	}
	summary := fmt.Sprintf("User %s wants to cancel the return flight %s on %s of reservation %s, whose outbound flight has already been flown.", u.ID, last.FlightNumber, last.Date, r.ID)
	return &draft{
		user: u,
		instruction: fmt.Sprintf("I am %s, user id %s. I have already flown the outbound flight of reservation %s, my %s. I no longer need the return flight %s on %s and want it cancelled and refunded. If the agent cannot do it, I want to be passed to someone who can.",
			fullName(u.FirstName, u.LastName), u.ID, r.ID, b.trip(r), last.FlightNumber, last.Date),
		facts: map[string]string{
			"user_id": u.ID, "reservation_id": r.ID, "flight_number": last.FlightNumber, "date": last.Date,
			"reason": "my plans changed",
		},
		requests: []emobench.Request{request(fmt.Sprintf("Cancel the return flight of reservation %s.", r.ID), ToolTransfer)},
		actions: []emobench.Action{getUser(u), getReservation(r),
			act(ToolTransfer, map[string]any{"summary": summary})},
		forbidden: []emobench.Action{act(ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": ReasonChangeOfPlan})},
	}
}

// assignEmotions gives task i the family i mod 5 of emobench.Taxonomy and that
// family's leaf (i div 5) mod its leaf count, and the i-th (mod 27) of a
// seeded shuffle of the dimension combinations.
func assignEmotions(tasks []emobench.TaskSpec, rng *rand.Rand) {
	dims := emobench.Taxonomy.Dimensions
	type combo struct{ politeness, urgency, trust string }
	var combos []combo
	for _, p := range dims["politeness"] {
		for _, u := range dims["urgency"] {
			for _, t := range dims["trust"] {
				combos = append(combos, combo{p, u, t})
			}
		}
	}
	rng.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
	families := emobench.Taxonomy.Families
	for i := range tasks {
		f := families[i%len(families)]
		c := combos[i%len(combos)]
		tasks[i].Emotion = emobench.EmotionProfile{
			Family: f.Name, Leaf: f.Leaves[(i/len(families))%len(f.Leaves)],
			Politeness: c.politeness, Urgency: c.urgency, Trust: c.trust,
		}
	}
}
