package retail

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/emobench/emobench"
)

// refusalKinds are requests the policy forbids. The right outcome is an
// unchanged database: the gold actions only read what the agent needs to
// see that the request is forbidden, and the user's instruction states the
// request without accepting a refusal in advance. The forbidden write of
// the first two kinds is refused by the tools too (the order's status
// does not allow it); the tools accept the other three, so an agent that
// makes them changes the database.
var refusalKinds = []taskKind{
	// Cancel a delivered order: only pending orders can be cancelled. The
	// status is an output, as the reason for the refusal.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusDelivered)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			reason := []string{ReasonNoLongerNeeded, ReasonOrderedByMistake}[r.IntN(2)]
			facts := map[string]string{"order_id": o.ID, "reason": reason}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I want to cancel my order %s (%s) and get my money back, because %s.", o.ID, orderItemNames(o), reasonWords[reason]),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("Cancel order %s and refund me; %s.", o.ID, reasonWords[reason]), Tools: []string{ToolGetOrder}}},
				actions:     []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID)},
				outputs:     []string{o.Status},
				forbidden:   []emobench.Action{action(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
			}, true
		},
	},
	// Return an item of a pending order: only delivered orders can be
	// returned, so any return from it is forbidden. The status is an
	// output.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusPending)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			it := o.Items[r.IntN(len(o.Items))]
			pm := u.PaymentMethods[o.PaymentMethodID()]
			if pm == nil {
				return draft{}, false
			}
			facts := map[string]string{"order_id": o.ID, "item_name": it.Name, "payment_method": pm.Describe()}
			auth := authenticate(u, r, facts)
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("I want to return the %s from my order %s, with the refund going to my %s.",
					it.Name, o.ID, pm.Describe()),
				facts: facts,
				requests: []emobench.Request{{
					Text:  fmt.Sprintf("Return the %s from order %s and refund it to my %s.", it.Name, o.ID, pm.Describe()),
					Tools: []string{ToolGetOrder},
				}},
				actions:   []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID)},
				outputs:   []string{o.Status},
				forbidden: []emobench.Action{withCompareArgs(action(ToolReturnItems, "order_id", o.ID, "item_ids", []string{it.ItemID}, "payment_method_id", pm.ID), "order_id")},
			}, true
		},
	},
	// Exchange an item of a delivered order for another product: an item can
	// only be exchanged for a variant of the same product. The exchange is
	// forbidden whatever pays the difference.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusDelivered)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			old := o.Items[r.IntN(len(o.Items))]
			pm := u.PaymentMethods[o.PaymentMethodID()]
			other, ok := b.otherProductItem(r, old.ProductID)
			if pm == nil || !ok {
				return draft{}, false
			}
			p := b.db.Products[other.productID]
			facts := map[string]string{"order_id": o.ID, "item_name": old.Name, "new_product": p.Name, "payment_method": pm.Describe()}
			auth := authenticate(u, r, facts)
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("I want to exchange the %s from my delivered order %s for %s instead; any price difference goes through my %s.",
					old.Name, o.ID, withArticle(p.Name), pm.Describe()),
				facts: facts,
				requests: []emobench.Request{{
					Text:  fmt.Sprintf("Exchange the %s in order %s for %s.", old.Name, o.ID, withArticle(p.Name)),
					Tools: []string{ToolGetOrder},
				}},
				actions: []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID)},
				forbidden: []emobench.Action{withCompareArgs(action(ToolExchangeItems, "order_id", o.ID, "item_ids", []string{old.ItemID},
					"new_item_ids", []string{other.itemID}, "payment_method_id", pm.ID), "order_id", "item_ids", "new_item_ids")},
			}, true
		},
	},
	// Return an item with the refund to a method that neither paid the
	// order nor is a gift card: the policy allows only those two, so any
	// return from the order to that method is forbidden.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusDelivered)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			var excluded []*PaymentMethod
			for _, m := range sortedKeys(u.PaymentMethods) {
				if pm := u.PaymentMethods[m]; m != o.PaymentMethodID() && pm.Source != sourceGiftCard {
					excluded = append(excluded, pm)
				}
			}
			if len(excluded) == 0 {
				return draft{}, false
			}
			pm := excluded[r.IntN(len(excluded))]
			it := o.Items[r.IntN(len(o.Items))]
			facts := map[string]string{"order_id": o.ID, "item_name": it.Name, "payment_method": pm.Describe()}
			auth := authenticate(u, r, facts)
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("I want to return the %s from my delivered order %s, and I want the refund on my %s, not on what I paid with.",
					it.Name, o.ID, pm.Describe()),
				facts: facts,
				requests: []emobench.Request{{
					Text:  fmt.Sprintf("Return the %s from order %s and refund it to my %s.", it.Name, o.ID, pm.Describe()),
					Tools: []string{ToolGetUser},
				}},
				actions:   []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID), action(ToolGetUser, "user_id", u.ID)},
				forbidden: []emobench.Action{withCompareArgs(action(ToolReturnItems, "order_id", o.ID, "item_ids", []string{it.ItemID}, "payment_method_id", pm.ID), "order_id", "payment_method_id")},
			}, true
		},
	},
	// Cancel a pending order of another user: the agent helps only the user
	// it verified. The gold reads the user's own orders, which do not
	// include it.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusPending)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			owner := b.db.Users[o.UserID]
			u := b.db.Users[b.users[r.IntN(len(b.users))]]
			if u.ID == owner.ID {
				return draft{}, false
			}
			reason := []string{ReasonNoLongerNeeded, ReasonOrderedByMistake}[r.IntN(2)]
			facts := map[string]string{"order_id": o.ID, "reason": reason}
			auth := authenticate(u, r, facts)
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("I want to cancel order %s, which %s %s placed for our household, because %s. I am handling it for them.",
					o.ID, owner.Name.First, owner.Name.Last, reasonWords[reason]),
				facts:     facts,
				requests:  []emobench.Request{{Text: fmt.Sprintf("Cancel order %s; %s.", o.ID, reasonWords[reason]), Tools: []string{ToolGetUser}}},
				actions:   []emobench.Action{auth, action(ToolGetUser, "user_id", u.ID)},
				forbidden: []emobench.Action{action(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
				uses:      []string{"user:" + u.ID},
			}, true
		},
	},
}

// withCompareArgs sets the arguments a call must match to count as the
// forbidden write a: without it, every id it names (payment_method_id
// too) would have to match.
func withCompareArgs(a emobench.Action, args ...string) emobench.Action {
	a.CompareArgs = args
	return a
}

// withArticle puts "a" or "an" before a product name.
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// productItem names an item of a product.
type productItem struct{ productID, itemID string }

// otherProductItem picks an available item of a product other than
// productID, or false when there is none.
func (b *taskBuilder) otherProductItem(r *rand.Rand, productID string) (productItem, bool) {
	var opts []productItem
	for _, pid := range sortedKeys(b.db.Products) {
		if pid == productID {
			continue
		}
		p := b.db.Products[pid]
		for _, id := range sortedKeys(p.Variants) {
			if p.Variants[id].Available {
				opts = append(opts, productItem{pid, id})
			}
		}
	}
	if len(opts) == 0 {
		return productItem{}, false
	}
	return opts[r.IntN(len(opts))], true
}
