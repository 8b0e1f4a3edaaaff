package retail

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file holds the catalog's Alternatives: every other write a user's
// words allow, for Tracer's audit of one valid end state per task.

// alternatives is the catalog's Alternatives: the other writes the
// user's words (facts) allow for gold, by what they leave open. The
// retail data gives a user at most one payment method of each kind and
// orders distinct products, so a method named as the user says it
// ("paypal", "visa credit card ending in 1234") and an item named by its
// product are each one; what stays open is:
//   - the order, when the user describes it (order_description) and
//     another of their orders fits the description;
//   - the payment method, when no fact names the gold's and no refund
//     rule decides it: every other method of the user;
//   - the cancellation reason, when no fact states the gold's;
//   - a new item, when the user leaves an option to the store ("any
//     size, the cheapest in stock"): every other variant as cheap that
//     fits the rest of what they said;
//   - an item, when another item of the order has the same product name.
//
// Address writes take the address the user states whole: none.
func alternatives(env sim.Environment, userID string, facts map[string]string, gold emobench.Action) []emobench.Action {
	db, ok := sim.StateOf[DB](env)
	if !ok {
		return nil
	}
	var args policyArgs
	if json.Unmarshal(gold.Arguments, &args) != nil {
		return nil
	}
	with := func(key string, v any) emobench.Action { return sim.WithArgs(gold, key, v) }
	var out []emobench.Action
	orderID := args.OrderID
	o := db.Orders.At(orderID)
	if o != nil && !factValue(facts, "", orderID) {
		for k, desc := range facts {
			product, found := strings.CutPrefix(desc, "the order with the ")
			if !strings.HasSuffix(k, "order_description") || !found || !slices.Contains(ordersWithProduct(db, userID, product), orderID) {
				continue
			}
			for _, id := range ordersWithProduct(db, userID, product) {
				if id != orderID {
					out = append(out, with("order_id", id))
				}
			}
		}
	}
	switch gold.Name {
	case ToolCancelOrder:
		if reason := args.Reason; !factValue(facts, "reason", reason) {
			for _, r := range []string{ReasonNoLongerNeeded, ReasonOrderedByMistake} {
				if r != reason {
					out = append(out, with("reason", r))
				}
			}
		}
	case ToolModifyPayment, ToolReturnItems, ToolModifyItems, ToolExchangeItems:
		if o == nil {
			break
		}
		oldIDs, newIDs := args.ItemIDs, args.NewItemIDs
		var refund sim.Money
		for _, id := range oldIDs {
			if it := findItem(o, id); it != nil {
				refund += it.Price
			}
		}
		for _, id := range otherMethods(db.Users.At(userID), facts, args.PaymentMethodID, refund) {
			out = append(out, with("payment_method_id", id))
		}
		for i, id := range oldIDs {
			old := findItem(o, id)
			if old == nil {
				continue
			}
			for _, other := range o.Items {
				if other.Name == old.Name && !slices.Contains(oldIDs, other.ItemID) {
					out = append(out, with("item_ids", replaced(oldIDs, i, other.ItemID)))
				}
			}
			if i < len(newIDs) {
				for _, v := range cheaperVariants(db, facts, old, newIDs[i]) {
					out = append(out, with("new_item_ids", replaced(newIDs, i, v)))
				}
			}
		}
	}
	return out
}

// factValue reports whether a fact whose key ends with suffix ("" for
// any) has the value v.
func factValue(facts map[string]string, suffix, v string) bool {
	for k, x := range facts {
		if x == v && strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// otherMethods returns the user's payment methods other than goldID that
// the words allow for a write whose refund (returns) is refund: none when
// a payment_method fact names goldID's method; the one a refund rule picks
// when it is not goldID's; every other method when nothing names one.
func otherMethods(u *User, facts map[string]string, goldID string, refund sim.Money) []string {
	if u == nil || u.PaymentMethods[goldID] == nil {
		return nil
	}
	if factValue(facts, "payment_method", u.PaymentMethods[goldID].Describe()) {
		return nil
	}
	byWords := map[string]string{}
	for _, id := range slices.Sorted(maps.Keys(u.PaymentMethods)) {
		byWords[u.PaymentMethods[id].Describe()] = id
	}
	for k, v := range facts {
		m := refundRulePattern.FindStringSubmatch(v)
		if !strings.HasSuffix(k, "refund_rule") || m == nil {
			continue
		}
		threshold, _ := strconv.Atoi(m[1])
		words := m[2]
		if refund < sim.Money(threshold*100) {
			words = "gift card"
		}
		if id := byWords[words]; id != goldID && id != "" {
			return []string{id}
		}
		return nil
	}
	return slices.DeleteFunc(slices.Sorted(maps.Keys(u.PaymentMethods)), func(id string) bool { return id == goldID })
}

// cheapestWords is how a user leaves an option of an item (its product
// name) to the store: the value of its new_<option> fact, "any size for
// the running shoes, the cheapest in stock".
func cheapestWords(option, item string) string {
	return "any " + option + " for the " + item + ", the cheapest in stock"
}

// cheaperVariants returns the variants of old's product other than newID
// that the user's words fit at no higher price: those that take the new
// value of every option the change states, old's value of every other
// option, except the options the user left open for this item
// (cheapestWords), and are
// in stock. Without an open option it is none.
func cheaperVariants(db *DB, facts map[string]string, old *OrderItem, newID string) []string {
	p := db.Products.At(old.ProductID)
	if p == nil || p.Variants[newID] == nil {
		return nil
	}
	target := p.Variants[newID]
	var out []string
	for _, id := range slices.Sorted(maps.Keys(p.Variants)) {
		v := p.Variants[id]
		if id == newID || id == old.ItemID || !v.Available || v.Price > target.Price {
			continue
		}
		fits := true
		for k, want := range target.Options {
			open := factValue(facts, "new_"+optionFactKey(k), cheapestWords(k, old.Name))
			if !open && v.Options[k] != want {
				fits = false
			}
		}
		if fits {
			out = append(out, id)
		}
	}
	return out
}

func findItem(o *Order, itemID string) *OrderItem {
	for i := range o.Items {
		if o.Items[i].ItemID == itemID {
			return &o.Items[i]
		}
	}
	return nil
}

// replaced returns a copy of ids with ids[i] set to id.
func replaced(ids []string, i int, id string) []string {
	out := slices.Clone(ids)
	out[i] = id
	return out
}
