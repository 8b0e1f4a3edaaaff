package airline

import (
	"fmt"
	"slices"
	"time"

	"github.com/emobench/emobench/sim"
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

// Fixed facts of the domain. Money is in whole US dollars, an int, not
// sim.Money: the tools and the embedded tasks' gold arguments write
// amounts as whole numbers (40), which sim.Money would write as 40.00.
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

// DB is the airline's database: the whole state of one environment
// (sim.DomainSpec). Tools read rows with Get and change them through Edit
// or Put, so an episode's copy-on-write state and its hash are right by
// construction.
type DB struct {
	Users        sim.Table[User]        `json:"users"`
	Airports     sim.Table[Airport]     `json:"airports"`
	Flights      sim.Table[Flight]      `json:"flights"`
	Reservations sim.Table[Reservation] `json:"reservations"`
	// IssuedCertificates counts certificates sent by send_certificate; it
	// keeps the ids of new certificates deterministic.
	IssuedCertificates int `json:"issued_certificates"`
	// BookedReservations counts reservations made by book_reservation; it
	// keeps the ids of new reservations deterministic.
	BookedReservations int `json:"booked_reservations"`
}

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

// StateForm is the reservation as the state hash sees it
// (sim.StateFormer): its passengers and its payments as sets, so that the
// same booking with its passengers or payment methods listed in another
// order hashes alike.
func (r *Reservation) StateForm() any {
	c := *r
	c.Passengers, c.PaymentHistory = sim.AsSet(r.Passengers), sim.AsSet(r.PaymentHistory)
	return &c
}

// flight returns the flight numbered number for reading, nil when there is
// none.
func (db *DB) flight(number string) *Flight {
	f, _ := db.Flights.Get(number)
	return f
}

// city returns the city of the airport code, "" when there is none.
func (db *DB) city(code string) string {
	if a, ok := db.Airports.Get(code); ok {
		return a.City
	}
	return ""
}

// price returns the fare of cabin on flight number on date.
func (db *DB) price(number, date, cabin string) int {
	return db.flight(number).Dates[date].Prices.Get(cabin)
}

// addSeats adds n seats of cabin to flight number on date (a negative n
// takes them); it does nothing for an unknown flight or date.
func (db *DB) addSeats(number, date, cabin string, n int) {
	if f, ok := db.Flights.Edit(number); ok && f.Dates[date] != nil {
		f.Dates[date].AvailableSeats.Add(cabin, n)
	}
}

// flightDate returns the flight numbered number on date, or an error the
// agent can act on.
func (db *DB) flightDate(number, date string) (*Flight, *FlightDate, error) {
	f := db.flight(number)
	if f == nil {
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
	if _, fd, err := db.flightDate(s.FlightNumber, s.Date); err == nil {
		return fd.Status
	}
	return ""
}

// flown reports whether any segment of r has been flown (or is in the air).
func (db *DB) flown(r *Reservation) bool {
	return db.hasStatus(r, StatusLanded) || db.hasStatus(r, StatusFlying)
}

// hasStatus reports whether any segment of r has the given status.
func (db *DB) hasStatus(r *Reservation, status string) bool {
	return slices.ContainsFunc(r.Flights, func(s Segment) bool { return db.segmentStatus(s) == status })
}
