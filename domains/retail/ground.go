package retail

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file holds the grounders the catalog's intents name (catalog.go),
// their helpers, and what makes a retail request harder than a plain one
// (emobench.TraitFindable, emobench.TraitConditional).

// --- helpers -------------------------------------------------------------

// userOrders returns the user's orders that keep accepts, in the
// account's order (oldest first).
func userOrders(db *DB, userID string, keep func(o *Order) bool) []*Order {
	u := db.Users.At(userID)
	if u == nil {
		return nil
	}
	var out []*Order
	for _, id := range u.Orders {
		if o := db.Orders.At(id); o != nil && keep(o) {
			out = append(out, o)
		}
	}
	return out
}

// pickOrder picks one of the user's orders that keep accepts
// (sim.PickFresh): never one an earlier intent of the task used (one
// request per order and task: no second new address, no repeated
// question or refusal about it), preferably one no kept task used.
func pickOrder(g sim.GroundContext, db *DB, keep func(o *Order) bool) (*Order, bool) {
	var ids []string
	for _, o := range userOrders(db, g.UserID, keep) {
		ids = append(ids, o.ID)
	}
	id, ok := sim.PickFresh(g, ids)
	return db.Orders.At(id), ok
}

// dbGrounder is a grounder over the retail state; sim.GroundOn makes it
// an intent's grounder.
type dbGrounder = func(g sim.GroundContext, db *DB) (sim.Grounding, bool)

// onUser grounds with g's user; nothing when the state has no such user.
func onUser(ground func(g sim.GroundContext, db *DB, u *User) (sim.Grounding, bool)) dbGrounder {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		if u := db.Users.At(g.UserID); u != nil {
			return ground(g, db, u)
		}
		return sim.Grounding{}, false
	}
}

// onOrder grounds with one of the user's orders that keep accepts, drawn
// by pickOrder; nothing when no order fits. The grounding, whose Slots
// and Facts ground must make, names the order (the order_id slot and
// fact) and uses it.
func onOrder(keep func(db *DB, o *Order) bool, ground func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool)) dbGrounder {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		o, ok := pickOrder(g, db, func(o *Order) bool { return keep(db, o) })
		if !ok {
			return sim.Grounding{}, false
		}
		gr, ok := ground(g, db, o)
		if !ok {
			return sim.Grounding{}, false
		}
		gr.Slots["order_id"], gr.Facts["order_id"], gr.Uses = o.ID, o.ID, []string{o.ID}
		return gr, true
	}
}

// extend grounds a request built on a plainer one: ground's grounding,
// which more then rewrites; nothing when ground grounds nothing or more
// declines.
func extend(ground dbGrounder, more func(g sim.GroundContext, db *DB, gr *sim.Grounding) bool) dbGrounder {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		gr, ok := ground(g, db)
		if !ok || !more(g, db, &gr) {
			return sim.Grounding{}, false
		}
		return gr, true
	}
}

// accountFirst is ground with the user's account read before anything
// else (and not again later): the user has the agent check it first.
func accountFirst(ground dbGrounder) dbGrounder {
	return extend(ground, func(g sim.GroundContext, _ *DB, gr *sim.Grounding) bool {
		reads := slices.DeleteFunc(gr.Actions, func(a emobench.Action) bool { return a.Name == ToolGetUser })
		gr.Actions = withAccountRead(true, g.UserID, reads...)
		return true
	})
}

func isStatus(status string) func(*DB, *Order) bool {
	return func(_ *DB, o *Order) bool { return o.Status == status }
}

// paidBy returns the payment method that paid o, if it is still the user's.
func paidBy(db *DB, o *Order) *PaymentMethod {
	return db.Users.At(o.UserID).PaymentMethods[o.PaymentMethodID()]
}

// methodsWhere are u's payment methods that keep accepts, in id order.
func methodsWhere(u *User, keep func(pm *PaymentMethod) bool) []*PaymentMethod {
	var out []*PaymentMethod
	for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
		if pm := u.PaymentMethods[id]; keep(pm) {
			out = append(out, pm)
		}
	}
	return out
}

// giftCard returns the user's gift card, if any.
func giftCard(u *User) *PaymentMethod {
	if cards := methodsWhere(u, func(pm *PaymentMethod) bool { return pm.Source == sourceGiftCard }); len(cards) > 0 {
		return cards[0]
	}
	return nil
}

// pickReason draws a cancellation reason the policy accepts.
func pickReason(r *rand.Rand) string {
	return sim.OneOf(r, ReasonNoLongerNeeded, ReasonOrderedByMistake)
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
	p := db.Products.At(s.old.ProductID)
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
		p := db.Products.At(it.ProductID)
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
// given status: of a pending one, for a reason the policy accepts
// (pickReason), the store's cancellation; otherwise (an order not
// pending, or with otherReason a reason the policy does not accept,
// userWords.OtherReasons) a forbidden one, the gold only reading the order (after
// the account with readAccount).
func groundCancel(status string, otherReason, readAccount bool) dbGrounder {
	return onOrder(isStatus(status), func(g sim.GroundContext, _ *DB, o *Order) (sim.Grounding, bool) {
		var code string
		if otherReason {
			code = sim.OneOf(g.Rand, words().OtherReasons...)
		} else {
			code = pickReason(g.Rand)
		}
		said := cmp.Or(words().ReasonWords[code], code) // a reason the policy does not accept is said as it is
		text := "Cancel order %s; %s."
		if status != StatusPending {
			text = "Cancel order %s and refund me; %s."
		}
		gr := sim.Grounding{
			Slots:   sim.WithCapitals(map[string]string{"items": orderItemNames(o), "reason": said}, "reason"),
			Facts:   map[string]string{"reason": code},
			Request: emobench.Request{Text: fmt.Sprintf(text, o.ID, said), Tools: []string{ToolCancelOrder}},
			Actions: withAccountRead(readAccount, g.UserID, readOrder(o.ID), sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", code)),
		}
		if status != StatusPending || otherReason {
			gr = sim.RefusedWrite(gr)
		}
		return gr, true
	})
}

// groundCancelIfNotShipped grounds a cancellation on condition that an
// order of the given status has not shipped: a pending one is cancelled;
// for any other the user only wants the status, the output.
func groundCancelIfNotShipped(status string) dbGrounder {
	return extend(groundCancel(status, false, false), func(_ sim.GroundContext, _ *DB, gr *sim.Grounding) bool {
		gr.Facts["condition"] = "cancel it only if it has not shipped yet; otherwise just tell me its status"
		gr.Request.Text = fmt.Sprintf("If order %s hasn't shipped yet, cancel it; %s. If it has shipped, just tell me its status.",
			gr.Facts["order_id"], gr.Slots["reason"])
		gr.Traits = []string{emobench.TraitConditional}
		if status != StatusPending {
			gr.Forbidden = nil // the cancellation is asked for only if the order has not shipped
			gr.Outputs = []string{statusOutput(status)}
		}
		return true
	})
}

// groundChangeOrCancel grounds a change of one item of a pending order
// to a variant in stock (inStock: the change, settled with the method that
// paid) or out of stock (the fallback: the order is cancelled for the
// reason the user gives).
func groundChangeOrCancel(inStock bool) dbGrounder {
	return onOrder(func(db *DB, o *Order) bool {
		return o.Status == StatusPending && !o.ItemsModified && len(swapsWhere(db, o, inStock)) > 0 && paidBy(db, o) != nil
	}, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
		swaps := swapsWhere(db, o, inStock)
		s, pm, reason := swaps[g.Rand.IntN(len(swaps))], paidBy(db, o), pickReason(g.Rand)
		if inStock && pm.canPay(s.item.Price-s.old.Price) != nil {
			return sim.Grounding{}, false
		}
		write := sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", reason)
		if inStock {
			write = swapAction(ToolModifyItems, o, []itemSwap{s}, pm)
		}
		gr := swapGrounding(o, []itemSwap{s}, pm)
		gr.Slots["reason"], gr.Facts["reason"] = words().ReasonWords[reason], reason
		gr.Slots = sim.WithCapitals(gr.Slots, "reason")
		gr.Facts["condition"] = "if the new one is out of stock, cancel the whole order"
		gr.Request = emobench.Request{Text: fmt.Sprintf("In order %s, change the %s to %s; if that is out of stock, cancel the order: %s.",
			o.ID, s.old.Name, s.change(), words().ReasonWords[reason]), Tools: []string{write.Name}}
		gr.Actions = append(gr.Actions, write)
		gr.Traits = []string{emobench.TraitConditional}
		return gr, true
	})
}

// groundOrderAddress grounds a change of the shipping address of one of
// the user's orders of the given status: of a pending one, the store's
// change; of any other, a forbidden one, the gold reading the account and
// the order.
func groundOrderAddress(status string) dbGrounder {
	return onOrder(isStatus(status), func(g sim.GroundContext, _ *DB, o *Order) (sim.Grounding, bool) {
		addr := newAddress(g.Rand, o.Address)
		gr := sim.Grounding{
			Slots:   map[string]string{"address": addr.String()},
			Facts:   map[string]string{"new_address": addr.String()},
			Request: emobench.Request{Text: fmt.Sprintf("Ship order %s to %s.", o.ID, addr), Tools: []string{ToolModifyAddress}},
			Actions: []emobench.Action{readOrder(o.ID), addressAction(ToolModifyAddress, "order_id", o.ID, addr)},
		}
		if status != StatusPending {
			gr = sim.RefusedWrite(gr)
			gr.Request.Text = fmt.Sprintf("Change the shipping address of order %s to %s.", o.ID, addr)
			gr.Actions = withAccountRead(true, g.UserID, gr.Actions...)
		}
		return gr, true
	})
}

// groundModifyUserAddress grounds a change of the account's address, once
// a task: an account whose address no order of it shares was changed by
// an earlier intent (orders are shipped to the account's address at the
// time, and a new address is a fresh random one).
var groundModifyUserAddress = onUser(func(g sim.GroundContext, db *DB, u *User) (sim.Grounding, bool) {
	if len(userOrders(db, u.ID, func(o *Order) bool { return o.Address == u.Address })) == 0 {
		return sim.Grounding{}, false
	}
	addr := newAddress(g.Rand, u.Address)
	return sim.Grounding{
		Slots:   map[string]string{"address": addr.String()},
		Facts:   map[string]string{"new_address": addr.String()},
		Request: emobench.Request{Text: fmt.Sprintf("Change my account's address to %s.", addr), Tools: []string{ToolModifyUserAddress}},
		Actions: []emobench.Action{addressAction(ToolModifyUserAddress, "user_id", u.ID, addr)}}, true
})

// groundItemAndAddress grounds a change of one item of a pending order
// and of its shipping address (the address first, the product read just
// before the item change).
var groundItemAndAddress = extend(groundSwap(ToolModifyItems, 1, false), func(g sim.GroundContext, db *DB, gr *sim.Grounding) bool {
	o := db.Orders.At(gr.Facts["order_id"])
	addr := newAddress(g.Rand, o.Address)
	gr.Slots["address"] = addr.String()
	gr.Facts["new_address"] = addr.String()
	gr.Request.Text = fmt.Sprintf("Ship order %s to %s, and change %s.", o.ID, addr, gr.Slots["changes"])
	gr.Request.Tools = []string{ToolModifyAddress, ToolModifyItems}
	gr.Actions = slices.Insert(gr.Actions, 1, addressAction(ToolModifyAddress, "order_id", o.ID, addr))
	return true
})

// groundPayWithGiftCard grounds paying a pending order with the user's
// gift card, found on the account; the order is read before the change.
var groundPayWithGiftCard = onOrder(func(db *DB, o *Order) bool {
	gc := giftCard(db.Users.At(o.UserID))
	return gc != nil && o.Status == StatusPending && slices.Contains(otherPayments(db, o), gc)
}, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
	gc := giftCard(db.Users.At(o.UserID))
	return sim.Grounding{
		Slots:   map[string]string{},
		Facts:   map[string]string{"payment_method": gc.Describe()},
		Request: emobench.Request{Text: fmt.Sprintf("Pay order %s with my gift card instead.", o.ID), Tools: []string{ToolModifyPayment}},
		Actions: []emobench.Action{readAccount(g.UserID), readOrder(o.ID), paymentAction(o, gc)},
	}, true
})

// readOrder, readAccount and readProduct are the gold reads of an order,
// of a user's account and of the product of a swap's item.
func readOrder(id string) emobench.Action       { return sim.NewAction(ToolGetOrder, "order_id", id) }
func readAccount(userID string) emobench.Action { return sim.NewAction(ToolGetUser, "user_id", userID) }
func readProduct(s itemSwap) emobench.Action {
	return sim.NewAction(ToolGetProduct, "product_id", s.old.ProductID)
}

// paymentAction is the write that pays o with pm instead.
func paymentAction(o *Order, pm *PaymentMethod) emobench.Action {
	return sim.NewAction(ToolModifyPayment, "order_id", o.ID, "payment_method_id", pm.ID)
}

// swapAction is the write by tool (an item change or an exchange) that
// makes swaps on o, the difference settled with pm.
func swapAction(tool string, o *Order, swaps []itemSwap, pm *PaymentMethod) emobench.Action {
	var oldIDs, newIDs []string
	for _, s := range swaps {
		oldIDs = append(oldIDs, s.old.ItemID)
		newIDs = append(newIDs, s.item.ID)
	}
	return sim.NewAction(tool, "order_id", o.ID, "item_ids", oldIDs, "new_item_ids", newIDs, "payment_method_id", pm.ID)
}

// withAccountRead returns actions, after a read of the user's account
// when read.
func withAccountRead(read bool, userID string, actions ...emobench.Action) []emobench.Action {
	if !read {
		return actions
	}
	return append([]emobench.Action{readAccount(userID)}, actions...)
}

// groundItemAndPayment grounds a change of one item of a pending order,
// the difference settled with the method that paid, then a change of the
// order's payment to another of the user's methods that covers the new
// amount (found on the account).
var groundItemAndPayment = extend(groundSwap(ToolModifyItems, 1, false), func(g sim.GroundContext, db *DB, gr *sim.Grounding) bool {
	o := db.Orders.At(gr.Facts["order_id"])
	paid := o.netPaid()
	if len(paid) != 1 {
		return false
	}
	diff := goldSwapDiff(db, o, gr.Actions[len(gr.Actions)-1])
	others := methodsThatPay(db.Users.At(o.UserID), paid[0].method, paid[0].amount+diff)
	if len(others) == 0 {
		return false
	}
	pm := others[g.Rand.IntN(len(others))]
	// The item change settles with the method that paid, which the user
	// names as it is; the new method is the second payment fact.
	gr.Facts["new_payment_method"] = pm.Describe()
	gr.Slots["payment"] = pm.Describe()
	gr.Request.Text = fmt.Sprintf("In order %s, I want %s instead, and then the order paid with my %s.", o.ID, gr.Slots["changes"], pm.Describe())
	gr.Request.Tools = []string{ToolModifyItems, ToolModifyPayment}
	gr.Actions = append(gr.Actions, readAccount(o.UserID), paymentAction(o, pm))
	return true
})

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
var groundMovedAccountAndOrder = extend(groundModifyUserAddress, func(g sim.GroundContext, db *DB, gr *sim.Grounding) bool {
	o, ok := pickOrder(g, db, func(o *Order) bool { return o.Status == StatusPending })
	if !ok {
		return false
	}
	addr := gr.Facts["new_address"]
	var a Address
	if err := json.Unmarshal(gr.Actions[0].Arguments, &a); err != nil || a == o.Address {
		return false
	}
	gr.Slots["order_id"] = o.ID
	gr.Facts["order_id"] = o.ID
	gr.Request = emobench.Request{
		Text:  fmt.Sprintf("Change my account's address to %s, and ship order %s there too.", addr, o.ID),
		Tools: []string{ToolModifyUserAddress, ToolModifyAddress},
	}
	gr.Actions = append(gr.Actions, readOrder(o.ID), addressAction(ToolModifyAddress, "order_id", o.ID, a))
	gr.Uses = []string{o.ID}
	return true
})

// pendingPayableOtherwise reports whether o is pending and another of
// the user's methods can pay it (otherPayments).
func pendingPayableOtherwise(db *DB, o *Order) bool {
	return o.Status == StatusPending && len(otherPayments(db, o)) > 0
}

// otherPayments are the user's methods other than the one that paid o
// that can pay what o's payment holds; nil unless o is paid with one
// method, which is what the store can move to another.
func otherPayments(db *DB, o *Order) []*PaymentMethod {
	paid := o.netPaid()
	if len(paid) != 1 {
		return nil
	}
	return methodsThatPay(db.Users.At(o.UserID), paid[0].method, paid[0].amount)
}

// methodsThatPay are u's payment methods other than except that can pay
// amount, in id order.
func methodsThatPay(u *User, except string, amount sim.Money) []*PaymentMethod {
	return methodsWhere(u, func(pm *PaymentMethod) bool { return pm.ID != except && pm.canPay(amount) == nil })
}

// groundPayment grounds a switch of a pending order's payment to another
// of the user's methods that can pay it (found on the account), and with
// withAddress a new shipping address too (written first).
func groundPayment(withAddress bool) dbGrounder {
	return onOrder(pendingPayableOtherwise, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
		others := otherPayments(db, o)
		pm := others[g.Rand.IntN(len(others))]
		gr := sim.Grounding{
			Slots:   map[string]string{"payment": pm.Describe()},
			Facts:   map[string]string{"payment_method": pm.Describe()},
			Request: emobench.Request{Text: fmt.Sprintf("Switch the payment of order %s to my %s.", o.ID, pm.Describe()), Tools: []string{ToolModifyPayment}},
			Actions: []emobench.Action{readOrder(o.ID), readAccount(o.UserID), paymentAction(o, pm)},
		}
		if withAddress {
			addr := newAddress(g.Rand, o.Address)
			gr.Slots["address"], gr.Facts["new_address"] = addr.String(), addr.String()
			gr.Request = emobench.Request{Text: fmt.Sprintf("Ship order %s to %s and switch its payment to my %s.", o.ID, addr, pm.Describe()),
				Tools: []string{ToolModifyAddress, ToolModifyPayment}}
			gr.Actions = slices.Insert(gr.Actions, 2, addressAction(ToolModifyAddress, "order_id", o.ID, addr))
		}
		return gr, true
	})
}

// groundSwap grounds a change of k items of an order by tool, each to
// another option of its product: of a pending order whose items were not
// changed yet (ToolModifyItems) or of a delivered one (ToolExchangeItems).
// The difference is settled with the method that paid, or with the user's
// gift card (read on the account) when giftCardPays.
func groundSwap(tool string, k int, giftCardPays bool) dbGrounder {
	status, text := StatusPending, "In order %s, instead of what I picked I want %s."
	if tool == ToolExchangeItems {
		status, text = StatusDelivered, "Exchange items of order %s: I want %s instead."
	}
	return onOrder(func(db *DB, o *Order) bool {
		return o.Status == status && !(tool == ToolModifyItems && o.ItemsModified) && len(o.Items) >= k && len(swapsOf(db, o)) > 0
	}, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
		swaps, ok := pickSwaps(db, o, g.Rand, k)
		pm := paidBy(db, o)
		if giftCardPays {
			pm = giftCard(db.Users.At(o.UserID))
		}
		if !ok || pm == nil || pm.canPay(swapDiff(swaps)) != nil {
			return sim.Grounding{}, false
		}
		gr := swapGrounding(o, swaps, pm, withAccountRead(giftCardPays, o.UserID)...)
		gr.Request = emobench.Request{Text: fmt.Sprintf(text, o.ID, gr.Slots["changes"]), Tools: []string{tool}}
		gr.Actions = append(gr.Actions, swapAction(tool, o, swaps, pm))
		return gr, true
	})
}

// swapGrounding is the grounding of a request for swaps on o, any
// difference settled with pm (nil: a question), whose gold reads the
// order, then reads, then each swap's product; the caller adds the
// request and what the gold does.
func swapGrounding(o *Order, swaps []itemSwap, pm *PaymentMethod, reads ...emobench.Action) sim.Grounding {
	gr := sim.Grounding{
		Slots:   map[string]string{"item": swaps[0].old.Name, "change": swaps[0].change(), "changes": describeSwaps(swaps)},
		Facts:   map[string]string{},
		Actions: append([]emobench.Action{readOrder(o.ID)}, reads...),
		Traits:  swapTraits(swaps),
	}
	if pm != nil {
		gr.Slots["payment"], gr.Facts["payment_method"] = pm.Describe(), pm.Describe()
	}
	swapFacts(gr.Facts, swaps)
	for _, s := range swaps {
		gr.Actions = append(gr.Actions, readProduct(s))
	}
	return gr
}

// groundReturn grounds a return of min to max items of a delivered order,
// refunded to the method that paid, or to the user's gift card when
// toGiftCard (a card other than the one that paid, found on the account).
// With several items the refund is summed with calculate, unless the gift
// card path reads the account instead. The refund is an output.
func groundReturn(minItems, maxItems int, toGiftCard bool) dbGrounder {
	return onOrder(func(db *DB, o *Order) bool {
		if o.Status != StatusDelivered || len(o.Items) < minItems {
			return false
		}
		if toGiftCard {
			gc := giftCard(db.Users.At(o.UserID))
			return gc != nil && gc.ID != o.PaymentMethodID()
		}
		return paidBy(db, o) != nil
	}, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
		k := minItems + g.Rand.IntN(min(maxItems, len(o.Items))-minItems+1)
		positions := g.Rand.Perm(len(o.Items))[:k]
		slices.Sort(positions)
		var ids, names []string
		var refund sim.Money
		items := make([]OrderItem, k)
		for i, p := range positions {
			items[i] = o.Items[p]
			ids = append(ids, items[i].ItemID)
			names = append(names, items[i].Name)
			refund += items[i].Price
		}
		pm := paidBy(db, o)
		actions := []emobench.Action{readOrder(o.ID)}
		switch {
		case toGiftCard:
			pm = giftCard(db.Users.At(o.UserID))
			actions = append(actions, readAccount(o.UserID))
		case minItems > 1:
			actions = append(actions, sumAction(items))
		}
		actions = append(actions, returnAction(o, ids, pm))
		gr := sim.Grounding{
			Slots:   map[string]string{"items": itemNames(names), "payment": pm.Describe()},
			Facts:   map[string]string{"item_name": itemNames(names), "payment_method": pm.Describe()},
			Request: emobench.Request{Text: fmt.Sprintf("Return the %s from order %s and refund it to my %s. How much will the refund be?", itemNames(names), o.ID, pm.Describe()), Tools: []string{ToolReturnItems}},
			Actions: actions,
			Outputs: []string{dollars(refund)},
		}
		if gc := giftCard(db.Users.At(o.UserID)); !toGiftCard && gc != nil && gc.ID != pm.ID && g.Rand.IntN(3) == 0 {
			gr = conditionalRefund(g, gr, o, ids, pm, gc, refund)
		}
		return gr, true
	})
}

// groundQuestion grounds a question about one of the user's orders that
// keep accepts, asked (text, with the order id for its verb) for a
// purpose drawn from the userWords.Purposes of its kind: the gold reads
// the order and does what answer returns besides, and the answer is the
// output.
func groundQuestion(keep func(db *DB, o *Order) bool, kind, text string,
	answer func(o *Order) (more []emobench.Action, output string)) dbGrounder {
	return onOrder(keep, func(g sim.GroundContext, _ *DB, o *Order) (sim.Grounding, bool) {
		purpose := sim.OneOf(g.Rand, words().Purposes[kind]...)
		more, output := answer(o)
		return sim.Grounding{
			Slots:   map[string]string{"items": orderItemNames(o), "purpose": purpose},
			Facts:   map[string]string{"purpose": purpose},
			Request: emobench.Request{Text: fmt.Sprintf(text, o.ID), Tools: []string{ToolGetOrder}},
			Actions: append([]emobench.Action{readOrder(o.ID)}, more...), Outputs: []string{output},
		}, true
	})
}

func notCancelled(_ *DB, o *Order) bool { return o.Status != StatusCancelled }

var groundStatus = groundQuestion(notCancelled, "status", "What is the status of order %s?",
	func(o *Order) ([]emobench.Action, string) { return nil, statusOutput(o.Status) })

var groundOrderTotal = groundQuestion(func(db *DB, o *Order) bool { return notCancelled(db, o) && len(o.Items) > 1 },
	"total", "How much do the items in order %s cost in total?", func(o *Order) ([]emobench.Action, string) {
		return []emobench.Action{sumAction(o.Items)}, dollars(o.Total())
	})

// sumAction is the gold's sum of the items' prices with calculate.
func sumAction(items []OrderItem) emobench.Action {
	prices := make([]string, len(items))
	for i, it := range items {
		prices[i] = it.Price.String()
	}
	return sim.NewAction(ToolCalculate, "expression", strings.Join(prices, " + "))
}

var groundGiftCardBalance = onUser(func(g sim.GroundContext, _ *DB, u *User) (sim.Grounding, bool) {
	gc := giftCard(u)
	balanceAsked := g.UserID + "/gift_card_balance" // asked once a task
	if gc == nil || sim.UsedInTask(g, balanceAsked) {
		return sim.Grounding{}, false
	}
	purpose := sim.OneOf(g.Rand, words().Purposes["balance"]...)
	return sim.Grounding{
		Uses:    []string{balanceAsked},
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "What is the balance of my gift card?", Tools: []string{ToolGetUser}},
		Actions: []emobench.Action{readAccount(g.UserID)}, Outputs: []string{dollars(*gc.Balance)},
	}, true
})

// groundItemOptionPrice grounds a question about the price of another
// option of an item the user ordered; the price is the output.
var groundItemOptionPrice = onOrder(func(db *DB, o *Order) bool { return len(swapsOf(db, o)) > 0 },
	func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
		swaps, _ := pickSwaps(db, o, g.Rand, 1)
		s := swaps[0]
		gr := swapGrounding(o, swaps, nil)
		gr.Request = emobench.Request{Text: fmt.Sprintf("What would the %s from order %s cost with %s?", s.old.Name, o.ID, s.change()), Tools: []string{ToolGetProduct}}
		gr.Outputs = []string{dollars(s.item.Price)}
		return gr, true
	})

// handOff is the gold of a request only a human agent can take: reads,
// then the transfer with summary.
func handOff(summary string, reads ...emobench.Action) []emobench.Action {
	return append(reads, sim.NewAction(ToolTransfer, "summary", summary))
}

var groundChangeEmail = onUser(func(g sim.GroundContext, _ *DB, u *User) (sim.Grounding, bool) {
	email := fmt.Sprintf("%s.%s.%d@mailbox.example.org", strings.ToLower(u.Name.First), strings.ToLower(u.Name.Last), 10+g.Rand.IntN(90))
	return sim.Grounding{
		Slots:   map[string]string{"new_email": email},
		Facts:   map[string]string{"new_email": email},
		Request: emobench.Request{Text: fmt.Sprintf("Change my account email to %s.", email), Tools: []string{ToolTransfer}},
		Actions: handOff(fmt.Sprintf("User %s wants to change the account email to %s, which the policy does not allow the agent to do.", u.ID, email)),
	}, true
})

var groundRemovePayment = onUser(func(g sim.GroundContext, _ *DB, u *User) (sim.Grounding, bool) {
	methods := methodsWhere(u, func(*PaymentMethod) bool { return true })
	if len(methods) == 0 {
		return sim.Grounding{}, false
	}
	pm := methods[g.Rand.IntN(len(methods))]
	return sim.Grounding{
		Slots:   map[string]string{"payment": pm.Describe()},
		Facts:   map[string]string{"payment_method": pm.Describe()},
		Request: emobench.Request{Text: fmt.Sprintf("Remove my %s from my account.", pm.Describe()), Tools: []string{ToolTransfer}},
		Actions: handOff(fmt.Sprintf("User %s wants the payment method %s removed from the account, which the policy does not allow the agent to do.",
			u.ID, pm.ID), readAccount(u.ID)),
	}, true
})

var groundCourierComplaint = onOrder(isStatus(StatusDelivered), func(g sim.GroundContext, _ *DB, o *Order) (sim.Grounding, bool) {
	outcome := sim.OneOf(g.Rand, words().ComplaintOutcomes...)
	return sim.Grounding{
		Slots:   map[string]string{"outcome": outcome},
		Facts:   map[string]string{"outcome": outcome},
		Request: emobench.Request{Text: fmt.Sprintf("I want to complain about the courier who delivered order %s.", o.ID), Tools: []string{ToolTransfer}},
		Actions: handOff(fmt.Sprintf("User %s wants to complain about the courier's delivery of order %s.", o.UserID, o.ID), readOrder(o.ID)),
	}, true
})

// forbiddenReturn is the grounding of a forbidden return of it from o,
// refunded to pm: the gold makes the reads, and a return matching compare
// is the forbidden one.
func forbiddenReturn(o *Order, it OrderItem, pm *PaymentMethod, reads []emobench.Action, compare ...string) sim.Grounding {
	return sim.RefusedWrite(sim.Grounding{
		Slots:   map[string]string{"items": it.Name, "payment": pm.Describe()},
		Facts:   map[string]string{"item_name": it.Name, "payment_method": pm.Describe()},
		Request: emobench.Request{Text: fmt.Sprintf("Return the %s from order %s and refund it to my %s.", it.Name, o.ID, pm.Describe())},
		Actions: append(reads, returnAction(o, []string{it.ItemID}, pm)),
	}, compare...)
}

// returnAction is the write that returns o's items itemIDs, refunded to pm.
func returnAction(o *Order, itemIDs []string, pm *PaymentMethod) emobench.Action {
	return sim.NewAction(ToolReturnItems, "order_id", o.ID, "item_ids", itemIDs, "payment_method_id", pm.ID)
}

// groundReturnRefusal grounds a return the policy refuses of one of the
// items left (of the order, the items the user may name) of an order keep
// accepts, to the method that paid; a return matching compare (the
// forbidden entry's CompareArgs) is the forbidden one.
func groundReturnRefusal(keep func(db *DB, o *Order) bool, left func(o *Order) []OrderItem, compare ...string) dbGrounder {
	return onOrder(keep, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
		items := left(o)
		it := items[g.Rand.IntN(len(items))]
		pm := paidBy(db, o)
		if pm == nil {
			return sim.Grounding{}, false
		}
		return forbiddenReturn(o, it, pm, []emobench.Action{readOrder(o.ID)}, compare...), true
	})
}

// groundReturnNotDelivered grounds a return of an item of an order of the
// given status, not delivered: any return from it is forbidden.
func groundReturnNotDelivered(status string) dbGrounder {
	return groundReturnRefusal(isStatus(status), func(o *Order) []OrderItem { return o.Items }, "order_id")
}

// groundReturnAgain grounds a second return or exchange of an order that
// already has one (after an earlier intent of the task, or from an
// earlier conversation: markEarlierRequests): each delivered order accepts
// one, once. Its item is one the first request left; the earlier return
// of the task is on the same order, so the item tells the forbidden one
// apart.
var groundReturnAgain = groundReturnRefusal(func(db *DB, o *Order) bool {
	return (o.Status == StatusReturnRequested || o.Status == StatusExchangeRequested) && len(o.Items) > len(requestedItems(o))
}, func(o *Order) []OrderItem {
	return slices.DeleteFunc(slices.Clone(o.Items), func(it OrderItem) bool { return slices.Contains(requestedItems(o), it.ItemID) })
}, "order_id", "item_ids")

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
func groundOtherProduct(status, tool string) dbGrounder {
	return onOrder(func(db *DB, o *Order) bool {
		return o.Status == status && !(tool == ToolModifyItems && o.ItemsModified)
	}, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
		old := o.Items[g.Rand.IntN(len(o.Items))]
		pm := paidBy(db, o)
		if pm == nil {
			return sim.Grounding{}, false
		}
		other, ok := otherProduct(db, g.Rand, old, pm)
		if !ok {
			return sim.Grounding{}, false
		}
		p := db.Products.At(other.productID)
		verb := "Exchange"
		if tool == ToolModifyItems {
			verb = "Swap"
		}
		return sim.Grounding{
			Slots:   map[string]string{"item": old.Name, "new_product": withArticle(p.Name), "payment": pm.Describe()},
			Facts:   map[string]string{"item_name": old.Name, "new_product": p.Name, "payment_method": pm.Describe()},
			Request: emobench.Request{Text: fmt.Sprintf("%s the %s in order %s for %s.", verb, old.Name, o.ID, withArticle(p.Name)), Tools: []string{ToolGetOrder}},
			Actions: []emobench.Action{readOrder(o.ID), sim.NewAction(ToolListProducts), sim.NewAction(ToolGetProduct, "product_id", p.ID)},
			// Forbidden whatever pays the difference.
			Forbidden: []emobench.Action{sim.WithCompareArgs(sim.NewAction(tool, "order_id", o.ID, "item_ids", []string{old.ItemID},
				"new_item_ids", []string{other.itemID}, "payment_method_id", pm.ID), "order_id", "item_ids", "new_item_ids")},
		}, true
	})
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
		p := db.Products.At(pid)
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
// of an order change only once. The store refuses it too.
var groundModifyItemsAgain = onOrder(func(db *DB, o *Order) bool {
	return o.Status == StatusPending && o.ItemsModified && len(swapsOf(db, o)) > 0
}, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
	swaps, _ := pickSwaps(db, o, g.Rand, 1)
	pm := paidBy(db, o)
	if pm == nil {
		return sim.Grounding{}, false
	}
	gr := swapGrounding(o, swaps, pm)
	gr.Request = emobench.Request{Text: fmt.Sprintf("Swap the %s in order %s for the one with %s.", swaps[0].old.Name, o.ID, swaps[0].change()),
		Tools: []string{ToolGetOrder}}
	// The earlier change of the task is on the same order: the item tells
	// the forbidden one apart. A refusal's open option changes nothing:
	// no trait.
	gr.Forbidden = []emobench.Action{sim.WithCompareArgs(swapAction(ToolModifyItems, o, swaps, pm), "order_id", "item_ids")}
	gr.Traits = nil
	return gr, true
})

// groundRefundOtherMethod grounds a return of an item of a delivered
// order refunded to a method that neither paid it nor is a gift card:
// the policy refuses it (the gold reads the order and the account).
var groundRefundOtherMethod = onOrder(func(db *DB, o *Order) bool {
	return o.Status == StatusDelivered && len(excludedRefunds(db, o)) > 0
}, func(g sim.GroundContext, db *DB, o *Order) (sim.Grounding, bool) {
	ex := excludedRefunds(db, o)
	pm := ex[g.Rand.IntN(len(ex))]
	it := o.Items[g.Rand.IntN(len(o.Items))]
	// Any return from the order to that method is forbidden.
	return forbiddenReturn(o, it, pm, []emobench.Action{readOrder(o.ID), readAccount(o.UserID)}, "order_id", "payment_method_id"), true
})

// excludedRefunds are the methods of o's user a refund of o may not go
// to: neither the one that paid nor a gift card.
func excludedRefunds(db *DB, o *Order) []*PaymentMethod {
	return methodsWhere(db.Users.At(o.UserID), func(pm *PaymentMethod) bool {
		return pm.ID != o.PaymentMethodID() && pm.Source != sourceGiftCard
	})
}

// groundCancelOtherUser grounds a cancellation of another user's pending
// order: the agent helps only the user it verified. The gold reads the
// user's own account, whose orders do not include it.
func groundCancelOtherUser(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
	// A user who names orders by content (findableUser) would not know
	// another's order by id.
	if db.Users.At(g.UserID) == nil || findableUser(g.UserID) {
		return sim.Grounding{}, false
	}
	var pending []*Order
	for _, id := range db.Orders.Keys() {
		if o := db.Orders.At(id); o.Status == StatusPending && o.UserID != g.UserID && (g.Used == nil || !g.Used(o.ID)) {
			pending = append(pending, o)
		}
	}
	if len(pending) == 0 {
		return sim.Grounding{}, false
	}
	o := pending[g.Rand.IntN(len(pending))]
	owner := db.Users.At(o.UserID)
	reason := pickReason(g.Rand)
	return sim.RefusedWrite(sim.Grounding{
		Slots: sim.WithCapitals(map[string]string{"order_id": o.ID, "owner": owner.Name.First + " " + owner.Name.Last,
			"reason": words().ReasonWords[reason]}, "reason", "owner"),
		Facts:   map[string]string{"order_id": o.ID, "reason": reason},
		Request: emobench.Request{Text: fmt.Sprintf("Cancel order %s; %s.", o.ID, words().ReasonWords[reason])},
		Actions: []emobench.Action{readAccount(g.UserID), sim.NewAction(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
		Uses:    []string{o.ID},
	}), true
}

// --- wording and calls ---------------------------------------------------

// userWords are what users say and agents answer (ground.json).
type userWords struct {
	// Purposes are what a user asks a question for, by kind of question
	// (status, balance, total), and ComplaintOutcomes what they want from
	// a complaint: the preference a read or hand-off states (the audit's
	// tool_task_with_preference), as the instruction words it.
	Purposes          map[string][]string `json:"purposes"`
	ComplaintOutcomes []string            `json:"complaint_outcomes"`
	// ReasonWords say the reasons the policy accepts (ReasonNoLongerNeeded
	// ...) as a user does; OtherReasons are reasons it does not accept.
	ReasonWords  map[string]string `json:"reason_words"`
	OtherReasons []string          `json:"other_reasons"`
	// StatusSynonyms are the ways an agent may say an order status, as the
	// output's synonym set ("pending|not yet shipped"): any member counts.
	// None of them is a part of another status's words.
	StatusSynonyms map[string]string `json:"status_synonyms"`
	// Pairs end the product names said "a pair of" (withArticle).
	Pairs []string `json:"pairs"`
}

//go:embed ground.json
var groundJSON []byte

// words is ground.json, decoded once.
var words = sync.OnceValue(func() *userWords {
	w := new(userWords)
	if err := json.Unmarshal(groundJSON, w); err != nil {
		panic("retail: ground.json: " + err.Error()) // embedded: a build bug
	}
	return w
})

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

// withArticle puts "a", "an" or "a pair of" before a product name.
func withArticle(name string) string {
	for _, pair := range words().Pairs {
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

// --- harder requests: findable orders, conditional refunds ---------------

// findableShare is the share of users (findableUser) who name their
// orders by what is in them, never by id.
const findableShare = 30 // percent

// findableUser reports whether the user is one who does not know order
// ids. It is a property of the user, not of one request, so that a task
// never mixes an order the user names by id with one the agent must find:
// the scripted user would take the found order's id for a wrong one.
func findableUser(userID string) bool {
	h := fnv.New32a()
	h.Write([]byte(userID))
	return h.Sum32()%100 < findableShare
}

// findable wraps ground: for a findableUser, the grounding names the
// order not by id but by a product only it has among the user's orders
// ("my order with the hiking boots"); the user then knows no order id, the
// gold reads the account first (its order list) and the grounding carries
// TraitFindable. An order with no such product is not grounded for them.
func findable(ground dbGrounder) dbGrounder {
	return func(g sim.GroundContext, db *DB) (sim.Grounding, bool) {
		gr, ok := ground(g, db)
		if !ok || !findableUser(g.UserID) {
			return gr, ok
		}
		o := db.Orders.At(gr.Facts["order_id"])
		if o == nil {
			return gr, true
		}
		product, found := distinctProduct(db, o)
		if !found {
			return sim.Grounding{}, false
		}
		delete(gr.Facts, "order_id")
		gr.Facts["order_description"] = "the order with the " + product
		gr.Slots["order_id"] = "with the " + product + " (I don't have its number)"
		gr.Request.Text = strings.Replace(gr.Request.Text, "order "+o.ID, "my order with the "+product, 1)
		if len(gr.Actions) == 0 || gr.Actions[0].Name != ToolGetUser {
			gr.Actions = append([]emobench.Action{readAccount(o.UserID)}, gr.Actions...)
		}
		gr.Traits = append(gr.Traits, emobench.TraitFindable)
		return gr, true
	}
}

// distinctProduct returns the name of the first product of o that no
// other order of its user has, which names o among them.
func distinctProduct(db *DB, o *Order) (string, bool) {
	for _, it := range o.Items {
		if len(ordersWithProduct(db, o.UserID, it.Name)) == 1 {
			return it.Name, true
		}
	}
	return "", false
}

// ordersWithProduct returns the ids of the user's orders with an item
// named product.
func ordersWithProduct(db *DB, userID, product string) []string {
	var out []string
	for _, o := range userOrders(db, userID, func(*Order) bool { return true }) {
		if slices.ContainsFunc(o.Items, func(it OrderItem) bool { return it.Name == product }) {
			out = append(out, o.ID)
		}
	}
	return out
}

// refundRule is the condition a user puts on where a refund goes (the
// refund_rule fact): the gift card below a whole-dollar threshold, another
// method otherwise. refundRulePattern reads it back.
func refundRule(threshold int, otherwise string) string {
	return fmt.Sprintf("gift card if the refund is under $%d, otherwise my %s", threshold, otherwise)
}

var refundRulePattern = regexp.MustCompile(`^gift card if the refund is under \$(\d+), otherwise my (.+)$`)

// conditionalRefund rewrites a return grounding gr of o's items ids,
// refunded to the method that paid (paid) and worth refund, so that the user states a
// rule (refundRule) the refund amount decides between the gift card gc
// and paid; it draws which side the data falls on. The gold then reads the
// account, where the gift card is, and refunds where the rule says.
func conditionalRefund(g sim.GroundContext, gr sim.Grounding, o *Order, ids []string, paid, gc *PaymentMethod, refund sim.Money) sim.Grounding {
	dollars := int(refund / 100)
	toGiftCard := g.Rand.IntN(2) == 0 || dollars < 2
	threshold := dollars + 1 + g.Rand.IntN(30) // refund < threshold: gift card
	target := gc
	if !toGiftCard {
		threshold = max(1, dollars-g.Rand.IntN(min(30, dollars))) // refund >= threshold
		target = paid
	}
	rule := refundRule(threshold, paid.Describe())
	delete(gr.Facts, "payment_method")
	gr.Facts["refund_rule"] = rule
	gr.Slots["payment"] = rule
	gr.Request.Text = fmt.Sprintf("Return the %s from order %s; refund it to my %s. How much will the refund be?", gr.Facts["item_name"], o.ID, rule)
	last := len(gr.Actions) - 1
	gr.Actions[last] = returnAction(o, ids, target)
	if !slices.ContainsFunc(gr.Actions, func(a emobench.Action) bool { return a.Name == ToolGetUser }) {
		gr.Actions = slices.Insert(gr.Actions, last, readAccount(o.UserID))
	}
	gr.Traits = append(gr.Traits, emobench.TraitConditional)
	return gr
}

// dollars is an amount as an output: "$40.50" (the unit is part of it).
func dollars(m sim.Money) string { return "$" + m.String() }

// statusOutput is an order status as an output: its synonym set
// (userWords.StatusSynonyms).
func statusOutput(status string) string { return cmp.Or(words().StatusSynonyms[status], status) }
