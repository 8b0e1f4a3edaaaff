package retail

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/emobench/emobench"
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

// Catalog returns the retail intent catalog: the authentication lookups as
// openers, the tool graph, the users, authentication by e-mail (two times
// in three) or by name and zip, the policy predicates (CheckPolicy) and
// the intents (catalogIntents).
func Catalog() *sim.Catalog {
	return &sim.Catalog{
		Openers: []string{ToolFindUserByEmail, ToolFindUserByNameZip},
		Follows: toolGraph,
		Intents: catalogIntents(),
		Users: func(env sim.Environment) []string {
			db, ok := sim.StateOf[DB](env)
			if !ok {
				return nil
			}
			return db.Users.Keys()
		},
		Authenticate: func(env sim.Environment, userID string, r *rand.Rand) (emobench.Action, map[string]string) {
			db, _ := sim.StateOf[DB](env)
			facts := map[string]string{}
			var u *User
			if db != nil {
				u = db.user(userID)
			}
			if u == nil {
				return emobench.Action{}, facts
			}
			return authenticate(u, r, facts), facts
		},
		CheckPolicy:  CheckPolicy,
		Alternatives: alternatives,
		// The parts of a new address are parts of the new_address fact
		// (the user says the address whole), which Tracer's facts
		// reachable check, matching whole values, cannot see;
		// catalog_test checks them as substrings of the facts.
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
var toolGraph = func() map[string][]string {
	next := []string{ToolGetUser, ToolGetOrder, ToolListProducts, ToolModifyUserAddress, ToolTransfer}
	g := map[string][]string{
		ToolFindUserByEmail:   next,
		ToolFindUserByNameZip: next,
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
	return g
}()

// Emotion families by scenario: a request that goes well for the user
// (an address change, a question) fits every family; a loss or a mistake
// (a cancellation, a return) no pride or amusement (enjoyment). Refusals
// and transfers fit every family: a cheerful customer asks for what the
// policy refuses too, and a split whose refusals have no enjoyment user
// would mix the emotion with the task's kind.
var (
	allFamilies     []string // nil: all five
	troubleFamilies = []string{"sadness", "fear", "anger", "disgust"}
	lossFamilies    = []string{"sadness", "fear", "anger"}
	reliefFamilies  = []string{"enjoyment", "sadness", "fear"}
)

// catalogIntents are the retail intents: writes the policy allows, reads,
// transfers, and forbidden requests whose gold only reads.
func catalogIntents() []sim.Intent {
	return []sim.Intent{
		{
			Name: "cancel_pending_order", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolCancelOrder},
			Templates: []string{
				"I want to cancel my order {order_id} because {reason}; I have no use for the {items}. I expect the money back where it came from.",
				"My order {order_id} hasn't shipped yet, and I'd like it cancelled: {reason}. I don't want the {items} any more.",
				"Please stop order {order_id} before it goes out. {Reason}, so I have no use for the {items}.",
			},
			Ground: findable(func(g sim.GroundContext) (sim.Grounding, bool) { return groundCancel(g, StatusPending) }),
		},
		{
			Name: "cancel_if_not_shipped", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path:      []string{ToolGetOrder, ToolCancelOrder},
			Templates: cancelIfNotShippedTemplates,
			Ground:    findable(groundCancelIfNotShipped(StatusPending)),
		},
		{
			Name: "change_item_or_cancel", Kind: sim.IntentWrite, Families: allFamilies,
			Path:      []string{ToolGetOrder, ToolGetProduct, ToolModifyItems},
			Templates: changeOrCancelTemplates,
			Ground:    findable(groundChangeOrCancel(true)),
		},
		{
			Name: "change_item_or_cancel_out_of_stock", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path:      []string{ToolGetOrder, ToolGetProduct, ToolCancelOrder},
			Templates: changeOrCancelTemplates,
			Ground:    findable(groundChangeOrCancel(false)),
		},
		{
			Name: "status_if_shipped", Kind: sim.IntentRead, Families: troubleFamilies,
			Path:      []string{ToolGetOrder},
			Templates: cancelIfNotShippedTemplates,
			Ground:    findable(groundCancelIfNotShipped(StatusProcessed)),
		},
		{
			Name: "modify_pending_order_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyAddress},
			Templates: []string{
				"I want my pending order {order_id} shipped to {address} instead of the address on it.",
				"I won't be at the old address when order {order_id} arrives; please send it to {address}.",
				"Order {order_id} should go to {address}. The address on it is out of date, so please change it.",
			},
			Ground: findable(groundModifyOrderAddress),
		},
		{
			Name: "modify_user_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolModifyUserAddress},
			Templates: []string{
				"I moved, and I want the default address on my account changed to {address}.",
				"My account still shows my old home. From now on my address is {address}.",
				"Please update my account's address to {address}; I just moved there.",
			},
			Ground: groundModifyUserAddress,
		},
		{
			Name: "modify_user_address_after_check", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetUser, ToolModifyUserAddress},
			Templates: []string{
				"I'm not sure which address my account has; if it isn't {address}, I want it changed to that.",
				"I think my account still has my previous address. It should be {address} from now on.",
				"Please look at my account and make {address} its default address; I moved recently.",
			},
			Ground: groundModifyUserAddressAfterCheck,
		},
		{
			Name: "modify_pending_order_payment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetUser, ToolModifyPayment},
			Templates: []string{
				"I want to pay for my pending order {order_id} with my {payment} instead.",
				"I'd rather not have order {order_id} on the method it's on now. Please charge my {payment} for it.",
				"Can order {order_id} be paid with my {payment}? That is how I want to pay for it.",
			},
			Ground: findable(groundModifyPayment),
		},
		{
			Name: "pay_pending_order_with_gift_card", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetUser, ToolModifyPayment},
			Templates: []string{
				"I have money on my gift card and I want it to pay for my pending order {order_id} instead of the current method.",
				"Please move the payment of order {order_id} onto my gift card; I'd like to use up that balance.",
				"Order {order_id} should be paid from my gift card, not the way it is paid now.",
			},
			Ground: findable(groundPayWithGiftCard),
		},
		{
			Name: "modify_pending_order_item", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolModifyItems},
			Templates: []string{
				"Before my order {order_id} ships, I want the {item} in it changed to {change}, keeping everything else; settle any price difference with my {payment}.",
				"I picked the wrong option for the {item} in order {order_id}: I want {change}. Any price difference can go through my {payment}. That is the only change I want.",
				"In order {order_id}, please make the {item} {change} instead. Charge or refund the difference on my {payment}.",
			},
			Ground: findable(groundModifyItems(1, false)),
		},
		{
			Name: "modify_pending_order_two_items", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolModifyItems},
			Templates: []string{
				"Before order {order_id} ships I want two changes at once: {changes}. Use my {payment} for any price difference.",
				"I chose the wrong options in order {order_id}. What I really want is {changes}; that is everything I want changed, and the difference goes through my {payment}.",
				"Please fix my pending order {order_id}: {changes}. Settle the price difference with my {payment}.",
			},
			Ground: findable(groundModifyItems(2, false)),
		},
		{
			Name: "modify_pending_order_item_gift_card", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetUser, ToolModifyItems},
			Templates: []string{
				"In my pending order {order_id} I want the {item} changed to {change}, and any price difference paid with my gift card, nothing else.",
				"I'd like the {item} in order {order_id} as {change} instead. Put the difference on my gift card, please.",
				"Change of mind on order {order_id}: I want the {item} {change}. My gift card should cover or receive the difference.",
			},
			Ground: findable(groundModifyItems(1, true)),
		},
		{
			Name: "modify_pending_order_address_and_payment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyAddress, ToolModifyPayment},
			Templates: []string{
				"Two things about my pending order {order_id}: ship it to {address}, and pay for it with my {payment} instead.",
				"I want order {order_id} sent to {address}, and I'd like it charged to my {payment} rather than the method on it now.",
				"Order {order_id} needs a new destination, {address}, and a new way to pay: my {payment}.",
			},
			Ground: findable(groundAddressAndPayment),
		},
		{
			Name: "modify_pending_order_item_and_payment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyItems, ToolModifyPayment},
			Templates: []string{
				"In my pending order {order_id} I want the {item} with {change} instead, any difference on the card it's paid with now; after that, I'd like the whole order paid with my {payment}.",
				"Two things for order {order_id}: make the {item} {change}, and then move the payment over to my {payment}.",
				"I'd like the {item} in order {order_id} changed to {change}. Once that's done, the order should be charged to my {payment} instead.",
			},
			Ground: findable(groundItemAndPayment),
		},
		{
			Name: "moved_account_and_order_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolModifyUserAddress, ToolModifyAddress},
			Templates: []string{
				"I moved to {address}. My account should have that address, and my pending order {order_id} should be shipped there too.",
				"Please change my account's address to {address}, and send order {order_id} to the same place; I don't live at the old one any more.",
				"New home: {address}. Update my account with it and redirect order {order_id} there as well.",
			},
			Ground: findable(groundMovedAccountAndOrder),
		},
		{
			Name: "modify_pending_order_item_and_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyAddress, ToolModifyItems},
			Templates: []string{
				"My pending order {order_id} needs two fixes: ship it to {address}, and make the {item} {change}; any price difference goes through my {payment}.",
				"I'm moving, so order {order_id} should go to {address}. While at it, I want the {item} in it with {change}, the difference settled on my {payment}.",
				"Please send order {order_id} to {address} instead, and change its {item} to {change}. Use my {payment} for the difference; that's all I want changed.",
			},
			Ground: findable(groundItemAndAddress),
		},
		{
			Name: "return_delivered_item", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolReturnItems},
			Templates: []string{
				"I want to return the {items} from my delivered order {order_id}, with the refund going back to my {payment}, and I want to know how much I will get back.",
				"The {items} from order {order_id} didn't work out. I'd like to send it back, refunded to my {payment}; tell me the refund amount.",
				"Please set up a return of the {items} in order {order_id}. The money should go to my {payment}, and I need to know how much it is.",
			},
			Ground: findable(groundReturn(1, 1, false)),
		},
		{
			Name: "return_delivered_items", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolCalculate, ToolReturnItems},
			Templates: []string{
				"I want to return the {items} from my delivered order {order_id}, refunded to my {payment}, and I want to know the total refund.",
				"None of the {items} in order {order_id} is what I hoped for. I'm sending them back; refund my {payment} and tell me how much that comes to.",
				"From order {order_id}, the {items} go back. The refund should go to my {payment}, and I'd like the total.",
			},
			Ground: findable(groundReturn(2, 4, false)),
		},
		{
			Name: "return_delivered_items_gift_card", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolGetUser, ToolReturnItems},
			Templates: []string{
				"I want to return the {items} from my delivered order {order_id} and have the refund put on my gift card; tell me how much it will be.",
				"I'd like store credit for the {items} in order {order_id}: return them and refund my gift card. How much will I get?",
				"The {items} from order {order_id} are going back. I want the refund on my gift card, not elsewhere, and the amount.",
			},
			Ground: findable(groundReturn(1, 2, true)),
		},
		{
			Name: "return_delivered_item_gift_card", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetUser, ToolReturnItems},
			Templates: []string{
				"I want store credit for the {items} from my delivered order {order_id}: return it and put the refund on my gift card, and tell me the amount.",
				"The {items} in order {order_id} goes back. Refund it onto my gift card, please, and say how much that is.",
				"I'd like to return the {items} of order {order_id}, with the money on my gift card. How much will it be?",
			},
			Ground: findable(groundReturnItemToGiftCard),
		},
		{
			Name: "exchange_delivered_item", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolExchangeItems},
			Templates: []string{
				"I want to exchange the {item} from my delivered order {order_id} for the same one with {change}; any price difference goes through my {payment}.",
				"The {item} I got in order {order_id} is fine except for one thing: I want {change}. Please swap it, settling the difference on my {payment}.",
				"I'd like a {item} with {change} in place of the one delivered in order {order_id}. Use my {payment} for any difference.",
			},
			Ground: findable(groundExchange(1)),
		},
		{
			Name: "exchange_delivered_two_items", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolExchangeItems},
			Templates: []string{
				"From my delivered order {order_id} I want to exchange two things: {changes}. Any price difference goes through my {payment}.",
				"Two items of order {order_id} need swapping, all in one go: {changes}. Settle the difference with my {payment}.",
				"I'd like to exchange items from order {order_id}: {changes}. That's everything, and my {payment} takes any difference.",
			},
			Ground: findable(groundExchange(2)),
		},
		{
			Name: "order_status", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetOrder},
			Templates: []string{
				"I want to know the current status of my order {order_id}, {purpose}; I'm waiting for the {items}.",
				"Where does my order {order_id} stand? I'm waiting for the {items} and I'm asking {purpose}.",
				"I'd like an update on order {order_id}, {purpose}: what is its status? It's the {items} I'm waiting for.",
			},
			Ground: findable(groundStatus),
		},
		{
			Name: "gift_card_balance", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetUser},
			Templates: []string{
				"I want to know how much money is left on my gift card, {purpose}.",
				"Before I shop again, I'd like to hear my gift card's remaining balance, {purpose}.",
				"How much can I still spend with my gift card? I want the exact balance, {purpose}.",
			},
			Ground: groundGiftCardBalance,
		},
		{
			Name: "order_total", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolCalculate},
			Templates: []string{
				"I want to know the total price of the items in my order {order_id}, {purpose}.",
				"What did the {items} in order {order_id} cost altogether? I need it {purpose}.",
				"I need the sum of the item prices in order {order_id}, {purpose}.",
			},
			Ground: findable(groundOrderTotal),
		},
		{
			Name: "item_option_price", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct},
			Templates: []string{
				"I'm wondering what the {item} from my order {order_id} would cost with {change} instead; I only want to know the price.",
				"Before I decide anything, tell me the price of the {item} I ordered in {order_id}, but with {change}.",
				"How much is the version of the {item} in order {order_id} with {change}? Just the price, please.",
			},
			Ground: findable(groundItemOptionPrice),
		},
		{
			Name: "change_email_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolTransfer},
			Templates: []string{
				"I want the email on my account changed to {new_email}, and if this agent cannot do it, I want to be put through to someone who can.",
				"My email address is now {new_email}, and my account must use it. Whoever can change it, I want to talk to them.",
				"Please get my account's email switched to {new_email}; I'll speak to a person if that's what it takes.",
			},
			Ground: groundChangeEmail,
		},
		{
			Name: "remove_payment_method_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetUser, ToolTransfer},
			Templates: []string{
				"I want my {payment} removed from my account for good, and I'll talk to whoever can do it.",
				"I no longer trust having my {payment} saved here. Take it off my account, or get me someone who can.",
				"Please delete the {payment} from my account; if you can't, put me through to a person.",
			},
			Ground: groundRemovePayment,
		},
		{
			Name: "courier_complaint_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolTransfer},
			Templates: []string{
				"The courier left my order {order_id} in the rain and was rude to me. I want to file a complaint with a person, and what I expect is {outcome}.",
				"I want to complain about how the delivery of order {order_id} was handled by the courier, to someone who can act on it. I'd like {outcome}.",
				"The delivery of order {order_id} was a mess: the courier threw the box over the fence. I want a human to take my complaint; I'm asking for {outcome}.",
			},
			Ground: findable(groundCourierComplaint),
		},
		{
			Name: "cancel_delivered_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetUser, ToolGetOrder},
			Templates: []string{
				"I want to cancel my order {order_id} and get my money back, because {reason}; I don't want the {items}.",
				"{Reason}, so please cancel order {order_id} and refund me for the {items}.",
				"I'd like order {order_id} cancelled and my payment returned; {reason}.",
			},
			Ground: findable(groundCancelNotPending(StatusDelivered, true)),
		},
		{
			Name: "cancel_processed_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder},
			Templates: []string{
				"I want to cancel my order {order_id} because {reason}; I don't need the {items}.",
				"Please call off order {order_id}; {reason}, and I don't want the {items}.",
				"{Reason}, so I want order {order_id} cancelled right away.",
			},
			Ground: findable(groundCancelNotPending(StatusProcessed, false)),
		},
		{
			Name: "cancel_order_other_reason", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder},
			Templates: []string{
				"I want to cancel my pending order {order_id}: {reason}. I don't need the {items}.",
				"Please cancel order {order_id}. The reason is simple: {reason}.",
				"Order {order_id} has to go: {reason}. Cancel it, please.",
			},
			Ground: findable(groundCancelOtherReason),
		},
		{
			Name: "modify_processed_order_address", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetUser, ToolGetOrder},
			Templates: []string{
				"I want my order {order_id} shipped to {address} instead of the address on it.",
				"Order {order_id} must go to {address} now; I'm no longer at the old place.",
				"Please redirect order {order_id} to {address}.",
			},
			Ground: findable(groundModifyProcessedAddress),
		},
		{
			Name: "return_pending_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder},
			Templates: []string{
				"I want to return the {items} from my order {order_id}, with the refund going to my {payment}.",
				"The {items} in order {order_id} is something I want to send back, refunded to my {payment}.",
				"Please start a return for the {items} of order {order_id}; refund my {payment}.",
			},
			Ground: findable(groundReturnNotDelivered(StatusPending)),
		},
		{
			Name: "return_order_again", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder},
			Templates: []string{
				"I also want to return the {items} from order {order_id}, refunded to my {payment}.",
				"One more return from order {order_id}: the {items}, with the money going to my {payment}.",
				"Please add the {items} of order {order_id} to my returns, refunded to my {payment}.",
			},
			Ground: findable(groundReturnAgain),
		},
		{
			Name: "exchange_for_other_product", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolListProducts, ToolGetProduct},
			Templates: []string{
				"I want to exchange the {item} from my delivered order {order_id} for {new_product} instead; any price difference goes through my {payment}.",
				"I don't want the {item} from order {order_id} any more; swap it for {new_product}, with the difference on my {payment}.",
				"Instead of the {item} in order {order_id}, I'd like {new_product}. Use my {payment} for the difference.",
			},
			Ground: findable(groundOtherProduct(StatusDelivered, ToolExchangeItems)),
		},
		{
			Name: "modify_item_to_other_product", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolListProducts, ToolGetProduct},
			Templates: []string{
				"Before my order {order_id} ships, I want the {item} in it replaced by {new_product}; settle the difference with my {payment}.",
				"I changed my mind about the {item} in order {order_id}: make it {new_product}, with my {payment} taking the difference.",
				"Please put {new_product} in my pending order {order_id} in place of the {item}. My {payment} covers any difference.",
			},
			Ground: findable(groundOtherProduct(StatusPending, ToolModifyItems)),
		},
		{
			Name: "modify_items_again", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct},
			Templates: []string{
				"One more change to order {order_id}: I want the {item} changed to {change}, with the difference on my {payment}.",
				"Sorry, I also need the {item} in order {order_id} to be {change}. My {payment} takes the difference.",
				"I forgot one thing in order {order_id}: make the {item} {change}. Use my {payment}.",
			},
			Ground: findable(groundModifyItemsAgain),
		},
		{
			Name: "refund_to_other_method", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetUser},
			Templates: []string{
				"I want to return the {items} from my delivered order {order_id}, and I want the refund on my {payment}, not on what I paid with.",
				"Send back the {items} of order {order_id}, please, and put the money on my {payment}; that's where I want it.",
				"I'm returning the {items} from order {order_id}. The refund must go to my {payment}.",
			},
			Ground: findable(groundRefundOtherMethod),
		},
		{
			Name: "cancel_other_users_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetUser},
			Templates: []string{
				"I want to cancel order {order_id}, which {owner} placed for our household, because {reason}. I am handling it for them.",
				"{Owner} asked me to cancel their order {order_id}; {reason}. I manage these things for the family.",
				"Please cancel order {order_id}. It's {owner}'s, but I take care of their shopping, and {reason}.",
			},
			Ground: groundCancelOtherUser,
		},
	}
}

// cancelIfNotShippedTemplates state a condition the order's status
// decides: cancel a pending order, only say the status of one that
// shipped.
var cancelIfNotShippedTemplates = []string{
	"If my order {order_id} hasn't shipped yet, I want it cancelled because {reason}; if it has shipped already, I only want to know its status.",
	"{Reason}, so I'd like order {order_id} cancelled, but only if it hasn't shipped yet; if it has, just tell me where it stands.",
	"Has my order {order_id} shipped yet? If not, cancel it: {reason}. If it has, I just want its status.",
}

// changeOrCancelTemplates ask for an item change with a fallback the
// stock decides: the change when the variant is in stock, else the
// cancellation of the whole order.
var changeOrCancelTemplates = []string{
	"In my pending order {order_id}, I want the {item} changed to {change}, any difference settled on my {payment}. If that one is out of stock, cancel the whole order instead; {reason}.",
	"Please make the {item} in order {order_id} {change}, with any difference on my {payment}. Should that version be out of stock, I'd rather have the whole order cancelled: {reason}.",
	"I'd like the {item} in order {order_id} as {change}, my {payment} covering any difference; if you don't have that in stock, just cancel the order, because {reason}.",
}

// --- helpers -------------------------------------------------------------

// userOrders returns the user's orders that keep accepts, in the
// account's order (oldest first).
func userOrders(db *DB, userID string, keep func(o *Order) bool) []*Order {
	u := db.user(userID)
	if u == nil {
		return nil
	}
	var out []*Order
	for _, id := range u.Orders {
		if o := db.order(id); o != nil && keep(o) {
			out = append(out, o)
		}
	}
	return out
}

// pickOrder picks one of the user's orders that keep accepts, at random
// among those no kept task used yet, else among all.
func pickOrder(g sim.GroundContext, db *DB, keep func(o *Order) bool) (*Order, bool) {
	// An order an earlier intent of the task used is never picked again:
	// one request per order and task (no second new address, no repeated
	// question or refusal about it).
	all := userOrders(db, g.UserID, func(o *Order) bool { return keep(o) && !usedInTask(g, o.ID) })
	if len(all) == 0 {
		return nil, false
	}
	fresh := all
	if g.Used != nil {
		fresh = slices.DeleteFunc(slices.Clone(all), func(o *Order) bool { return g.Used(o.ID) })
		if len(fresh) == 0 {
			fresh = all
		}
	}
	return fresh[g.Rand.IntN(len(fresh))], true
}

// usedInTask reports whether an earlier intent of g's task used id.
func usedInTask(g sim.GroundContext, id string) bool {
	return g.UsedInTask != nil && g.UsedInTask(id)
}

func isStatus(status string) func(o *Order) bool {
	return func(o *Order) bool { return o.Status == status }
}

// paidBy returns the payment method that paid o, if it is still the user's.
func paidBy(db *DB, o *Order) *PaymentMethod {
	return db.user(o.UserID).PaymentMethods[o.PaymentMethodID()]
}

// giftCard returns the user's gift card, if any.
func giftCard(u *User) *PaymentMethod {
	for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
		if pm := u.PaymentMethods[id]; pm.Source == sourceGiftCard {
			return pm
		}
	}
	return nil
}

func pickReason(r *rand.Rand) string {
	return []string{ReasonNoLongerNeeded, ReasonOrderedByMistake}[r.IntN(2)]
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// withCapitals adds to slots each of keys capitalized, with its value
// capitalized ("Reason" for "reason"), for templates that open with it.
func withCapitals(slots map[string]string, keys ...string) map[string]string {
	for _, k := range keys {
		slots[capitalize(k)] = capitalize(slots[k])
	}
	return slots
}

// itemSwap is a replacement for an order item: an available variant of
// the same product that differs in exactly one option.
type itemSwap struct {
	pos    int
	old    OrderItem
	item   *Item
	option string
	// open is an option the user leaves to the store, which picks the
	// cheapest variant in stock (openCheapest); "": none.
	open string
}

// change says the swap as a user wants it: "color black", or "color
// black, any size, the cheapest in stock".
func (s itemSwap) change() string {
	c := s.option + " " + s.item.Options[s.option]
	if s.open != "" {
		c += ", any " + s.open + ", whichever is cheapest in stock"
	}
	return c
}

// openCheapest leaves one more option of s to the store: the user wants
// s's new value, any value of the open option, the others as ordered, and
// the cheapest such variant in stock. False when fewer than two variants
// fit or the cheapest is tied, where the words would not decide.
func openCheapest(db *DB, s itemSwap, r *rand.Rand) (itemSwap, bool) {
	var opens []string
	for _, k := range slices.Sorted(maps.Keys(s.old.Options)) {
		if k != s.option {
			opens = append(opens, k)
		}
	}
	p := db.product(s.old.ProductID)
	if len(opens) == 0 || p == nil {
		return s, false
	}
	open := opens[r.IntN(len(opens))]
	var best *Item
	fits, tied := 0, false
	for _, id := range slices.Sorted(maps.Keys(p.Variants)) {
		v := p.Variants[id]
		if !v.Available || id == s.old.ItemID || v.Options[s.option] != s.item.Options[s.option] {
			continue
		}
		if slices.ContainsFunc(slices.Sorted(maps.Keys(s.old.Options)), func(k string) bool { return k != s.option && k != open && v.Options[k] != s.old.Options[k] }) {
			continue
		}
		fits++
		switch {
		case best == nil || v.Price < best.Price:
			best, tied = v, false
		case v.Price == best.Price:
			tied = true
		}
	}
	if fits < 2 || tied {
		return s, false
	}
	s.item, s.open = best, open
	return s, true
}

func swapsOf(db *DB, o *Order) []itemSwap { return swapsWhere(db, o, true) }

// swapsWhere are o's swaps (variants that differ from an item in one
// option) to variants in stock (available) or out of stock.
func swapsWhere(db *DB, o *Order, available bool) []itemSwap {
	var out []itemSwap
	for pos, it := range o.Items {
		p := db.product(it.ProductID)
		if p == nil {
			continue
		}
		for _, id := range slices.Sorted(maps.Keys(p.Variants)) {
			v := p.Variants[id]
			if id == it.ItemID || v.Available != available {
				continue
			}
			var differ []string
			for _, k := range slices.Sorted(maps.Keys(it.Options)) {
				if v.Options[k] != it.Options[k] {
					differ = append(differ, k)
				}
			}
			if len(differ) == 1 {
				out = append(out, itemSwap{pos: pos, old: it, item: v, option: differ[0]})
			}
		}
	}
	return out
}

// pickSwaps picks one swap for each of k distinct items of o, in the
// order's item order, or false when fewer than k items have one.
func pickSwaps(db *DB, o *Order, r *rand.Rand, k int) ([]itemSwap, bool) {
	byPos := map[int][]itemSwap{}
	var positions []int
	for _, s := range swapsOf(db, o) {
		if len(byPos[s.pos]) == 0 {
			positions = append(positions, s.pos)
		}
		byPos[s.pos] = append(byPos[s.pos], s)
	}
	if len(positions) < k {
		return nil, false
	}
	r.Shuffle(len(positions), func(i, j int) { positions[i], positions[j] = positions[j], positions[i] })
	positions = positions[:k]
	slices.Sort(positions)
	out := make([]itemSwap, k)
	for i, pos := range positions {
		out[i] = byPos[pos][r.IntN(len(byPos[pos]))]
		if r.IntN(4) == 0 {
			out[i], _ = openCheapest(db, out[i], r)
		}
	}
	return out, true
}

// swapTraits are the traits of swaps: TraitConditional when one leaves
// an option to the store (the data decides the cheapest).
func swapTraits(swaps []itemSwap) []string {
	if slices.ContainsFunc(swaps, func(s itemSwap) bool { return s.open != "" }) {
		return []string{emobench.TraitConditional}
	}
	return nil
}

func swapDiff(swaps []itemSwap) sim.Money {
	var d sim.Money
	for _, s := range swaps {
		d += s.item.Price - s.old.Price
	}
	return d
}

// describeSwaps says the swaps as the user wants them: "the desk lamp
// with color black and the yoga mat with thickness 6mm".
func describeSwaps(swaps []itemSwap) string {
	parts := make([]string, len(swaps))
	for i, s := range swaps {
		parts[i] = "the " + s.old.Name + " with " + s.change()
	}
	return itemNames(parts)
}

// swapFacts are the facts of swaps: the item and its new option, one pair
// per swap (item_name, new_color; second_item_name, second_new_size).
func swapFacts(facts map[string]string, swaps []itemSwap) {
	for i, s := range swaps {
		prefix := ""
		if i == 1 {
			prefix = "second_"
		}
		facts[prefix+"item_name"] = s.old.Name
		facts[prefix+"new_"+optionFactKey(s.option)] = s.item.Options[s.option]
		if s.open != "" {
			facts[prefix+"new_"+optionFactKey(s.open)] = cheapestWords(s.open, s.old.Name)
		}
	}
}

func swapIDs(swaps []itemSwap) (old, new []string) {
	for _, s := range swaps {
		old = append(old, s.old.ItemID)
		new = append(new, s.item.ID)
	}
	return old, new
}

// newAddress returns a random address other than those given.
func newAddress(r *rand.Rand, not ...Address) Address {
	for {
		if a := randomAddress(r); !slices.Contains(not, a) {
			return a
		}
	}
}

// --- grounders -----------------------------------------------------------

// groundCancel grounds a cancellation of one of the user's orders of the
// given status (pending: the store cancels it).
func groundCancel(g sim.GroundContext, status string) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, isStatus(status))
	if !ok {
		return sim.Grounding{}, false
	}
	reason := pickReason(g.Rand)
	return sim.Grounding{
		Slots:   withCapitals(map[string]string{"order_id": o.ID, "items": orderItemNames(o), "reason": reasonWords[reason]}, "reason"),
		Facts:   map[string]string{"order_id": o.ID, "reason": reason},
		Request: emobench.Request{Text: fmt.Sprintf("Cancel order %s; %s.", o.ID, reasonWords[reason]), Tools: []string{ToolCancelOrder}},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
		Uses:    []string{o.ID},
	}, true
}

// groundCancelIfNotShipped grounds a cancellation on condition that an
// order of the given status has not shipped: a pending one is cancelled;
// for any other the user only wants the status, the output.
func groundCancelIfNotShipped(status string) groundFunc {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		gr, ok := groundCancel(g, status)
		if !ok {
			return gr, false
		}
		o := gr.Facts["order_id"]
		gr.Facts["condition"] = "cancel it only if it has not shipped yet; otherwise just tell me its status"
		gr.Request.Text = fmt.Sprintf("If order %s hasn't shipped yet, cancel it; %s. If it has shipped, just tell me its status.", o, gr.Slots["reason"])
		gr.Traits = []string{emobench.TraitConditional}
		if status != StatusPending {
			gr.Request.Tools = []string{ToolGetOrder}
			gr.Actions = gr.Actions[:1]
			gr.Outputs = []string{statusOutput(status)}
		}
		return gr, true
	}
}

// groundChangeOrCancel grounds a change of one item of a pending order
// to a variant in stock (inStock: the change, settled with the method that
// paid) or out of stock (the fallback: the order is cancelled for the
// reason the user gives).
func groundChangeOrCancel(inStock bool) groundFunc {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		o, ok := pickOrder(g, db, func(o *Order) bool {
			return o.Status == StatusPending && !o.ItemsModified && len(swapsWhere(db, o, inStock)) > 0 && paidBy(db, o) != nil
		})
		if !ok {
			return sim.Grounding{}, false
		}
		swaps := swapsWhere(db, o, inStock)
		s, pm, reason := swaps[g.Rand.IntN(len(swaps))], paidBy(db, o), pickReason(g.Rand)
		if inStock && pm.canPay(s.item.Price-s.old.Price) != nil {
			return sim.Grounding{}, false
		}
		facts := map[string]string{"order_id": o.ID, "payment_method": pm.Describe(), "reason": reason,
			"condition": "if the new one is out of stock, cancel the whole order"}
		swapFacts(facts, []itemSwap{s})
		write := sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", reason)
		if inStock {
			write = sim.NewAction(ToolModifyItems, "order_id", o.ID, "item_ids", []string{s.old.ItemID}, "new_item_ids", []string{s.item.ID}, "payment_method_id", pm.ID)
		}
		return sim.Grounding{
			Slots: withCapitals(map[string]string{"order_id": o.ID, "item": s.old.Name, "change": s.change(), "payment": pm.Describe(),
				"reason": reasonWords[reason]}, "reason"),
			Facts: facts,
			Request: emobench.Request{
				Text:  fmt.Sprintf("In order %s, change the %s to %s; if that is out of stock, cancel the order: %s.", o.ID, s.old.Name, s.change(), reasonWords[reason]),
				Tools: []string{write.Name},
			},
			Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolGetProduct, "product_id", s.old.ProductID), write},
			Uses:    []string{o.ID},
			Traits:  []string{emobench.TraitConditional},
		}, true
	}
}

func groundModifyOrderAddress(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, isStatus(StatusPending))
	if !ok {
		return sim.Grounding{}, false
	}
	addr := newAddress(g.Rand, o.Address)
	return sim.Grounding{
		Slots:   map[string]string{"order_id": o.ID, "address": addr.String()},
		Facts:   map[string]string{"order_id": o.ID, "new_address": addr.String()},
		Request: emobench.Request{Text: fmt.Sprintf("Ship order %s to %s.", o.ID, addr), Tools: []string{ToolModifyAddress}},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), addressAction(ToolModifyAddress, "order_id", o.ID, addr)},
		Uses:    []string{o.ID},
	}, true
}

// groundModifyUserAddress grounds a change of the account's address, once
// a task: an account whose address no order of it shares was changed by
// an earlier intent (orders are shipped to the account's address at the
// time, and a new address is a fresh random one).
func groundModifyUserAddress(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.user(g.UserID) == nil {
		return sim.Grounding{}, false
	}
	u := db.user(g.UserID)
	if len(userOrders(db, u.ID, func(o *Order) bool { return o.Address == u.Address })) == 0 {
		return sim.Grounding{}, false
	}
	addr := newAddress(g.Rand, u.Address)
	return sim.Grounding{
		Slots:   map[string]string{"address": addr.String()},
		Facts:   map[string]string{"new_address": addr.String()},
		Request: emobench.Request{Text: fmt.Sprintf("Change my account's address to %s.", addr), Tools: []string{ToolModifyUserAddress}},
		Actions: []emobench.Action{addressAction(ToolModifyUserAddress, "user_id", u.ID, addr)},
	}, true
}

func groundModifyUserAddressAfterCheck(g sim.GroundContext) (sim.Grounding, bool) {
	gr, ok := groundModifyUserAddress(g)
	if !ok {
		return gr, false
	}
	gr.Actions = append([]emobench.Action{sim.NewAction(ToolGetUser, "user_id", g.UserID)}, gr.Actions...)
	return gr, true
}

// groundItemAndAddress grounds a change of one item of a pending order
// and of its shipping address (the address first, the product read just
// before the item change).
func groundItemAndAddress(g sim.GroundContext) (sim.Grounding, bool) {
	gr, ok := groundModifyItems(1, false)(g)
	if !ok {
		return gr, false
	}
	db, _ := sim.StateOf[DB](g.Env)
	o := db.order(gr.Facts["order_id"])
	addr := newAddress(g.Rand, o.Address)
	gr.Slots["address"] = addr.String()
	gr.Facts["new_address"] = addr.String()
	gr.Request.Text = fmt.Sprintf("Ship order %s to %s, and change %s.", o.ID, addr, gr.Slots["changes"])
	gr.Request.Tools = []string{ToolModifyAddress, ToolModifyItems}
	gr.Actions = append([]emobench.Action{gr.Actions[0], addressAction(ToolModifyAddress, "order_id", o.ID, addr)}, gr.Actions[1:]...)
	return gr, true
}

// groundPayWithGiftCard grounds paying a pending order with the user's
// gift card, found on the account; the order is read before the change.
func groundPayWithGiftCard(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.user(g.UserID) == nil {
		return sim.Grounding{}, false
	}
	gc := giftCard(db.user(g.UserID))
	if gc == nil {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool {
		return o.Status == StatusPending && slices.Contains(otherPayments(db, o), gc)
	})
	if !ok {
		return sim.Grounding{}, false
	}
	return sim.Grounding{
		Slots:   map[string]string{"order_id": o.ID},
		Facts:   map[string]string{"order_id": o.ID, "payment_method": gc.Describe()},
		Request: emobench.Request{Text: fmt.Sprintf("Pay order %s with my gift card instead.", o.ID), Tools: []string{ToolModifyPayment}},
		Actions: []emobench.Action{sim.NewAction(ToolGetUser, "user_id", g.UserID), sim.NewAction(ToolGetOrder, "order_id", o.ID),
			sim.NewAction(ToolModifyPayment, "order_id", o.ID, "payment_method_id", gc.ID)},
		Uses: []string{o.ID},
	}, true
}

// groundReturnItemToGiftCard grounds a return of one item refunded to the
// user's gift card, the account read first.
func groundReturnItemToGiftCard(g sim.GroundContext) (sim.Grounding, bool) {
	gr, ok := groundReturn(1, 1, true)(g)
	if !ok {
		return gr, false
	}
	gr.Actions[0], gr.Actions[1] = gr.Actions[1], gr.Actions[0]
	return gr, true
}

// withAccountRead returns actions, after a read of the user's account
// when read.
func withAccountRead(read bool, userID string, actions ...emobench.Action) []emobench.Action {
	if !read {
		return actions
	}
	return append([]emobench.Action{sim.NewAction(ToolGetUser, "user_id", userID)}, actions...)
}

// groundItemAndPayment grounds a change of one item of a pending order,
// the difference settled with the method that paid, then a change of the
// order's payment to another of the user's methods that covers the new
// amount (found on the account).
func groundItemAndPayment(g sim.GroundContext) (sim.Grounding, bool) {
	gr, ok := groundModifyItems(1, false)(g)
	if !ok {
		return gr, false
	}
	db, _ := sim.StateOf[DB](g.Env)
	o := db.order(gr.Facts["order_id"])
	paid := o.netPaid()
	if len(paid) != 1 {
		return sim.Grounding{}, false
	}
	diff := goldSwapDiff(db, o, gr.Actions[len(gr.Actions)-1])
	u := db.user(o.UserID)
	var others []*PaymentMethod
	for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
		if pm := u.PaymentMethods[id]; id != paid[0].method && pm.canPay(paid[0].amount+diff) == nil {
			others = append(others, pm)
		}
	}
	if len(others) == 0 {
		return sim.Grounding{}, false
	}
	pm := others[g.Rand.IntN(len(others))]
	// The item change settles with the method that paid, which the user
	// names as it is; the new method is the second payment fact.
	gr.Facts["new_payment_method"] = pm.Describe()
	gr.Slots["payment"] = pm.Describe()
	gr.Request.Text = fmt.Sprintf("In order %s, I want %s instead, and then the order paid with my %s.", o.ID, gr.Slots["changes"], pm.Describe())
	gr.Request.Tools = []string{ToolModifyItems, ToolModifyPayment}
	gr.Actions = append(gr.Actions, sim.NewAction(ToolGetUser, "user_id", o.UserID), sim.NewAction(ToolModifyPayment, "order_id", o.ID, "payment_method_id", pm.ID))
	return gr, true
}

// goldSwapDiff is the price difference (new minus old) of the item change
// a, about to run on o.
func goldSwapDiff(db *DB, o *Order, a emobench.Action) sim.Money {
	var args policyArgs
	if json.Unmarshal(a.Arguments, &args) != nil {
		return 0
	}
	return priceDifference(db, o, &args)
}

// groundMovedAccountAndOrder grounds a move: the account's address and a
// pending order's shipping address change to the same new address.
func groundMovedAccountAndOrder(g sim.GroundContext) (sim.Grounding, bool) {
	gr, ok := groundModifyUserAddress(g)
	if !ok {
		return gr, false
	}
	db, _ := sim.StateOf[DB](g.Env)
	o, ok := pickOrder(g, db, isStatus(StatusPending))
	if !ok {
		return sim.Grounding{}, false
	}
	addr := gr.Facts["new_address"]
	var a Address
	if err := json.Unmarshal(gr.Actions[0].Arguments, &a); err != nil || a == o.Address {
		return sim.Grounding{}, false
	}
	gr.Slots["order_id"] = o.ID
	gr.Facts["order_id"] = o.ID
	gr.Request = emobench.Request{
		Text:  fmt.Sprintf("Change my account's address to %s, and ship order %s there too.", addr, o.ID),
		Tools: []string{ToolModifyUserAddress, ToolModifyAddress},
	}
	gr.Actions = append(gr.Actions, sim.NewAction(ToolGetOrder, "order_id", o.ID), addressAction(ToolModifyAddress, "order_id", o.ID, a))
	gr.Uses = []string{o.ID}
	return gr, true
}

// otherPayments are the user's methods other than the one that paid o
// that can pay what o's payment holds; nil unless o is paid with one
// method, which is what the store can move to another.
func otherPayments(db *DB, o *Order) []*PaymentMethod {
	paid := o.netPaid()
	if len(paid) != 1 {
		return nil
	}
	u := db.user(o.UserID)
	var others []*PaymentMethod
	for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
		if pm := u.PaymentMethods[id]; id != paid[0].method && pm.canPay(paid[0].amount) == nil {
			others = append(others, pm)
		}
	}
	return others
}

func groundModifyPayment(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool { return o.Status == StatusPending && len(otherPayments(db, o)) > 0 })
	if !ok {
		return sim.Grounding{}, false
	}
	others := otherPayments(db, o)
	pm := others[g.Rand.IntN(len(others))]
	return sim.Grounding{
		Slots:   map[string]string{"order_id": o.ID, "payment": pm.Describe()},
		Facts:   map[string]string{"order_id": o.ID, "payment_method": pm.Describe()},
		Request: emobench.Request{Text: fmt.Sprintf("Switch the payment of order %s to my %s.", o.ID, pm.Describe()), Tools: []string{ToolModifyPayment}},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolGetUser, "user_id", o.UserID),
			sim.NewAction(ToolModifyPayment, "order_id", o.ID, "payment_method_id", pm.ID)},
		Uses: []string{o.ID},
	}, true
}

func groundAddressAndPayment(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool { return o.Status == StatusPending && len(otherPayments(db, o)) > 0 })
	if !ok {
		return sim.Grounding{}, false
	}
	others := otherPayments(db, o)
	pm := others[g.Rand.IntN(len(others))]
	addr := newAddress(g.Rand, o.Address)
	return sim.Grounding{
		Slots: map[string]string{"order_id": o.ID, "payment": pm.Describe(), "address": addr.String()},
		Facts: map[string]string{"order_id": o.ID, "payment_method": pm.Describe(), "new_address": addr.String()},
		Request: emobench.Request{
			Text:  fmt.Sprintf("Ship order %s to %s and switch its payment to my %s.", o.ID, addr, pm.Describe()),
			Tools: []string{ToolModifyAddress, ToolModifyPayment},
		},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolGetUser, "user_id", o.UserID),
			addressAction(ToolModifyAddress, "order_id", o.ID, addr),
			sim.NewAction(ToolModifyPayment, "order_id", o.ID, "payment_method_id", pm.ID)},
		Uses: []string{o.ID},
	}, true
}

// groundModifyItems grounds a change of k items of a pending order, each
// to another option of its product, the difference settled with the
// method that paid (or with the user's gift card when giftCardPays).
func groundModifyItems(k int, giftCardPays bool) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		o, ok := pickOrder(g, db, func(o *Order) bool {
			return o.Status == StatusPending && !o.ItemsModified && len(o.Items) >= k && len(swapsOf(db, o)) > 0
		})
		if !ok {
			return sim.Grounding{}, false
		}
		swaps, ok := pickSwaps(db, o, g.Rand, k)
		if !ok {
			return sim.Grounding{}, false
		}
		pm := paidBy(db, o)
		if giftCardPays {
			pm = giftCard(db.user(o.UserID))
		}
		if pm == nil || pm.canPay(swapDiff(swaps)) != nil {
			return sim.Grounding{}, false
		}
		oldIDs, newIDs := swapIDs(swaps)
		facts := map[string]string{"order_id": o.ID, "payment_method": pm.Describe()}
		swapFacts(facts, swaps)
		actions := []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID)}
		if giftCardPays {
			actions = append(actions, sim.NewAction(ToolGetUser, "user_id", o.UserID))
		}
		for _, s := range swaps {
			actions = append(actions, sim.NewAction(ToolGetProduct, "product_id", s.old.ProductID))
		}
		actions = append(actions, sim.NewAction(ToolModifyItems, "order_id", o.ID, "item_ids", oldIDs, "new_item_ids", newIDs, "payment_method_id", pm.ID))
		return sim.Grounding{
			Slots: map[string]string{"order_id": o.ID, "item": swaps[0].old.Name, "change": swaps[0].change(),
				"changes": describeSwaps(swaps), "payment": pm.Describe()},
			Facts: facts,
			Request: emobench.Request{
				Text:  fmt.Sprintf("In order %s, instead of what I picked I want %s.", o.ID, describeSwaps(swaps)),
				Tools: []string{ToolModifyItems},
			},
			Actions: actions,
			Uses:    []string{o.ID},
			Traits:  swapTraits(swaps),
		}, true
	}
}

// groundExchange grounds an exchange of k items of a delivered order,
// each for another option of its product, the difference settled with
// the method that paid.
func groundExchange(k int) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		o, ok := pickOrder(g, db, func(o *Order) bool {
			return o.Status == StatusDelivered && len(o.Items) >= k && len(swapsOf(db, o)) > 0
		})
		if !ok {
			return sim.Grounding{}, false
		}
		swaps, ok := pickSwaps(db, o, g.Rand, k)
		pm := paidBy(db, o)
		if !ok || pm == nil || pm.canPay(swapDiff(swaps)) != nil {
			return sim.Grounding{}, false
		}
		oldIDs, newIDs := swapIDs(swaps)
		facts := map[string]string{"order_id": o.ID, "payment_method": pm.Describe()}
		swapFacts(facts, swaps)
		actions := []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID)}
		for _, s := range swaps {
			actions = append(actions, sim.NewAction(ToolGetProduct, "product_id", s.old.ProductID))
		}
		actions = append(actions, sim.NewAction(ToolExchangeItems, "order_id", o.ID, "item_ids", oldIDs, "new_item_ids", newIDs, "payment_method_id", pm.ID))
		return sim.Grounding{
			Slots: map[string]string{"order_id": o.ID, "item": swaps[0].old.Name, "change": swaps[0].change(),
				"changes": describeSwaps(swaps), "payment": pm.Describe()},
			Facts: facts,
			Request: emobench.Request{
				Text:  fmt.Sprintf("Exchange items of order %s: I want %s instead.", o.ID, describeSwaps(swaps)),
				Tools: []string{ToolExchangeItems},
			},
			Actions: actions,
			Uses:    []string{o.ID},
			Traits:  swapTraits(swaps),
		}, true
	}
}

// groundReturn grounds a return of min to max items of a delivered order,
// refunded to the method that paid, or to the user's gift card when
// toGiftCard (a card other than the one that paid, found on the account).
// With several items the refund is summed with calculate, unless the gift
// card path reads the account instead. The refund is an output.
func groundReturn(minItems, maxItems int, toGiftCard bool) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		o, ok := pickOrder(g, db, func(o *Order) bool {
			if o.Status != StatusDelivered || len(o.Items) < minItems {
				return false
			}
			if toGiftCard {
				gc := giftCard(db.user(o.UserID))
				return gc != nil && gc.ID != o.PaymentMethodID()
			}
			return paidBy(db, o) != nil
		})
		if !ok {
			return sim.Grounding{}, false
		}
		k := minItems + g.Rand.IntN(min(maxItems, len(o.Items))-minItems+1)
		positions := g.Rand.Perm(len(o.Items))[:k]
		slices.Sort(positions)
		var ids, names, prices []string
		var refund sim.Money
		for _, p := range positions {
			ids = append(ids, o.Items[p].ItemID)
			names = append(names, o.Items[p].Name)
			prices = append(prices, o.Items[p].Price.String())
			refund += o.Items[p].Price
		}
		pm := paidBy(db, o)
		actions := []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID)}
		switch {
		case toGiftCard:
			pm = giftCard(db.user(o.UserID))
			actions = append(actions, sim.NewAction(ToolGetUser, "user_id", o.UserID))
		case minItems > 1:
			actions = append(actions, sim.NewAction(ToolCalculate, "expression", strings.Join(prices, " + ")))
		}
		actions = append(actions, sim.NewAction(ToolReturnItems, "order_id", o.ID, "item_ids", ids, "payment_method_id", pm.ID))
		facts := map[string]string{"order_id": o.ID, "item_name": itemNames(names), "payment_method": pm.Describe()}
		gr := sim.Grounding{
			Slots: map[string]string{"order_id": o.ID, "items": itemNames(names), "payment": pm.Describe()},
			Facts: facts,
			Request: emobench.Request{
				Text:  fmt.Sprintf("Return the %s from order %s and refund it to my %s. How much will the refund be?", itemNames(names), o.ID, pm.Describe()),
				Tools: []string{ToolReturnItems},
			},
			Actions: actions,
			Outputs: []string{dollars(refund)},
			Uses:    []string{o.ID},
		}
		if gc := giftCard(db.user(o.UserID)); !toGiftCard && gc != nil && gc.ID != pm.ID && g.Rand.IntN(3) == 0 {
			gr = conditionalRefund(g, gr, o, pm, gc, refund)
		}
		return gr, true
	}
}

// What a user asks for information for, or wants from a complaint: the
// preference an information or hand-off request states (the audit's
// tool_task_with_preference), as the instruction words it.
var (
	statusPurposes = []string{
		"so I know when to be at home for the delivery",
		"because I need the items before the weekend",
		"before I decide whether to change anything about it",
	}
	balancePurposes = []string{
		"because I plan to pay my next order with it",
		"so I can decide whether it covers a new pair of shoes",
		"to check it against the receipt I kept",
	}
	totalPurposes = []string{
		"for my monthly budget",
		"for my records",
		"for an expense report at work",
	}
	complaintOutcomes = []string{
		"a written apology from the courier company",
		"a note on the courier's record so it does not happen again",
		"another courier for my future deliveries",
	}
)

// pickPhrase returns one of phrases, drawn by r.
func pickPhrase(r *rand.Rand, phrases []string) string { return phrases[r.IntN(len(phrases))] }

func groundStatus(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool { return o.Status != StatusCancelled })
	if !ok {
		return sim.Grounding{}, false
	}
	purpose := pickPhrase(g.Rand, statusPurposes)
	return sim.Grounding{
		Slots:   map[string]string{"order_id": o.ID, "items": orderItemNames(o), "purpose": purpose},
		Facts:   map[string]string{"order_id": o.ID, "purpose": purpose},
		Request: emobench.Request{Text: fmt.Sprintf("What is the status of order %s?", o.ID), Tools: []string{ToolGetOrder}},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID)},
		Outputs: []string{statusOutput(o.Status)},
		Uses:    []string{o.ID},
	}, true
}

func groundGiftCardBalance(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.user(g.UserID) == nil {
		return sim.Grounding{}, false
	}
	gc := giftCard(db.user(g.UserID))
	balanceAsked := g.UserID + "/gift_card_balance" // asked once a task
	if gc == nil || usedInTask(g, balanceAsked) {
		return sim.Grounding{}, false
	}
	purpose := pickPhrase(g.Rand, balancePurposes)
	return sim.Grounding{
		Uses:    []string{balanceAsked},
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "What is the balance of my gift card?", Tools: []string{ToolGetUser}},
		Actions: []emobench.Action{sim.NewAction(ToolGetUser, "user_id", g.UserID)},
		Outputs: []string{dollars(*gc.Balance)},
	}, true
}

func groundOrderTotal(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool { return o.Status != StatusCancelled && len(o.Items) > 1 })
	if !ok {
		return sim.Grounding{}, false
	}
	prices := make([]string, len(o.Items))
	for i, it := range o.Items {
		prices[i] = it.Price.String()
	}
	purpose := pickPhrase(g.Rand, totalPurposes)
	return sim.Grounding{
		Slots:   map[string]string{"order_id": o.ID, "items": orderItemNames(o), "purpose": purpose},
		Facts:   map[string]string{"order_id": o.ID, "purpose": purpose},
		Request: emobench.Request{Text: fmt.Sprintf("How much do the items in order %s cost in total?", o.ID), Tools: []string{ToolGetOrder}},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolCalculate, "expression", strings.Join(prices, " + "))},
		Outputs: []string{dollars(o.Total())},
		Uses:    []string{o.ID},
	}, true
}

// groundItemOptionPrice grounds a question about the price of another
// option of an item the user ordered; the price is the output.
func groundItemOptionPrice(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool { return len(swapsOf(db, o)) > 0 })
	if !ok {
		return sim.Grounding{}, false
	}
	swaps, _ := pickSwaps(db, o, g.Rand, 1)
	s := swaps[0]
	facts := map[string]string{"order_id": o.ID}
	swapFacts(facts, swaps)
	return sim.Grounding{
		Slots:   map[string]string{"order_id": o.ID, "item": s.old.Name, "change": s.change()},
		Facts:   facts,
		Request: emobench.Request{Text: fmt.Sprintf("What would the %s from order %s cost with %s?", s.old.Name, o.ID, s.change()), Tools: []string{ToolGetProduct}},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolGetProduct, "product_id", s.old.ProductID)},
		Outputs: []string{dollars(s.item.Price)},
		Uses:    []string{o.ID},
		Traits:  swapTraits(swaps),
	}, true
}

func groundChangeEmail(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.user(g.UserID) == nil {
		return sim.Grounding{}, false
	}
	u := db.user(g.UserID)
	email := fmt.Sprintf("%s.%s.%d@mailbox.example.org", strings.ToLower(u.Name.First), strings.ToLower(u.Name.Last), 10+g.Rand.IntN(90))
	return sim.Grounding{
		Slots:   map[string]string{"new_email": email},
		Facts:   map[string]string{"new_email": email},
		Request: emobench.Request{Text: fmt.Sprintf("Change my account email to %s.", email), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolTransfer, "summary",
			fmt.Sprintf("User %s wants to change the account email to %s, which the policy does not allow the agent to do.", u.ID, email))},
	}, true
}

func groundRemovePayment(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok || db.user(g.UserID) == nil {
		return sim.Grounding{}, false
	}
	u := db.user(g.UserID)
	ids := slices.Sorted(maps.Keys(u.PaymentMethods))
	if len(ids) == 0 {
		return sim.Grounding{}, false
	}
	pm := u.PaymentMethods[ids[g.Rand.IntN(len(ids))]]
	return sim.Grounding{
		Slots:   map[string]string{"payment": pm.Describe()},
		Facts:   map[string]string{"payment_method": pm.Describe()},
		Request: emobench.Request{Text: fmt.Sprintf("Remove my %s from my account.", pm.Describe()), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetUser, "user_id", u.ID), sim.NewAction(ToolTransfer, "summary",
			fmt.Sprintf("User %s wants the payment method %s removed from the account, which the policy does not allow the agent to do.", u.ID, pm.ID))},
	}, true
}

func groundCourierComplaint(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, isStatus(StatusDelivered))
	if !ok {
		return sim.Grounding{}, false
	}
	outcome := pickPhrase(g.Rand, complaintOutcomes)
	return sim.Grounding{
		Slots:   map[string]string{"order_id": o.ID, "outcome": outcome},
		Facts:   map[string]string{"order_id": o.ID, "outcome": outcome},
		Request: emobench.Request{Text: fmt.Sprintf("I want to complain about the courier who delivered order %s.", o.ID), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolTransfer, "summary",
			fmt.Sprintf("User %s wants to complain about the courier's delivery of order %s.", o.UserID, o.ID))},
		Uses: []string{o.ID},
	}, true
}

// groundCancelNotPending grounds a cancellation of an order of the given
// status, which is not pending: the store cannot cancel it. The status is
// an output, as the reason for the refusal. With readAccount the account
// is read before the order.
func groundCancelNotPending(status string, readAccount bool) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		o, ok := pickOrder(g, db, isStatus(status))
		if !ok {
			return sim.Grounding{}, false
		}
		reason := pickReason(g.Rand)
		return sim.Grounding{
			Slots:     withCapitals(map[string]string{"order_id": o.ID, "items": orderItemNames(o), "reason": reasonWords[reason]}, "reason"),
			Facts:     map[string]string{"order_id": o.ID, "reason": reason},
			Request:   emobench.Request{Text: fmt.Sprintf("Cancel order %s and refund me; %s.", o.ID, reasonWords[reason]), Tools: []string{ToolGetOrder}},
			Actions:   withAccountRead(readAccount, g.UserID, sim.NewAction(ToolGetOrder, "order_id", o.ID)),
			Forbidden: []emobench.Action{sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
			Uses:      []string{o.ID},
		}, true
	}
}

// otherReasons are cancellation reasons the policy does not accept.
var otherReasons = []string{
	"I found it cheaper somewhere else",
	"the delivery date is too late for me",
	"I want to order it again with a coupon",
	"my friend gave me one as a gift",
}

func groundCancelOtherReason(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, isStatus(StatusPending))
	if !ok {
		return sim.Grounding{}, false
	}
	reason := otherReasons[g.Rand.IntN(len(otherReasons))]
	return sim.Grounding{
		Slots:     withCapitals(map[string]string{"order_id": o.ID, "items": orderItemNames(o), "reason": reason}, "reason"),
		Facts:     map[string]string{"order_id": o.ID, "reason": reason},
		Request:   emobench.Request{Text: fmt.Sprintf("Cancel order %s; %s.", o.ID, reason), Tools: []string{ToolGetOrder}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID)},
		Forbidden: []emobench.Action{sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
		Uses:      []string{o.ID},
	}, true
}

func groundModifyProcessedAddress(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, isStatus(StatusProcessed))
	if !ok {
		return sim.Grounding{}, false
	}
	addr := newAddress(g.Rand, o.Address)
	return sim.Grounding{
		Slots:     map[string]string{"order_id": o.ID, "address": addr.String()},
		Facts:     map[string]string{"order_id": o.ID, "new_address": addr.String()},
		Request:   emobench.Request{Text: fmt.Sprintf("Change the shipping address of order %s to %s.", o.ID, addr), Tools: []string{ToolGetOrder}},
		Actions:   withAccountRead(true, g.UserID, sim.NewAction(ToolGetOrder, "order_id", o.ID)),
		Forbidden: []emobench.Action{addressAction(ToolModifyAddress, "order_id", o.ID, addr)},
		Uses:      []string{o.ID},
	}, true
}

// returnRefusal grounds a return of one item of o, which is not
// delivered, to the method that paid; a call matching compare (the
// forbidden entry's CompareArgs) is the forbidden return.
func returnRefusal(g sim.GroundContext, db *DB, o *Order, compare ...string) (sim.Grounding, bool) {
	it := o.Items[g.Rand.IntN(len(o.Items))]
	pm := paidBy(db, o)
	if pm == nil {
		return sim.Grounding{}, false
	}
	return sim.Grounding{
		Slots: map[string]string{"order_id": o.ID, "items": it.Name, "payment": pm.Describe()},
		Facts: map[string]string{"order_id": o.ID, "item_name": it.Name, "payment_method": pm.Describe()},
		Request: emobench.Request{
			Text:  fmt.Sprintf("Return the %s from order %s and refund it to my %s.", it.Name, o.ID, pm.Describe()),
			Tools: []string{ToolGetOrder},
		},
		Actions:   []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID)},
		Forbidden: []emobench.Action{withCompareArgs(sim.NewAction(ToolReturnItems, "order_id", o.ID, "item_ids", []string{it.ItemID}, "payment_method_id", pm.ID), compare...)},
		Uses:      []string{o.ID},
	}, true
}

func groundReturnNotDelivered(status string) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		o, ok := pickOrder(g, db, isStatus(status))
		if !ok {
			return sim.Grounding{}, false
		}
		return returnRefusal(g, db, o, "order_id") // any return from it is forbidden
	}
}

// groundReturnAgain grounds a second return or exchange of an order that
// already has one (after an earlier intent of the task, or from an
// earlier conversation: markEarlierRequests): each delivered order accepts
// one, once. Its item is one the first request left.
func groundReturnAgain(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool {
		return (o.Status == StatusReturnRequested || o.Status == StatusExchangeRequested) && len(o.Items) > len(requestedItems(o))
	})
	if !ok {
		return sim.Grounding{}, false
	}
	left := *o
	left.Items = slices.DeleteFunc(slices.Clone(o.Items), func(it OrderItem) bool { return slices.Contains(requestedItems(o), it.ItemID) })
	// The earlier return of the task is on the same order: the item tells
	// the forbidden one apart.
	return returnRefusal(g, db, &left, "order_id", "item_ids")
}

// requestedItems are the item ids of o's return or exchange request.
func requestedItems(o *Order) []string {
	switch {
	case o.Return != nil:
		return o.Return.ItemIDs
	case o.Exchange != nil:
		return o.Exchange.ItemIDs
	}
	return nil
}

// groundOtherProduct grounds a swap of an item of an order of the given
// status for an item of another product, by tool (an exchange of a
// delivered order, a change of a pending one's items): an item changes
// only to a variant of its own product. The tools accept it.
func groundOtherProduct(status, tool string) func(g sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, ok := sim.StateOf[DB](g.Env)
		if !ok {
			return sim.Grounding{}, false
		}
		o, ok := pickOrder(g, db, func(o *Order) bool {
			return o.Status == status && !(tool == ToolModifyItems && o.ItemsModified)
		})
		if !ok {
			return sim.Grounding{}, false
		}
		old := o.Items[g.Rand.IntN(len(o.Items))]
		pm := paidBy(db, o)
		if pm == nil {
			return sim.Grounding{}, false
		}
		other, ok := otherProduct(db, g.Rand, old, pm)
		if !ok {
			return sim.Grounding{}, false
		}
		p := db.product(other.productID)
		verb := "Exchange"
		if tool == ToolModifyItems {
			verb = "Swap"
		}
		return sim.Grounding{
			Slots: map[string]string{"order_id": o.ID, "item": old.Name, "new_product": withArticle(p.Name), "payment": pm.Describe()},
			Facts: map[string]string{"order_id": o.ID, "item_name": old.Name, "new_product": p.Name, "payment_method": pm.Describe()},
			Request: emobench.Request{
				Text:  fmt.Sprintf("%s the %s in order %s for %s.", verb, old.Name, o.ID, withArticle(p.Name)),
				Tools: []string{ToolGetOrder},
			},
			Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolListProducts),
				sim.NewAction(ToolGetProduct, "product_id", p.ID)},
			// Forbidden whatever pays the difference.
			Forbidden: []emobench.Action{withCompareArgs(sim.NewAction(tool, "order_id", o.ID, "item_ids", []string{old.ItemID},
				"new_item_ids", []string{other.itemID}, "payment_method_id", pm.ID), "order_id", "item_ids", "new_item_ids")},
			Uses: []string{o.ID},
		}, true
	}
}

// otherProduct picks an available item of a product other than old's
// whose price difference pm can pay (the store would refuse it
// otherwise), or false when there is none.
func otherProduct(db *DB, r *rand.Rand, old OrderItem, pm *PaymentMethod) (productItem, bool) {
	var opts []productItem
	for _, pid := range db.Products.Keys() {
		if pid == old.ProductID {
			continue
		}
		p := db.product(pid)
		for _, id := range slices.Sorted(maps.Keys(p.Variants)) {
			if it := p.Variants[id]; it.Available && pm.canPay(it.Price-old.Price) == nil {
				opts = append(opts, productItem{pid, id})
			}
		}
	}
	if len(opts) == 0 {
		return productItem{}, false
	}
	return opts[r.IntN(len(opts))], true
}

// groundModifyItemsAgain grounds a second change of the items of a
// pending order whose items were already changed (by an earlier intent of
// the task, or in an earlier conversation: markEarlierRequests): the items
// of an order change only once. The store refuses
// it too.
func groundModifyItemsAgain(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	o, ok := pickOrder(g, db, func(o *Order) bool {
		return o.Status == StatusPending && o.ItemsModified && len(swapsOf(db, o)) > 0
	})
	if !ok {
		return sim.Grounding{}, false
	}
	swaps, _ := pickSwaps(db, o, g.Rand, 1)
	pm := paidBy(db, o)
	if pm == nil {
		return sim.Grounding{}, false
	}
	s := swaps[0]
	facts := map[string]string{"order_id": o.ID, "payment_method": pm.Describe()}
	swapFacts(facts, swaps)
	return sim.Grounding{
		Slots: map[string]string{"order_id": o.ID, "item": s.old.Name, "change": s.change(), "payment": pm.Describe()},
		Facts: facts,
		Request: emobench.Request{
			Text:  fmt.Sprintf("Swap the %s in order %s for the one with %s.", s.old.Name, o.ID, s.change()),
			Tools: []string{ToolGetOrder},
		},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolGetProduct, "product_id", s.old.ProductID)},
		// The earlier change of the task is on the same order: the item
		// tells the forbidden one apart.
		Forbidden: []emobench.Action{withCompareArgs(sim.NewAction(ToolModifyItems, "order_id", o.ID, "item_ids", []string{s.old.ItemID},
			"new_item_ids", []string{s.item.ID}, "payment_method_id", pm.ID), "order_id", "item_ids")},
		Uses: []string{o.ID},
	}, true
}

func groundRefundOtherMethod(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return sim.Grounding{}, false
	}
	excluded := func(o *Order) []*PaymentMethod {
		var out []*PaymentMethod
		u := db.user(o.UserID)
		for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
			if pm := u.PaymentMethods[id]; id != o.PaymentMethodID() && pm.Source != sourceGiftCard {
				out = append(out, pm)
			}
		}
		return out
	}
	o, ok := pickOrder(g, db, func(o *Order) bool { return o.Status == StatusDelivered && len(excluded(o)) > 0 })
	if !ok {
		return sim.Grounding{}, false
	}
	ex := excluded(o)
	pm := ex[g.Rand.IntN(len(ex))]
	it := o.Items[g.Rand.IntN(len(o.Items))]
	return sim.Grounding{
		Slots: map[string]string{"order_id": o.ID, "items": it.Name, "payment": pm.Describe()},
		Facts: map[string]string{"order_id": o.ID, "item_name": it.Name, "payment_method": pm.Describe()},
		Request: emobench.Request{
			Text:  fmt.Sprintf("Return the %s from order %s and refund it to my %s.", it.Name, o.ID, pm.Describe()),
			Tools: []string{ToolGetUser},
		},
		Actions: []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", o.ID), sim.NewAction(ToolGetUser, "user_id", o.UserID)},
		// Any return from the order to that method is forbidden.
		Forbidden: []emobench.Action{withCompareArgs(sim.NewAction(ToolReturnItems, "order_id", o.ID, "item_ids", []string{it.ItemID}, "payment_method_id", pm.ID),
			"order_id", "payment_method_id")},
		Uses: []string{o.ID},
	}, true
}

// groundCancelOtherUser grounds a cancellation of another user's pending
// order: the agent helps only the user it verified. The gold reads the
// user's own account, whose orders do not include it.
func groundCancelOtherUser(g sim.GroundContext) (sim.Grounding, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	// A user who names orders by content (findableUser) would not know
	// another's order by id.
	if !ok || db.user(g.UserID) == nil || findableUser(g.UserID) {
		return sim.Grounding{}, false
	}
	var pending []*Order
	for _, id := range db.Orders.Keys() {
		if o := db.order(id); o.Status == StatusPending && o.UserID != g.UserID && (g.Used == nil || !g.Used(o.ID)) {
			pending = append(pending, o)
		}
	}
	if len(pending) == 0 {
		return sim.Grounding{}, false
	}
	o := pending[g.Rand.IntN(len(pending))]
	owner := db.user(o.UserID)
	reason := pickReason(g.Rand)
	ownerName := owner.Name.First + " " + owner.Name.Last
	return sim.Grounding{
		Slots:     withCapitals(map[string]string{"order_id": o.ID, "owner": ownerName, "reason": reasonWords[reason]}, "reason", "owner"),
		Facts:     map[string]string{"order_id": o.ID, "reason": reason},
		Request:   emobench.Request{Text: fmt.Sprintf("Cancel order %s; %s.", o.ID, reasonWords[reason]), Tools: []string{ToolGetUser}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetUser, "user_id", g.UserID)},
		Forbidden: []emobench.Action{sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
		Uses:      []string{o.ID},
	}, true
}

// --- wording and calls ---------------------------------------------------

// authenticate returns the facts and gold action that identify u: by email,
// or by name and zip.
func authenticate(u *User, r *rand.Rand, facts map[string]string) emobench.Action {
	if r.IntN(3) != 0 {
		facts["email"] = u.Email
		return sim.NewAction(ToolFindUserByEmail, "email", u.Email)
	}
	facts["first_name"], facts["last_name"], facts["zip"] = u.Name.First, u.Name.Last, u.Address.Zip
	return sim.NewAction(ToolFindUserByNameZip, "first_name", u.Name.First, "last_name", u.Name.Last, "zip", u.Address.Zip)
}

func addressAction(name, idKey, id string, a Address) emobench.Action {
	return sim.NewAction(name, idKey, id, "address1", a.Address1, "address2", a.Address2, "city", a.City,
		"state", a.State, "country", a.Country, "zip", a.Zip)
}

// itemNames lists names as a user says them: "a, b and c".
func itemNames(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func orderItemNames(o *Order) string {
	names := make([]string, len(o.Items))
	for i, it := range o.Items {
		names[i] = it.Name
	}
	return itemNames(names)
}

// describeOptions says an item's options in key order: "color black, power usb".
func describeOptions(opts map[string]string) string {
	parts := make([]string, 0, len(opts))
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		parts = append(parts, k+" "+opts[k])
	}
	return strings.Join(parts, ", ")
}

var reasonWords = map[string]string{
	ReasonNoLongerNeeded:   "I no longer need it",
	ReasonOrderedByMistake: "I ordered it by mistake",
}

// optionFactKey turns an option name ("switch type") into the snake_case part of
// a fact key ("switch_type").
func optionFactKey(option string) string {
	return strings.Map(func(c rune) rune {
		if c == ' ' || c == '-' || c == '/' {
			return '_'
		}
		return c
	}, strings.ToLower(option))
}

// withCompareArgs sets the arguments a call must match to count as the
// forbidden write a: without it, every id it names (payment_method_id
// too) would have to match.
func withCompareArgs(a emobench.Action, args ...string) emobench.Action {
	a.CompareArgs = args
	return a
}

// withArticle puts "a", "an" or "a pair of" before a product name.
func withArticle(name string) string {
	for _, pair := range []string{"shoes", "boots", "sunglasses", "headphones"} {
		if strings.HasSuffix(name, pair) {
			return "a pair of " + name
		}
	}
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// productItem names an item of a product.
type productItem struct{ productID, itemID string }
