package airline

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file is the airline's intent catalog, which Tracer turns into
// tasks: the tool graph, how a user is identified, the intents a user may
// come for (allowed, forbidden, informational and for a human agent), each
// with its wording (intents.json) and a grounder over the database
// (grounders), and the policy predicates of rules.go. Every grounder's gold
// actions after the opener follow its intent's Path, a step repeated once
// per entity it reads (the reservations of a total, the flights of an
// upgrade), with reads added where the policy asks for them: the flight
// status before compensation, and a calculate call for every amount a
// write passes (a booking's total, a certificate), so that each argument
// is known to the user or found by an earlier read.

// intentsJSON declares the intents: name, kind, tool path, the emotion
// families that fit (none: all five) and the templates of the request. A
// disruption fits the unhappy families only (a cancelled or delayed flight
// is no occasion for enjoyment); refusals and hand-offs fit every family
// (an upbeat user whose plans changed for the better still asks to
// cancel), so that a refusal's emotion says nothing of its kind.
//
//go:embed intents.json
var intentsJSON []byte

// grounders are the grounders of the intents of intents.json, by name.
var grounders = map[string]func(*grounding) (sim.Grounding, bool){
	// Cancellations the policy allows.
	"cancel_recent_booking":    groundCancelPlans(false),
	"cancel_airline_cancelled": groundCancelAirline,
	"cancel_insured":           groundCancelInsured,
	"cancel_business":          groundCancelPlans(true),
	// Changes.
	"add_bags":               groundAddBags,
	"add_bags_if_cheap":      groundAddBagsIfCheap,
	"change_passenger":       groundChangePassenger,
	"upgrade_cabin":          groundUpgradeCabin,
	"change_date":            groundChangeDate,
	"upgrade_cabin_add_bags": groundUpgradeAddBags,
	"change_date_add_bags":   groundChangeDateAddBags,
	// Bookings.
	"book_direct":           groundBookDirect,
	"book_with_certificate": groundBookCertificate,
	"book_onestop":          groundBookOnestop,
	// Compensation where it is due.
	"compensation_delayed":     groundCompensation(StatusDelayed),
	"compensation_cancelled":   groundCompensation(StatusCancelled),
	"compensation_then_cancel": groundCompensationThenCancel,
	// Information.
	"reservation_total":      groundReservationTotal,
	"all_reservations_total": groundAllTotal,
	"flight_status":          groundFlightStatus,
	"bag_allowance":          groundBagAllowance,
	// Requests the policy forbids: the right answer is a refusal.
	"cancel_not_eligible":           groundCancelChangeOfPlan("no"),
	"cancel_insured_change_of_plan": groundCancelChangeOfPlan("yes"),
	"change_basic_economy_flight":   groundChangeBasicEconomy,
	"compensation_not_due":          groundCompensationNotDue,
	"remove_bags":                   groundRemoveBags,
	"book_too_many_passengers":      groundTooManyPassengers,
	// Requests only a human agent can handle.
	"transfer_flown_cancel": groundTransferFlown,
	"transfer_out_of_scope": groundOutOfScope,
}

// intents returns the intents of intents.json, each grounded by its
// grounder; a request naming one reservation may describe it instead of
// giving its id (findable).
func intents() []sim.Intent {
	ground := map[string]sim.Grounder{}
	for name, f := range grounders {
		ground[name] = findable(on(f))
	}
	in, err := sim.ReadIntents(intentsJSON, ground)
	if err != nil {
		panic("airline: " + err.Error()) // intents.json is embedded: a build bug
	}
	return in
}

// Catalog returns the airline's intent catalog. Its grounders read the
// environment they are given (a *sim.StateEnv[DB]) and never change it;
// its CheckPolicy runs the predicates of rules.go on that state.
func Catalog() *sim.Catalog {
	cat := &sim.Catalog{
		Alternatives: alternatives,
		Openers:      []string{ToolGetUserDetails},
		// The cancellation reason and the trip type are enum words the
		// request states anyway.
		ExemptArgs: []string{"reason", "trip_type"},
		Follows: map[string][]string{
			ToolGetUserDetails: {ToolGetReservationDetails, ToolSearchDirectFlight, ToolSearchOnestopFlight, ToolListAllAirports, ToolGetFlightStatus, ToolTransfer},
			ToolGetReservationDetails: {ToolGetReservationDetails, ToolGetFlightStatus, ToolSearchDirectFlight,
				ToolCancelReservation, ToolUpdateReservationFlights, ToolUpdateReservationPassengers,
				ToolUpdateReservationBaggages, ToolSendCertificate, ToolCalculate, ToolTransfer},
			ToolListAllAirports:          {ToolSearchDirectFlight, ToolSearchOnestopFlight},
			ToolSearchDirectFlight:       {ToolSearchDirectFlight, ToolSearchOnestopFlight, ToolBookReservation, ToolUpdateReservationFlights},
			ToolSearchOnestopFlight:      {ToolBookReservation},
			ToolGetFlightStatus:          {ToolSendCertificate, ToolCancelReservation, ToolTransfer},
			ToolSendCertificate:          {ToolCancelReservation},
			ToolUpdateReservationFlights: {ToolUpdateReservationBaggages},
		},
		Intents: intents(),
		Users:   sim.UsersOf(func(db *DB) *sim.Table[User] { return &db.Users }),
		Authenticate: func(_ sim.Environment, userID string, _ *rand.Rand) (emobench.Action, map[string]string) {
			// The policy identifies a user by user id alone.
			return act(ToolGetUserDetails, map[string]any{"user_id": userID}), map[string]string{"user_id": userID}
		},
		CheckPolicy: func(env sim.Environment, userID string, a emobench.Action) error {
			db, ok := sim.StateOf[DB](env)
			if !ok {
				return fmt.Errorf("policy: %s: the environment is not an airline one", a.Name)
			}
			return db.checkWrite(userID, a)
		},
	}
	return cat
}
