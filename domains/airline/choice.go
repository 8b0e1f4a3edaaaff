package airline

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file gives every task one correct end state: the preference a user
// states to pick a flight among those on a route and date (a choice
// phrase), how a user names a payment method or a reservation without
// its id; alternatives.go gives the other writes those words would still
// allow.

// itinerary is what a booking can fly on one date: one nonstop flight or
// a one-stop connection, as the search tools return them.
type itinerary []Segment

// itineraries returns the nonstop flights, then the one-stop connections,
// from origin to destination on date with pax seats in cabin.
func (db *DB) itineraries(origin, destination, date, cabin string, pax int) []itinerary {
	var out, stops []itinerary
	seg := func(fi flightInfo) Segment {
		return Segment{FlightNumber: fi.FlightNumber, Origin: fi.Origin, Destination: fi.Destination, Date: date}
	}
	for _, first := range db.departures(origin, date) {
		if _, err := db.bookable(seg(first), cabin, pax); err != nil {
			continue
		}
		if first.Destination == destination {
			out = append(out, itinerary{seg(first)})
			continue
		}
		for _, second := range db.departures(first.Destination, date) {
			if second.Destination != destination || !connects(db.flight(first.FlightNumber), db.flight(second.FlightNumber)) {
				continue
			}
			if _, err := db.bookable(seg(second), cabin, pax); err == nil {
				stops = append(stops, itinerary{seg(first), seg(second)})
			}
		}
	}
	return append(out, stops...)
}

// fare is what one passenger pays for it in cabin, in dollars.
func (db *DB) fare(it itinerary, cabin string) int {
	sum := 0
	for _, s := range it {
		sum += db.price(s.FlightNumber, s.Date, cabin)
	}
	return sum
}

func (db *DB) departure(it itinerary) string { return db.flight(it[0].FlightNumber).DepartureTime }

// kind names it as a customer does: "nonstop" or "connection through
// Denver (DEN)".
func (db *DB) kind(it itinerary) string {
	if len(it) == 1 {
		return "nonstop"
	}
	return "connection through " + db.place(it[0].Destination)
}

func (db *DB) place(code string) string { return fmt.Sprintf("%s (%s)", db.city(code), code) }

func sameItinerary(a, b itinerary) bool {
	return slices.EqualFunc(a, b, func(x, y Segment) bool { return x.FlightNumber == y.FlightNumber && x.Date == y.Date })
}

// choicePhrases are the phrases that pick it, and nothing else, among
// options of its kind: "the cheapest nonstop", "the earliest connection
// through Denver (DEN)", "the nonstop leaving at 09:40", or "the nonstop"
// when it is the only one.
func (db *DB) choicePhrases(it itinerary, options []itinerary, cabin string) []string {
	k := db.kind(it)
	var same []itinerary
	for _, o := range options {
		if db.kind(o) == k {
			same = append(same, o)
		}
	}
	if len(same) == 1 && sameItinerary(same[0], it) {
		return []string{"the " + k}
	}
	cheapest, earliest, latest, onlyAtTime := true, true, true, true
	for _, o := range same {
		if sameItinerary(o, it) {
			continue
		}
		cheapest = cheapest && db.fare(o, cabin) > db.fare(it, cabin)
		earliest = earliest && db.departure(o) > db.departure(it)
		latest = latest && db.departure(o) < db.departure(it)
		onlyAtTime = onlyAtTime && db.departure(o) != db.departure(it)
	}
	var out []string
	for _, p := range []struct {
		ok     bool
		phrase string
	}{{cheapest, "the cheapest " + k}, {earliest, "the earliest " + k}, {latest, "the latest " + k},
		{onlyAtTime, fmt.Sprintf("the %s leaving at %s", k, db.departure(it))}} {
		if p.ok {
			out = append(out, p.phrase)
		}
	}
	return out
}

// Conditional choices read "<first> if it costs at most $<limit> a
// person, otherwise <second>".
const (
	choiceIf        = " if it costs at most $"
	choiceOtherwise = " a person, otherwise "
)

// choiceAllows reports whether choice, a user's flight preference,
// picks it among options.
func (db *DB) choiceAllows(choice string, it itinerary, options []itinerary, cabin string) bool {
	picks := func(phrase string, o itinerary) bool {
		return slices.Contains(db.choicePhrases(o, options, cabin), phrase)
	}
	first, rest, conditional := strings.Cut(choice, choiceIf)
	if !conditional {
		return picks(choice, it)
	}
	limitText, second, _ := strings.Cut(rest, choiceOtherwise)
	limit, err := strconv.Atoi(limitText)
	if err != nil {
		return false
	}
	for _, o := range options {
		if picks(first, o) {
			if db.fare(o, cabin) <= limit {
				return sameItinerary(o, it)
			}
			return picks(second, it)
		}
	}
	return picks(second, it)
}

// chooseFlight words the preference that picks gold among the
// itineraries of its route and date with pax seats in cabin: a plain
// phrase, or with conditional a price condition the data decides ("<a> if
// it costs at most $<limit> a person, otherwise <b>", gold being a within
// the limit or b when a is dearer). False when no phrase singles gold out
// (or, with conditional, no other itinerary of its kind has a phrase).
func (x *grounding) chooseFlight(gold itinerary, cabin string, pax int, conditional bool) (string, bool) {
	options := x.db.itineraries(gold[0].Origin, gold[len(gold)-1].Destination, gold[0].Date, cabin, pax)
	phrases := x.db.choicePhrases(gold, options, cabin)
	if len(phrases) == 0 {
		return "", false
	}
	own := phrases[x.Rand.IntN(len(phrases))]
	if !conditional {
		return own, true
	}
	for _, o := range options {
		other := x.db.choicePhrases(o, options, cabin)
		if sameItinerary(o, gold) || x.db.kind(o) != x.db.kind(gold) || len(other) == 0 {
			continue
		}
		otherPhrase := other[x.Rand.IntN(len(other))]
		if x.Rand.IntN(2) == 0 { // gold is the first wish, within the limit
			limit := x.db.fare(gold, cabin) + 10*x.Rand.IntN(8)
			return fmt.Sprintf("%s%s%d%s%s", own, choiceIf, limit, choiceOtherwise, otherPhrase), true
		}
		if limit := x.db.fare(o, cabin) - 1 - 10*x.Rand.IntN(8); limit > 0 { // the first wish is too dear
			return fmt.Sprintf("%s%s%d%s%s", otherPhrase, choiceIf, limit, choiceOtherwise, own), true
		}
	}
	return "", false
}

// brandNames are the card brands as a holder writes them.
var brandNames = map[string]string{"visa": "Visa", "mastercard": "Mastercard", "amex": "Amex"}

// describeMethod names a payment method as its holder would, never by
// its id: "my Visa ending in 9452", "my gift card" (with its balance
// when u holds several), "my travel certificate" (with its value when u
// holds several).
func describeMethod(u *User, pm PaymentMethod) string {
	several := 0
	for _, other := range u.PaymentMethods {
		if other.Source == pm.Source {
			several++
		}
	}
	switch {
	case pm.Source == SourceCreditCard:
		return fmt.Sprintf("my %s ending in %s", cmp.Or(brandNames[pm.Brand], pm.Brand+" card"), pm.LastFour)
	case pm.Source == SourceGiftCard && several > 1:
		return fmt.Sprintf("my gift card with $%d on it", *pm.Amount)
	case pm.Source == SourceGiftCard:
		return "my gift card"
	case several > 1:
		return fmt.Sprintf("my $%d travel certificate", *pm.Amount)
	}
	return "my travel certificate"
}

// uniquelyNamed reports whether describeMethod's words for pm fit no
// other method of u (two $200 certificates are told apart only by id).
func uniquelyNamed(u *User, pm PaymentMethod) bool {
	desc := describeMethod(u, pm)
	for _, o := range u.PaymentMethods {
		if o.ID != pm.ID && describeMethod(u, o) == desc {
			return false
		}
	}
	return true
}

// describeReservation names r as its holder would without its id ("my
// May 20 trip from Chicago to Denver", "my May 16 round trip from
// Orlando to Houston"),
// or false when another of u's reservations would fit the words.
func (db *DB) describeReservation(u *User, r *Reservation) (string, bool) {
	key := func(o *Reservation) string {
		return fmt.Sprint(o.Origin, o.Destination, o.TripType, o.Flights[0].Date)
	}
	for _, id := range u.Reservations {
		if o, _ := db.Reservations.Get(id); o != nil && o.ID != r.ID && len(o.Flights) > 0 && key(o) == key(r) {
			return "", false
		}
	}
	day, err := time.Parse(dateLayout, r.Flights[0].Date)
	if err != nil {
		return "", false
	}
	trip := "trip"
	if r.TripType == TripRoundTrip {
		trip = "round trip"
	}
	return fmt.Sprintf("my %s %s from %s to %s", day.Format("January 2"), trip, db.city(r.Origin), db.city(r.Destination)), true
}

// names reports whether ref is how the user names r: "reservation <id>"
// or describeReservation's words.
func (db *DB) names(u *User, r *Reservation, ref string) bool {
	desc, ok := db.describeReservation(u, r)
	return ref == "reservation "+r.ID || ok && ref == desc
}

// findableShare is the share of reservation requests whose user
// describes the reservation instead of giving its id.
const findableShare = 0.4

// findable wraps a grounder whose request names one reservation (its
// "reservation" slot holds the id): the slot becomes "reservation <id>"
// ("reservation_trip": "reservation <id>, my <trip>"), or for
// findableShare of them the user's description of it (both slots), with
// the id gone from the facts and the request (emobench.TraitFindable).
func findable(ground func(sim.GroundContext) (sim.Grounding, bool)) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		gr, ok := ground(g)
		id := gr.Slots["reservation"]
		if !ok || id == "" {
			return gr, ok
		}
		x, _ := newGrounding(g)
		r, _ := x.db.Reservations.Get(id)
		if r == nil {
			return gr, ok
		}
		desc, described := x.db.describeReservation(x.u, r)
		if x.Rand.Float64() >= findableShare || !described {
			gr.Slots["reservation"], gr.Slots["Reservation"] = "reservation "+id, "Reservation "+id
			gr.Slots["reservation_trip"] = "reservation " + id + ", my " + gr.Slots["trip"]
			return gr, true
		}
		gr.Slots["reservation"], gr.Slots["Reservation"], gr.Slots["reservation_trip"] = desc, "M"+desc[1:], desc
		for k, v := range gr.Facts {
			gr.Facts[k] = strings.ReplaceAll(v, "reservation "+id, desc)
		}
		delete(gr.Facts, "reservation_id")
		gr.Facts["reservation"] = desc
		gr.Request.Text = strings.ReplaceAll(gr.Request.Text, "reservation "+id, desc)
		gr.Traits = append(gr.Traits, emobench.TraitFindable)
		return gr, true
	}
}
