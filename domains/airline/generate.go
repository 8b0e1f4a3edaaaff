package airline

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/emobench/emobench/sim"
)

// Seed is the seed of the database every environment starts from.
const Seed uint64 = 20240515

// Sizes of a generated database, at τ-bench's airline scale: numRoutes
// airport pairs (a spanning tree of the airports plus random extra pairs),
// each flown flightsPerDirection times a day each way, over the dates of
// flightDates.
const (
	numUsers            = 500
	numReservations     = 2000
	numRoutes           = 75
	flightsPerDirection = 2
	numFlights          = 2 * numRoutes * flightsPerDirection
)

// flightDates are the dates flights operate on: the 30 days of May 2024
// up to the 30th, Today among them.
var flightDates = func() []string {
	out := make([]string, 30)
	for i := range out {
		out[i] = time.Date(2024, 5, 1+i, 0, 0, 0, 0, time.UTC).Format(dateLayout)
	}
	return out
}()

// dateWeight biases reservations towards the days around Today: a trip
// flown two weeks ago is rarer in the database than one this week.
func dateWeight(date string) int {
	d, _ := time.Parse(dateLayout, date)
	days := int(d.Sub(nowTime.Truncate(24*time.Hour)).Hours() / 24)
	switch {
	case days < -7:
		return 1
	case days < -1:
		return 2
	case days <= 5:
		return 5
	case days <= 10:
		return 3
	}
	return 2
}

// airlineWords are the airline's words (words.json): the airports, the
// names people have, and what users say in requests. Their order matters:
// the generator and the grounders draw from them by position.
type airlineWords struct {
	Airports   []Airport `json:"airports"`
	FirstNames []string  `json:"first_names"`
	LastNames  []string  `json:"last_names"`
	CardBrands []string  `json:"card_brands"`
	// Purposes are what a user asks for information for, by intent, and
	// ContactPreferences how they want to be reached after a hand-off: the
	// preference an information or transfer request states (the audit's
	// tool_task_with_preference), as the instruction words it.
	Purposes           map[string][]string `json:"purposes"`
	ContactPreferences []string            `json:"contact_preferences"`
	// OutOfScope are requests no tool serves, which the policy hands to a
	// human agent.
	OutOfScope []string `json:"out_of_scope"`
}

//go:embed words.json
var wordsJSON []byte

// words are the words of words.json.
var words = func() airlineWords {
	var w airlineWords
	if err := json.Unmarshal(wordsJSON, &w); err != nil {
		panic("airline: words.json: " + err.Error()) // embedded: a build bug
	}
	return w
}()

// GenerateDB returns the airline database generated from seed. Equal seeds
// give equal databases; the generator uses math/rand/v2's PCG and nothing
// else.
func GenerateDB(seed uint64) *DB {
	g := &generator{
		rng: rand.New(rand.NewPCG(seed, seed^0x5eed_a1b2_c3d4_e5f6)),
		ids: map[string]bool{},
		db:  &DB{},
	}
	for _, a := range words.Airports {
		g.db.Airports.Put(a.Code, &a)
	}
	g.flights()
	g.disruptions = g.disrupted()
	for range numUsers {
		g.user()
	}
	for range numReservations {
		g.reservation()
	}
	return g.db
}

type generator struct {
	rng     *rand.Rand
	ids     map[string]bool // every id handed out, to keep them unique
	db      *DB
	users   []string // user ids in creation order
	numbers []string // flight numbers in creation order
	// disruptions are the delayed or cancelled (flight, date) pairs on or
	// after Today.
	disruptions [][2]string
}

func (g *generator) pick(list []string) string { return list[g.rng.IntN(len(list))] }

// percent returns true with probability p/100.
func (g *generator) percent(p int) bool { return g.rng.IntN(100) < p }

// uniqueID returns the first id of make() not handed out before.
func (g *generator) uniqueID(make func() string) string {
	for {
		if id := make(); !g.ids[id] {
			g.ids[id] = true
			return id
		}
	}
}

func (g *generator) digits(n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + g.rng.IntN(10)))
	}
	return b.String()
}

// flights makes a connected route network: a random spanning tree over the
// airports plus extra routes up to numRoutes, each flown
// flightsPerDirection times a day in both directions.
func (g *generator) flights() {
	codes := make([]string, len(words.Airports))
	for i, a := range words.Airports {
		codes[i] = a.Code
	}
	g.rng.Shuffle(len(codes), func(i, j int) { codes[i], codes[j] = codes[j], codes[i] })
	type route struct{ a, b string }
	var routes []route
	has := map[route]bool{}
	add := func(a, b string) bool {
		if a == b || has[route{a, b}] || has[route{b, a}] {
			return false
		}
		has[route{a, b}] = true
		routes = append(routes, route{a, b})
		return true
	}
	for i := 1; i < len(codes); i++ {
		add(codes[i], codes[g.rng.IntN(i)])
	}
	for len(routes) < numRoutes {
		add(g.pick(codes), g.pick(codes))
	}
	for _, r := range routes {
		minutes := 60 + 15*g.rng.IntN(17) // 1h to 5h
		for range flightsPerDirection {
			g.flight(r.a, r.b, minutes)
			g.flight(r.b, r.a, minutes)
		}
	}
}

func (g *generator) flight(origin, dest string, minutes int) {
	number := g.uniqueID(func() string { return fmt.Sprintf("LK%04d", 1000+g.rng.IntN(9000)) })
	dep := time.Date(2024, 1, 1, 5+g.rng.IntN(14), 15*g.rng.IntN(4), 0, 0, time.UTC)
	arr := dep.Add(time.Duration(minutes) * time.Minute)
	f := &Flight{
		Number: number, Origin: origin, Destination: dest,
		DepartureTime: dep.Format(clockLayout), ArrivalTime: arr.Format(clockLayout),
		Dates: map[string]*FlightDate{},
	}
	base := 60 + 10*g.rng.IntN(8) // route's basic economy base fare
	for _, date := range flightDates {
		fd := &FlightDate{
			AvailableSeats: Cabins{
				BasicEconomy: g.rng.IntN(11),
				Economy:      3 + g.rng.IntN(18),
				Business:     1 + g.rng.IntN(10),
			},
			Prices: Cabins{
				BasicEconomy: base + g.rng.IntN(30),
				Economy:      2*base + g.rng.IntN(60),
				Business:     4*base + g.rng.IntN(200),
			},
		}
		fd.Status = g.status(date, f)
		if fd.Status == StatusDelayed {
			fd.DelayMinutes = 30 * (1 + g.rng.IntN(8))
		}
		f.Dates[date] = fd
	}
	g.db.Flights.Put(number, f)
	g.numbers = append(g.numbers, number)
}

// soonDate is the last date whose flights are often delayed or cancelled
// (two days after Today); later flights are rarely cancelled and never yet
// delayed.
var soonDate = nowTime.AddDate(0, 0, 2).Format(dateLayout)

// disruptions are the statuses of a flight not yet flown, as status draws
// them.
var disruptions = []string{StatusDelayed, StatusCancelled, StatusAvailable}

// status draws a flight's status on date relative to Now.
func (g *generator) status(date string, f *Flight) string {
	switch {
	case date < Today:
		if g.percent(5) {
			return StatusCancelled
		}
		return StatusLanded
	case date == Today && f.DepartureTime < nowTime.Format(clockLayout):
		if f.ArrivalTime <= nowTime.Format(clockLayout) {
			return StatusLanded
		}
		return StatusFlying
	case date == Today:
		return sim.Weighted(g.rng, disruptions, 40, 20, 40)
	case date <= soonDate:
		return sim.Weighted(g.rng, disruptions, 20, 8, 72)
	}
	if g.percent(5) {
		return StatusCancelled
	}
	return StatusAvailable
}

func (g *generator) person() Passenger {
	return Passenger{
		FirstName: g.pick(words.FirstNames),
		LastName:  g.pick(words.LastNames),
		DOB:       g.dob(),
	}
}

func (g *generator) dob() string {
	d := time.Date(1950+g.rng.IntN(55), time.Month(1+g.rng.IntN(12)), 1+g.rng.IntN(28), 0, 0, 0, 0, time.UTC)
	return d.Format(dateLayout)
}

func (g *generator) user() {
	p := g.person()
	id := g.uniqueID(func() string {
		return strings.ToLower(p.FirstName+"_"+p.LastName) + "_" + g.digits(4)
	})
	u := &User{
		ID: id, FirstName: p.FirstName, LastName: p.LastName, DOB: p.DOB,
		Email:          strings.ToLower(p.FirstName+"."+p.LastName) + g.digits(2) + "@example.com",
		PaymentMethods: map[string]PaymentMethod{},
		Reservations:   []string{},
	}
	u.Membership = sim.Weighted(g.rng, []string{MemberRegular, MemberSilver, MemberGold}, 5, 3, 2)
	for range 1 + g.rng.IntN(2) {
		g.addMethod(u, SourceCreditCard, 0)
	}
	if g.percent(50) {
		g.addMethod(u, SourceGiftCard, 10*(5+g.rng.IntN(45)))
	}
	for range g.rng.IntN(3) {
		g.addMethod(u, SourceCertificate, []int{100, 150, 200, 250, 500}[g.rng.IntN(5)])
	}
	for range g.rng.IntN(3) {
		u.SavedPassengers = append(u.SavedPassengers, g.person())
	}
	if u.SavedPassengers == nil {
		u.SavedPassengers = []Passenger{}
	}
	g.db.Users.Put(id, u)
	g.users = append(g.users, id)
}

func (g *generator) addMethod(u *User, source string, amount int) {
	id := g.uniqueID(func() string { return source + "_" + g.digits(7) })
	pm := PaymentMethod{ID: id, Source: source}
	if source == SourceCreditCard {
		pm.Brand, pm.LastFour = g.pick(words.CardBrands), g.digits(4)
	} else {
		pm.Amount = &amount
	}
	u.PaymentMethods[id] = pm
}

// flightDateWeights are the dateWeight of each of flightDates, computed
// once: the generator draws a date for every reservation.
var flightDateWeights = func() []int {
	weights := make([]int, len(flightDates))
	for i, d := range flightDates {
		weights[i] = dateWeight(d)
	}
	return weights
}()

// date draws the index of a flight date with dateWeight.
func (g *generator) date() int {
	return sim.WeightedIndex(g.rng, flightDateWeights...)
}

// disrupted lists the (flight, date index) pairs that are delayed or
// cancelled on or after Today, in a stable order.
func (g *generator) disrupted() [][2]string {
	var out [][2]string
	for _, n := range g.numbers {
		for _, d := range flightDates {
			if d < Today {
				continue
			}
			if st := g.db.flight(n).Dates[d].Status; st == StatusDelayed || st == StatusCancelled {
				out = append(out, [2]string{n, d})
			}
		}
	}
	return out
}

func (g *generator) reservation() {
	u, _ := g.db.Users.Get(g.pick(g.users)) // not frozen yet: changed in place
	var first *Flight
	var date int
	if g.percent(20) {
		// Put some reservations on disrupted flights, so complaints and
		// airline cancellations have material.
		p := g.disruptions[g.rng.IntN(len(g.disruptions))]
		first, date = g.db.flight(p[0]), slices.Index(flightDates, p[1])
	} else {
		first, date = g.db.flight(g.pick(g.numbers)), g.date()
	}
	r := &Reservation{
		UserID: u.ID, Origin: first.Origin, Destination: first.Destination,
		TripType: TripOneWay, Status: ReservationActive, Insurance: "no",
	}
	r.ID = g.uniqueID(func() string { return g.reservationID() })
	legs := []Segment{{FlightNumber: first.Number, Origin: first.Origin, Destination: first.Destination, Date: flightDates[date]}}
	switch n := g.rng.IntN(100); {
	case n < 40:
		// A round trip flies back on the reverse route 1–4 days later.
		back := date + 1 + g.rng.IntN(4)
		if ret := g.reverse(first); ret != nil && back < len(flightDates) {
			r.TripType = TripRoundTrip
			legs = append(legs, Segment{FlightNumber: ret.Number, Origin: ret.Origin, Destination: ret.Destination, Date: flightDates[back]})
		}
	case n < 60:
		if next := g.connection(first); next != nil {
			r.Destination = next.Destination
			legs = append(legs, Segment{FlightNumber: next.Number, Origin: next.Origin, Destination: next.Destination, Date: flightDates[date]})
		}
	}
	r.Cabin = sim.Weighted(g.rng, cabins, 30, 45, 25)
	perPassenger := 0
	for j := range legs {
		legs[j].Price = g.db.price(legs[j].FlightNumber, legs[j].Date, r.Cabin)
		perPassenger += legs[j].Price
	}
	r.Flights = legs
	pax := sim.Weighted(g.rng, []int{1, 2, 3}, 55, 30, 15)
	if g.percent(85) {
		r.Passengers = append(r.Passengers, Passenger{FirstName: u.FirstName, LastName: u.LastName, DOB: u.DOB})
	}
	for _, sp := range u.SavedPassengers {
		if len(r.Passengers) < pax {
			r.Passengers = append(r.Passengers, sp)
		}
	}
	for len(r.Passengers) < pax {
		r.Passengers = append(r.Passengers, g.person())
	}
	if g.percent(35) {
		r.Insurance = "yes"
	}
	free := FreeBags(u.Membership, r.Cabin) * pax
	r.TotalBaggages = g.rng.IntN(2*pax + 1)
	r.NonfreeBaggages = max(0, r.TotalBaggages-free)
	total := perPassenger * pax
	if r.Insurance == "yes" {
		total += InsuranceFee * pax
	}
	total += BagFee * r.NonfreeBaggages
	r.PaymentHistory = []Payment{{PaymentID: g.payer(u), Amount: total}}
	r.CreatedAt = g.createdAt(flightDates[date])
	g.db.Reservations.Put(r.ID, r)
	u.Reservations = append(u.Reservations, r.ID)
}

const reservationAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

func (g *generator) reservationID() string {
	b := make([]byte, 6)
	for i := range b {
		b[i] = reservationAlphabet[g.rng.IntN(len(reservationAlphabet))]
	}
	return string(b)
}

// payer picks the payment method a generated reservation was paid with: a
// credit card, sometimes a gift card.
func (g *generator) payer(u *User) string {
	var cards, gifts []string
	for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
		switch u.PaymentMethods[id].Source {
		case SourceCreditCard:
			cards = append(cards, id)
		case SourceGiftCard:
			gifts = append(gifts, id)
		}
	}
	if len(gifts) > 0 && g.percent(25) {
		return g.pick(gifts)
	}
	return g.pick(cards)
}

// createdAt draws when a reservation whose first flight is on firstDate was
// booked: about one in eight within the last 24 hours when the trip is
// still ahead, otherwise between mid-April and the day before the flight.
func (g *generator) createdAt(firstDate string) string {
	if firstDate > Today && g.percent(14) {
		return nowTime.Add(-time.Duration(1+g.rng.IntN(23*60)) * time.Minute).Format(dateTimeLayout)
	}
	start := time.Date(2024, 4, 10, 8, 0, 0, 0, time.UTC)
	end, _ := time.Parse(dateLayout, firstDate)
	end = end.Add(-26 * time.Hour) // at least a day before the flight
	if end.After(nowTime.Add(-25 * time.Hour)) {
		end = nowTime.Add(-25 * time.Hour)
	}
	span := int(end.Sub(start) / time.Minute)
	return start.Add(time.Duration(g.rng.IntN(span)) * time.Minute).Format(dateTimeLayout)
}

// reverse returns the flight flying first's route backwards.
func (g *generator) reverse(first *Flight) *Flight {
	for _, n := range g.numbers {
		if f := g.db.flight(n); f.Origin == first.Destination && f.Destination == first.Origin {
			return f
		}
	}
	return nil
}

// connection returns a random flight leaving first's destination, for
// somewhere other than first's origin, at least an hour after first lands.
func (g *generator) connection(first *Flight) *Flight {
	var opts []*Flight
	for _, n := range g.numbers {
		f := g.db.flight(n)
		if f.Origin == first.Destination && f.Destination != first.Origin && connects(first, f) {
			opts = append(opts, f)
		}
	}
	if len(opts) == 0 {
		return nil
	}
	return opts[g.rng.IntN(len(opts))]
}

// connects reports whether b leaves at least an hour after a lands, on the
// same day.
func connects(a, b *Flight) bool {
	arr, err1 := time.Parse(clockLayout, a.ArrivalTime)
	dep, err2 := time.Parse(clockLayout, b.DepartureTime)
	return err1 == nil && err2 == nil && dep.Sub(arr) >= time.Hour
}
