package retail

import (
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
		{Tool: ToolFindUserByNameZip, Weight: 1, Facts: map[string]string{"first_name": u.Name.First, "last_name": u.Name.Last, "zip": u.Address.Zip}},
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

// Emotion families by scenario: a request that goes well for the user
// (an address change, a question) fits every family; trouble (a
// cancellation, a return) every family but enjoyment. Refusals
// and transfers fit every family: a cheerful customer asks for what the
// policy refuses too, and a split whose refusals have no enjoyment user
// would mix the emotion with the task's kind.
var (
	allFamilies     []string // nil: all five
	troubleFamilies = []string{"sadness", "fear", "anger", "disgust"}
)

// catalogIntents are the retail intents: writes the policy allows, reads,
// transfers, and forbidden requests whose gold only reads.
func catalogIntents() []sim.Intent {
	return []sim.Intent{
		{Name: "cancel_pending_order", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolCancelOrder}, Ground: findable(groundCancel(StatusPending, false, false)), Templates: []string{
				"I want to cancel my order {order_id} because {reason}; I have no use for the {items}. I expect the money back where it came from.",
				"My order {order_id} hasn't shipped yet, and I'd like it cancelled: {reason}. I don't want the {items} any more.",
				"Please stop order {order_id} before it goes out. {Reason}, so I have no use for the {items}."}},
		{Name: "cancel_if_not_shipped", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolCancelOrder}, Ground: findable(groundCancelIfNotShipped(StatusPending)), Templates: cancelIfNotShippedTemplates},
		{Name: "change_item_or_cancel", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolModifyItems}, Ground: findable(groundChangeOrCancel(true)), Templates: changeOrCancelTemplates},
		{Name: "change_item_or_cancel_out_of_stock", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolCancelOrder}, Ground: findable(groundChangeOrCancel(false)), Templates: changeOrCancelTemplates},
		{Name: "status_if_shipped", Kind: sim.IntentRead, Families: troubleFamilies,
			Path: []string{ToolGetOrder}, Ground: findable(groundCancelIfNotShipped(StatusProcessed)), Templates: cancelIfNotShippedTemplates},
		{Name: "modify_pending_order_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyAddress}, Ground: findable(groundOrderAddress(StatusPending)), Templates: []string{
				"I want my pending order {order_id} shipped to {address} instead of the address on it.",
				"I won't be at the old address when order {order_id} arrives; please send it to {address}.",
				"Order {order_id} should go to {address}. The address on it is out of date, so please change it."}},
		{Name: "modify_user_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolModifyUserAddress}, Ground: groundModifyUserAddress, Templates: []string{
				"I moved, and I want the default address on my account changed to {address}.",
				"My account still shows my old home. From now on my address is {address}.",
				"Please update my account's address to {address}; I just moved there."}},
		{Name: "modify_user_address_after_check", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetUser, ToolModifyUserAddress}, Ground: groundModifyUserAddressAfterCheck, Templates: []string{
				"I'm not sure which address my account has; if it isn't {address}, I want it changed to that.",
				"I think my account still has my previous address. It should be {address} from now on.",
				"Please look at my account and make {address} its default address; I moved recently."}},
		{Name: "modify_pending_order_payment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetUser, ToolModifyPayment}, Ground: findable(groundModifyPayment), Templates: []string{
				"I want to pay for my pending order {order_id} with my {payment} instead.",
				"I'd rather not have order {order_id} on the method it's on now. Please charge my {payment} for it.",
				"Can order {order_id} be paid with my {payment}? That is how I want to pay for it."}},
		{Name: "pay_pending_order_with_gift_card", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetUser, ToolModifyPayment}, Ground: findable(groundPayWithGiftCard), Templates: []string{
				"I have money on my gift card and I want it to pay for my pending order {order_id} instead of the current method.",
				"Please move the payment of order {order_id} onto my gift card; I'd like to use up that balance.",
				"Order {order_id} should be paid from my gift card, not the way it is paid now."}},
		{Name: "modify_pending_order_item", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolModifyItems}, Ground: findable(groundSwap(ToolModifyItems, 1, false)), Templates: []string{
				"Before my order {order_id} ships, I want the {item} in it changed to {change}, keeping everything else; settle any price difference with my {payment}.",
				"I picked the wrong option for the {item} in order {order_id}: I want {change}. Any price difference can go through my {payment}. That is the only change I want.",
				"In order {order_id}, please make the {item} {change} instead. Charge or refund the difference on my {payment}."}},
		{Name: "modify_pending_order_two_items", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolModifyItems}, Ground: findable(groundSwap(ToolModifyItems, 2, false)), Templates: []string{
				"Before order {order_id} ships I want two changes at once: {changes}. Use my {payment} for any price difference.",
				"I chose the wrong options in order {order_id}. What I really want is {changes}; that is everything I want changed, and the difference goes through my {payment}.",
				"Please fix my pending order {order_id}: {changes}. Settle the price difference with my {payment}."}},
		{Name: "modify_pending_order_item_gift_card", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetUser, ToolModifyItems}, Ground: findable(groundSwap(ToolModifyItems, 1, true)), Templates: []string{
				"In my pending order {order_id} I want the {item} changed to {change}, and any price difference paid with my gift card, nothing else.",
				"I'd like the {item} in order {order_id} as {change} instead. Put the difference on my gift card, please.",
				"Change of mind on order {order_id}: I want the {item} {change}. My gift card should cover or receive the difference."}},
		{Name: "modify_pending_order_address_and_payment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyAddress, ToolModifyPayment}, Ground: findable(groundAddressAndPayment), Templates: []string{
				"Two things about my pending order {order_id}: ship it to {address}, and pay for it with my {payment} instead.",
				"I want order {order_id} sent to {address}, and I'd like it charged to my {payment} rather than the method on it now.",
				"Order {order_id} needs a new destination, {address}, and a new way to pay: my {payment}."}},
		{Name: "modify_pending_order_item_and_payment", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyItems, ToolModifyPayment}, Ground: findable(groundItemAndPayment), Templates: []string{
				"In my pending order {order_id} I want the {item} with {change} instead, any difference on the card it's paid with now; after that, I'd like the whole order paid with my {payment}.",
				"Two things for order {order_id}: make the {item} {change}, and then move the payment over to my {payment}.",
				"I'd like the {item} in order {order_id} changed to {change}. Once that's done, the order should be charged to my {payment} instead."}},
		{Name: "moved_account_and_order_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolModifyUserAddress, ToolModifyAddress}, Ground: findable(groundMovedAccountAndOrder), Templates: []string{
				"I moved to {address}. My account should have that address, and my pending order {order_id} should be shipped there too.",
				"Please change my account's address to {address}, and send order {order_id} to the same place; I don't live at the old one any more.",
				"New home: {address}. Update my account with it and redirect order {order_id} there as well."}},
		{Name: "modify_pending_order_item_and_address", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolModifyAddress, ToolModifyItems}, Ground: findable(groundItemAndAddress), Templates: []string{
				"My pending order {order_id} needs two fixes: ship it to {address}, and make the {item} {change}; any price difference goes through my {payment}.",
				"I'm moving, so order {order_id} should go to {address}. While at it, I want the {item} in it with {change}, the difference settled on my {payment}.",
				"Please send order {order_id} to {address} instead, and change its {item} to {change}. Use my {payment} for the difference; that's all I want changed."}},
		{Name: "return_delivered_item", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolReturnItems}, Ground: findable(groundReturn(1, 1, false)), Templates: []string{
				"I want to return the {items} from my delivered order {order_id}, with the refund going back to my {payment}, and I want to know how much I will get back.",
				"The {items} from order {order_id} didn't work out. I'd like to send it back, refunded to my {payment}; tell me the refund amount.",
				"Please set up a return of the {items} in order {order_id}. The money should go to my {payment}, and I need to know how much it is."}},
		{Name: "return_delivered_items", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolCalculate, ToolReturnItems}, Ground: findable(groundReturn(2, 4, false)), Templates: []string{
				"I want to return the {items} from my delivered order {order_id}, refunded to my {payment}, and I want to know the total refund.",
				"None of the {items} in order {order_id} is what I hoped for. I'm sending them back; refund my {payment} and tell me how much that comes to.",
				"From order {order_id}, the {items} go back. The refund should go to my {payment}, and I'd like the total."}},
		{Name: "return_delivered_items_gift_card", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetOrder, ToolGetUser, ToolReturnItems}, Ground: findable(groundReturn(1, 2, true)), Templates: []string{
				"I want to return the {items} from my delivered order {order_id} and have the refund put on my gift card; tell me how much it will be.",
				"I'd like store credit for the {items} in order {order_id}: return them and refund my gift card. How much will I get?",
				"The {items} from order {order_id} are going back. I want the refund on my gift card, not elsewhere, and the amount."}},
		{Name: "return_delivered_item_gift_card", Kind: sim.IntentWrite, Families: troubleFamilies,
			Path: []string{ToolGetUser, ToolReturnItems}, Ground: findable(groundReturnItemToGiftCard), Templates: []string{
				"I want store credit for the {items} from my delivered order {order_id}: return it and put the refund on my gift card, and tell me the amount.",
				"The {items} in order {order_id} goes back. Refund it onto my gift card, please, and say how much that is.",
				"I'd like to return the {items} of order {order_id}, with the money on my gift card. How much will it be?"}},
		{Name: "exchange_delivered_item", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolExchangeItems}, Ground: findable(groundSwap(ToolExchangeItems, 1, false)), Templates: []string{
				"I want to exchange the {item} from my delivered order {order_id} for the same one with {change}; any price difference goes through my {payment}.",
				"The {item} I got in order {order_id} is fine except for one thing: I want {change}. Please swap it, settling the difference on my {payment}.",
				"I'd like a {item} with {change} in place of the one delivered in order {order_id}. Use my {payment} for any difference."}},
		{Name: "exchange_delivered_two_items", Kind: sim.IntentWrite, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct, ToolExchangeItems}, Ground: findable(groundSwap(ToolExchangeItems, 2, false)), Templates: []string{
				"From my delivered order {order_id} I want to exchange two things: {changes}. Any price difference goes through my {payment}.",
				"Two items of order {order_id} need swapping, all in one go: {changes}. Settle the difference with my {payment}.",
				"I'd like to exchange items from order {order_id}: {changes}. That's everything, and my {payment} takes any difference."}},
		{Name: "order_status", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetOrder}, Ground: findable(groundStatus), Templates: []string{
				"I want to know the current status of my order {order_id}, {purpose}; I'm waiting for the {items}.",
				"Where does my order {order_id} stand? I'm waiting for the {items} and I'm asking {purpose}.",
				"I'd like an update on order {order_id}, {purpose}: what is its status? It's the {items} I'm waiting for."}},
		{Name: "gift_card_balance", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetUser}, Ground: groundGiftCardBalance, Templates: []string{
				"I want to know how much money is left on my gift card, {purpose}.",
				"Before I shop again, I'd like to hear my gift card's remaining balance, {purpose}.",
				"How much can I still spend with my gift card? I want the exact balance, {purpose}."}},
		{Name: "order_total", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolCalculate}, Ground: findable(groundOrderTotal), Templates: []string{
				"I want to know the total price of the items in my order {order_id}, {purpose}.",
				"What did the {items} in order {order_id} cost altogether? I need it {purpose}.",
				"I need the sum of the item prices in order {order_id}, {purpose}."}},
		{Name: "item_option_price", Kind: sim.IntentRead, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct}, Ground: findable(groundItemOptionPrice), Templates: []string{
				"I'm wondering what the {item} from my order {order_id} would cost with {change} instead; I only want to know the price.",
				"Before I decide anything, tell me the price of the {item} I ordered in {order_id}, but with {change}.",
				"How much is the version of the {item} in order {order_id} with {change}? Just the price, please."}},
		{Name: "change_email_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolTransfer}, Ground: groundChangeEmail, Templates: []string{
				"I want the email on my account changed to {new_email}, and if this agent cannot do it, I want to be put through to someone who can.",
				"My email address is now {new_email}, and my account must use it. Whoever can change it, I want to talk to them.",
				"Please get my account's email switched to {new_email}; I'll speak to a person if that's what it takes."}},
		{Name: "remove_payment_method_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetUser, ToolTransfer}, Ground: groundRemovePayment, Templates: []string{
				"I want my {payment} removed from my account for good, and I'll talk to whoever can do it.",
				"I no longer trust having my {payment} saved here. Take it off my account, or get me someone who can.",
				"Please delete the {payment} from my account; if you can't, put me through to a person."}},
		{Name: "courier_complaint_transfer", Kind: sim.IntentTransfer, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolTransfer}, Ground: findable(groundCourierComplaint), Templates: []string{
				"The courier left my order {order_id} in the rain and was rude to me. I want to file a complaint with a person, and what I expect is {outcome}.",
				"I want to complain about how the delivery of order {order_id} was handled by the courier, to someone who can act on it. I'd like {outcome}.",
				"The delivery of order {order_id} was a mess: the courier threw the box over the fence. I want a human to take my complaint; I'm asking for {outcome}."}},
		{Name: "cancel_delivered_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetUser, ToolGetOrder}, Ground: findable(groundCancel(StatusDelivered, false, true)), Templates: []string{
				"I want to cancel my order {order_id} and get my money back, because {reason}; I don't want the {items}.",
				"{Reason}, so please cancel order {order_id} and refund me for the {items}.",
				"I'd like order {order_id} cancelled and my payment returned; {reason}."}},
		{Name: "cancel_processed_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder}, Ground: findable(groundCancel(StatusProcessed, false, false)), Templates: []string{
				"I want to cancel my order {order_id} because {reason}; I don't need the {items}.",
				"Please call off order {order_id}; {reason}, and I don't want the {items}.",
				"{Reason}, so I want order {order_id} cancelled right away."}},
		{Name: "cancel_order_other_reason", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder}, Ground: findable(groundCancel(StatusPending, true, false)), Templates: []string{
				"I want to cancel my pending order {order_id}: {reason}. I don't need the {items}.",
				"Please cancel order {order_id}. The reason is simple: {reason}.",
				"Order {order_id} has to go: {reason}. Cancel it, please."}},
		{Name: "modify_processed_order_address", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetUser, ToolGetOrder}, Ground: findable(groundOrderAddress(StatusProcessed)), Templates: []string{
				"I want my order {order_id} shipped to {address} instead of the address on it.",
				"Order {order_id} must go to {address} now; I'm no longer at the old place.",
				"Please redirect order {order_id} to {address}."}},
		{Name: "return_pending_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder}, Ground: findable(groundReturnNotDelivered(StatusPending)), Templates: []string{
				"I want to return the {items} from my order {order_id}, with the refund going to my {payment}.",
				"The {items} in order {order_id} is something I want to send back, refunded to my {payment}.",
				"Please start a return for the {items} of order {order_id}; refund my {payment}."}},
		{Name: "return_order_again", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder}, Ground: findable(groundReturnAgain), Templates: []string{
				"I also want to return the {items} from order {order_id}, refunded to my {payment}.",
				"One more return from order {order_id}: the {items}, with the money going to my {payment}.",
				"Please add the {items} of order {order_id} to my returns, refunded to my {payment}."}},
		{Name: "exchange_for_other_product", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolListProducts, ToolGetProduct}, Ground: findable(groundOtherProduct(StatusDelivered, ToolExchangeItems)), Templates: []string{
				"I want to exchange the {item} from my delivered order {order_id} for {new_product} instead; any price difference goes through my {payment}.",
				"I don't want the {item} from order {order_id} any more; swap it for {new_product}, with the difference on my {payment}.",
				"Instead of the {item} in order {order_id}, I'd like {new_product}. Use my {payment} for the difference."}},
		{Name: "modify_item_to_other_product", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolListProducts, ToolGetProduct}, Ground: findable(groundOtherProduct(StatusPending, ToolModifyItems)), Templates: []string{
				"Before my order {order_id} ships, I want the {item} in it replaced by {new_product}; settle the difference with my {payment}.",
				"I changed my mind about the {item} in order {order_id}: make it {new_product}, with my {payment} taking the difference.",
				"Please put {new_product} in my pending order {order_id} in place of the {item}. My {payment} covers any difference."}},
		{Name: "modify_items_again", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetProduct}, Ground: findable(groundModifyItemsAgain), Templates: []string{
				"One more change to order {order_id}: I want the {item} changed to {change}, with the difference on my {payment}.",
				"Sorry, I also need the {item} in order {order_id} to be {change}. My {payment} takes the difference.",
				"I forgot one thing in order {order_id}: make the {item} {change}. Use my {payment}."}},
		{Name: "refund_to_other_method", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetOrder, ToolGetUser}, Ground: findable(groundRefundOtherMethod), Templates: []string{
				"I want to return the {items} from my delivered order {order_id}, and I want the refund on my {payment}, not on what I paid with.",
				"Send back the {items} of order {order_id}, please, and put the money on my {payment}; that's where I want it.",
				"I'm returning the {items} from order {order_id}. The refund must go to my {payment}."}},
		{Name: "cancel_other_users_order", Kind: sim.IntentForbidden, Families: allFamilies,
			Path: []string{ToolGetUser}, Ground: groundCancelOtherUser, Templates: []string{
				"I want to cancel order {order_id}, which {owner} placed for our household, because {reason}. I am handling it for them.",
				"{Owner} asked me to cancel their order {order_id}; {reason}. I manage these things for the family.",
				"Please cancel order {order_id}. It's {owner}'s, but I take care of their shopping, and {reason}."}},
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
