package airline

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file is the airline's intent catalog, which Tracer turns into
// tasks: the tool graph, how a user is identified, the intents a user may
// come for (allowed, forbidden, informational and for a human agent), each
// with its wording and a grounder over the database, and the policy
// predicates of rules.go. Every grounder's gold actions after the opener
// follow its intent's Path, a step repeated once per entity it reads (the
// reservations of a total, the flights of an upgrade), with reads added
// where the policy asks for them: the flight status before compensation,
// and a calculate call for every amount a write passes (a booking's total,
// a certificate), so that each argument is known to the user or found by
// an earlier read.

// Emotion families, for Intent.Families.
const (
	famEnjoyment = "enjoyment"
	famSadness   = "sadness"
	famFear      = "fear"
	famAnger     = "anger"
	famDisgust   = "disgust"
)

// unhappy are the families that fit a disruption: a cancelled or delayed
// flight is no occasion for enjoyment. Refusals and hand-offs fit every
// family (an upbeat user whose plans changed for the better still asks to
// cancel), so that a refusal's emotion says nothing of its kind.
var unhappy = []string{famSadness, famFear, famAnger, famDisgust}

// Catalog returns the airline's intent catalog. Its grounders read the
// environment they are given (a *sim.StateEnv[DB]) and never change it;
// its CheckPolicy runs the predicates of rules.go on that state.
func Catalog() *sim.Catalog {
	R := ToolGetReservationDetails
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
		Intents: []sim.Intent{
			// Cancellations the policy allows.
			{Name: "cancel_recent_booking", Kind: sim.IntentWrite, Path: []string{R, ToolCancelReservation},
				Templates: []string{
					"I booked {reservation_trip}, less than a day ago, but my plans have changed and I no longer need it. I want it cancelled with a full refund.",
					"My plans fell through, so I won't be using the {trip} I booked only a few hours ago ({reservation}). Please cancel it and give me my money back.",
					"I changed my mind about the {trip} I just booked, {reservation}. I'd like to cancel it while I still can and get a refund.",
				},
				Ground: groundCancelRecent},
			{Name: "cancel_airline_cancelled", Kind: sim.IntentWrite, Path: []string{R, ToolGetFlightStatus, ToolCancelReservation}, Families: unhappy,
				Templates: []string{
					"You cancelled my flight {flight} on {date}, which is part of {reservation}. I don't want to be rebooked: cancel the whole reservation and refund me. I'm not asking for anything else.",
					"My flight {flight} on {date} was cancelled by the airline, so {reservation} is useless to me now. I want the entire booking cancelled and my money back, nothing more.",
					"Since the airline cancelled flight {flight} on {date}, I'm done with {reservation}. Please cancel all of it and refund what I paid; I don't want another flight.",
				},
				Ground: groundCancelAirline},
			{Name: "cancel_insured", Kind: sim.IntentWrite, Path: []string{R, ToolCancelReservation}, Families: []string{famSadness, famFear, famAnger},
				Templates: []string{
					"{why}, so I need to cancel {reservation_trip}. I bought travel insurance with it, so I expect a refund.",
					"I can't make {reservation_trip}: {why_lower}. I took out travel insurance, so please cancel it and refund me.",
					"Unfortunately {why_lower}, and I have to call off the {trip}. {Reservation} is insured; I want it cancelled with my money back.",
				},
				Ground: groundCancelInsured},
			{Name: "cancel_business", Kind: sim.IntentWrite, Path: []string{R, ToolCancelReservation},
				Templates: []string{
					"My plans have changed and I want to cancel {reservation_trip}, which is in business class, with a refund.",
					"I no longer need the business class {trip} on {reservation}. Please cancel it and refund me.",
					"Something came up and I can't take my business class {trip}. I'd like {reservation} cancelled and the fare refunded.",
				},
				Ground: groundCancelBusiness},
			// Changes the policy allows.
			{Name: "add_bags", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationBaggages},
				Templates: []string{
					"I want to add {added} to {reservation}, so that it has {total} in all. If there is a fee, I will pay it with {payment}, and I want to know how much it is.",
					"We're packing more than planned: please put {added} on {reservation}, {total} in total. Any charge goes on {payment}; tell me what it comes to.",
					"Could you add {added} to my {reservation}? That makes {total} altogether. If it costs extra, use {payment} and let me know the amount.",
				},
				Ground: groundAddBags},
			{Name: "add_bags_if_cheap", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationBaggages},
				Templates: []string{
					"I'd like to add checked bags to {reservation}: two more if the fee for them is at most ${limit}, otherwise just one. Any fee goes on {payment}; tell me what it comes to.",
					"We may need extra luggage on {reservation}. If adding two checked bags costs ${limit} or less, add two; if it costs more, add only one. Charge {payment} and let me know the fee.",
					"Please add bags to {reservation}: two if the fee comes to no more than ${limit}, otherwise one. Use {payment} for any charge and tell me the amount.",
				},
				Ground: groundAddBagsIfCheap},
			{Name: "change_passenger", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationPassengers},
				Templates: []string{
					"{old} can no longer travel on {reservation}. I want to put {new}, born {dob}, in that seat instead.",
					"Please swap a traveller on {reservation}: {old} is out, and {new} (date of birth {dob}) is coming in their place.",
					"{new}, born {dob}, will fly instead of {old} on {reservation}. I'd like the passenger details updated.",
				},
				Ground: groundChangePassenger},
			{Name: "upgrade_cabin", Kind: sim.IntentWrite, Path: []string{R, ToolSearchDirectFlight, ToolUpdateReservationFlights},
				Templates: []string{
					"I want to upgrade {reservation_trip}, to {cabin} for the whole trip, and pay the difference with {payment}. I want to know what the upgrade costs.",
					"I'd like more comfort on my {trip}: move {reservation} up to {cabin} on every flight. Charge the difference to {payment} and tell me how much it is.",
					"Can {reservation} be switched to {cabin}? I want it for all of the {trip}, paid with {payment}, and I'd like to hear the price difference.",
				},
				Ground: groundUpgradeCabin},
			{Name: "change_date", Kind: sim.IntentWrite, Path: []string{R, ToolSearchDirectFlight, ToolUpdateReservationFlights},
				Templates: []string{
					"I need to move {reservation}, flight {flight} on {old_date}, to the same flight on {date}. Any difference in price goes on {payment}; I want to know how much it is.",
					"My dates shifted: I'd like to take flight {flight} on {date} instead of {old_date} ({reservation}). Settle any fare difference with {payment} and tell me the amount.",
					"Please rebook {reservation} from {old_date} to {date}, same flight {flight}. Use {payment} for any price change and let me know what it is.",
				},
				Ground: groundChangeDate},
			{Name: "upgrade_cabin_add_bags", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationFlights, ToolUpdateReservationBaggages},
				Templates: []string{
					"I want {reservation_trip}, upgraded to {cabin} for the whole trip, and then {added} added so it has {total} in all. Everything goes on {payment}; tell me what I am charged in total.",
					"Two things for {reservation}: move the {trip} up to {cabin} on every flight, and add {added} ({total} altogether). Pay with {payment} and let me know the total extra cost.",
					"I'm treating myself on my {trip}: upgrade {reservation} to {cabin}, and with the new cabin add {added}, {total} in total. Please charge {payment} and tell me how much it all comes to.",
				},
				Ground: groundUpgradeAddBags},
			{Name: "change_date_add_bags", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationFlights, ToolUpdateReservationBaggages},
				Templates: []string{
					"I need to move {reservation} from {old_date} to {date}, same flight {flight}, and add {added} so it has {total} in all. Charge any difference and fees to {payment}; I want to know the total.",
					"My trip is shifting to {date}: put {reservation} on flight {flight} that day instead of {old_date}, and add {added} ({total} altogether). Use {payment} and tell me what I pay.",
					"Please rebook {reservation} onto flight {flight} on {date} rather than {old_date}, and add {added}, {total} in total. Everything goes on {payment}; how much is it?",
				},
				Ground: groundChangeDateAddBags},
			// Bookings.
			{Name: "book_direct", Kind: sim.IntentWrite, Path: []string{ToolSearchDirectFlight, ToolBookReservation},
				Templates: []string{
					"I want to book a one-way {cabin} trip from {origin} to {destination} on {date}, {who}, with {bags}. {choice} {insurance}. I will pay with {payment}, and I want to know the total price.",
					"Please get me a one-way {cabin} ticket {who} from {origin} to {destination} on {date}. {choice} We'll have {bags}. {insurance}. Put it on {payment} and tell me the total.",
					"I need to fly from {origin} to {destination} on {date}, one way in {cabin}, {who}. {choice} {bags_cap}. {insurance}. Charge {payment} and let me know the full price.",
				},
				Ground: groundBookDirect},
			{Name: "book_with_certificate", Kind: sim.IntentWrite, Path: []string{ToolSearchDirectFlight, ToolBookReservation},
				Templates: []string{
					"I want to book a one-way {cabin} trip from {origin} to {destination} on {date}, {who}, with {bags}. {choice} {insurance}. I will pay with {payment}, and I want to know the total price and what is left for the card.",
					"I'd like to use my travel certificate on a new trip: one way from {origin} to {destination} on {date} in {cabin}, {who}, with {bags}. {choice} {insurance}. Pay with {payment}; tell me the total and the card's share.",
					"Book me a one-way flight {who} from {origin} to {destination} on {date}, {cabin}, {bags}. {choice} {insurance}. Payment: {payment}. What is the total, and how much goes on the card?",
				},
				Ground: groundBookCertificate},
			{Name: "book_onestop", Kind: sim.IntentWrite, Path: []string{ToolSearchOnestopFlight, ToolBookReservation},
				Templates: []string{
					"I want to book a one-way {cabin} trip from {origin} to {destination} on {date}, {who}, with {bags}. There is no direct flight, so I will connect in {via}. {choice} {insurance}. I will pay with {payment}, and I want to know the total price.",
					"I need to get from {origin} to {destination} on {date}; I know there's no nonstop, so a connection through {via} is fine. {choice} One way, {cabin}, {who}, {bags}. {insurance}. Pay with {payment} and tell me the total.",
					"Please book a one-way {cabin} itinerary {who} from {origin} to {destination} on {date}, changing planes in {via}. {choice} We'll have {bags}. {insurance}. Use {payment}; what's the total?",
				},
				Ground: groundBookOnestop},
			// Compensation where it is due.
			{Name: "compensation_delayed", Kind: sim.IntentWrite, Path: []string{R, ToolGetFlightStatus, ToolSendCertificate}, Families: unhappy,
				Templates: []string{
					"My flight {flight} on {date}, on {reservation}, is delayed by {delay} minutes, and this has thrown my plans into disarray. I want to complain and get some compensation for it. I don't want to change or cancel the trip. Tell me how much you are giving me.",
					"Flight {flight} on {date} is running {delay} minutes late and it's wrecking my schedule ({reservation}). I'm keeping the trip, but I expect something for the trouble. Tell me how much you are giving me.",
					"I've just learned flight {flight} on {date} is delayed {delay} minutes. That's on {reservation}. I'm not changing anything, but I'd like to be compensated. Tell me how much you are giving me.",
				},
				Ground: groundCompensationDelayed},
			{Name: "compensation_cancelled", Kind: sim.IntentWrite, Path: []string{R, ToolGetFlightStatus, ToolSendCertificate}, Families: unhappy,
				Templates: []string{
					"You cancelled my flight {flight} on {date}, on {reservation}. I am unhappy about it and want compensation. I'll sort out the trip myself later; don't change or cancel anything now. Tell me how much you are giving me.",
					"Flight {flight} on {date} was cancelled and it has left me in a bind ({reservation}). I want to be compensated for it; leave the reservation as it is for now. Tell me how much you are giving me.",
					"I want to lodge a complaint: my flight {flight} on {date} on {reservation} was cancelled. I expect compensation, and I don't want anything else changed today. Tell me how much you are giving me.",
				},
				Ground: groundCompensationCancelled},
			{Name: "compensation_then_cancel", Kind: sim.IntentWrite, Path: []string{R, ToolSendCertificate, ToolCancelReservation}, Families: unhappy,
				Templates: []string{
					"You cancelled my flight {flight} on {date}, on {reservation}. I am unhappy about it and want compensation. Then I want the whole reservation cancelled with a refund, as I will make other plans. Tell me how much you are giving me.",
					"My flight {flight} on {date} got cancelled ({reservation}). First I want compensation for the trouble, and then cancel the whole booking and refund me; I'll travel another way. Tell me how much you are giving me.",
					"Because the airline cancelled flight {flight} on {date}, I want two things for {reservation}: compensation, and after that the entire reservation cancelled with my money back. Tell me how much you are giving me.",
				},
				Ground: groundCompensationThenCancel},
			// Information.
			{Name: "reservation_total", Kind: sim.IntentRead, Path: []string{R},
				Templates: []string{
					"I need to know the total I paid for {reservation_trip}, with every passenger, bag and insurance included, {purpose}. I don't want to change anything.",
					"How much did {reservation} cost me altogether? I need the full amount paid for the {trip} {purpose}; please don't change anything.",
					"I need the total amount charged for {reservation_trip}, fees included, {purpose}. Just the figure, no changes.",
				},
				Ground: groundReservationTotal},
			{Name: "all_reservations_total", Kind: sim.IntentRead, Path: []string{R, ToolCalculate},
				Templates: []string{
					"I need the total amount I have paid for all of my reservations together, {purpose}. I don't want to change anything.",
					"Could you add up what I've spent across every reservation on my account, {purpose}? Just the grand total, please; no changes.",
					"I want one number, {purpose}: the sum I have paid for all my reservations. Don't modify anything.",
				},
				Ground: groundAllTotal},
			{Name: "flight_status", Kind: sim.IntentRead, Path: []string{R, ToolGetFlightStatus},
				Templates: []string{
					"I'm flying {flight} on {date} on {reservation}. I just want to know its status right now; I don't need any changes.",
					"Can you tell me whether flight {flight} on {date} ({reservation}) is on schedule? That's all I need.",
					"Before I head out I'd like to check the status of my flight {flight} on {date}, {reservation}. No changes, just the status.",
				},
				Ground: groundFlightStatus},
			{Name: "bag_allowance", Kind: sim.IntentRead, Path: []string{R},
				Templates: []string{
					"How many checked bags can we take for free on {reservation_trip}? I'm asking {purpose}; don't add anything.",
					"I'm packing for {reservation_trip} and want to know the free checked bag allowance for everyone on it, in total, {purpose}. No changes please.",
					"What is the total free checked baggage allowance on {reservation}? Just tell me the number of bags, {purpose}; I'm not adding any yet.",
				},
				Ground: groundBagAllowance},
			// Requests the policy forbids: the right answer is a refusal.
			{Name: "cancel_not_eligible", Kind: sim.IntentForbidden, Path: []string{R},
				Templates: []string{
					"My plans have changed and I want to cancel {reservation_trip}, and get my money back; I don't want to change it instead.",
					"I won't be taking my {trip} after all. Cancel {reservation} and refund me; I'm not interested in moving it to other dates.",
					"Please cancel {reservation_trip} and return what I paid. My plans changed and a different flight won't help.",
				},
				Ground: groundCancelNotEligible},
			{Name: "cancel_insured_change_of_plan", Kind: sim.IntentForbidden, Path: []string{R},
				Templates: []string{
					"I have travel insurance on {reservation_trip}, and my plans have simply changed. I want it cancelled and refunded; nothing else will do.",
					"My plans changed, so I'd like to cancel the {trip} on {reservation}. It's insured, so I expect my money back rather than a change.",
					"Cancel {reservation} please: I don't need the {trip} any more since my plans changed, and I paid for insurance, so refund me in full.",
				},
				Ground: groundCancelInsuredChangeOfPlan},
			{Name: "change_basic_economy_flight", Kind: sim.IntentForbidden, Path: []string{R, ToolSearchDirectFlight},
				Templates: []string{
					"I need to move {reservation}, flight {flight} on {old_date}, to the same flight on {date}. Any difference in price goes on {payment}. I don't want to cancel.",
					"My dates changed: please put {reservation} on flight {flight} on {date} instead of {old_date}, and charge any difference to {payment}. Cancelling is not an option for me.",
					"Could you rebook {reservation} from {old_date} to {date}, same flight {flight}? I'll pay any difference with {payment}; I only want the date changed.",
				},
				Ground: groundChangeBasicEconomy},
			{Name: "compensation_not_due", Kind: sim.IntentForbidden, Path: []string{R, ToolGetFlightStatus}, Families: unhappy,
				Templates: []string{
					"My flight {flight} on {date}, on {reservation}, {what}, and I want compensation for it. I don't want to change or cancel anything.",
					"Flight {flight} on {date} {what} ({reservation}). I think I'm owed something for that; I'm keeping the booking as it is.",
					"I'm fed up: my flight {flight} on {date} {what}. It's on {reservation}. I want compensation, not changes.",
				},
				Ground: groundCompensationNotDue},
			{Name: "remove_bags", Kind: sim.IntentForbidden, Path: []string{R},
				Templates: []string{
					"I booked {had} on {reservation} but I only need {total} now. Take the extra off and refund the fee.",
					"{Reservation} has {had}, which is more than I need: bring it down to {total} and give me back what I paid for the rest.",
					"I packed lighter than planned. Please reduce the checked bags on {reservation} from {had} to {total} and refund the difference.",
				},
				Ground: groundRemoveBags},
			{Name: "book_too_many_passengers", Kind: sim.IntentForbidden, Path: []string{ToolSearchDirectFlight},
				Templates: []string{
					"I want to book one reservation for our group of {count} on flight {flight} from {origin} to {destination} on {date}, {cabin}, paid with {payment}. We must all be on the same booking.",
					"Please put all {count} of us on a single booking: flight {flight}, {origin} to {destination}, {date}, in {cabin}. Use {payment}. Separate bookings won't do.",
					"Our family of {count} needs flight {flight} from {origin} to {destination} on {date} in {cabin}, all on one reservation, charged to {payment}.",
				},
				Ground: groundTooManyPassengers},
			// Requests only a human agent can handle.
			{Name: "transfer_flown_cancel", Kind: sim.IntentTransfer, Path: []string{R, ToolTransfer},
				Templates: []string{
					"I have already flown the outbound flight of {reservation_trip}. I no longer need the return flight {flight} on {date} and want it cancelled and refunded. If the agent cannot do it, I want to be passed to someone who can.",
					"I'm already at my destination on {reservation_trip}, and I won't use the return flight {flight} on {date}. Cancel it and refund me, or get me someone who can.",
					"The first half of my {trip} is done, but I want to drop the return flight {flight} on {date} from {reservation} with a refund. If you can't, hand me over to a person.",
				},
				Ground: groundTransferFlown},
			{Name: "transfer_out_of_scope", Kind: sim.IntentTransfer, Path: []string{ToolTransfer},
				Templates: []string{
					"{topic_cap}. I'd like a person to handle it; {preferred_contact} works best for me.",
					"I need help with something specific: {topic}. Please connect me with someone who can take care of it; I prefer {preferred_contact}.",
					"{topic_cap}, and I want it sorted out by a human agent, ideally through {preferred_contact}.",
				},
				Ground: groundOutOfScope},
		},
		Users: func(env sim.Environment) []string {
			e, ok := env.(*sim.StateEnv[DB])
			if !ok {
				return nil
			}
			return e.State.Users.Keys()
		},
		Authenticate: func(_ sim.Environment, userID string, _ *rand.Rand) (emobench.Action, map[string]string) {
			// The policy identifies a user by user id alone.
			return act(ToolGetUserDetails, map[string]any{"user_id": userID}), map[string]string{"user_id": userID}
		},
		CheckPolicy: func(env sim.Environment, userID string, a emobench.Action) error {
			e, ok := env.(*sim.StateEnv[DB])
			if !ok {
				return fmt.Errorf("policy: %s: the environment is not an airline one", a.Name)
			}
			return e.State.checkWrite(userID, a)
		},
	}
	for i := range cat.Intents {
		cat.Intents[i].Ground = findable(cat.Intents[i].Ground)
	}
	return cat
}

// grounding is a grounder's view: the working copy's state, its user and
// the context's randomness.
type grounding struct {
	sim.GroundContext
	db *DB
	u  *User
}

func newGrounding(g sim.GroundContext) (*grounding, bool) {
	e, ok := g.Env.(*sim.StateEnv[DB])
	if !ok {
		return nil, false
	}
	u, ok := e.State.Users.Get(g.UserID)
	if !ok {
		return nil, false
	}
	return &grounding{GroundContext: g, db: e.State, u: u}, true
}

func (x *grounding) used(id string) bool { return x.Used != nil && x.Used(id) }

// usedInTask reports whether an earlier intent of the task used id.
func (x *grounding) usedInTask(id string) bool { return x.UsedInTask != nil && x.UsedInTask(id) }

// reservation picks one of the user's active reservations that ok
// accepts, preferring those no kept task used, then those the task's
// earlier intents left as they were in the initial database (so that two
// intents of one task act on different reservations when they can).
func (x *grounding) reservation(ok func(r *Reservation) bool) (*Reservation, bool) {
	var pools [4][]*Reservation
	for _, id := range x.u.Reservations {
		r, _ := x.db.Reservations.Get(id)
		// A reservation without flights or passengers is malformed: no
		// intent applies to it.
		// One request per reservation and task: an earlier intent's
		// reservation is never picked again (no second bag question or
		// refusal about it).
		if r == nil || r.Status != ReservationActive || len(r.Flights) == 0 || len(r.Passengers) == 0 || x.usedInTask(id) || !ok(r) {
			continue
		}
		rank := 0
		if x.used(id) {
			rank += 2
		}
		if orig, _ := initialDB().Reservations.Get(id); orig == nil || !reflect.DeepEqual(*orig, *r) {
			rank++
		}
		pools[rank] = append(pools[rank], r)
	}
	for _, pool := range pools {
		if len(pool) > 0 {
			return pool[x.Rand.IntN(len(pool))], true
		}
	}
	return nil, false
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
	a := act(ToolCancelReservation, map[string]any{"reservation_id": r.ID, "reason": reason})
	a.CompareArgs = []string{"reservation_id", "reason"}
	return a
}

// forbid marks a forbidden write as matched by the ids in keys alone, so
// that a careless call with other details still counts.
func forbid(a emobench.Action, keys ...string) emobench.Action {
	a.CompareArgs = keys
	return a
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

func groundCancelRecent(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool {
		return bookedWithin24h(r) && !x.db.flown(r) && !x.db.hasStatus(r, StatusCancelled) && r.Cabin != CabinBusiness
	})
	if !ok {
		return sim.Grounding{}, false
	}
	return x.cancelGrounding(r, ReasonChangeOfPlan, "my plans changed", nil)
}

func groundCancelAirline(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundCancelInsured(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundCancelBusiness(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool {
		return r.Cabin == CabinBusiness && r.Insurance == "no" && !bookedWithin24h(r) && !x.db.flown(r) && !x.db.hasStatus(r, StatusCancelled)
	})
	if !ok {
		return sim.Grounding{}, false
	}
	return x.cancelGrounding(r, ReasonChangeOfPlan, "my plans changed", nil)
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

func groundAddBags(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool { return !x.db.flown(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	p, ok := x.planBags(r, r.Cabin)
	if !ok {
		return sim.Grounding{}, false
	}
	gr := sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "added": plural(p.added, "checked bag"), "total": fmt.Sprint(p.total), "payment": describeMethod(x.u, p.pm)},
		Facts: map[string]string{
			"reservation_id": r.ID,
			"bags":           fmt.Sprintf("%d more, %d checked bags in total", p.added, p.total),
			"payment_method": describeMethod(x.u, p.pm),
		},
		Request: request(fmt.Sprintf("Add %s to reservation %s.", plural(p.added, "checked bag"), r.ID), ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r), p.action(r)},
		Uses:    []string{r.ID},
	}
	if p.fee > 0 {
		gr.Outputs = []string{dollars(p.fee)}
	}
	return gr, true
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
func groundAddBagsIfCheap(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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
	gr := sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "limit": fmt.Sprint(limit), "payment": describeMethod(x.u, p.pm)},
		Facts: map[string]string{"reservation_id": r.ID, "bags": fmt.Sprintf("reservation %s: "+bagCondition, r.ID, two, limit, two-1),
			"payment_method": describeMethod(x.u, p.pm)},
		Request: request(fmt.Sprintf("Add checked bags to reservation %s: two if their fee is at most $%d, otherwise one.", r.ID, limit),
			ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r), p.action(r)},
		Traits:  []string{emobench.TraitConditional},
		Uses:    []string{r.ID},
	}
	if p.fee > 0 {
		gr.Outputs = []string{dollars(p.fee)}
	}
	return gr, true
}

func groundChangePassenger(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundUpgradeCabin(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundChangeDate(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool { return r.Cabin != CabinBasicEconomy && x.oneFlight(r) })
	if !ok {
		return sim.Grounding{}, false
	}
	date, diff, pm, ok := x.dateMove(r)
	if !ok {
		return sim.Grounding{}, false
	}
	s := r.Flights[0]
	gr := sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "old_date": s.Date, "date": date, "payment": describeMethod(x.u, pm)},
		Facts:   map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": date, "payment_method": describeMethod(x.u, pm)},
		Request: request(fmt.Sprintf("Move reservation %s to %s.", r.ID, date), ToolUpdateReservationFlights),
		Actions: []emobench.Action{getReservation(r), searchDirect(s.Origin, s.Destination, date), moveAction(r, date, diff, pm)},
		Uses:    []string{r.ID},
	}
	if diff != 0 {
		gr.Outputs = []string{dollars(diff)}
	}
	return gr, true
}

// withCabin returns a copy of r in cabin, as the bag allowance sees it
// after an upgrade.
func withCabin(r *Reservation, cabin string) *Reservation {
	c := *r
	c.Cabin = cabin
	return &c
}

func groundUpgradeAddBags(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundChangeDateAddBags(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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
	gr := sim.Grounding{
		Slots: map[string]string{"reservation": r.ID, "flight": s.FlightNumber, "old_date": s.Date, "date": date,
			"payment": describeMethod(x.u, pm), "added": plural(p.added, "checked bag"), "total": fmt.Sprint(p.total)},
		Facts: map[string]string{"reservation_id": r.ID, "flight_number": s.FlightNumber, "date": date, "payment_method": describeMethod(x.u, pm),
			"bags": fmt.Sprintf("%d more, %d checked bags in total", p.added, p.total)},
		Request: request(fmt.Sprintf("Move reservation %s to %s and add %s.", r.ID, date, plural(p.added, "checked bag")),
			ToolUpdateReservationFlights, ToolUpdateReservationBaggages),
		Actions: []emobench.Action{getReservation(r), moveAction(r, date, diff, pm), p.action(r)},
		Uses:    []string{r.ID},
	}
	if total := diff + p.fee; total != 0 {
		gr.Outputs = []string{dollars(total)}
	}
	return gr, true
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

func groundBookDirect(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundBookCertificate(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundBookOnestop(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundCompensationDelayed(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool {
		return !r.Compensated && eligible(x.u, r) && !x.db.hasStatus(r, StatusCancelled) && x.db.hasStatus(r, StatusDelayed)
	})
	if !ok {
		return sim.Grounding{}, false
	}
	s, _ := x.disrupted(r, StatusDelayed)
	return x.compensation(r, s, DelayCompensation*len(r.Passengers)), true
}

func groundCompensationCancelled(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool {
		return !r.Compensated && eligible(x.u, r) && x.db.hasStatus(r, StatusCancelled)
	})
	if !ok {
		return sim.Grounding{}, false
	}
	s, _ := x.disrupted(r, StatusCancelled)
	return x.compensation(r, s, CancelCompensation*len(r.Passengers)), true
}

func groundCompensationThenCancel(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

// pickPhrase returns one of phrases, drawn by r.
func pickPhrase(r *rand.Rand, phrases []string) string { return phrases[r.IntN(len(phrases))] }

func groundReservationTotal(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool { return len(r.Passengers) >= 2 || r.TotalBaggages > 0 })
	if !ok {
		return sim.Grounding{}, false
	}
	purpose := pickPhrase(x.Rand, totalPurposes)
	return sim.Grounding{
		Slots:   map[string]string{"reservation": r.ID, "trip": x.trip(r), "purpose": purpose},
		Facts:   map[string]string{"reservation_id": r.ID, "purpose": purpose},
		Request: request(fmt.Sprintf("Tell me the total paid for reservation %s.", r.ID), ToolGetReservationDetails),
		Actions: []emobench.Action{getReservation(r)},
		Outputs: []string{dollars(r.TotalPaid())},
		Uses:    []string{r.ID},
	}, true
}

func groundAllTotal(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok || len(x.u.Reservations) < 2 || len(x.u.Reservations) > 4 || x.used(x.u.ID+"/all_reservations_total") || x.usedInTask(x.u.ID+"/all_reservations_total") {
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
	purpose := pickPhrase(x.Rand, allTotalPurposes)
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: request("Tell me the total paid for all my reservations.", ToolCalculate),
		Actions: actions,
		Outputs: []string{dollars(sum)},
		Uses:    []string{x.u.ID + "/all_reservations_total"},
	}, true
}

func groundFlightStatus(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundBagAllowance(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	// An allowance of at least two reads as a count, not a stray digit.
	r, ok := x.reservation(func(r *Reservation) bool { return FreeBags(x.u.Membership, r.Cabin)*len(r.Passengers) >= 2 })
	if !ok {
		return sim.Grounding{}, false
	}
	free := FreeBags(x.u.Membership, r.Cabin) * len(r.Passengers)
	purpose := pickPhrase(x.Rand, bagPurposes)
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
// write matched by the ids in keys.
func refusal(slots, facts map[string]string, req emobench.Request, reads []emobench.Action, uses []string, forbidden emobench.Action, keys ...string) sim.Grounding {
	return sim.Grounding{Slots: slots, Facts: facts, Request: req, Actions: reads, Forbidden: []emobench.Action{forbid(forbidden, keys...)}, Uses: uses}
}

func groundCancelNotEligible(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool { return r.Insurance == "no" && x.plain(r) })
	if !ok || !x.reasonFree(ReasonChangeOfPlan) {
		return sim.Grounding{}, false
	}
	return refusal(map[string]string{"reservation": r.ID, "trip": x.trip(r)},
		map[string]string{"reservation_id": r.ID, "reason": "my plans changed"},
		cancelRequest(r, ToolGetReservationDetails), []emobench.Action{getReservation(r)}, append(x.reasonUses(ReasonChangeOfPlan), r.ID),
		cancelAction(r, ReasonChangeOfPlan), "reservation_id"), true
}

func groundCancelInsuredChangeOfPlan(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	r, ok := x.reservation(func(r *Reservation) bool { return r.Insurance == "yes" && x.plain(r) })
	if !ok || !x.reasonFree(ReasonChangeOfPlan) {
		return sim.Grounding{}, false
	}
	return refusal(map[string]string{"reservation": r.ID, "trip": x.trip(r)},
		map[string]string{"reservation_id": r.ID, "reason": "my plans changed"},
		cancelRequest(r, ToolGetReservationDetails), []emobench.Action{getReservation(r)}, append(x.reasonUses(ReasonChangeOfPlan), r.ID),
		cancelAction(r, ReasonChangeOfPlan), "reservation_id"), true
}

func groundChangeBasicEconomy(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundCompensationNotDue(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundRemoveBags(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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

func groundTooManyPassengers(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
	const pax = MaxPassengers + 1
	var s Segment
	var price int
	found := false
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

func groundTransferFlown(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok {
		return sim.Grounding{}, false
	}
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
		Forbidden: []emobench.Action{forbid(cancelAction(r, ReasonChangeOfPlan), "reservation_id")},
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

func groundOutOfScope(g sim.GroundContext) (sim.Grounding, bool) {
	x, ok := newGrounding(g)
	if !ok || x.used(x.u.ID+"/transfer_out_of_scope") || x.usedInTask(x.u.ID+"/transfer_out_of_scope") {
		return sim.Grounding{}, false
	}
	topic := outOfScope[x.Rand.IntN(len(outOfScope))]
	contact := pickPhrase(x.Rand, contactPreferences)
	return sim.Grounding{
		Slots:   map[string]string{"topic": topic, "topic_cap": strings.ToUpper(topic[:1]) + topic[1:], "preferred_contact": contact},
		Facts:   map[string]string{"preferred_contact": contact},
		Request: request(fmt.Sprintf("Please help me: %s.", topic), ToolTransfer),
		Actions: []emobench.Action{act(ToolTransfer, map[string]any{"summary": fmt.Sprintf("User %s: %s.", x.u.ID, topic)})},
		Uses:    []string{x.u.ID + "/transfer_out_of_scope"},
	}, true
}
