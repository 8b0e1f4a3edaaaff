package airline

import (
	"fmt"
	"maps"
	"time"
)

// Cabin classes. A reservation has one cabin for all of its flights.
const (
	CabinBasicEconomy = "basic_economy"
	CabinEconomy      = "economy"
	CabinBusiness     = "business"
)

// Membership levels of a user.
const (
	MemberRegular = "regular"
	MemberSilver  = "silver"
	MemberGold    = "gold"
)

// Statuses of a flight on one date. Only available flights can be booked;
// landed and flying flights count as flown.
const (
	StatusAvailable = "available"
	StatusDelayed   = "delayed"
	StatusCancelled = "cancelled"
	StatusFlying    = "flying"
	StatusLanded    = "landed"
)

// Payment method sources.
const (
	SourceCreditCard  = "credit_card"
	SourceGiftCard    = "gift_card"
	SourceCertificate = "certificate"
)

// Trip types and reservation statuses.
const (
	TripOneWay          = "one_way"
	TripRoundTrip       = "round_trip"
	ReservationActive   = "active"
	ReservationCanceled = "cancelled"
)

// Cancellation reasons cancel_reservation accepts.
const (
	ReasonChangeOfPlan     = "change_of_plan"
	ReasonAirlineCancelled = "airline_cancelled_flight"
	ReasonHealth           = "health"
	ReasonWeather          = "weather"
	ReasonOther            = "other"
)

// Fixed facts of the domain. Money is in whole US dollars.
const (
	// Now is the domain's current time (US Eastern): tools never read the
	// wall clock.
	Now = "2024-05-15T15:00:00"
	// Today is the date part of Now.
	Today = "2024-05-15"
	// BagFee is the price of one checked bag beyond the free allowance.
	BagFee = 40
	// InsuranceFee is the price of travel insurance per passenger.
	InsuranceFee = 25
	// AirlineName is the airline the agent works for.
	AirlineName = "Larkspur Air"
)

const (
	dateLayout     = "2006-01-02"
	dateTimeLayout = "2006-01-02T15:04:05"
	clockLayout    = "15:04"
)

// nowTime is Now parsed.
var nowTime, _ = time.Parse(dateTimeLayout, Now)

// cabins lists the cabin classes from cheapest to dearest.
var cabins = []string{CabinBasicEconomy, CabinEconomy, CabinBusiness}

// DB is the airline's database: the whole state of one environment. Its
// JSON encoding is canonical (maps have string keys, which encoding/json
// sorts), so sha256 of json.Marshal(db) identifies the state.
type DB struct {
	Users        map[string]*User        `json:"users"`
	Airports     map[string]Airport      `json:"airports"`
	Flights      map[string]*Flight      `json:"flights"`
	Reservations map[string]*Reservation `json:"reservations"`
	// IssuedCertificates counts certificates sent by send_certificate; it
	// keeps the ids of new certificates deterministic.
	IssuedCertificates int `json:"issued_certificates"`
	// BookedReservations counts reservations made by book_reservation; it
	// keeps the ids of new reservations deterministic.
	BookedReservations int `json:"booked_reservations"`

	// root is set on a generated database: its clones hash incrementally
	// against a snapshot of it (see StateHash); base is a clone's snapshot.
	root *hashRoot
	base *hashBase
	// ownFlights are the flights this database copied for itself; the
	// others it may share with its clones and must not change (see
	// writableDate).
	ownFlights map[string]bool
	// owned is set on a copy-on-write clone (episodeClone): its users and
	// reservations are base's own until a tool takes one (user,
	// reservation), which copies it first; the ids it took are owned.
	owned *ownedEntities
}

// ownedEntities are the users and reservations a copy-on-write clone
// copied.
type ownedEntities struct{ users, reservations map[string]bool }

// User is a customer of the airline.
type User struct {
	ID         string `json:"user_id"`
	FirstName  string `json:"first_name"`
	LastName   string `json:"last_name"`
	Email      string `json:"email"`
	DOB        string `json:"dob"` // YYYY-MM-DD
	Membership string `json:"membership"`
	// PaymentMethods is keyed by payment method id.
	PaymentMethods  map[string]PaymentMethod `json:"payment_methods"`
	SavedPassengers []Passenger              `json:"saved_passengers"`
	// Reservations holds the user's reservation ids, oldest first.
	Reservations []string `json:"reservations"`
}

// PaymentMethod is a credit card, a gift card or a travel certificate.
type PaymentMethod struct {
	ID       string `json:"id"`
	Source   string `json:"source"`
	Brand    string `json:"brand,omitempty"`     // credit cards
	LastFour string `json:"last_four,omitempty"` // credit cards
	// Amount is a gift card's balance or a certificate's value in dollars;
	// nil for credit cards.
	Amount *int `json:"amount,omitempty"`
}

// Airport is an airport the airline serves.
type Airport struct {
	Code string `json:"iata"`
	City string `json:"city"`
}

// Flight is a scheduled flight, flown once a day on the dates it lists.
type Flight struct {
	Number        string `json:"flight_number"`
	Origin        string `json:"origin"`
	Destination   string `json:"destination"`
	DepartureTime string `json:"scheduled_departure_time_est"` // HH:MM
	ArrivalTime   string `json:"scheduled_arrival_time_est"`   // HH:MM, same day
	// Dates is keyed by date (YYYY-MM-DD).
	Dates map[string]*FlightDate `json:"dates"`
}

// FlightDate is one flight on one date: its status, seats and fares.
type FlightDate struct {
	Status         string `json:"status"`
	AvailableSeats Cabins `json:"available_seats"`
	Prices         Cabins `json:"prices"` // per passenger, dollars
	DelayMinutes   int    `json:"delay_minutes,omitempty"`
}

// Cabins holds one number per cabin class.
type Cabins struct {
	BasicEconomy int `json:"basic_economy"`
	Economy      int `json:"economy"`
	Business     int `json:"business"`
}

// Get returns the number for cabin, or 0 for an unknown cabin.
func (c Cabins) Get(cabin string) int {
	if p := c.field(cabin); p != nil {
		return *p
	}
	return 0
}

// Add adds d to the number for cabin; it does nothing for an unknown cabin.
func (c *Cabins) Add(cabin string, d int) {
	if p := c.field(cabin); p != nil {
		*p += d
	}
}

func (c *Cabins) field(cabin string) *int {
	switch cabin {
	case CabinBasicEconomy:
		return &c.BasicEconomy
	case CabinEconomy:
		return &c.Economy
	case CabinBusiness:
		return &c.Business
	}
	return nil
}

// Reservation is a booking of one or more flights for up to five
// passengers.
type Reservation struct {
	ID          string `json:"reservation_id"`
	UserID      string `json:"user_id"`
	Origin      string `json:"origin"`
	Destination string `json:"destination"`
	TripType    string `json:"trip_type"`
	Cabin       string `json:"cabin"`
	// Flights are the segments in travel order.
	Flights        []Segment   `json:"flights"`
	Passengers     []Passenger `json:"passengers"`
	PaymentHistory []Payment   `json:"payment_history"`
	CreatedAt      string      `json:"created_at"` // YYYY-MM-DDTHH:MM:SS, US Eastern
	TotalBaggages  int         `json:"total_baggages"`
	// NonfreeBaggages are the checked bags beyond the free allowance.
	NonfreeBaggages int    `json:"nonfree_baggages"`
	Insurance       string `json:"insurance"` // yes or no
	Status          string `json:"status"`    // active or cancelled
	// Compensated is set once a certificate was sent for this reservation.
	Compensated bool `json:"compensated,omitempty"`
}

// Segment is one flight of a reservation; Price is per passenger.
type Segment struct {
	FlightNumber string `json:"flight_number"`
	Origin       string `json:"origin"`
	Destination  string `json:"destination"`
	Date         string `json:"date"`
	Price        int    `json:"price"`
}

// Passenger is a traveller on a reservation.
type Passenger struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	DOB       string `json:"dob"` // YYYY-MM-DD
}

// Payment is one entry of a reservation's payment history: a positive
// amount is a charge, a negative one a refund.
type Payment struct {
	PaymentID string `json:"payment_id"`
	Amount    int    `json:"amount"`
}

// TotalPaid returns the sum of the reservation's payment history: what the
// user has paid net of refunds, in dollars.
func (r *Reservation) TotalPaid() int {
	total := 0
	for _, p := range r.PaymentHistory {
		total += p.Amount
	}
	return total
}

// Clone returns a copy of db: changing one never changes the other. It is
// how each environment gets its own state, and is much faster than a JSON
// round trip. Flights are shared, copy on write: whoever changes a flight
// of a database gets it from writableDate, which copies it first.
func (db *DB) Clone() *DB {
	out := db.clone()
	// Flights db copied for itself are now shared with out: the next
	// write copies again.
	if db.ownFlights != nil {
		db.ownFlights = nil
	}
	switch {
	case db.base != nil:
		out.base = db.base
	case db.root != nil:
		out.base = db.root.get(db)
	}
	return out
}

// clone is Clone without the hashing snapshot.
func (db *DB) clone() *DB {
	out := &DB{
		Users:              make(map[string]*User, len(db.Users)),
		Airports:           make(map[string]Airport, len(db.Airports)),
		Flights:            make(map[string]*Flight, len(db.Flights)),
		Reservations:       make(map[string]*Reservation, len(db.Reservations)),
		IssuedCertificates: db.IssuedCertificates,
		BookedReservations: db.BookedReservations,
	}
	for k, u := range db.Users {
		out.Users[k] = cloneUser(u)
	}
	for k, a := range db.Airports {
		out.Airports[k] = a
	}
	for k, f := range db.Flights {
		out.Flights[k] = f // shared until written: see writableDate
	}
	for k, r := range db.Reservations {
		out.Reservations[k] = cloneReservation(r)
	}
	return out
}

func cloneUser(u *User) *User {
	c := *u
	c.PaymentMethods = make(map[string]PaymentMethod, len(u.PaymentMethods))
	for id, pm := range u.PaymentMethods {
		if pm.Amount != nil {
			a := *pm.Amount
			pm.Amount = &a
		}
		c.PaymentMethods[id] = pm
	}
	c.SavedPassengers = cloneSlice(u.SavedPassengers)
	c.Reservations = cloneSlice(u.Reservations)
	return &c
}

func cloneReservation(r *Reservation) *Reservation {
	c := *r
	c.Flights = cloneSlice(r.Flights)
	c.Passengers = cloneSlice(r.Passengers)
	c.PaymentHistory = cloneSlice(r.PaymentHistory)
	return &c
}

// episodeClone returns a copy-on-write copy of db for one episode's
// environment: its maps are new, but their users, reservations and
// flights are those of db's hashing snapshot (which nothing else changes)
// until a tool takes a user or a reservation (DB.user, DB.reservation) or
// changes a flight (writableDate), each copied first, so a clone costs a
// few map copies instead of a deep copy, and its StateHash compares the
// untouched entities by pointer. Anything else that changes an
// environment's state in place must Clone instead. On a database with no
// snapshot (not generated) it is Clone.
func (db *DB) episodeClone() *DB {
	base := db.base
	if base == nil && db.root != nil {
		base = db.root.get(db)
	}
	if base == nil {
		return db.Clone()
	}
	b := base.db
	return &DB{
		Users: maps.Clone(b.Users), Airports: maps.Clone(b.Airports), Flights: maps.Clone(b.Flights),
		Reservations: maps.Clone(b.Reservations), IssuedCertificates: b.IssuedCertificates, BookedReservations: b.BookedReservations,
		base:  base,
		owned: &ownedEntities{users: map[string]bool{}, reservations: map[string]bool{}},
	}
}

// ownUser returns the user id for changing: on a copy-on-write clone, a
// copy of the shared user, made once; nil when there is no such user.
func (db *DB) ownUser(id string) *User {
	u := db.Users[id]
	if u == nil || db.owned == nil || db.owned.users[id] {
		return u
	}
	u = cloneUser(u)
	db.Users[id], db.owned.users[id] = u, true
	return u
}

// ownReservation is ownUser for reservations.
func (db *DB) ownReservation(id string) *Reservation {
	r := db.Reservations[id]
	if r == nil || db.owned == nil || db.owned.reservations[id] {
		return r
	}
	r = cloneReservation(r)
	db.Reservations[id], db.owned.reservations[id] = r, true
	return r
}

// writableDate returns the flight numbered number on date for a change,
// first copying the flight when db shares it; nil when there is no such
// flight or date.
func (db *DB) writableDate(number, date string) *FlightDate {
	f, ok := db.Flights[number]
	if !ok {
		return nil
	}
	if !db.ownFlights[number] {
		f = copyFlight(f)
		db.Flights[number] = f
		if db.ownFlights == nil {
			db.ownFlights = map[string]bool{}
		}
		db.ownFlights[number] = true
	}
	return f.Dates[date]
}

func copyFlight(f *Flight) *Flight {
	c := *f
	c.Dates = make(map[string]*FlightDate, len(f.Dates))
	slab := make([]FlightDate, 0, len(f.Dates))
	for d, fd := range f.Dates {
		slab = append(slab, *fd)
		c.Dates[d] = &slab[len(slab)-1]
	}
	return &c
}

// cloneSlice copies s, keeping nil as nil and empty as empty so the JSON
// encoding (null versus []) is preserved.
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// flightDate returns the flight numbered number on date, or an error the
// agent can act on.
func (db *DB) flightDate(number, date string) (*Flight, *FlightDate, error) {
	f, ok := db.Flights[number]
	if !ok {
		return nil, nil, fmt.Errorf("flight %s not found", number)
	}
	fd, ok := f.Dates[date]
	if !ok {
		return nil, nil, fmt.Errorf("flight %s does not operate on %s", number, date)
	}
	return f, fd, nil
}

// segmentStatus returns the status of a reservation's segment, or "" when
// the flight or date is unknown.
func (db *DB) segmentStatus(s Segment) string {
	if f, ok := db.Flights[s.FlightNumber]; ok {
		if fd, ok := f.Dates[s.Date]; ok {
			return fd.Status
		}
	}
	return ""
}

// flown reports whether any segment of r has been flown (or is in the air).
func (db *DB) flown(r *Reservation) bool {
	for _, s := range r.Flights {
		if st := db.segmentStatus(s); st == StatusLanded || st == StatusFlying {
			return true
		}
	}
	return false
}

// hasStatus reports whether any segment of r has the given status.
func (db *DB) hasStatus(r *Reservation, status string) bool {
	for _, s := range r.Flights {
		if db.segmentStatus(s) == status {
			return true
		}
	}
	return false
}
