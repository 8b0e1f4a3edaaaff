package airline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/emobench/emobench/sim"
)

// The state hash (sim.StateEnv.Hash calls StateHash) is a sha256 over each
// entity's sha256, so a clone of the initial database hashes only the
// entities a tool changed: the digests of the others come from a private
// snapshot of the database it was cloned from, made once.

// hashBase is a frozen copy of a database with the digest of every entity.
type hashBase struct {
	db                          *DB
	users, flights, reservation map[string][32]byte
	// keys are the sorted keys of each collection of db.
	userKeys, flightKeys, reservationKeys []string
}

// hashRoot makes, once, the hashBase of a generated database for its clones.
type hashRoot struct {
	once sync.Once
	base *hashBase
}

func (h *hashRoot) get(db *DB) *hashBase {
	h.once.Do(func() {
		snap := db.clone()
		h.base = &hashBase{db: snap,
			users:           sim.EntityDigests(snap.Users),
			flights:         sim.EntityDigests(snap.Flights),
			reservation:     sim.EntityDigests(snap.Reservations),
			userKeys:        sortedKeys(snap.Users),
			flightKeys:      sortedKeys(snap.Flights),
			reservationKeys: sortedKeys(snap.Reservations)}
	})
	return h.base
}

// StateHash returns the hex sha256 of db's canonical state: equal states
// give equal hashes, whether or not they were cloned.
func (db *DB) StateHash() string {
	var base hashBase
	if db.base != nil {
		base = *db.base
	} else {
		base.db = &DB{}
	}
	h := sha256.New()
	// A copy-on-write clone shares the entities it did not take with the
	// snapshot, which nothing changes: the same pointer is the same entity.
	sim.HashSection(h, "users", db.Users, base.db.Users, base.users, base.userKeys, sim.SamePointerOr(equalUser))
	sim.HashSection(h, "flights", db.Flights, base.db.Flights, base.flights, base.flightKeys, sim.SamePointerOr(equalFlight))
	sim.HashSection(h, "reservations", db.Reservations, base.db.Reservations, base.reservation, base.reservationKeys, sim.SamePointerOr(equalReservation))
	rest, err := json.Marshal(struct {
		Airports map[string]Airport `json:"airports"`
		Issued   int                `json:"issued_certificates"`
		Booked   int                `json:"booked_reservations"`
	}{db.Airports, db.IssuedCertificates, db.BookedReservations})
	if err != nil {
		panic(fmt.Sprintf("airline: state is not JSON-encodable: %v", err))
	}
	h.Write(rest)
	return hex.EncodeToString(h.Sum(nil))
}

// equalFlight reports whether a and b encode equally.
func equalFlight(a, b *Flight) bool {
	if a == b {
		return true
	}
	if a.Number != b.Number || a.Origin != b.Origin || a.Destination != b.Destination ||
		a.DepartureTime != b.DepartureTime || a.ArrivalTime != b.ArrivalTime ||
		len(a.Dates) != len(b.Dates) || (a.Dates == nil) != (b.Dates == nil) {
		return false
	}
	for d, fa := range a.Dates {
		fb, ok := b.Dates[d]
		if !ok || (fa == nil) != (fb == nil) || fa != nil && *fa != *fb {
			return false
		}
	}
	return true
}

// equalUser reports whether a and b encode equally.
func equalUser(a, b *User) bool {
	if a.ID != b.ID || a.FirstName != b.FirstName || a.LastName != b.LastName || a.Email != b.Email ||
		a.DOB != b.DOB || a.Membership != b.Membership || len(a.PaymentMethods) != len(b.PaymentMethods) ||
		(a.PaymentMethods == nil) != (b.PaymentMethods == nil) ||
		!equalSlice(a.SavedPassengers, b.SavedPassengers) || !equalSlice(a.Reservations, b.Reservations) {
		return false
	}
	for id, pa := range a.PaymentMethods {
		pb, ok := b.PaymentMethods[id]
		if !ok || pa.ID != pb.ID || pa.Source != pb.Source || pa.Brand != pb.Brand || pa.LastFour != pb.LastFour ||
			(pa.Amount == nil) != (pb.Amount == nil) || pa.Amount != nil && *pa.Amount != *pb.Amount {
			return false
		}
	}
	return true
}

// equalReservation reports whether a and b encode equally.
func equalReservation(a, b *Reservation) bool {
	return a.ID == b.ID && a.UserID == b.UserID && a.Origin == b.Origin && a.Destination == b.Destination &&
		a.TripType == b.TripType && a.Cabin == b.Cabin && a.CreatedAt == b.CreatedAt &&
		a.TotalBaggages == b.TotalBaggages && a.NonfreeBaggages == b.NonfreeBaggages &&
		a.Insurance == b.Insurance && a.Status == b.Status && a.Compensated == b.Compensated && equalSlice(a.Flights, b.Flights) && equalSlice(a.Passengers, b.Passengers) &&
		equalSlice(a.PaymentHistory, b.PaymentHistory)
}

// equalSlice is slices.Equal that also tells nil from empty, as JSON does.
func equalSlice[T comparable](a, b []T) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
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
