package airline

import (
	_ "embed"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emobench/emobench/sim"
)

// Tool names.
const (
	ToolGetUserDetails              = "get_user_details"
	ToolGetReservationDetails       = "get_reservation_details"
	ToolListAllAirports             = "list_all_airports"
	ToolSearchDirectFlight          = "search_direct_flight"
	ToolSearchOnestopFlight         = "search_onestop_flight"
	ToolGetFlightStatus             = "get_flight_status"
	ToolBookReservation             = "book_reservation"
	ToolCancelReservation           = "cancel_reservation"
	ToolUpdateReservationFlights    = "update_reservation_flights"
	ToolUpdateReservationPassengers = "update_reservation_passengers"
	ToolUpdateReservationBaggages   = "update_reservation_baggages"
	ToolSendCertificate             = "send_certificate"
	ToolCalculate                   = "calculate"
	ToolTransfer                    = "transfer_to_human_agents"
)

// TransferResult is what transfer_to_human_agents returns.
const TransferResult = "Transfer successful"

// Tools returns the airline's tools in the order of tools.json. Each call
// returns a fresh slice over the same tool values.
func Tools() []sim.Tool[DB] {
	return slices.Clone(tools())
}

// toolsJSON declares the tools: their names, descriptions and parameter
// schemas, as the agent sees them.
//
//go:embed tools.json
var toolsJSON []byte

// tools are built at their first use (sync.OnceValue), not at package
// init: their schemas cost every command, most of which run no domain.
var tools = sync.OnceValue(func() []sim.Tool[DB] {
	tools, err := sim.ReadTools(toolsJSON, map[string]sim.ToolCall[DB]{
		ToolGetUserDetails:              sim.Typed(getUserDetails),
		ToolGetReservationDetails:       sim.Typed(getReservationDetails),
		ToolListAllAirports:             sim.Typed(listAllAirports),
		ToolSearchDirectFlight:          sim.Typed(searchDirectFlight),
		ToolSearchOnestopFlight:         sim.Typed(searchOnestopFlight),
		ToolGetFlightStatus:             sim.Typed(getFlightStatus),
		ToolBookReservation:             sim.Typed(bookReservation),
		ToolCancelReservation:           sim.Typed(cancelReservation),
		ToolUpdateReservationFlights:    sim.Typed(updateReservationFlights),
		ToolUpdateReservationPassengers: sim.Typed(updateReservationPassengers),
		ToolUpdateReservationBaggages:   sim.Typed(updateReservationBaggages),
		ToolSendCertificate:             sim.Typed(sendCertificate),
		ToolCalculate:                   sim.Typed(calculate),
		ToolTransfer:                    sim.Typed(transferToHumanAgents),
	})
	if err != nil {
		panic("airline: " + err.Error()) // tools.json is embedded: a build bug
	}
	return tools
})

// FlightRef names one flight on one date in a tool's arguments.
type FlightRef struct {
	FlightNumber string `json:"flight_number"`
	Date         string `json:"date"`
}

// PaymentArg is one payment of book_reservation's arguments.
type PaymentArg struct {
	PaymentID string  `json:"payment_id"`
	Amount    float64 `json:"amount"`
}

// bookArgs are book_reservation's arguments.
type bookArgs struct {
	UserID          string       `json:"user_id"`
	Origin          string       `json:"origin"`
	Destination     string       `json:"destination"`
	TripType        string       `json:"trip_type"`
	Cabin           string       `json:"cabin"`
	Flights         []FlightRef  `json:"flights"`
	Passengers      []Passenger  `json:"passengers"`
	PaymentMethods  []PaymentArg `json:"payment_methods"`
	TotalBaggages   int          `json:"total_baggages"`
	NonfreeBaggages int          `json:"nonfree_baggages"`
	Insurance       string       `json:"insurance"`
}

// cancelArgs are cancel_reservation's arguments.
type cancelArgs struct {
	ReservationID string `json:"reservation_id"`
	Reason        string `json:"reason"`
}

// flightsArgs are update_reservation_flights' arguments.
type flightsArgs struct {
	ReservationID string      `json:"reservation_id"`
	Cabin         string      `json:"cabin"`
	Flights       []FlightRef `json:"flights"`
	PaymentID     string      `json:"payment_id"`
}

// passengersArgs are update_reservation_passengers' arguments.
type passengersArgs struct {
	ReservationID string      `json:"reservation_id"`
	Passengers    []Passenger `json:"passengers"`
}

// bagsArgs are update_reservation_baggages' arguments.
type bagsArgs struct {
	ReservationID   string `json:"reservation_id"`
	TotalBaggages   int    `json:"total_baggages"`
	NonfreeBaggages int    `json:"nonfree_baggages"`
	PaymentID       string `json:"payment_id"`
}

// certificateArgs are send_certificate's arguments.
type certificateArgs struct {
	UserID        string  `json:"user_id"`
	ReservationID string  `json:"reservation_id"`
	Amount        float64 `json:"amount"`
}

// user returns the user id for changing.
func (db *DB) user(id string) (*User, error) { return sim.LookupEdit(&db.Users, "user", id) }

// reservation returns the reservation id for changing.
func (db *DB) reservation(id string) (*Reservation, error) {
	return sim.LookupEdit(&db.Reservations, "reservation", id)
}

// active returns the reservation and its user if the reservation is
// active: a cancelled one can no longer change.
func (db *DB) active(id string) (*Reservation, *User, error) {
	r, err := db.reservation(id)
	if err != nil {
		return nil, nil, err
	}
	if r.Status == ReservationCanceled {
		return nil, nil, fmt.Errorf("reservation %s is cancelled", id)
	}
	u, err := db.user(r.UserID)
	if err != nil {
		return nil, nil, err
	}
	return r, u, nil
}

func checkDate(field, s string) error {
	if _, err := time.Parse(dateLayout, s); err != nil {
		return fmt.Errorf("%s %q is not a date of the form YYYY-MM-DD", field, s)
	}
	return nil
}

func checkCabin(c string) error {
	if !slices.Contains(cabins, c) {
		return fmt.Errorf("cabin %q is not one of basic_economy, economy, business", c)
	}
	return nil
}

func (db *DB) checkAirport(field, code string) error {
	if !db.Airports.Has(code) {
		return fmt.Errorf("%s %q is not an airport we serve (use IATA codes such as JFK)", field, code)
	}
	return nil
}

// wholeDollars converts an amount argument to dollars, refusing fractions
// and non-positive amounts.
func wholeDollars(field string, f float64) (int, error) {
	if f <= 0 || f != math.Trunc(f) || f > 1e7 {
		return 0, fmt.Errorf("%s must be a positive whole number of dollars, got %v", field, f)
	}
	return int(f), nil
}

func checkPassengers(ps []Passenger) error {
	if len(ps) == 0 {
		return errors.New("passengers must list at least one passenger")
	}
	for i, p := range ps {
		if strings.TrimSpace(p.FirstName) == "" || strings.TrimSpace(p.LastName) == "" {
			return fmt.Errorf("passenger %d needs a first and a last name", i+1)
		}
		if err := checkDate(fmt.Sprintf("passenger %d dob", i+1), p.DOB); err != nil {
			return err
		}
		if p.DOB > Today {
			return fmt.Errorf("passenger %d dob %s is in the future", i+1, p.DOB)
		}
	}
	return nil
}

func getUserDetails(db *DB, a *struct {
	UserID string `json:"user_id"`
}) (string, error) {
	u, err := sim.Lookup(&db.Users, "user", a.UserID)
	if err != nil {
		return "", err
	}
	return sim.JSONResult(u)
}

func getReservationDetails(db *DB, a *struct {
	ReservationID string `json:"reservation_id"`
}) (string, error) {
	r, err := sim.Lookup(&db.Reservations, "reservation", a.ReservationID)
	if err != nil {
		return "", err
	}
	return sim.JSONResult(r)
}

func listAllAirports(db *DB, _ *struct{}) (string, error) {
	out := make([]Airport, 0, db.Airports.Len())
	for _, a := range db.Airports.All() {
		out = append(out, *a)
	}
	return sim.JSONResult(out)
}

// flightInfo is a flight on one date as the search and status tools show
// it.
type flightInfo struct {
	FlightNumber   string `json:"flight_number"`
	Origin         string `json:"origin"`
	Destination    string `json:"destination"`
	Date           string `json:"date"`
	DepartureTime  string `json:"scheduled_departure_time_est"`
	ArrivalTime    string `json:"scheduled_arrival_time_est"`
	Status         string `json:"status"`
	DelayMinutes   int    `json:"delay_minutes,omitempty"`
	AvailableSeats Cabins `json:"available_seats"`
	Prices         Cabins `json:"prices"`
}

func info(f *Flight, date string, fd *FlightDate) flightInfo {
	return flightInfo{
		FlightNumber: f.Number, Origin: f.Origin, Destination: f.Destination, Date: date,
		DepartureTime: f.DepartureTime, ArrivalTime: f.ArrivalTime, Status: fd.Status,
		DelayMinutes: fd.DelayMinutes, AvailableSeats: fd.AvailableSeats, Prices: fd.Prices,
	}
}

type searchArgs struct {
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	Date        string `json:"date"`
}

func (db *DB) checkSearch(a *searchArgs) error {
	if err := db.checkAirport("origin", a.Origin); err != nil {
		return err
	}
	if err := db.checkAirport("destination", a.Destination); err != nil {
		return err
	}
	if a.Origin == a.Destination {
		return errors.New("origin and destination must differ")
	}
	return checkDate("date", a.Date)
}

// departures returns the available flights leaving origin on date, by
// departure time.
func (db *DB) departures(origin, date string) []flightInfo {
	var out []flightInfo
	for _, f := range db.Flights.All() {
		if f.Origin != origin {
			continue
		}
		if fd, ok := f.Dates[date]; ok && fd.Status == StatusAvailable {
			out = append(out, info(f, date, fd))
		}
	}
	slices.SortStableFunc(out, func(a, b flightInfo) int { return strings.Compare(a.DepartureTime, b.DepartureTime) })
	return out
}

func searchDirectFlight(db *DB, a *searchArgs) (string, error) {
	if err := db.checkSearch(a); err != nil {
		return "", err
	}
	out := []flightInfo{}
	for _, fi := range db.departures(a.Origin, a.Date) {
		if fi.Destination == a.Destination {
			out = append(out, fi)
		}
	}
	return sim.JSONResult(out)
}

func searchOnestopFlight(db *DB, a *searchArgs) (string, error) {
	if err := db.checkSearch(a); err != nil {
		return "", err
	}
	out := [][2]flightInfo{}
	for _, first := range db.departures(a.Origin, a.Date) {
		if first.Destination == a.Destination {
			continue
		}
		for _, second := range db.departures(first.Destination, a.Date) {
			if second.Destination == a.Destination && connects(db.flight(first.FlightNumber), db.flight(second.FlightNumber)) {
				out = append(out, [2]flightInfo{first, second})
			}
		}
	}
	return sim.JSONResult(out)
}

func getFlightStatus(db *DB, a *FlightRef) (string, error) {
	if err := checkDate("date", a.Date); err != nil {
		return "", err
	}
	f, fd, err := db.flightDate(a.FlightNumber, a.Date)
	if err != nil {
		return "", err
	}
	return sim.JSONResult(struct {
		FlightNumber string `json:"flight_number"`
		Date         string `json:"date"`
		Status       string `json:"status"`
		DelayMinutes int    `json:"delay_minutes,omitempty"`
	}{f.Number, a.Date, fd.Status, fd.DelayMinutes})
}

// itinerary resolves refs and checks that they form the trip: contiguous
// flights in time order from origin to destination (one way) or from
// origin to destination and back (round trip).
func (db *DB) itinerary(origin, destination, tripType string, refs []FlightRef) ([]Segment, error) {
	if len(refs) == 0 {
		return nil, errors.New("flights must list at least one flight")
	}
	if len(refs) > 6 {
		return nil, fmt.Errorf("a reservation holds at most 6 flights, got %d", len(refs))
	}
	segs := make([]Segment, len(refs))
	var prev *Flight
	reached := false
	for i, ref := range refs {
		if err := checkDate(fmt.Sprintf("flights[%d].date", i), ref.Date); err != nil {
			return nil, err
		}
		f, _, err := db.flightDate(ref.FlightNumber, ref.Date)
		if err != nil {
			return nil, err
		}
		switch {
		case i == 0 && f.Origin != origin:
			return nil, fmt.Errorf("the first flight %s leaves %s, not the origin %s", f.Number, f.Origin, origin)
		case i > 0 && f.Origin != prev.Destination:
			return nil, fmt.Errorf("flight %s leaves %s but the previous flight lands at %s", f.Number, f.Origin, prev.Destination)
		case i > 0 && (ref.Date < refs[i-1].Date || ref.Date == refs[i-1].Date && !connects(prev, f)):
			return nil, fmt.Errorf("flight %s on %s does not leave at least an hour after the previous flight lands", f.Number, ref.Date)
		}
		for j := range i {
			if refs[j] == ref {
				return nil, fmt.Errorf("flight %s on %s is listed twice", ref.FlightNumber, ref.Date)
			}
		}
		if f.Destination == destination {
			reached = true
		}
		segs[i] = Segment{FlightNumber: f.Number, Origin: f.Origin, Destination: f.Destination, Date: ref.Date}
		prev = f
	}
	end := prev.Destination
	switch tripType {
	case TripOneWay:
		if end != destination {
			return nil, fmt.Errorf("a one-way trip must end at the destination %s, but the last flight lands at %s", destination, end)
		}
	case TripRoundTrip:
		if !reached || end != origin {
			return nil, fmt.Errorf("a round trip must reach the destination %s and end back at the origin %s", destination, origin)
		}
	default:
		return nil, fmt.Errorf("trip_type %q is not one_way or round_trip", tripType)
	}
	return segs, nil
}

// bookable checks that a flight on a date can take pax more passengers in
// cabin and returns its fare there.
func (db *DB) bookable(s Segment, cabin string, pax int) (int, error) {
	_, fd, err := db.flightDate(s.FlightNumber, s.Date)
	if err != nil {
		return 0, err
	}
	if fd.Status != StatusAvailable {
		return 0, fmt.Errorf("flight %s on %s is %s and cannot be booked", s.FlightNumber, s.Date, fd.Status)
	}
	if seats := fd.AvailableSeats.Get(cabin); seats < pax {
		return 0, fmt.Errorf("flight %s on %s has %d %s seats left, %d needed", s.FlightNumber, s.Date, seats, cabin, pax)
	}
	return fd.Prices.Get(cabin), nil
}

// checkBagCounts checks that the bag counts are well formed: non-negative,
// and the charged bags a part of the total.
func checkBagCounts(total, nonfree int) error {
	if total < 0 || nonfree < 0 {
		return errors.New("total_baggages and nonfree_baggages cannot be negative")
	}
	if nonfree > total {
		return fmt.Errorf("nonfree_baggages (%d) cannot exceed total_baggages (%d)", nonfree, total)
	}
	return nil
}

// chargeable returns the user's payment method id for a charge or refund
// on an existing reservation: a credit card, or a gift card whose balance
// covers amount.
func chargeable(u *User, id string, amount int) (PaymentMethod, error) {
	pm, ok := u.PaymentMethods[id]
	if !ok {
		return pm, fmt.Errorf("payment method %q is not in user %s's profile", id, u.ID)
	}
	switch pm.Source {
	case SourceCertificate:
		return pm, errors.New("a travel certificate can only pay for a new booking, not for a change")
	case SourceGiftCard:
		if amount > 0 && *pm.Amount < amount {
			return pm, fmt.Errorf("gift card %s has a balance of %d, less than the %d due", id, *pm.Amount, amount)
		}
	}
	return pm, nil
}

// charge records amount (negative: a refund) against payment method pm on
// r, adjusting a gift card's balance.
func charge(u *User, r *Reservation, pm PaymentMethod, amount int) {
	if amount == 0 {
		return
	}
	if pm.Source == SourceGiftCard {
		balance := *pm.Amount - amount
		pm.Amount = &balance
		u.PaymentMethods[pm.ID] = pm
	}
	r.PaymentHistory = append(r.PaymentHistory, Payment{PaymentID: pm.ID, Amount: amount})
}

func bookReservation(db *DB, a *bookArgs) (string, error) {
	u, err := db.user(a.UserID)
	if err != nil {
		return "", err
	}
	for _, e := range []error{
		db.checkAirport("origin", a.Origin), db.checkAirport("destination", a.Destination),
		checkCabin(a.Cabin), checkPassengers(a.Passengers),
	} {
		if e != nil {
			return "", e
		}
	}
	if a.Insurance != "yes" && a.Insurance != "no" {
		return "", fmt.Errorf("insurance must be yes or no, got %q", a.Insurance)
	}
	if a.Origin == a.Destination {
		return "", errors.New("origin and destination must differ")
	}
	segs, err := db.itinerary(a.Origin, a.Destination, a.TripType, a.Flights)
	if err != nil {
		return "", err
	}
	pax := len(a.Passengers)
	perPassenger := 0
	for i := range segs {
		if segs[i].Price, err = db.bookable(segs[i], a.Cabin, pax); err != nil {
			return "", err
		}
		perPassenger += segs[i].Price
	}
	if err := checkBagCounts(a.TotalBaggages, a.NonfreeBaggages); err != nil {
		return "", err
	}
	total := perPassenger*pax + BagFee*a.NonfreeBaggages
	if a.Insurance == "yes" {
		total += InsuranceFee * pax
	}
	payments, err := checkBookingPayments(u, a.PaymentMethods, total)
	if err != nil {
		return "", err
	}

	r := &Reservation{
		ID: db.newReservationID(), UserID: u.ID, Origin: a.Origin, Destination: a.Destination,
		TripType: a.TripType, Cabin: a.Cabin, Flights: segs, Passengers: slices.Clone(a.Passengers),
		PaymentHistory: payments, CreatedAt: Now, TotalBaggages: a.TotalBaggages,
		NonfreeBaggages: a.NonfreeBaggages, Insurance: a.Insurance, Status: ReservationActive,
	}
	for _, s := range segs {
		db.addSeats(s.FlightNumber, s.Date, a.Cabin, -pax)
	}
	for _, p := range payments {
		pm := u.PaymentMethods[p.PaymentID]
		switch pm.Source {
		case SourceGiftCard:
			balance := *pm.Amount - p.Amount
			pm.Amount = &balance
			u.PaymentMethods[pm.ID] = pm
		case SourceCertificate:
			delete(u.PaymentMethods, pm.ID) // any remainder is forfeited
		}
	}
	db.Reservations.Put(r.ID, r)
	u.Reservations = append(u.Reservations, r.ID)
	return sim.JSONResult(r)
}

// checkBookingPayments checks a booking's payments against the user's
// payment methods, their balances and the total price, and returns them as
// payment history entries.
func checkBookingPayments(u *User, args []PaymentArg, total int) ([]Payment, error) {
	if len(args) == 0 {
		return nil, errors.New("payment_methods must list at least one payment method")
	}
	seen := map[string]bool{}
	sum := 0
	var out []Payment
	for i, p := range args {
		pm, ok := u.PaymentMethods[p.PaymentID]
		if !ok {
			return nil, fmt.Errorf("payment method %q is not in user %s's profile", p.PaymentID, u.ID)
		}
		if seen[p.PaymentID] {
			return nil, fmt.Errorf("payment method %s is listed twice", p.PaymentID)
		}
		seen[p.PaymentID] = true
		amount, err := wholeDollars(fmt.Sprintf("payment_methods[%d].amount", i), p.Amount)
		if err != nil {
			return nil, err
		}
		if pm.Amount != nil && *pm.Amount < amount {
			return nil, fmt.Errorf("%s %s holds %d, less than the %d charged to it", strings.ReplaceAll(pm.Source, "_", " "), pm.ID, *pm.Amount, amount)
		}
		sum += amount
		out = append(out, Payment{PaymentID: pm.ID, Amount: amount})
	}
	if sum != total {
		return nil, fmt.Errorf("the payments add up to %d but the total price is %d", sum, total)
	}
	return out, nil
}

// newReservationID returns a fresh reservation id derived from the booking
// counter, so replays give the same ids.
func (db *DB) newReservationID() string {
	for {
		db.BookedReservations++
		h := fnv.New64a()
		fmt.Fprintf(h, "reservation-%d", db.BookedReservations)
		n := h.Sum64()
		b := make([]byte, 6)
		for i := range b {
			b[i] = reservationAlphabet[n%uint64(len(reservationAlphabet))]
			n /= uint64(len(reservationAlphabet))
		}
		if !db.Reservations.Has(string(b)) {
			return string(b)
		}
	}
}

// newCertificateID returns a fresh certificate id derived from the
// certificate counter.
func (db *DB) newCertificateID() string {
	for {
		db.IssuedCertificates++
		h := fnv.New64a()
		fmt.Fprintf(h, "certificate-%d", db.IssuedCertificates)
		id := fmt.Sprintf("%s_%07d", SourceCertificate, h.Sum64()%10_000_000)
		taken := false
		for _, u := range db.Users.All() {
			if _, ok := u.PaymentMethods[id]; ok {
				taken = true
				break
			}
		}
		if !taken {
			return id
		}
	}
}

func cancelReservation(db *DB, a *cancelArgs) (string, error) {
	if !slices.Contains([]string{ReasonChangeOfPlan, ReasonAirlineCancelled, ReasonHealth, ReasonWeather, ReasonOther}, a.Reason) {
		return "", fmt.Errorf("reason %q is not one of change_of_plan, airline_cancelled_flight, health, weather, other", a.Reason)
	}
	r, err := db.reservation(a.ReservationID)
	if err != nil {
		return "", err
	}
	if r.Status == ReservationCanceled {
		return "", fmt.Errorf("reservation %s is already cancelled", r.ID)
	}
	u, err := db.user(r.UserID)
	if err != nil {
		return "", err
	}
	// Refund each credit card and gift card its net payments, in the order
	// they were first used.
	net := map[string]int{}
	var order []string
	for _, p := range r.PaymentHistory {
		if _, ok := net[p.PaymentID]; !ok {
			order = append(order, p.PaymentID)
		}
		net[p.PaymentID] += p.Amount
	}
	for _, id := range order {
		pm, ok := u.PaymentMethods[id]
		if !ok || pm.Source == SourceCertificate || net[id] <= 0 {
			continue
		}
		charge(u, r, pm, -net[id])
	}
	for _, s := range r.Flights {
		db.addSeats(s.FlightNumber, s.Date, r.Cabin, len(r.Passengers))
	}
	r.Status = ReservationCanceled
	return sim.JSONResult(r)
}

func updateReservationFlights(db *DB, a *flightsArgs) (string, error) {
	r, u, err := db.active(a.ReservationID)
	if err != nil {
		return "", err
	}
	if err := checkCabin(a.Cabin); err != nil {
		return "", err
	}
	segs, err := db.itinerary(r.Origin, r.Destination, r.TripType, a.Flights)
	if err != nil {
		return "", err
	}
	key := func(s Segment) FlightRef { return FlightRef{s.FlightNumber, s.Date} }
	old := map[FlightRef]Segment{}
	for _, s := range r.Flights {
		old[key(s)] = s
	}
	sameFlights := len(segs) == len(r.Flights)
	for i := range segs {
		if sameFlights && key(segs[i]) != key(r.Flights[i]) {
			sameFlights = false
		}
	}
	if sameFlights && a.Cabin == r.Cabin {
		return "", errors.New("nothing to change: the flights and cabin are the same as the reservation's")
	}
	pax := len(r.Passengers)
	diff := 0
	kept := map[FlightRef]bool{}
	for i := range segs {
		if o, ok := old[key(segs[i])]; ok && a.Cabin == r.Cabin {
			segs[i].Price = o.Price
			kept[key(segs[i])] = true
		} else if segs[i].Price, err = db.bookable(segs[i], a.Cabin, pax); err != nil {
			return "", err
		}
		diff += segs[i].Price * pax
	}
	for _, s := range r.Flights {
		diff -= s.Price * pax
	}
	var pm PaymentMethod
	if diff != 0 {
		if a.PaymentID == "" {
			return "", fmt.Errorf("the change costs %d (negative: a refund); give payment_id, a credit card or gift card from the user's profile", diff)
		}
		if pm, err = chargeable(u, a.PaymentID, diff); err != nil {
			return "", err
		}
	}
	for _, s := range r.Flights {
		if !kept[key(s)] {
			db.addSeats(s.FlightNumber, s.Date, r.Cabin, pax)
		}
	}
	for _, s := range segs {
		if !kept[key(s)] {
			db.addSeats(s.FlightNumber, s.Date, a.Cabin, -pax)
		}
	}
	charge(u, r, pm, diff)
	r.Flights, r.Cabin = segs, a.Cabin
	return sim.JSONResult(r)
}

func updateReservationPassengers(db *DB, a *passengersArgs) (string, error) {
	r, _, err := db.active(a.ReservationID)
	if err != nil {
		return "", err
	}
	if len(a.Passengers) != len(r.Passengers) {
		return "", fmt.Errorf("reservation %s has %d passengers; the number of passengers cannot change (got %d)", r.ID, len(r.Passengers), len(a.Passengers))
	}
	if err := checkPassengers(a.Passengers); err != nil {
		return "", err
	}
	if slices.Equal(a.Passengers, r.Passengers) {
		return "", errors.New("nothing to change: the passengers are the same as the reservation's")
	}
	r.Passengers = slices.Clone(a.Passengers)
	return sim.JSONResult(r)
}

func updateReservationBaggages(db *DB, a *bagsArgs) (string, error) {
	r, u, err := db.active(a.ReservationID)
	if err != nil {
		return "", err
	}
	if err := checkBagCounts(a.TotalBaggages, a.NonfreeBaggages); err != nil {
		return "", err
	}
	if a.TotalBaggages == r.TotalBaggages && a.NonfreeBaggages == r.NonfreeBaggages {
		return "", fmt.Errorf("nothing to change: reservation %s already has %d checked bags, %d of them charged", r.ID, r.TotalBaggages, r.NonfreeBaggages)
	}
	fee := BagFee * max(0, a.NonfreeBaggages-r.NonfreeBaggages)
	var pm PaymentMethod
	if fee > 0 {
		if a.PaymentID == "" {
			return "", fmt.Errorf("the extra bags cost %d; give payment_id, a credit card or gift card from the user's profile", fee)
		}
		if pm, err = chargeable(u, a.PaymentID, fee); err != nil {
			return "", err
		}
	}
	charge(u, r, pm, fee)
	r.TotalBaggages, r.NonfreeBaggages = a.TotalBaggages, a.NonfreeBaggages
	return sim.JSONResult(r)
}

func sendCertificate(db *DB, a *certificateArgs) (string, error) {
	amount, err := wholeDollars("amount", a.Amount)
	if err != nil {
		return "", err
	}
	u, err := db.user(a.UserID)
	if err != nil {
		return "", err
	}
	r, err := db.reservation(a.ReservationID)
	if err != nil {
		return "", err
	}
	if r.UserID != u.ID {
		return "", fmt.Errorf("reservation %s does not belong to user %s", r.ID, u.ID)
	}
	id := db.newCertificateID()
	u.PaymentMethods[id] = PaymentMethod{ID: id, Source: SourceCertificate, Amount: &amount}
	r.Compensated = true
	return fmt.Sprintf("Certificate %s worth %d dollars was added to user %s's account.", id, amount, u.ID), nil
}

func calculate(_ *DB, a *struct {
	Expression string `json:"expression"`
}) (string, error) {
	v, err := sim.Calculate(a.Expression)
	if err != nil {
		return "", err
	}
	return formatNumber(v), nil
}

func transferToHumanAgents(_ *DB, a *struct {
	Summary string `json:"summary"`
}) (string, error) {
	if strings.TrimSpace(a.Summary) == "" {
		return "", errors.New("summary must not be empty")
	}
	return TransferResult, nil
}
