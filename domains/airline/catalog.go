package airline

import (
	"fmt"
	"math/rand/v2"

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
				Ground: on(groundCancelPlans(false))},
			{Name: "cancel_airline_cancelled", Kind: sim.IntentWrite, Path: []string{R, ToolGetFlightStatus, ToolCancelReservation}, Families: unhappy,
				Templates: []string{
					"You cancelled my flight {flight} on {date}, which is part of {reservation}. I don't want to be rebooked: cancel the whole reservation and refund me. I'm not asking for anything else.",
					"My flight {flight} on {date} was cancelled by the airline, so {reservation} is useless to me now. I want the entire booking cancelled and my money back, nothing more.",
					"Since the airline cancelled flight {flight} on {date}, I'm done with {reservation}. Please cancel all of it and refund what I paid; I don't want another flight.",
				},
				Ground: on(groundCancelAirline)},
			{Name: "cancel_insured", Kind: sim.IntentWrite, Path: []string{R, ToolCancelReservation}, Families: []string{famSadness, famFear, famAnger},
				Templates: []string{
					"{why}, so I need to cancel {reservation_trip}. I bought travel insurance with it, so I expect a refund.",
					"I can't make {reservation_trip}: {why_lower}. I took out travel insurance, so please cancel it and refund me.",
					"Unfortunately {why_lower}, and I have to call off the {trip}. {Reservation} is insured; I want it cancelled with my money back.",
				},
				Ground: on(groundCancelInsured)},
			{Name: "cancel_business", Kind: sim.IntentWrite, Path: []string{R, ToolCancelReservation},
				Templates: []string{
					"My plans have changed and I want to cancel {reservation_trip}, which is in business class, with a refund.",
					"I no longer need the business class {trip} on {reservation}. Please cancel it and refund me.",
					"Something came up and I can't take my business class {trip}. I'd like {reservation} cancelled and the fare refunded.",
				},
				Ground: on(groundCancelPlans(true))},
			// Changes the policy allows.
			{Name: "add_bags", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationBaggages},
				Templates: []string{
					"I want to add {added} to {reservation}, so that it has {total} in all. If there is a fee, I will pay it with {payment}, and I want to know how much it is.",
					"We're packing more than planned: please put {added} on {reservation}, {total} in total. Any charge goes on {payment}; tell me what it comes to.",
					"Could you add {added} to my {reservation}? That makes {total} altogether. If it costs extra, use {payment} and let me know the amount.",
				},
				Ground: on(groundAddBags)},
			{Name: "add_bags_if_cheap", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationBaggages},
				Templates: []string{
					"I'd like to add checked bags to {reservation}: two more if the fee for them is at most ${limit}, otherwise just one. Any fee goes on {payment}; tell me what it comes to.",
					"We may need extra luggage on {reservation}. If adding two checked bags costs ${limit} or less, add two; if it costs more, add only one. Charge {payment} and let me know the fee.",
					"Please add bags to {reservation}: two if the fee comes to no more than ${limit}, otherwise one. Use {payment} for any charge and tell me the amount.",
				},
				Ground: on(groundAddBagsIfCheap)},
			{Name: "change_passenger", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationPassengers},
				Templates: []string{
					"{old} can no longer travel on {reservation}. I want to put {new}, born {dob}, in that seat instead.",
					"Please swap a traveller on {reservation}: {old} is out, and {new} (date of birth {dob}) is coming in their place.",
					"{new}, born {dob}, will fly instead of {old} on {reservation}. I'd like the passenger details updated.",
				},
				Ground: on(groundChangePassenger)},
			{Name: "upgrade_cabin", Kind: sim.IntentWrite, Path: []string{R, ToolSearchDirectFlight, ToolUpdateReservationFlights},
				Templates: []string{
					"I want to upgrade {reservation_trip}, to {cabin} for the whole trip, and pay the difference with {payment}. I want to know what the upgrade costs.",
					"I'd like more comfort on my {trip}: move {reservation} up to {cabin} on every flight. Charge the difference to {payment} and tell me how much it is.",
					"Can {reservation} be switched to {cabin}? I want it for all of the {trip}, paid with {payment}, and I'd like to hear the price difference.",
				},
				Ground: on(groundUpgradeCabin)},
			{Name: "change_date", Kind: sim.IntentWrite, Path: []string{R, ToolSearchDirectFlight, ToolUpdateReservationFlights},
				Templates: []string{
					"I need to move {reservation}, flight {flight} on {old_date}, to the same flight on {date}. Any difference in price goes on {payment}; I want to know how much it is.",
					"My dates shifted: I'd like to take flight {flight} on {date} instead of {old_date} ({reservation}). Settle any fare difference with {payment} and tell me the amount.",
					"Please rebook {reservation} from {old_date} to {date}, same flight {flight}. Use {payment} for any price change and let me know what it is.",
				},
				Ground: on(groundChangeDate)},
			{Name: "upgrade_cabin_add_bags", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationFlights, ToolUpdateReservationBaggages},
				Templates: []string{
					"I want {reservation_trip}, upgraded to {cabin} for the whole trip, and then {added} added so it has {total} in all. Everything goes on {payment}; tell me what I am charged in total.",
					"Two things for {reservation}: move the {trip} up to {cabin} on every flight, and add {added} ({total} altogether). Pay with {payment} and let me know the total extra cost.",
					"I'm treating myself on my {trip}: upgrade {reservation} to {cabin}, and with the new cabin add {added}, {total} in total. Please charge {payment} and tell me how much it all comes to.",
				},
				Ground: on(groundUpgradeAddBags)},
			{Name: "change_date_add_bags", Kind: sim.IntentWrite, Path: []string{R, ToolUpdateReservationFlights, ToolUpdateReservationBaggages},
				Templates: []string{
					"I need to move {reservation} from {old_date} to {date}, same flight {flight}, and add {added} so it has {total} in all. Charge any difference and fees to {payment}; I want to know the total.",
					"My trip is shifting to {date}: put {reservation} on flight {flight} that day instead of {old_date}, and add {added} ({total} altogether). Use {payment} and tell me what I pay.",
					"Please rebook {reservation} onto flight {flight} on {date} rather than {old_date}, and add {added}, {total} in total. Everything goes on {payment}; how much is it?",
				},
				Ground: on(groundChangeDateAddBags)},
			// Bookings.
			{Name: "book_direct", Kind: sim.IntentWrite, Path: []string{ToolSearchDirectFlight, ToolBookReservation},
				Templates: []string{
					"I want to book a one-way {cabin} trip from {origin} to {destination} on {date}, {who}, with {bags}. {choice} {insurance}. I will pay with {payment}, and I want to know the total price.",
					"Please get me a one-way {cabin} ticket {who} from {origin} to {destination} on {date}. {choice} We'll have {bags}. {insurance}. Put it on {payment} and tell me the total.",
					"I need to fly from {origin} to {destination} on {date}, one way in {cabin}, {who}. {choice} {bags_cap}. {insurance}. Charge {payment} and let me know the full price.",
				},
				Ground: on(groundBookDirect)},
			{Name: "book_with_certificate", Kind: sim.IntentWrite, Path: []string{ToolSearchDirectFlight, ToolBookReservation},
				Templates: []string{
					"I want to book a one-way {cabin} trip from {origin} to {destination} on {date}, {who}, with {bags}. {choice} {insurance}. I will pay with {payment}, and I want to know the total price and what is left for the card.",
					"I'd like to use my travel certificate on a new trip: one way from {origin} to {destination} on {date} in {cabin}, {who}, with {bags}. {choice} {insurance}. Pay with {payment}; tell me the total and the card's share.",
					"Book me a one-way flight {who} from {origin} to {destination} on {date}, {cabin}, {bags}. {choice} {insurance}. Payment: {payment}. What is the total, and how much goes on the card?",
				},
				Ground: on(groundBookCertificate)},
			{Name: "book_onestop", Kind: sim.IntentWrite, Path: []string{ToolSearchOnestopFlight, ToolBookReservation},
				Templates: []string{
					"I want to book a one-way {cabin} trip from {origin} to {destination} on {date}, {who}, with {bags}. There is no direct flight, so I will connect in {via}. {choice} {insurance}. I will pay with {payment}, and I want to know the total price.",
					"I need to get from {origin} to {destination} on {date}; I know there's no nonstop, so a connection through {via} is fine. {choice} One way, {cabin}, {who}, {bags}. {insurance}. Pay with {payment} and tell me the total.",
					"Please book a one-way {cabin} itinerary {who} from {origin} to {destination} on {date}, changing planes in {via}. {choice} We'll have {bags}. {insurance}. Use {payment}; what's the total?",
				},
				Ground: on(groundBookOnestop)},
			// Compensation where it is due.
			{Name: "compensation_delayed", Kind: sim.IntentWrite, Path: []string{R, ToolGetFlightStatus, ToolSendCertificate}, Families: unhappy,
				Templates: []string{
					"My flight {flight} on {date}, on {reservation}, is delayed by {delay} minutes, and this has thrown my plans into disarray. I want to complain and get some compensation for it. I don't want to change or cancel the trip. Tell me how much you are giving me.",
					"Flight {flight} on {date} is running {delay} minutes late and it's wrecking my schedule ({reservation}). I'm keeping the trip, but I expect something for the trouble. Tell me how much you are giving me.",
					"I've just learned flight {flight} on {date} is delayed {delay} minutes. That's on {reservation}. I'm not changing anything, but I'd like to be compensated. Tell me how much you are giving me.",
				},
				Ground: on(groundCompensation(StatusDelayed))},
			{Name: "compensation_cancelled", Kind: sim.IntentWrite, Path: []string{R, ToolGetFlightStatus, ToolSendCertificate}, Families: unhappy,
				Templates: []string{
					"You cancelled my flight {flight} on {date}, on {reservation}. I am unhappy about it and want compensation. I'll sort out the trip myself later; don't change or cancel anything now. Tell me how much you are giving me.",
					"Flight {flight} on {date} was cancelled and it has left me in a bind ({reservation}). I want to be compensated for it; leave the reservation as it is for now. Tell me how much you are giving me.",
					"I want to lodge a complaint: my flight {flight} on {date} on {reservation} was cancelled. I expect compensation, and I don't want anything else changed today. Tell me how much you are giving me.",
				},
				Ground: on(groundCompensation(StatusCancelled))},
			{Name: "compensation_then_cancel", Kind: sim.IntentWrite, Path: []string{R, ToolSendCertificate, ToolCancelReservation}, Families: unhappy,
				Templates: []string{
					"You cancelled my flight {flight} on {date}, on {reservation}. I am unhappy about it and want compensation. Then I want the whole reservation cancelled with a refund, as I will make other plans. Tell me how much you are giving me.",
					"My flight {flight} on {date} got cancelled ({reservation}). First I want compensation for the trouble, and then cancel the whole booking and refund me; I'll travel another way. Tell me how much you are giving me.",
					"Because the airline cancelled flight {flight} on {date}, I want two things for {reservation}: compensation, and after that the entire reservation cancelled with my money back. Tell me how much you are giving me.",
				},
				Ground: on(groundCompensationThenCancel)},
			// Information.
			{Name: "reservation_total", Kind: sim.IntentRead, Path: []string{R},
				Templates: []string{
					"I need to know the total I paid for {reservation_trip}, with every passenger, bag and insurance included, {purpose}. I don't want to change anything.",
					"How much did {reservation} cost me altogether? I need the full amount paid for the {trip} {purpose}; please don't change anything.",
					"I need the total amount charged for {reservation_trip}, fees included, {purpose}. Just the figure, no changes.",
				},
				Ground: on(groundReservationTotal)},
			{Name: "all_reservations_total", Kind: sim.IntentRead, Path: []string{R, ToolCalculate},
				Templates: []string{
					"I need the total amount I have paid for all of my reservations together, {purpose}. I don't want to change anything.",
					"Could you add up what I've spent across every reservation on my account, {purpose}? Just the grand total, please; no changes.",
					"I want one number, {purpose}: the sum I have paid for all my reservations. Don't modify anything.",
				},
				Ground: on(groundAllTotal)},
			{Name: "flight_status", Kind: sim.IntentRead, Path: []string{R, ToolGetFlightStatus},
				Templates: []string{
					"I'm flying {flight} on {date} on {reservation}. I just want to know its status right now; I don't need any changes.",
					"Can you tell me whether flight {flight} on {date} ({reservation}) is on schedule? That's all I need.",
					"Before I head out I'd like to check the status of my flight {flight} on {date}, {reservation}. No changes, just the status.",
				},
				Ground: on(groundFlightStatus)},
			{Name: "bag_allowance", Kind: sim.IntentRead, Path: []string{R},
				Templates: []string{
					"How many checked bags can we take for free on {reservation_trip}? I'm asking {purpose}; don't add anything.",
					"I'm packing for {reservation_trip} and want to know the free checked bag allowance for everyone on it, in total, {purpose}. No changes please.",
					"What is the total free checked baggage allowance on {reservation}? Just tell me the number of bags, {purpose}; I'm not adding any yet.",
				},
				Ground: on(groundBagAllowance)},
			// Requests the policy forbids: the right answer is a refusal.
			{Name: "cancel_not_eligible", Kind: sim.IntentForbidden, Path: []string{R},
				Templates: []string{
					"My plans have changed and I want to cancel {reservation_trip}, and get my money back; I don't want to change it instead.",
					"I won't be taking my {trip} after all. Cancel {reservation} and refund me; I'm not interested in moving it to other dates.",
					"Please cancel {reservation_trip} and return what I paid. My plans changed and a different flight won't help.",
				},
				Ground: on(groundCancelChangeOfPlan("no"))},
			{Name: "cancel_insured_change_of_plan", Kind: sim.IntentForbidden, Path: []string{R},
				Templates: []string{
					"I have travel insurance on {reservation_trip}, and my plans have simply changed. I want it cancelled and refunded; nothing else will do.",
					"My plans changed, so I'd like to cancel the {trip} on {reservation}. It's insured, so I expect my money back rather than a change.",
					"Cancel {reservation} please: I don't need the {trip} any more since my plans changed, and I paid for insurance, so refund me in full.",
				},
				Ground: on(groundCancelChangeOfPlan("yes"))},
			{Name: "change_basic_economy_flight", Kind: sim.IntentForbidden, Path: []string{R, ToolSearchDirectFlight},
				Templates: []string{
					"I need to move {reservation}, flight {flight} on {old_date}, to the same flight on {date}. Any difference in price goes on {payment}. I don't want to cancel.",
					"My dates changed: please put {reservation} on flight {flight} on {date} instead of {old_date}, and charge any difference to {payment}. Cancelling is not an option for me.",
					"Could you rebook {reservation} from {old_date} to {date}, same flight {flight}? I'll pay any difference with {payment}; I only want the date changed.",
				},
				Ground: on(groundChangeBasicEconomy)},
			{Name: "compensation_not_due", Kind: sim.IntentForbidden, Path: []string{R, ToolGetFlightStatus}, Families: unhappy,
				Templates: []string{
					"My flight {flight} on {date}, on {reservation}, {what}, and I want compensation for it. I don't want to change or cancel anything.",
					"Flight {flight} on {date} {what} ({reservation}). I think I'm owed something for that; I'm keeping the booking as it is.",
					"I'm fed up: my flight {flight} on {date} {what}. It's on {reservation}. I want compensation, not changes.",
				},
				Ground: on(groundCompensationNotDue)},
			{Name: "remove_bags", Kind: sim.IntentForbidden, Path: []string{R},
				Templates: []string{
					"I booked {had} on {reservation} but I only need {total} now. Take the extra off and refund the fee.",
					"{Reservation} has {had}, which is more than I need: bring it down to {total} and give me back what I paid for the rest.",
					"I packed lighter than planned. Please reduce the checked bags on {reservation} from {had} to {total} and refund the difference.",
				},
				Ground: on(groundRemoveBags)},
			{Name: "book_too_many_passengers", Kind: sim.IntentForbidden, Path: []string{ToolSearchDirectFlight},
				Templates: []string{
					"I want to book one reservation for our group of {count} on flight {flight} from {origin} to {destination} on {date}, {cabin}, paid with {payment}. We must all be on the same booking.",
					"Please put all {count} of us on a single booking: flight {flight}, {origin} to {destination}, {date}, in {cabin}. Use {payment}. Separate bookings won't do.",
					"Our family of {count} needs flight {flight} from {origin} to {destination} on {date} in {cabin}, all on one reservation, charged to {payment}.",
				},
				Ground: on(groundTooManyPassengers)},
			// Requests only a human agent can handle.
			{Name: "transfer_flown_cancel", Kind: sim.IntentTransfer, Path: []string{R, ToolTransfer},
				Templates: []string{
					"I have already flown the outbound flight of {reservation_trip}. I no longer need the return flight {flight} on {date} and want it cancelled and refunded. If the agent cannot do it, I want to be passed to someone who can.",
					"I'm already at my destination on {reservation_trip}, and I won't use the return flight {flight} on {date}. Cancel it and refund me, or get me someone who can.",
					"The first half of my {trip} is done, but I want to drop the return flight {flight} on {date} from {reservation} with a refund. If you can't, hand me over to a person.",
				},
				Ground: on(groundTransferFlown)},
			{Name: "transfer_out_of_scope", Kind: sim.IntentTransfer, Path: []string{ToolTransfer},
				Templates: []string{
					"{topic_cap}. I'd like a person to handle it; {preferred_contact} works best for me.",
					"I need help with something specific: {topic}. Please connect me with someone who can take care of it; I prefer {preferred_contact}.",
					"{topic_cap}, and I want it sorted out by a human agent, ideally through {preferred_contact}.",
				},
				Ground: on(groundOutOfScope)},
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
