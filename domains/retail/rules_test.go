package retail

import (
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// policyDB is a small store for the policy predicates: alice (gift card
// with 50.00, paypal, credit card) and bob (paypal); a lamp with two
// available variants and an unavailable one, and a mug.
func policyDB() *DB {
	money := func(m sim.Money) *sim.Money { return &m }
	lamp := func(id, color string, price sim.Money) OrderItem {
		return OrderItem{Name: "desk lamp", ProductID: "100", ItemID: id, Options: map[string]string{"color": color}, Price: price}
	}
	order := func(id, user, status, method string, items ...OrderItem) *Order {
		o := &Order{ID: id, UserID: user, Status: status, Items: items}
		o.PaymentHistory = []Payment{{Type: transactionPayment, Amount: o.Total(), PaymentMethodID: method}}
		return o
	}
	db := &DB{
		Users: tableOf(map[string]*User{
			"alice": {ID: "alice", PaymentMethods: map[string]*PaymentMethod{
				"gift_card_1":   {ID: "gift_card_1", Source: sourceGiftCard, Balance: money(5000)},
				"paypal_1":      {ID: "paypal_1", Source: sourcePayPal},
				"credit_card_1": {ID: "credit_card_1", Source: sourceCreditCard, Brand: "visa", LastFour: "1234"},
			}, Orders: []string{"#R1", "#R2", "#R4", "#R5", "#R6"}},
			"bob": {ID: "bob", PaymentMethods: map[string]*PaymentMethod{"paypal_2": {ID: "paypal_2", Source: sourcePayPal}}, Orders: []string{"#R3"}},
		}),
		Products: tableOf(map[string]*Product{
			"100": {ID: "100", Name: "desk lamp", Variants: map[string]*Item{
				"L1": {ID: "L1", Options: map[string]string{"color": "black"}, Price: 3000, Available: true},
				"L2": {ID: "L2", Options: map[string]string{"color": "white"}, Price: 3500, Available: true},
				"L3": {ID: "L3", Options: map[string]string{"color": "brass"}, Price: 3200, Available: false},
			}},
			"200": {ID: "200", Name: "mug", Variants: map[string]*Item{
				"M1": {ID: "M1", Options: map[string]string{"size": "small"}, Price: 1000, Available: true},
				"M2": {ID: "M2", Options: map[string]string{"size": "large"}, Price: 9000, Available: true},
			}},
		}),
		Orders: tableOf(map[string]*Order{
			"#R1": order("#R1", "alice", StatusPending, "paypal_1", lamp("L1", "black", 3000)),
			"#R2": order("#R2", "alice", StatusDelivered, "credit_card_1", lamp("L1", "black", 3000),
				OrderItem{Name: "mug", ProductID: "200", ItemID: "M1", Options: map[string]string{"size": "small"}, Price: 1000}),
			"#R3": order("#R3", "bob", StatusPending, "paypal_2", lamp("L1", "black", 3000)),
			"#R4": order("#R4", "alice", StatusPending, "paypal_1", lamp("L2", "white", 3500)),
			"#R5": order("#R5", "alice", StatusProcessed, "paypal_1", lamp("L1", "black", 3000)),
			"#R6": order("#R6", "alice", StatusPending, "paypal_1", lamp("L1", "black", 3000), lamp("L2", "white", 3500)),
		}),
	}
	db.order("#R4").ItemsModified = true
	return db
}

func TestCheckPolicy_Rules(t *testing.T) {
	swap := func(order string, old, new string, pm string) emobench.Action {
		return sim.NewAction(ToolModifyItems, "order_id", order, "item_ids", []string{old}, "new_item_ids", []string{new}, "payment_method_id", pm)
	}
	addr := Address{Address1: "1 Elm Street", City: "Denver", State: "CO", Country: "USA", Zip: "80203"}
	for _, c := range []struct {
		rule               string
		allowed, violating emobench.Action
	}{
		{RuleOwnAccount, addressAction(ToolModifyUserAddress, "user_id", "alice", addr), addressAction(ToolModifyUserAddress, "user_id", "bob", addr)},
		{RuleOwnOrder, sim.NewAction(ToolCancelOrder, "order_id", "#R1", "reason", ReasonNoLongerNeeded), sim.NewAction(ToolCancelOrder, "order_id", "#R3", "reason", ReasonNoLongerNeeded)},
		{RuleOwnOrder, addressAction(ToolModifyAddress, "order_id", "#R1", addr), addressAction(ToolModifyAddress, "order_id", "#R9", addr)},
		{RuleOrderPending, sim.NewAction(ToolCancelOrder, "order_id", "#R1", "reason", ReasonOrderedByMistake), sim.NewAction(ToolCancelOrder, "order_id", "#R5", "reason", ReasonOrderedByMistake)},
		{RuleOrderPending, addressAction(ToolModifyAddress, "order_id", "#R1", addr), addressAction(ToolModifyAddress, "order_id", "#R2", addr)},
		{RuleOrderDelivered, sim.NewAction(ToolReturnItems, "order_id", "#R2", "item_ids", []string{"M1"}, "payment_method_id", "credit_card_1"),
			sim.NewAction(ToolReturnItems, "order_id", "#R1", "item_ids", []string{"L1"}, "payment_method_id", "paypal_1")},
		{RuleOrderDelivered, sim.NewAction(ToolExchangeItems, "order_id", "#R2", "item_ids", []string{"L1"}, "new_item_ids", []string{"L2"}, "payment_method_id", "credit_card_1"),
			sim.NewAction(ToolExchangeItems, "order_id", "#R1", "item_ids", []string{"L1"}, "new_item_ids", []string{"L2"}, "payment_method_id", "paypal_1")},
		{RuleCancelReason, sim.NewAction(ToolCancelOrder, "order_id", "#R1", "reason", ReasonNoLongerNeeded), sim.NewAction(ToolCancelOrder, "order_id", "#R1", "reason", "I found it cheaper")},
		{RuleItemsOnce, swap("#R1", "L1", "L2", "paypal_1"), swap("#R4", "L2", "L1", "paypal_1")},
		{RuleSameProduct, swap("#R1", "L1", "L2", "paypal_1"), swap("#R1", "L1", "M1", "paypal_1")},
		{RuleSameProduct, sim.NewAction(ToolExchangeItems, "order_id", "#R2", "item_ids", []string{"M1"}, "new_item_ids", []string{"M2"}, "payment_method_id", "credit_card_1"),
			sim.NewAction(ToolExchangeItems, "order_id", "#R2", "item_ids", []string{"M1"}, "new_item_ids", []string{"L2"}, "payment_method_id", "credit_card_1")},
		{RuleItemAvailable, swap("#R1", "L1", "L2", "paypal_1"), swap("#R1", "L1", "L3", "paypal_1")},
		{RuleOwnPaymentMethod, sim.NewAction(ToolModifyPayment, "order_id", "#R1", "payment_method_id", "credit_card_1"), sim.NewAction(ToolModifyPayment, "order_id", "#R1", "payment_method_id", "paypal_2")},
		{RuleOwnPaymentMethod, swap("#R1", "L1", "L2", "gift_card_1"), swap("#R1", "L1", "L2", "paypal_2")},
		{RulePaymentDiffers, sim.NewAction(ToolModifyPayment, "order_id", "#R1", "payment_method_id", "credit_card_1"), sim.NewAction(ToolModifyPayment, "order_id", "#R1", "payment_method_id", "paypal_1")},
		// #R1 paid 30.00, #R6 65.00; the gift card holds 50.00.
		{RuleGiftCardCovers, sim.NewAction(ToolModifyPayment, "order_id", "#R1", "payment_method_id", "gift_card_1"), sim.NewAction(ToolModifyPayment, "order_id", "#R6", "payment_method_id", "gift_card_1")},
		// M1 to M2 costs 80.00 more.
		{RuleGiftCardCovers, sim.NewAction(ToolExchangeItems, "order_id", "#R2", "item_ids", []string{"L1"}, "new_item_ids", []string{"L2"}, "payment_method_id", "gift_card_1"),
			sim.NewAction(ToolExchangeItems, "order_id", "#R2", "item_ids", []string{"M1"}, "new_item_ids", []string{"M2"}, "payment_method_id", "gift_card_1")},
		{RuleRefundMethod, sim.NewAction(ToolReturnItems, "order_id", "#R2", "item_ids", []string{"L1"}, "payment_method_id", "gift_card_1"),
			sim.NewAction(ToolReturnItems, "order_id", "#R2", "item_ids", []string{"L1"}, "payment_method_id", "paypal_1")},
		{RuleWellFormedArgument, sim.NewAction(ToolReturnItems, "order_id", "#R2", "item_ids", []string{"L1", "M1"}, "payment_method_id", "credit_card_1"),
			sim.NewAction(ToolReturnItems, "order_id", "#R2", "item_ids", "L1", "payment_method_id", "credit_card_1")},
	} {
		env := newEnv(policyDB())
		if err := CheckPolicy(env, "alice", c.allowed); err != nil {
			t.Errorf("%s: allowed %s%s: %v", c.rule, c.allowed.Name, c.allowed.Arguments, err)
		}
		var v *PolicyViolation
		if err := CheckPolicy(env, "alice", c.violating); !errors.As(err, &v) || v.Rule != c.rule || v.Tool != c.violating.Name {
			t.Errorf("%s: %s%s gave %v, want a violation of %s", c.rule, c.violating.Name, c.violating.Arguments, err, c.rule)
		}
		// The store itself carries out what only the policy forbids.
		if c.rule == RuleSameProduct || c.rule == RuleRefundMethod || c.rule == RuleOwnOrder && c.violating.Name == ToolCancelOrder {
			if _, err := env.Call(c.violating.Name, c.violating.Arguments); err != nil {
				t.Errorf("%s: the tool refused %s%s: %v", c.rule, c.violating.Name, c.violating.Arguments, err)
			}
		}
	}
}

func TestCheckPolicy_ReadsAndOtherEnvironments(t *testing.T) {
	env := newEnv(policyDB())
	for _, a := range []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", "#R3"), sim.NewAction(ToolTransfer, "summary", "x")} {
		if err := CheckPolicy(env, "alice", a); err != nil {
			t.Errorf("%s: %v, want nil (no write)", a.Name, err)
		}
	}
	other := sim.NewStateEnv(&struct{}{}, nil)
	if err := CheckPolicy(other, "alice", sim.NewAction(ToolCancelOrder, "order_id", "#R1", "reason", ReasonNoLongerNeeded)); err == nil {
		t.Error("CheckPolicy on a non-retail environment: no error")
	}
}
