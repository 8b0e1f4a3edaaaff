package retail

import (
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// policyDB is testDB with 1.00 left on ana's gift card and the items of
// #R0000004 changed once.
func policyDB(t testing.TB) *DB {
	db := testDB(t)
	u, _ := db.Users.Edit("ana_silva_1000")
	*u.PaymentMethods["gift_card_1"].Balance = 100
	o, _ := db.Orders.Edit("#R0000004")
	o.ItemsModified = true
	return db
}

func TestCheckPolicy_Rules(t *testing.T) {
	const ana = "ana_silva_1000"
	swap := func(tool, order, old, new, pm string) emobench.Action {
		return sim.NewAction(tool, "order_id", order, "item_ids", []string{old}, "new_item_ids", []string{new}, "payment_method_id", pm)
	}
	cancel := func(order, reason string) emobench.Action {
		return sim.NewAction(ToolCancelOrder, "order_id", order, "reason", reason)
	}
	ret := func(order, item, pm string) emobench.Action {
		return sim.NewAction(ToolReturnItems, "order_id", order, "item_ids", []string{item}, "payment_method_id", pm)
	}
	pay := func(order, pm string) emobench.Action {
		return sim.NewAction(ToolModifyPayment, "order_id", order, "payment_method_id", pm)
	}
	addr := Address{Address1: "1 Elm Street", City: "Denver", State: "CO", Country: "USA", Zip: "80203"}
	for _, c := range []struct {
		rule               string
		allowed, violating emobench.Action
	}{
		{RuleOwnAccount, addressAction(ToolModifyUserAddress, "user_id", ana, addr), addressAction(ToolModifyUserAddress, "user_id", "ben_ito_2000", addr)},
		{RuleOwnOrder, cancel("#R0000001", ReasonNoLongerNeeded), cancel("#R0000005", ReasonNoLongerNeeded)},
		{RuleOwnOrder, addressAction(ToolModifyAddress, "order_id", "#R0000001", addr), addressAction(ToolModifyAddress, "order_id", "#R0000009", addr)},
		{RuleOrderPending, cancel("#R0000001", ReasonOrderedByMistake), cancel("#R0000003", ReasonOrderedByMistake)},
		{RuleOrderPending, addressAction(ToolModifyAddress, "order_id", "#R0000001", addr), addressAction(ToolModifyAddress, "order_id", "#R0000002", addr)},
		{RuleOrderDelivered, ret("#R0000002", "2001", "credit_card_1"), ret("#R0000001", "1001", "paypal_1")},
		{RuleOrderDelivered, swap(ToolExchangeItems, "#R0000002", "1002", "1004", "credit_card_1"), swap(ToolExchangeItems, "#R0000001", "1001", "1002", "paypal_1")},
		{RuleCancelReason, cancel("#R0000001", ReasonNoLongerNeeded), cancel("#R0000001", "I found it cheaper")},
		{RuleItemsOnce, swap(ToolModifyItems, "#R0000001", "1001", "1002", "paypal_1"), swap(ToolModifyItems, "#R0000004", "2001", "2002", "paypal_1")},
		{RuleSameProduct, swap(ToolModifyItems, "#R0000001", "1001", "1002", "paypal_1"), swap(ToolModifyItems, "#R0000001", "1001", "2002", "paypal_1")},
		{RuleSameProduct, swap(ToolExchangeItems, "#R0000002", "2001", "2002", "credit_card_1"), swap(ToolExchangeItems, "#R0000002", "2001", "1004", "credit_card_1")},
		{RuleItemAvailable, swap(ToolModifyItems, "#R0000001", "1001", "1004", "paypal_1"), swap(ToolModifyItems, "#R0000001", "1001", "1003", "paypal_1")},
		{RuleOwnPaymentMethod, pay("#R0000001", "credit_card_1"), pay("#R0000001", "paypal_2")},
		{RuleOwnPaymentMethod, swap(ToolModifyItems, "#R0000001", "1001", "1004", "credit_card_1"), swap(ToolModifyItems, "#R0000001", "1001", "1004", "paypal_2")},
		{RulePaymentDiffers, pay("#R0000001", "credit_card_1"), pay("#R0000001", "paypal_1")},
		// The gift card holds 1.00: #R0000001 paid 40.00; 2001 to 2002 costs 2.50 more, 1002 to 1001 2.00 less.
		{RuleGiftCardCovers, pay("#R0000001", "credit_card_1"), pay("#R0000001", "gift_card_1")},
		{RuleGiftCardCovers, swap(ToolExchangeItems, "#R0000002", "1002", "1001", "gift_card_1"), swap(ToolExchangeItems, "#R0000002", "2001", "2002", "gift_card_1")},
		{RuleRefundMethod, ret("#R0000002", "1002", "gift_card_1"), ret("#R0000002", "1002", "paypal_1")},
		{RuleWellFormedArgument, sim.NewAction(ToolReturnItems, "order_id", "#R0000002", "item_ids", []string{"1002", "2001"}, "payment_method_id", "credit_card_1"),
			sim.NewAction(ToolReturnItems, "order_id", "#R0000002", "item_ids", "1002", "payment_method_id", "credit_card_1")},
	} {
		env := newEnv(policyDB(t))
		if err := CheckPolicy(env, ana, c.allowed); err != nil {
			t.Errorf("%s: allowed %s%s: %v", c.rule, c.allowed.Name, c.allowed.Arguments, err)
		}
		var v *PolicyViolation
		if err := CheckPolicy(env, ana, c.violating); !errors.As(err, &v) || v.Rule != c.rule || v.Tool != c.violating.Name {
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
	env := newEnv(policyDB(t))
	for _, a := range []emobench.Action{sim.NewAction(ToolGetOrder, "order_id", "#R0000005"), sim.NewAction(ToolTransfer, "summary", "x")} {
		if err := CheckPolicy(env, "ana_silva_1000", a); err != nil {
			t.Errorf("%s: %v, want nil (no write)", a.Name, err)
		}
	}
	other := sim.NewStateEnv(&struct{}{}, nil)
	if err := CheckPolicy(other, "ana_silva_1000", sim.NewAction(ToolCancelOrder, "order_id", "#R0000001", "reason", ReasonNoLongerNeeded)); err == nil {
		t.Error("CheckPolicy on a non-retail environment: no error")
	}
}
