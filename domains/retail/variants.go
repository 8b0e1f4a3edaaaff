package retail

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file holds what makes a retail request harder than a plain one
// (emobench.TraitFindable, emobench.TraitConditional) and the catalog's
// Alternatives: every other write a user's words allow, for Tracer's
// audit of one valid end state per task.

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

// groundFunc is an intent's grounder.
type groundFunc = func(g sim.GroundContext) (sim.Grounding, bool)

// findable wraps ground: for a findableUser, the grounding names the
// order not by id but by a product only it has among the user's orders
// ("my order with the hiking boots"); the user then knows no order id, the
// gold reads the account first (its order list) and the grounding carries
// TraitFindable. An order with no such product is not grounded for them.
func findable(ground groundFunc) groundFunc {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		gr, ok := ground(g)
		if !ok || !findableUser(g.UserID) {
			return gr, ok
		}
		db, _ := sim.StateOf[DB](g.Env)
		o := db.order(gr.Facts["order_id"])
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
			gr.Actions = append([]emobench.Action{sim.NewAction(ToolGetUser, "user_id", o.UserID)}, gr.Actions...)
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

// conditionalRefund rewrites a return grounding gr of o, refunded to the
// method that paid (paid) and worth refund, so that the user states a
// rule (refundRule) the refund amount decides between the gift card gc
// and paid; it draws which side the data falls on. The gold then reads the
// account, where the gift card is, and refunds where the rule says.
func conditionalRefund(g sim.GroundContext, gr sim.Grounding, o *Order, paid, gc *PaymentMethod, refund sim.Money) sim.Grounding {
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
	var args map[string]any
	_ = json.Unmarshal(gr.Actions[last].Arguments, &args)
	gr.Actions[last] = sim.NewAction(ToolReturnItems, "order_id", o.ID, "item_ids", args["item_ids"], "payment_method_id", target.ID)
	if !slices.ContainsFunc(gr.Actions, func(a emobench.Action) bool { return a.Name == ToolGetUser }) {
		gr.Actions = slices.Insert(gr.Actions, last, sim.NewAction(ToolGetUser, "user_id", o.UserID))
	}
	gr.Traits = append(gr.Traits, emobench.TraitConditional)
	return gr
}

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
	var args map[string]any
	if json.Unmarshal(gold.Arguments, &args) != nil {
		return nil
	}
	with := func(key string, v any) emobench.Action {
		alt := map[string]any{}
		for k, x := range args {
			alt[k] = x
		}
		alt[key] = v
		raw, _ := json.Marshal(alt)
		return emobench.Action{Name: gold.Name, Arguments: raw}
	}
	var out []emobench.Action
	orderID, _ := args["order_id"].(string)
	o := db.order(orderID)
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
		if reason, _ := args["reason"].(string); !factValue(facts, "reason", reason) {
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
		oldIDs, newIDs := stringList(args["item_ids"]), stringList(args["new_item_ids"])
		var refund sim.Money
		for _, id := range oldIDs {
			if it := findItem(o, id); it != nil {
				refund += it.Price
			}
		}
		pmID, _ := args["payment_method_id"].(string)
		for _, id := range otherMethods(db.user(userID), facts, pmID, refund) {
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
	p := db.product(old.ProductID)
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

func stringList(v any) []string {
	var out []string
	for _, x := range asList(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// replaced returns a copy of ids with ids[i] set to id.
func replaced(ids []string, i int, id string) []string {
	out := slices.Clone(ids)
	out[i] = id
	return out
}

// dollars is an amount as an output: "$40.50" (the unit is part of it).
func dollars(m sim.Money) string { return "$" + m.String() }

// statusSynonyms are the ways an agent may say an order status, as the
// output's synonym set ("pending|not yet shipped"): any member counts.
// None of them is a part of another status's words.
var statusSynonyms = map[string]string{
	StatusPending:           "pending|not yet shipped|has not shipped|hasn't shipped",
	StatusProcessed:         "processed|already shipped|has shipped|is on its way",
	StatusDelivered:         "delivered",
	StatusCancelled:         "cancelled|canceled",
	StatusReturnRequested:   "return requested|return has been requested|return request",
	StatusExchangeRequested: "exchange requested|exchange has been requested|exchange request",
}

// statusOutput is an order status as an output: its synonym set.
func statusOutput(status string) string { return cmp.Or(statusSynonyms[status], status) }
