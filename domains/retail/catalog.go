package retail

import (
	_ "embed"

	"github.com/emobench/emobench/sim"
)

// This file is the retail intent catalog Tracer generates tasks from (see
// sim.Catalog and domains/README.md, "Writing an intent catalog"). Each
// intent's gold actions, after the authentication, call its Path's tools
// in order, with at most some more reads among them (a product read per
// item of a multi-item swap, the account read that finds a gift card):
// a walk counts tool-graph steps, not calls. Every scalar argument of a gold write is a fact's value
// or a part of one (an address's street, city, zip) or appears in the
// result of an earlier gold read (item and payment method ids).

// users are the rows of the store's users, the catalog's users.
func users(db *DB) *sim.Table[User] { return &db.Users }

// logins are the ways u identifies themself: by e-mail two times in
// three, else by name and zip.
func logins(u *User) []sim.Login {
	return []sim.Login{
		{Tool: ToolFindUserByNameZip, Weight: 1,
			Facts: map[string]string{"first_name": u.Name.First, "last_name": u.Name.Last, "zip": u.Address.Zip}},
		{Tool: ToolFindUserByEmail, Weight: 2, Facts: map[string]string{"email": u.Email}},
	}
}

// Catalog returns the retail intent catalog: the authentication lookups as
// openers, the tool graph, the users, authentication by e-mail (two times
// in three) or by name and zip, the policy predicates (CheckPolicy) and
// the intents (catalogIntents).
func Catalog() *sim.Catalog {
	return &sim.Catalog{
		Openers:      []string{ToolFindUserByEmail, ToolFindUserByNameZip},
		Follows:      toolGraph,
		Intents:      catalogIntents(),
		Users:        sim.UsersOf(users),
		Authenticate: sim.Authenticator(users, logins),
		CheckPolicy:  CheckPolicy,
		Alternatives: alternatives,
		// The parts of a new address are parts of the new_address fact
		// (the user says the address whole), which Tracer's facts
		// reachable check, matching whole values, cannot see;
		// retail_test checks them as substrings of the facts.
		ExemptArgs: addressArgNames,
	}
}

// addressArgNames are the argument names of an address.
var addressArgNames = []string{"address1", "address2", "city", "state", "country", "zip"}

// toolGraph is which tool's result feeds which: the user id from an
// authentication gives the account; an order id (known to the user or
// read off the account) gives the order; an order's items give their
// products, whose variants give new item ids (or, out of stock, lead to
// cancelling the order); an order's payment history
// and the account's payment methods give payment method ids. Writes are
// followed by whatever starts the next request.
var toolGraph = map[string][]string{
	ToolFindUserByEmail:   afterAuthentication,
	ToolFindUserByNameZip: afterAuthentication,
	ToolGetUser:           {ToolGetOrder, ToolModifyUserAddress, ToolModifyPayment, ToolModifyAddress, ToolReturnItems, ToolModifyItems, ToolExchangeItems, ToolGetProduct, ToolTransfer},
	ToolGetOrder: {ToolGetOrder, ToolGetUser, ToolGetProduct, ToolListProducts, ToolCalculate, ToolCancelOrder, ToolModifyAddress, ToolModifyPayment,
		ToolModifyItems, ToolReturnItems, ToolExchangeItems, ToolTransfer},
	ToolGetProduct:        {ToolGetProduct, ToolModifyItems, ToolExchangeItems, ToolGetOrder, ToolCalculate, ToolCancelOrder},
	ToolListProducts:      {ToolGetProduct},
	ToolCalculate:         {ToolReturnItems, ToolModifyItems, ToolExchangeItems, ToolGetOrder},
	ToolModifyAddress:     {ToolModifyPayment, ToolModifyItems, ToolGetOrder, ToolGetUser},
	ToolModifyItems:       {ToolModifyPayment, ToolModifyAddress, ToolGetOrder, ToolGetUser},
	ToolModifyPayment:     {ToolModifyAddress, ToolModifyItems, ToolGetOrder, ToolGetUser},
	ToolCancelOrder:       {ToolGetOrder, ToolGetUser},
	ToolReturnItems:       {ToolGetOrder, ToolGetUser},
	ToolExchangeItems:     {ToolGetOrder, ToolGetUser},
	ToolModifyUserAddress: {ToolGetOrder, ToolGetUser, ToolModifyAddress},
}

var afterAuthentication = []string{ToolGetUser, ToolGetOrder, ToolListProducts, ToolModifyUserAddress, ToolTransfer}

// intentsJSON declares the retail intents (sim.ReadIntents): name, kind,
// tool path, emotion families and templates, in catalog order. A request
// that goes well for the user (an address change, a question) fits every
// family (no families: all five); trouble (a cancellation, a return)
// every family but enjoyment. Refusals and transfers fit every family: a
// cheerful customer asks for what the policy refuses too, and a split
// whose refusals have no enjoyment user would mix the emotion with the
// task's kind.
//
//go:embed intents.json
var intentsJSON []byte

// grounders are the grounders of the intents of intentsJSON, by name.
var grounders = map[string]dbGrounder{
	// writes
	"cancel_pending_order":                     findable(groundCancel(StatusPending, false, false)),
	"cancel_if_not_shipped":                    findable(groundCancelIfNotShipped(StatusPending)),
	"change_item_or_cancel":                    findable(groundChangeOrCancel(true)),
	"change_item_or_cancel_out_of_stock":       findable(groundChangeOrCancel(false)),
	"modify_pending_order_address":             findable(groundOrderAddress(StatusPending)),
	"modify_user_address":                      groundModifyUserAddress,
	"modify_user_address_after_check":          accountFirst(groundModifyUserAddress),
	"modify_pending_order_payment":             findable(groundPayment(false)),
	"pay_pending_order_with_gift_card":         findable(groundPayWithGiftCard),
	"modify_pending_order_item":                findable(groundSwap(ToolModifyItems, 1, false)),
	"modify_pending_order_two_items":           findable(groundSwap(ToolModifyItems, 2, false)),
	"modify_pending_order_item_gift_card":      findable(groundSwap(ToolModifyItems, 1, true)),
	"modify_pending_order_address_and_payment": findable(groundPayment(true)),
	"modify_pending_order_item_and_payment":    findable(groundItemAndPayment),
	"moved_account_and_order_address":          findable(groundMovedAccountAndOrder),
	"modify_pending_order_item_and_address":    findable(groundItemAndAddress),
	"return_delivered_item":                    findable(groundReturn(1, 1, false)),
	"return_delivered_items":                   findable(groundReturn(2, 4, false)),
	"return_delivered_items_gift_card":         findable(groundReturn(1, 2, true)),
	"return_delivered_item_gift_card":          findable(accountFirst(groundReturn(1, 1, true))),
	"exchange_delivered_item":                  findable(groundSwap(ToolExchangeItems, 1, false)),
	"exchange_delivered_two_items":             findable(groundSwap(ToolExchangeItems, 2, false)),
	// reads
	"status_if_shipped": findable(groundCancelIfNotShipped(StatusProcessed)),
	"order_status":      findable(groundStatus),
	"gift_card_balance": groundGiftCardBalance,
	"order_total":       findable(groundOrderTotal),
	"item_option_price": findable(groundItemOptionPrice),
	// transfers
	"change_email_transfer":          groundChangeEmail,
	"remove_payment_method_transfer": groundRemovePayment,
	"courier_complaint_transfer":     findable(groundCourierComplaint),
	// refusals
	"cancel_delivered_order":         findable(groundCancel(StatusDelivered, false, true)),
	"cancel_processed_order":         findable(groundCancel(StatusProcessed, false, false)),
	"cancel_order_other_reason":      findable(groundCancel(StatusPending, true, false)),
	"modify_processed_order_address": findable(groundOrderAddress(StatusProcessed)),
	"return_pending_order":           findable(groundReturnNotDelivered(StatusPending)),
	"return_order_again":             findable(groundReturnAgain),
	"exchange_for_other_product":     findable(groundOtherProduct(StatusDelivered, ToolExchangeItems)),
	"modify_item_to_other_product":   findable(groundOtherProduct(StatusPending, ToolModifyItems)),
	"modify_items_again":             findable(groundModifyItemsAgain),
	"refund_to_other_method":         findable(groundRefundOtherMethod),
	"cancel_other_users_order":       groundCancelOtherUser,
}

// catalogIntents are the retail intents: writes the policy allows, reads,
// transfers, and forbidden requests whose gold only reads.
func catalogIntents() []sim.Intent {
	ground := make(map[string]sim.Grounder, len(grounders))
	for name, g := range grounders {
		ground[name] = sim.GroundOn(g)
	}
	intents, err := sim.ReadIntents(intentsJSON, ground)
	if err != nil {
		panic("retail: " + err.Error()) // intents.json is embedded: a build bug
	}
	return intents
}
