package retail

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// TestTaskSeed is the seed BuildTasks is given for the embedded test tasks.
const TestTaskSeed uint64 = 7

// NumTestTasks is the number of embedded test tasks: 40 requests the
// policy allows, then 10 it forbids.
const NumTestTasks = 50

// BuildTasks returns n tasks of the given split grounded in db: first
// n - n/5 requests the policy allows, then n/5 refusals. For the requests
// the task kinds (cancel, return, exchange, modify an order's address,
// payment or items, change the account address, ask a status, balance or
// total, a cancel-and-return pair, an out-of-scope request to transfer) are
// taken in turn; for the refusals the refusal kinds (cancel a delivered
// order, return a pending one, exchange for another product, refund to a
// method the policy excludes, cancel another user's order), whose gold
// actions only read and whose instructions do not accept a refusal in
// advance. Each task picks its user, order and details from db with a PCG
// generator seeded by (seed, task index). Orders are not reused while
// unused ones remain. Every task's gold actions are replayed on a copy of db
// before it is kept, so they run without a tool error on an environment
// over db, and a refusal's forbidden writes are absent from its gold. The
// emotion profiles cycle through emobench.Taxonomy: families interleaved
// with their leaves, politeness with period 3, urgency 9, trust 27.
// BuildTasks returns fewer than n tasks only if db has no user with an
// order. It does not change db.
func BuildTasks(db *DB, seed uint64, n int, split emobench.Split) []emobench.TaskSpec {
	tasks, _ := buildTasks(db, seed, n, split)
	return tasks
}

// buildTasks is BuildTasks that also returns each refusal task's forbidden
// writes by task id (also in each TaskSpec's Forbidden).
func buildTasks(db *DB, seed uint64, n int, split emobench.Split) ([]emobench.TaskSpec, map[string][]emobench.Action) {
	b := &taskBuilder{db: db, used: map[string]bool{}, users: sortedKeys(db.Users), orders: sortedKeys(db.Orders), forbidden: map[string][]emobench.Action{}}
	out := make([]emobench.TaskSpec, 0, n)
	out = b.build(out, taskKinds, seed, n-n/5, split)
	return b.build(out, refusalKinds, seed, n, split), b.forbidden
}

// build appends tasks of kinds, taken in turn, to out until it holds n
// tasks or no kind yields one.
func (b *taskBuilder) build(out []emobench.TaskSpec, kinds []taskKind, seed uint64, n int, split emobench.Split) []emobench.TaskSpec {
	for i := 0; len(out) < n; i++ {
		j := len(out)
		r := rand.New(rand.NewPCG(seed, uint64(j)))
		var d draft
		ok := false
		for k := range kinds {
			if d, ok = b.try(kinds[(i+k)%len(kinds)], r); ok {
				break
			}
		}
		if !ok {
			break
		}
		if d.outputs == nil {
			d.outputs = []string{}
		}
		id := fmt.Sprintf("%s-%s-%03d", Name, split, j)
		if len(d.forbidden) > 0 {
			b.forbidden[id] = d.forbidden
		}
		out = append(out, emobench.TaskSpec{
			ID:          id,
			Domain:      Name,
			Split:       split,
			UserID:      d.userID,
			Instruction: d.instruction,
			Scenario:    emobench.Scenario{Facts: d.facts, Requests: d.requests},
			Emotion:     emotionFor(j),
			Actions:     d.actions,
			Outputs:     d.outputs,
			Forbidden:   d.forbidden,
		})
	}
	return out
}

// emotionFor returns the j-th profile of the cycle BuildTasks documents.
func emotionFor(j int) emobench.EmotionProfile {
	fams := emobench.Taxonomy.Families
	f := fams[j%len(fams)]
	dim := func(name string, period int) string {
		vals := emobench.Taxonomy.Dimensions[name]
		return vals[(j/period)%len(vals)]
	}
	return emobench.EmotionProfile{
		Family:     f.Name,
		Leaf:       f.Leaves[(j/len(fams))%len(f.Leaves)],
		Politeness: dim("politeness", 1),
		Urgency:    dim("urgency", 3),
		Trust:      dim("trust", 9),
	}
}

// draft is a task before its id and emotion are assigned.
type draft struct {
	userID      string
	instruction string
	facts       map[string]string
	requests    []emobench.Request
	actions     []emobench.Action
	outputs     []string
	uses        []string // keys marked used when the task is kept
	// forbidden are writes the policy forbids in this task; none is in
	// actions. The tools may accept them: refusing is the agent's job.
	forbidden []emobench.Action
}

// taskKind grounds one kind of task: candidates lists the keys (order ids
// or "user:" ids) it can start from, and make builds the draft from one.
type taskKind struct {
	candidates func(b *taskBuilder) []string
	make       func(b *taskBuilder, r *rand.Rand, key string) (draft, bool)
}

type taskBuilder struct {
	db        *DB
	used      map[string]bool
	users     []string
	orders    []string
	forbidden map[string][]emobench.Action // by task id
}

// try picks a candidate of kind at random, preferring unused ones, and
// returns the first draft whose actions replay without error.
func (b *taskBuilder) try(kind taskKind, r *rand.Rand) (draft, bool) {
	all := kind.candidates(b)
	fresh := slices.DeleteFunc(slices.Clone(all), func(k string) bool { return b.used[k] })
	if len(fresh) == 0 {
		fresh = all
	}
	r.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
	for _, key := range fresh {
		d, ok := kind.make(b, r, key)
		if !ok || !b.replays(d.actions) || callsAny(d.actions, d.forbidden) {
			continue
		}
		for _, u := range append(d.uses, key) {
			b.used[u] = true
		}
		return d, true
	}
	return draft{}, false
}

// callsAny reports whether actions call a tool that one of forbidden calls.
func callsAny(actions, forbidden []emobench.Action) bool {
	for _, f := range forbidden {
		if slices.ContainsFunc(actions, func(a emobench.Action) bool { return a.Name == f.Name }) {
			return true
		}
	}
	return false
}

// replays reports whether actions run without a tool error on a copy of
// the database.
func (b *taskBuilder) replays(actions []emobench.Action) bool {
	env := NewEnvironment(b.db.Clone())
	for _, a := range actions {
		if _, err := env.Call(a.Name, a.Arguments); err != nil {
			return false
		}
	}
	return true
}

func (b *taskBuilder) ordersWhere(keep func(o *Order) bool) []string {
	var out []string
	for _, id := range b.orders {
		if keep(b.db.Orders[id]) {
			out = append(out, id)
		}
	}
	return out
}

func (b *taskBuilder) usersWhere(keep func(u *User) bool) []string {
	var out []string
	for _, id := range b.users {
		if keep(b.db.Users[id]) {
			out = append(out, "user:"+id)
		}
	}
	return out
}

func withStatus(status string) func(o *Order) bool {
	return func(o *Order) bool { return o.Status == status }
}

// action builds a gold action from alternating keys and values.
func action(name string, kv ...any) emobench.Action {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	raw, err := json.Marshal(m)
	if err != nil {
		panic(err) // strings and string slices always encode
	}
	return emobench.Action{Name: name, Arguments: raw}
}

// authenticate returns the facts and gold action that identify u: by email,
// or by name and zip.
func authenticate(u *User, r *rand.Rand, facts map[string]string) emobench.Action {
	if r.IntN(3) != 0 {
		facts["email"] = u.Email
		return action(ToolFindUserByEmail, "email", u.Email)
	}
	facts["first_name"], facts["last_name"], facts["zip"] = u.Name.First, u.Name.Last, u.Address.Zip
	return action(ToolFindUserByNameZip, "first_name", u.Name.First, "last_name", u.Name.Last, "zip", u.Address.Zip)
}

func addressAction(name, idKey, id string, a Address) emobench.Action {
	return action(name, idKey, id, "address1", a.Address1, "address2", a.Address2, "city", a.City,
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
	for _, k := range sortedKeys(opts) {
		parts = append(parts, k+" "+opts[k])
	}
	return strings.Join(parts, ", ")
}

var reasonWords = map[string]string{
	ReasonNoLongerNeeded:   "I no longer need it",
	ReasonOrderedByMistake: "I ordered it by mistake",
}

// swapOption is a replacement for an order item: an available variant of
// the same product that differs in exactly one option.
type swapOption struct {
	pos    int
	item   *Item
	option string
}

func (b *taskBuilder) swapOptions(o *Order) []swapOption {
	var out []swapOption
	for pos, it := range o.Items {
		p := b.db.Products[it.ProductID]
		for _, id := range sortedKeys(p.Variants) {
			v := p.Variants[id]
			if id == it.ItemID || !v.Available {
				continue
			}
			var differ []string
			for _, k := range sortedKeys(it.Options) {
				if v.Options[k] != it.Options[k] {
					differ = append(differ, k)
				}
			}
			if len(differ) == 1 {
				out = append(out, swapOption{pos: pos, item: v, option: differ[0]})
			}
		}
	}
	return out
}

func hasSwap(b *taskBuilder) func(o *Order) bool {
	return func(o *Order) bool { return len(b.swapOptions(o)) > 0 }
}

func (b *taskBuilder) userOf(key string) *User {
	return b.db.Users[strings.TrimPrefix(key, "user:")]
}

var taskKinds = []taskKind{
	// Cancel a pending order.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusPending)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			reason := []string{ReasonNoLongerNeeded, ReasonOrderedByMistake}[r.IntN(2)]
			facts := map[string]string{"order_id": o.ID, "reason": reason}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I want to cancel my order %s (%s) because %s.", o.ID, orderItemNames(o), reasonWords[reason]),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("Cancel order %s; %s.", o.ID, reasonWords[reason]), Tools: []string{ToolCancelOrder}}},
				actions: []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID),
					action(ToolCancelOrder, "order_id", o.ID, "reason", reason)},
			}, true
		},
	},
	// Return one or two items of a delivered order, refunded to the original
	// method or a gift card; the refund amount is an output.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusDelivered)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			k := 1
			if len(o.Items) > 1 && r.IntN(2) == 0 {
				k = 2
			}
			positions := r.Perm(len(o.Items))[:k]
			slices.Sort(positions)
			var ids, names, prices []string
			var refund Money
			for _, p := range positions {
				ids = append(ids, o.Items[p].ItemID)
				names = append(names, o.Items[p].Name)
				prices = append(prices, o.Items[p].Price.String())
				refund += o.Items[p].Price
			}
			pm := u.PaymentMethods[o.PaymentMethodID()]
			needUser := false
			if r.IntN(2) == 0 {
				for _, m := range sortedKeys(u.PaymentMethods) {
					if gc := u.PaymentMethods[m]; gc.Source == sourceGiftCard && gc != pm {
						pm, needUser = gc, true
					}
				}
			}
			if pm == nil {
				return draft{}, false
			}
			facts := map[string]string{"order_id": o.ID, "item_name": itemNames(names), "payment_method": pm.Describe()}
			actions := []emobench.Action{authenticate(u, r, facts), action(ToolGetOrder, "order_id", o.ID)}
			if needUser {
				actions = append(actions, action(ToolGetUser, "user_id", u.ID))
			}
			if k > 1 {
				actions = append(actions, action(ToolCalculate, "expression", strings.Join(prices, " + ")))
			}
			actions = append(actions, action(ToolReturnItems, "order_id", o.ID, "item_ids", ids, "payment_method_id", pm.ID))
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("I want to return the %s from my delivered order %s, with the refund going to my %s, and I want to know how much I will get back.",
					itemNames(names), o.ID, pm.Describe()),
				facts: facts,
				requests: []emobench.Request{{
					Text:  fmt.Sprintf("Return the %s from order %s and refund it to my %s. How much will the refund be?", itemNames(names), o.ID, pm.Describe()),
					Tools: []string{ToolReturnItems},
				}},
				actions: actions,
				outputs: []string{refund.String()},
			}, true
		},
	},
	// Exchange an item of a delivered order for another option.
	{
		candidates: func(b *taskBuilder) []string {
			return b.ordersWhere(func(o *Order) bool { return o.Status == StatusDelivered && hasSwap(b)(o) })
		},
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			swaps := b.swapOptions(o)
			s := swaps[r.IntN(len(swaps))]
			old := o.Items[s.pos]
			pm := u.PaymentMethods[o.PaymentMethodID()]
			if pm == nil {
				return draft{}, false
			}
			facts := map[string]string{
				"order_id": o.ID, "item_name": old.Name, "new_" + optionFactKey(s.option): s.item.Options[s.option],
				"payment_method": pm.Describe(),
			}
			auth := authenticate(u, r, facts)
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("I want to exchange the %s (%s) from my delivered order %s for the same one with %s %s; any price difference goes through my %s.",
					old.Name, describeOptions(old.Options), o.ID, s.option, s.item.Options[s.option], pm.Describe()),
				facts: facts,
				requests: []emobench.Request{{
					Text:  fmt.Sprintf("Exchange the %s in order %s for the %s %s version.", old.Name, o.ID, s.item.Options[s.option], s.option),
					Tools: []string{ToolExchangeItems},
				}},
				actions: []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID),
					action(ToolGetProduct, "product_id", old.ProductID),
					action(ToolExchangeItems, "order_id", o.ID, "item_ids", []string{old.ItemID},
						"new_item_ids", []string{s.item.ID}, "payment_method_id", pm.ID)},
			}, true
		},
	},
	// Change the shipping address of a pending order.
	{
		candidates: func(b *taskBuilder) []string { return b.ordersWhere(withStatus(StatusPending)) },
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			addr := randomAddress(r)
			facts := map[string]string{"order_id": o.ID, "new_address": addr.String()}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I want my pending order %s shipped to %s instead of the address on it.", o.ID, addr),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("Ship order %s to %s.", o.ID, addr), Tools: []string{ToolModifyAddress}}},
				actions: []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID),
					addressAction(ToolModifyAddress, "order_id", o.ID, addr)},
			}, true
		},
	},
	// Change the account's default address.
	{
		candidates: func(b *taskBuilder) []string { return b.usersWhere(func(*User) bool { return true }) },
		make: func(b *taskBuilder, r *rand.Rand, key string) (draft, bool) {
			u := b.userOf(key)
			addr := randomAddress(r)
			facts := map[string]string{"new_address": addr.String()}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I moved, and I want the default address on my account changed to %s.", addr),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("Change my account's address to %s.", addr), Tools: []string{ToolModifyUserAddress}}},
				actions:     []emobench.Action{auth, addressAction(ToolModifyUserAddress, "user_id", u.ID, addr)},
			}, true
		},
	},
	// Pay a pending order with another payment method.
	{
		candidates: func(b *taskBuilder) []string {
			return b.ordersWhere(func(o *Order) bool {
				return o.Status == StatusPending && len(b.db.Users[o.UserID].PaymentMethods) > 1
			})
		},
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			var others []*PaymentMethod
			for _, m := range sortedKeys(u.PaymentMethods) {
				if pm := u.PaymentMethods[m]; m != o.PaymentMethodID() && pm.canPay(o.Total()) == nil {
					others = append(others, pm)
				}
			}
			if len(others) == 0 {
				return draft{}, false
			}
			pm := others[r.IntN(len(others))]
			facts := map[string]string{"order_id": o.ID, "payment_method": pm.Describe()}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I want to pay for my pending order %s with my %s instead.", o.ID, pm.Describe()),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("Switch the payment of order %s to my %s.", o.ID, pm.Describe()), Tools: []string{ToolModifyPayment}}},
				actions: []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID), action(ToolGetUser, "user_id", u.ID),
					action(ToolModifyPayment, "order_id", o.ID, "payment_method_id", pm.ID)},
			}, true
		},
	},
	// Change an item of a pending order to another option.
	{
		candidates: func(b *taskBuilder) []string {
			return b.ordersWhere(func(o *Order) bool { return o.Status == StatusPending && !o.ItemsModified && hasSwap(b)(o) })
		},
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			swaps := b.swapOptions(o)
			s := swaps[r.IntN(len(swaps))]
			old := o.Items[s.pos]
			pm := u.PaymentMethods[o.PaymentMethodID()]
			if pm == nil {
				return draft{}, false
			}
			value := s.item.Options[s.option]
			facts := map[string]string{
				"order_id": o.ID, "item_name": old.Name, "new_" + optionFactKey(s.option): value, "payment_method": pm.Describe(),
			}
			auth := authenticate(u, r, facts)
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("Before my order %s ships, I want the %s in it changed to %s %s, keeping everything else; settle any price difference with my %s.",
					o.ID, old.Name, s.option, value, pm.Describe()),
				facts: facts,
				requests: []emobench.Request{{
					Text:  fmt.Sprintf("Change the %s in order %s to %s %s.", old.Name, o.ID, s.option, value),
					Tools: []string{ToolModifyItems},
				}},
				actions: []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID),
					action(ToolGetProduct, "product_id", old.ProductID),
					action(ToolModifyItems, "order_id", o.ID, "item_ids", []string{old.ItemID},
						"new_item_ids", []string{s.item.ID}, "payment_method_id", pm.ID)},
			}, true
		},
	},
	// Ask for an order's status; the status is an output.
	{
		candidates: func(b *taskBuilder) []string {
			return b.ordersWhere(func(o *Order) bool { return o.Status == StatusProcessed || o.Status == StatusDelivered })
		},
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			facts := map[string]string{"order_id": o.ID}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I want to know the current status of my order %s (%s).", o.ID, orderItemNames(o)),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("What is the status of order %s?", o.ID), Tools: []string{ToolGetOrder}}},
				actions:     []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID)},
				outputs:     []string{o.Status},
			}, true
		},
	},
	// Ask for the gift card balance; the balance is an output.
	{
		candidates: func(b *taskBuilder) []string {
			return b.usersWhere(func(u *User) bool {
				for _, pm := range u.PaymentMethods {
					if pm.Source == sourceGiftCard {
						return true
					}
				}
				return false
			})
		},
		make: func(b *taskBuilder, r *rand.Rand, key string) (draft, bool) {
			u := b.userOf(key)
			var balance Money
			for _, pm := range u.PaymentMethods {
				if pm.Balance != nil {
					balance = *pm.Balance
				}
			}
			facts := map[string]string{}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: "I want to know how much money is left on my gift card.",
				facts:       facts,
				requests:    []emobench.Request{{Text: "What is the balance of my gift card?", Tools: []string{ToolGetUser}}},
				actions:     []emobench.Action{auth, action(ToolGetUser, "user_id", u.ID)},
				outputs:     []string{balance.String()},
			}, true
		},
	},
	// Cancel a pending order, then return an item of a delivered one.
	{
		candidates: func(b *taskBuilder) []string {
			return b.ordersWhere(func(o *Order) bool {
				if o.Status != StatusPending {
					return false
				}
				for _, other := range b.db.Users[o.UserID].Orders {
					if b.db.Orders[other].Status == StatusDelivered {
						return true
					}
				}
				return false
			})
		},
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			var delivered []*Order
			for _, other := range u.Orders {
				if d := b.db.Orders[other]; d.Status == StatusDelivered {
					delivered = append(delivered, d)
				}
			}
			d := delivered[r.IntN(len(delivered))]
			it := d.Items[r.IntN(len(d.Items))]
			pm := u.PaymentMethods[d.PaymentMethodID()]
			if pm == nil {
				return draft{}, false
			}
			reason := []string{ReasonNoLongerNeeded, ReasonOrderedByMistake}[r.IntN(2)]
			facts := map[string]string{
				"order_id": o.ID, "reason": reason, "second_order_id": d.ID, "item_name": it.Name,
				"payment_method": pm.Describe(),
			}
			auth := authenticate(u, r, facts)
			return draft{
				userID: u.ID,
				instruction: fmt.Sprintf("First, I want to cancel my order %s because %s. Then I want to return the %s from my delivered order %s, refunded to my %s, and to know the refund amount.",
					o.ID, reasonWords[reason], it.Name, d.ID, pm.Describe()),
				facts: facts,
				requests: []emobench.Request{
					{Text: fmt.Sprintf("Cancel order %s; %s.", o.ID, reasonWords[reason]), Tools: []string{ToolCancelOrder}},
					{Text: fmt.Sprintf("Return the %s from order %s to my %s. How much will I get back?", it.Name, d.ID, pm.Describe()), Tools: []string{ToolReturnItems}},
				},
				actions: []emobench.Action{auth, action(ToolGetOrder, "order_id", o.ID),
					action(ToolCancelOrder, "order_id", o.ID, "reason", reason),
					action(ToolGetOrder, "order_id", d.ID),
					action(ToolReturnItems, "order_id", d.ID, "item_ids", []string{it.ItemID}, "payment_method_id", pm.ID)},
				outputs: []string{it.Price.String()},
				uses:    []string{d.ID},
			}, true
		},
	},
	// Ask for an email change, which is out of scope: transfer.
	{
		candidates: func(b *taskBuilder) []string { return b.usersWhere(func(*User) bool { return true }) },
		make: func(b *taskBuilder, r *rand.Rand, key string) (draft, bool) {
			u := b.userOf(key)
			newEmail := fmt.Sprintf("%s.%s.%d@mailbox.example.org", strings.ToLower(u.Name.First), strings.ToLower(u.Name.Last), 10+r.IntN(90))
			facts := map[string]string{"new_email": newEmail}
			auth := authenticate(u, r, facts)
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I want the email on my account changed to %s, and if this agent cannot do it, I want to be put through to someone who can.", newEmail),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("Change my account email to %s.", newEmail), Tools: []string{ToolTransfer}}},
				actions: []emobench.Action{auth, action(ToolTransfer, "summary",
					fmt.Sprintf("User %s wants to change the account email to %s, which the policy does not allow the agent to do.", u.ID, newEmail))},
			}, true
		},
	},
	// Ask what an order cost in total; the total is an output.
	{
		candidates: func(b *taskBuilder) []string {
			return b.ordersWhere(func(o *Order) bool { return o.Status != StatusCancelled })
		},
		make: func(b *taskBuilder, r *rand.Rand, id string) (draft, bool) {
			o := b.db.Orders[id]
			u := b.db.Users[o.UserID]
			facts := map[string]string{"order_id": o.ID}
			actions := []emobench.Action{authenticate(u, r, facts), action(ToolGetOrder, "order_id", o.ID)}
			if len(o.Items) > 1 {
				prices := make([]string, len(o.Items))
				for i, it := range o.Items {
					prices[i] = it.Price.String()
				}
				actions = append(actions, action(ToolCalculate, "expression", strings.Join(prices, " + ")))
			}
			return draft{
				userID:      u.ID,
				instruction: fmt.Sprintf("I want to know the total price of the items in my order %s.", o.ID),
				facts:       facts,
				requests:    []emobench.Request{{Text: fmt.Sprintf("How much do the items in order %s cost in total?", o.ID), Tools: []string{ToolGetOrder}}},
				actions:     actions,
				outputs:     []string{o.Total().String()},
			}, true
		},
	},
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
