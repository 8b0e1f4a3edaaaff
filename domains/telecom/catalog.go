package telecom

import (
	_ "embed"

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

// intentsJSON declares the intents (sim.ReadIntents): name, kind, path and
// the customer's phrasings, each bound to its grounder (ground.go) in
// grounders. No intent names emotion families: a test split balances the
// families within each task kind (refusals and transfers included), so no
// scenario rules one out; a calm or cheerful customer with a stolen phone
// or a debt is rarer, not impossible.
//
//go:embed intents.json
var intentsJSON []byte

// Catalog returns the telecom intent catalog: the authentication lookups
// as openers, the tool graph, the customers, authentication by a line's
// phone number (two times in three) or by name and date of birth, the
// policy predicates (CheckPolicy) and the intents (intents.json).
func Catalog() *sim.Catalog {
	intents, err := sim.ReadIntents(intentsJSON, grounders)
	if err != nil {
		panic(err) // intents.json is embedded: a bug caught by every test
	}
	customers := func(db *DB) *sim.Table[Customer] { return &db.Customers }
	return &sim.Catalog{
		Openers: []string{ToolFindByPhone, ToolFindByNameDOB},
		Follows: toolGraph,
		Intents: intents,
		Users:   sim.UsersOf(customers),
		Authenticate: sim.Authenticator(customers, func(c *Customer) []sim.Login {
			return []sim.Login{
				{Tool: ToolFindByNameDOB, Weight: 1, Facts: map[string]string{"first_name": c.FirstName, "last_name": c.LastName, "date_of_birth": c.DateOfBirth}},
				{Tool: ToolFindByPhone, Weight: 2, Facts: map[string]string{"phone": c.ContactPhone}, Args: map[string]string{"phone_number": c.ContactPhone}},
			}
		}),
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

// grounders bind each intent of intents.json to its grounder.
var grounders = map[string]sim.Grounder{
	"change_plan_next_cycle":            groundChangePlan(false),
	"change_plan_then_international":    groundChangePlan(true),
	"add_feature":                       groundAddFeature(false),
	"senior_discount":                   groundSeniorDiscount(false),
	"payment_arrangement":               groundArrangement(arrangeable(false), 2, 2, false),
	"payment_arrangement_then_autopay":  groundArrangement(arrangeable(true), 2, 2, true),
	"enable_autopay":                    groundAutopay,
	"waive_late_fee":                    groundWaiveLateFee(false),
	"waive_then_pay_if_small":           groundWaiveThenPayOrSplit(true),
	"waive_then_split_if_large":         groundWaiveThenPayOrSplit(false),
	"pay_and_reactivate":                groundPayAndReactivate,
	"troubleshoot_resolved":             groundTroubleshoot(ConditionNetworkConfig),
	"troubleshoot_then_ticket":          groundTroubleshoot(ConditionHardware),
	"troubleshoot_ticket_outage_credit": groundTicketAndCredit,
	"outage_credit":                     groundOutageCredit,
	"bill_amount":                       groundBillAmount,
	"device_installment_balance":        groundInstallmentBalance,
	"current_plan":                      groundCurrentPlan,
	"next_billing_cycle":                groundNextCycle,
	"outage_status":                     groundOutageStatus,
	"port_out_transfer":                 groundTransferLine("wants to port line %s out to another carrier", "Port my number %s out to another carrier.", true),
	"stolen_phone_transfer": groundTransferLine("reports the phone of line %s stolen and wants the SIM blocked and replaced",
		"Block the stolen phone of line %s and get me a new SIM.", false),
	"cancel_line_transfer": groundTransferLine("wants line %s cancelled", "Cancel my line %s.", true),
	"insurance_claim_transfer": groundTransferLine("wants to file an insurance claim for the broken phone of line %s",
		"File an insurance claim for my broken phone on line %s.", false),
	"dispute_charge_transfer":        groundDisputeTransfer,
	"second_late_fee_waiver":         groundWaiveLateFee(true),
	"arrangement_bill_not_due":       groundArrangementRefusal(false),
	"feature_on_suspended_line":      groundAddFeature(true),
	"reactivate_with_overdue":        groundReactivateOverdue,
	"senior_discount_underage":       groundSeniorDiscount(true),
	"arrangement_too_long":           groundArrangementRefusal(true),
	"credit_without_outage":          groundCreditWithoutOutage,
	"change_plan_today":              groundChangePlanToday,
	"ticket_without_troubleshooting": groundTicketWithoutTroubleshooting,
}
