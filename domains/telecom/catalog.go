package telecom

import (
	"math/rand/v2"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file is the telecom intent catalog Tracer generates tasks from (see
// sim.Catalog and domains/README.md, "Writing an intent catalog"). Each
// intent's gold actions, after the authentication, call its Path's tools
// in order, with at most one more read among them (the outage check
// before a credit). Every scalar argument of a gold write is a fact's
// value or in an earlier gold read's result, except the troubleshooting
// id a ticket references (the result of the troubleshooting run, a write)
// and the amount of an outage credit (the policy's $5 a day of the
// outage's duration_days), which ExemptArgs names.

// Catalog returns the telecom intent catalog: the authentication lookups
// as openers, the tool graph, the customers, authentication by a line's
// phone number (two times in three) or by name and date of birth, the
// policy predicates (CheckPolicy) and the intents (catalogIntents).
func Catalog() *sim.Catalog {
	return &sim.Catalog{
		Openers: []string{ToolFindByPhone, ToolFindByNameDOB},
		Follows: toolGraph,
		Intents: catalogIntents(),
		Users: func(env sim.Environment) []string {
			db, ok := sim.StateOf[DB](env)
			if !ok {
				return nil
			}
			return db.Customers.Keys()
		},
		Authenticate: func(env sim.Environment, userID string, r *rand.Rand) (emobench.Action, map[string]string) {
			facts := map[string]string{}
			db, ok := sim.StateOf[DB](env)
			if !ok || db.Customers.At(userID) == nil {
				return emobench.Action{}, facts
			}
			c := db.Customers.At(userID)
			if r.IntN(3) != 0 {
				facts["phone"] = c.ContactPhone
				return sim.NewAction(ToolFindByPhone, "phone_number", c.ContactPhone), facts
			}
			facts["first_name"], facts["last_name"], facts["date_of_birth"] = c.FirstName, c.LastName, c.DateOfBirth
			return sim.NewAction(ToolFindByNameDOB, "first_name", c.FirstName, "last_name", c.LastName, "date_of_birth", c.DateOfBirth), facts
		},
		CheckPolicy:  CheckPolicy,
		ExemptArgs:   []string{"troubleshooting_id", "amount"},
		Alternatives: Alternatives,
	}
}

// toolGraph is which tool's result feeds which: the customer id from an
// authentication gives the account, its lines, its bills and the zip of
// its service address; a line gives its device to troubleshoot; a
// troubleshooting run's id goes on a ticket; a bill's id and balance
// give payments, arrangements and waivers; an outage's id and duration
// give a credit. Writes are followed by what starts the next request.
var toolGraph = func() map[string][]string {
	first := []string{ToolGetCustomer, ToolGetLine, ToolGetBilling, ToolListPlans, ToolCheckOutages, ToolTroubleshoot, ToolTransfer}
	return map[string][]string{
		ToolFindByPhone:       first,
		ToolFindByNameDOB:     first,
		ToolGetCustomer:       {ToolGetLine, ToolGetBilling, ToolChangePlan, ToolSeniorDiscount, ToolEnableAutopay, ToolCheckOutages, ToolTransfer},
		ToolGetLine:           {ToolTroubleshoot, ToolAddFeature, ToolChangePlan, ToolGetBilling, ToolTransfer},
		ToolGetBilling:        {ToolMakePayment, ToolCreateArrangement, ToolWaiveLateFee, ToolEnableAutopay, ToolTransfer},
		ToolListPlans:         {ToolChangePlan, ToolAddFeature},
		ToolCheckOutages:      {ToolApplyCredit, ToolTroubleshoot},
		ToolTroubleshoot:      {ToolOpenTicket, ToolGetLine},
		ToolOpenTicket:        {ToolApplyCredit, ToolGetLine},
		ToolChangePlan:        {ToolAddFeature, ToolGetLine},
		ToolAddFeature:        {ToolGetLine},
		ToolCreateArrangement: {ToolEnableAutopay, ToolGetBilling},
		ToolMakePayment:       {ToolReactivateLine, ToolEnableAutopay, ToolGetBilling},
		ToolWaiveLateFee:      {ToolMakePayment, ToolCreateArrangement, ToolGetBilling},
		ToolEnableAutopay:     {ToolGetBilling},
		ToolReactivateLine:    {ToolGetLine},
		ToolApplyCredit:       {ToolGetBilling},
		ToolSeniorDiscount:    {ToolGetBilling},
	}
}()

// allFamilies (nil) lets every intent take every emotion family: a test
// split balances the families within each task kind (refusals and
// transfers included), so no scenario rules one out; a calm or cheerful
// customer with a stolen phone or a debt is rarer, not impossible.
var allFamilies []string

// waiveThenPayOrSplitTemplates state a condition the bill decides: pay
// what is left after the waiver now, or split it (two intents, one a
// branch).
var waiveThenPayOrSplitTemplates = []string{
	"There's a late fee on my overdue {month} bill and I want it waived. If that brings what I owe on it under ${threshold}, pay the rest now with my {payment}; otherwise split the rest into {installments} monthly payments.",
	"Please take the late fee off my past-due {month} bill. Then, if the balance left is below ${threshold}, charge all of it to my {payment}; if not, set me up to pay it in {installments} installments.",
	"I'd like the late fee on my overdue {month} bill removed. If what's left is less than ${threshold}, I'll pay it all now with my {payment}; if it's ${threshold} or more, I want it spread over {installments} months.",
}

// catalogIntents are the telecom intents: writes the policy allows, reads,
// transfers, and forbidden requests whose gold only reads.
func catalogIntents() []sim.Intent {
	return []sim.Intent{
		{
			Name: "change_plan_next_cycle", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetCustomer, ToolChangePlan},
			Templates: []string{
				"I'd like {line} moved to the {plan} plan, and I want to know the date it starts.",
				"Please switch {line} over to {plan}; tell me when the new plan kicks in.",
				"I want {line} on the {plan} plan from now on. When does it take effect?",
			},
			Ground: groundChangePlan(false),
		},
		{
			Name: "change_plan_then_international", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetCustomer, ToolChangePlan, ToolAddFeature},
			Templates: []string{
				"I'm travelling abroad soon: put {line} on the {plan} plan and add {feature} to it. When does the plan change start?",
				"Two things for {line}: the {plan} plan instead of the current one, and {feature} on top. Tell me the plan's start date.",
				"Please move {line} to {plan} and switch on {feature} for it; I'd like to know when the new plan begins.",
			},
			Ground: groundChangePlan(true),
		},
		{
			Name: "add_feature", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetLine, ToolAddFeature},
			Templates: []string{
				"I want {feature} added to {line}.",
				"Could you turn on {feature} for {line}? I need it this week.",
				"Please put {feature} on {line}.",
			},
			Ground: groundAddFeature,
		},
		{
			Name: "senior_discount", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetCustomer, ToolSeniorDiscount},
			Templates: []string{
				"I turned {age} a while ago and I'd like the senior discount on my account.",
				"A friend told me there's a senior discount. I'm {age}; please put it on my bills.",
				"I'm {age} years old and I want the senior discount applied to my account.",
			},
			Ground: groundSeniorDiscount,
		},
		{
			Name: "payment_arrangement", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetBilling, ToolCreateArrangement},
			Templates: []string{
				"I can't pay my overdue {month} bill in one go. I'd like to split it into {installments} monthly payments.",
				"My {month} bill is past due and money is tight; can it be paid in {installments} installments?",
				"Please set me up so I can pay the overdue {month} bill over {installments} months.",
			},
			Ground: groundArrangement(false),
		},
		{
			Name: "payment_arrangement_then_autopay", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetBilling, ToolCreateArrangement, ToolEnableAutopay},
			Templates: []string{
				"I fell behind on my {month} bill. I want it split into {installments} monthly payments, and autopay on my {payment} so it doesn't happen again.",
				"Please spread the overdue {month} bill over {installments} months, then turn on autopay with my {payment}.",
				"I'd like a payment plan of {installments} installments for my late {month} bill, and from now on autopay from my {payment}.",
			},
			Ground: groundArrangement(true),
		},
		{
			Name: "enable_autopay", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetCustomer, ToolEnableAutopay},
			Templates: []string{
				"I keep forgetting to pay; I want autopay on with my {payment}.",
				"Please turn on automatic payments for my bills, using my {payment}.",
				"From now on my bills should be paid automatically from my {payment}.",
			},
			Ground: groundAutopay,
		},
		{
			Name: "waive_late_fee", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetBilling, ToolWaiveLateFee},
			Templates: []string{
				"There's a late fee on my {month} bill. I've been a customer for years; I want it waived, and tell me what I owe on that bill then.",
				"I was late once with the {month} bill and got a fee. Please remove it and tell me the balance left on that bill.",
				"Can the late fee on my {month} bill go away? I'd also like to know what I still owe on it.",
			},
			Ground: groundWaiveLateFee,
		},
		{
			Name: "waive_then_pay_if_small", Kind: sim.IntentWrite, Families: allFamilies,
			Path:      []string{ToolGetBilling, ToolWaiveLateFee, ToolMakePayment},
			Templates: waiveThenPayOrSplitTemplates,
			Ground:    groundWaiveThenPayOrSplit(true),
		},
		{
			Name: "waive_then_split_if_large", Kind: sim.IntentWrite, Families: allFamilies,
			Path:      []string{ToolGetBilling, ToolWaiveLateFee, ToolCreateArrangement},
			Templates: waiveThenPayOrSplitTemplates,
			Ground:    groundWaiveThenPayOrSplit(false),
		},
		{
			Name: "pay_and_reactivate", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetBilling, ToolMakePayment, ToolReactivateLine},
			Templates: []string{
				"I want {line} working again: pay the overdue {month} bill in full with my {payment} and turn the line back on. How much is it?",
				"I need {line} back today: pay off my past-due {month} bill with my {payment} and reactivate it, and tell me the amount.",
				"Please take the full overdue {month} balance from my {payment} and reactivate {line}; I'd like to hear how much you charged.",
			},
			Ground: groundPayAndReactivate,
		},
		{
			Name: "troubleshoot_resolved", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetLine, ToolTroubleshoot},
			Templates: []string{
				"The phone on {line} has had {issue} since this morning. I want it fixed, and if you can't fix it, a ticket for a technician; tell me whether it worked.",
				"Something's wrong with {line}: {issue}. Check it and tell me if it's fixed; if it isn't, open a support ticket.",
				"I've got {issue} on {line}. Please sort it out, let me know the result, and open a ticket only if it's still broken.",
			},
			Ground: groundTroubleshoot(ConditionNetworkConfig),
		},
		{
			Name: "troubleshoot_then_ticket", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetLine, ToolTroubleshoot, ToolOpenTicket},
			Templates: []string{
				"The phone on {line} has had {issue} for days now. Check it, and if you can't fix it I want a ticket so a technician looks at it; tell me whether it worked.",
				"I've had {issue} on {line} all week. I want it diagnosed and to know the result, and a support ticket if it stays broken.",
				"{Line} still has {issue} after I restarted it. Please test it, tell me if it's fixed, and open a ticket if the problem remains.",
			},
			Ground: groundTroubleshoot(ConditionHardware),
		},
		{
			Name: "troubleshoot_ticket_outage_credit", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolTroubleshoot, ToolOpenTicket, ToolApplyCredit},
			Templates: []string{
				"Since the outage in {zip} started on {outage_start} I've had {issue} on {phone_number}. Check it, open a ticket if it isn't fixed, and credit me for the outage; tell me the credit.",
				"{Issue} on {phone_number} since {outage_start}, and I hear there's an outage in {zip} since then. I want it looked at, a ticket if needed, and the outage credit I'm owed, with the amount.",
				"My line {phone_number} has had {issue} since the outage in my area ({zip}) began on {outage_start}. Please test it, log a ticket if it stays broken, and give me the service credit for that outage. How much is it?",
			},
			Ground: groundTicketAndCredit,
		},
		{
			Name: "outage_credit", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolCheckOutages, ToolApplyCredit},
			Templates: []string{
				"The network in my area ({zip}) went down on {outage_start} and I had {issue}. I want the credit for that outage, and to know how much it is.",
				"There was an outage around {zip} that started on {outage_start}: I had {issue} on my phone. Please credit my account and tell me the amount.",
				"I had {issue} during the outage in {zip} that began on {outage_start}. I'd like the service credit for it; how much will I get?",
			},
			Ground: groundOutageCredit,
		},
		{
			Name: "bill_amount", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetBilling},
			Templates: []string{
				"I want to know the total of my {month} bill and its due date, {purpose}.",
				"How much was my {month} bill, and when is it due? I'm asking {purpose}.",
				"Tell me the amount and the due date of the {month} bill, {purpose}.",
			},
			Ground: groundBillAmount,
		},
		{
			Name: "device_installment_balance", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetLine},
			Templates: []string{
				"How much do I still owe on the phone for line {phone_number}? I'm asking {purpose}.",
				"I want the remaining installment balance of the device on {phone_number}, {purpose}.",
				"What's left to pay on my {model} on line {phone_number}? I need it {purpose}.",
			},
			Ground: groundInstallmentBalance,
		},
		{
			Name: "current_plan", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetLine},
			Templates: []string{
				"Which plan is line {phone_number} on right now? I want to know {purpose}.",
				"Remind me of the plan on {phone_number}, {purpose}.",
				"What plan do I have on {phone_number}? I'm asking {purpose}.",
			},
			Ground: groundCurrentPlan,
		},
		{
			Name: "next_billing_cycle", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetCustomer},
			Templates: []string{
				"When does my next billing cycle start? I want to know {purpose}.",
				"Tell me the date my next billing cycle begins, {purpose}.",
				"What's the first day of my next billing period? I'm asking {purpose}.",
			},
			Ground: groundNextCycle,
		},
		{
			Name: "outage_status", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolCheckOutages},
			Templates: []string{
				"Is there an outage in {zip} right now? My service has been patchy and I want to know its status {purpose}.",
				"I'd like to know whether the network problem around {zip} is over or still going, {purpose}.",
				"Is the network down in my area, {zip}, or has any outage there been fixed? I'm asking {purpose}.",
			},
			Ground: groundOutageStatus,
		},
		{
			Name: "port_out_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetLine, ToolTransfer},
			Templates: []string{
				"I'm moving my number {phone_number} to another carrier and I need it released for the port. I'll talk to whoever handles that.",
				"I want to port {phone_number} out to a new provider; please get me to the right person.",
				"I'm leaving for another network and taking {phone_number} with me. Whoever does port-outs, I want to talk to them.",
			},
			Ground: groundTransferLine("wants to port line %s out to another carrier", "Port my number %s out to another carrier.", true),
		},
		{
			Name: "stolen_phone_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolTransfer},
			Templates: []string{
				"My phone with {phone_number} was stolen last night. I need the SIM blocked and a new one, and I'll talk to whoever can do it.",
				"Someone stole my phone ({phone_number}). I want the SIM stopped and replaced; put me through to a person if you can't.",
				"My {phone_number} phone is gone, stolen. Block it and get me a new SIM, or get me someone who can.",
			},
			Ground: groundTransferLine("reports the phone of line %s stolen and wants the SIM blocked and replaced", "Block the stolen phone of line %s and get me a new SIM.", false),
		},
		{
			Name: "cancel_line_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetLine, ToolTransfer},
			Templates: []string{
				"I want to cancel my line {phone_number}; my son has his own plan now. Please get me to whoever handles cancellations.",
				"Please cancel {phone_number} for good. If you can't do it yourself, put me through to someone who can.",
				"I don't need {phone_number} anymore and I want the line cancelled. I'll talk to whoever does that.",
			},
			Ground: groundTransferLine("wants line %s cancelled", "Cancel my line %s.", true),
		},
		{
			Name: "insurance_claim_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolTransfer},
			Templates: []string{
				"I dropped the phone I use for {phone_number} and the screen is shattered. I want to file an insurance claim; get me to whoever handles claims.",
				"My phone for {phone_number} went through the wash and won't turn on. I'd like to claim it on my insurance; please put me through to the right person.",
				"The phone on {phone_number} broke in a fall. I want to make an insurance claim with someone who can process it.",
			},
			Ground: groundTransferLine("wants to file an insurance claim for the broken phone of line %s", "File an insurance claim for my broken phone on line %s.", false),
		},
		{
			Name: "dispute_charge_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetBilling, ToolTransfer},
			Templates: []string{
				"My {month} bill has a charge I never agreed to, the {charge}. I want to dispute it with someone who can act on it.",
				"I'm disputing the {charge} on the {month} bill; I want a person who handles disputes.",
				"The {month} bill is wrong: I never asked for the {charge}. I want to file a dispute; get me to whoever deals with that.",
			},
			Ground: groundDisputeTransfer,
		},
		// Forbidden intents, those that ground for the fewest customers
		// first: SpreadIntents tries the least kept in catalog order. When
		// the policy offers an allowed alternative (a plan change from the
		// next cycle, a shorter arrangement, paying the bill first), every
		// template declines it: a user who accepted would leave a state
		// the gold does not have, failing an agent that did right.
		{
			Name: "second_late_fee_waiver", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetBilling},
			Templates: []string{
				"I want the late fee on my {month} bill waived. It was only a few days late.",
				"Please take the late fee off the {month} bill; I don't think I should pay it.",
				"The {month} bill has a late fee again. Remove it, please.",
			},
			Ground: groundSecondWaiver,
		},
		{
			Name: "arrangement_bill_not_due", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetBilling},
			Templates: []string{
				"My {month} bill is due soon and I'd rather pay it in {installments} monthly parts.",
				"I want to split the {month} bill into {installments} payments before it's even due.",
				"Please let me pay the {month} bill in {installments} installments; I know it isn't late yet.",
			},
			Ground: groundArrangementNotDue,
		},
		{
			Name: "feature_on_suspended_line", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetLine},
			Templates: []string{
				"I want {feature} added to {line} before my trip. If it can't go on the line as it is now, leave it.",
				"Please put {feature} on {line}; I leave on Friday. If it can't go on the line as it is now, leave it.",
				"Turn on {feature} for {line}, please. If it can't go on the line as it is now, leave it.",
			},
			Ground: groundFeatureSuspended,
		},
		{
			Name: "reactivate_with_overdue", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetBilling},
			Templates: []string{
				"{Line} was cut off. I want it back on today; I'll sort out the bill later. If the bill has to be paid first, leave the line as it is.",
				"Please turn {line} back on. I can't pay the overdue bill this week. If the bill has to be paid first, leave the line as it is.",
				"I need {line} working again now, and I'm not paying the late bill until next month. If the bill has to be paid first, leave the line as it is.",
			},
			Ground: groundReactivateOverdue,
		},
		{
			Name: "senior_discount_underage", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetCustomer},
			Templates: []string{
				"I'm {age}, close enough to retirement; I want the senior discount on my account.",
				"Please give my account the senior discount. I'm {age} and money is tight.",
				"I want the senior discount. I'm {age}, and my mother who uses one of my lines is well over 70.",
			},
			Ground: groundSeniorUnderage,
		},
		{
			Name: "arrangement_too_long", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetBilling},
			Templates: []string{
				"My {month} bill is overdue and I can only manage it over {installments} months. If I can't split it into {installments} payments, leave it.",
				"I want the late {month} bill split into {installments} monthly payments, nothing shorter. If I can't split it into {installments} payments, leave it.",
				"Please spread my overdue {month} bill across {installments} installments. If I can't split it into {installments} payments, leave it.",
			},
			Ground: groundArrangementTooLong,
		},
		{
			Name: "credit_without_outage", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolCheckOutages},
			Templates: []string{
				"My service in {zip} was terrible last week. I want ${amount} credited to my account for it.",
				"I had no signal for two days around {zip}; I expect a ${amount} credit.",
				"Credit me ${amount}: the network near {zip} let me down last week.",
			},
			Ground: groundCreditWithoutOutage,
		},
		{
			Name: "change_plan_today", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetCustomer},
			Templates: []string{
				"I want line {phone_number} on the {plan} plan starting today, {today}, not next month. If it can't start today, I don't want the change at all.",
				"Put {phone_number} on {plan} right now, effective today ({today}); I'm not waiting for the next cycle. If it can't start today, I don't want the change at all.",
				"I need the {plan} plan on {phone_number} from today, {today}. If it can't start today, I don't want the change at all.",
			},
			Ground: groundChangePlanToday,
		},
		{
			Name: "ticket_without_troubleshooting", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetLine},
			Templates: []string{
				"I have {issue} on {phone_number}. I already restarted everything myself; don't run any tests, just open a ticket.",
				"Skip the troubleshooting: {phone_number} has {issue}, and I want a technician ticket now.",
				"I know the drill and I've done it all. {Issue} on {phone_number}; open a support ticket without any checks.",
			},
			Ground: groundTicketWithoutTroubleshooting,
		},
	}
}
