package retail

import (
	"maps"
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestAlternatives_WhatTheWordsLeaveOpen checks each kind of alternative
// on the initial data: an unstated reason, an unnamed payment method, an
// order description two orders fit, an option left to the store.
func TestAlternatives_WhatTheWordsLeaveOpen(t *testing.T) {
	env := replay(t)
	db := env.State
	// A user with two payment methods and a pending order, and a product
	// in two of their orders.
	var user *User
	var pending *Order
	var shared string
	for id, u := range db.Users.All() {
		os := userOrders(db, id, func(o *Order) bool { return o.Status == StatusPending })
		if len(u.PaymentMethods) < 2 || len(os) == 0 {
			continue
		}
		for _, it := range os[0].Items {
			if len(ordersWithProduct(db, id, it.Name)) > 1 {
				user, pending, shared = u, os[0], it.Name
			}
		}
		if user != nil {
			break
		}
	}
	if user == nil {
		t.Fatal("no user with two payment methods and a product in two orders")
	}
	pm := pending.PaymentMethodID()
	cancel := sim.NewAction(ToolCancelOrder, "order_id", pending.ID, "reason", ReasonNoLongerNeeded)
	if got := alternatives(env, user.ID, map[string]string{"order_id": pending.ID, "reason": ReasonNoLongerNeeded}, cancel); len(got) != 0 {
		t.Errorf("cancel with its reason stated: alternatives %v, want none", got)
	}
	got := alternatives(env, user.ID, map[string]string{"order_id": pending.ID}, cancel)
	if want := sim.NewAction(ToolCancelOrder, "order_id", pending.ID, "reason", ReasonOrderedByMistake); len(got) != 1 || string(got[0].Arguments) != string(want.Arguments) {
		t.Errorf("cancel without a reason: alternatives %v, want %s", got, want.Arguments)
	}
	var other string
	for _, id := range slices.Sorted(maps.Keys(user.PaymentMethods)) {
		if id != pm {
			other = id
		}
	}
	pay := sim.NewAction(ToolModifyPayment, "order_id", pending.ID, "payment_method_id", other)
	if got := alternatives(env, user.ID, map[string]string{"order_id": pending.ID, "payment_method": user.PaymentMethods[other].Describe()}, pay); len(got) != 0 {
		t.Errorf("payment named: alternatives %v, want none", got)
	}
	if got := alternatives(env, user.ID, map[string]string{"order_id": pending.ID}, pay); len(got) != len(user.PaymentMethods)-1 {
		t.Errorf("payment unnamed: %d alternatives, want %d", len(got), len(user.PaymentMethods)-1)
	}
	found := alternatives(env, user.ID, map[string]string{"order_description": "the order with the " + shared, "reason": ReasonNoLongerNeeded}, cancel)
	if len(found) != len(ordersWithProduct(db, user.ID, shared))-1 {
		t.Errorf("order described by %q, in %d orders: alternatives %v", shared, len(ordersWithProduct(db, user.ID, shared)), found)
	}
}

func TestAlternatives_RefundRule(t *testing.T) {
	u := &User{PaymentMethods: map[string]*PaymentMethod{
		"gift_card_1": {ID: "gift_card_1", Source: sourceGiftCard},
		"paypal_1":    {ID: "paypal_1", Source: sourcePayPal},
	}}
	facts := map[string]string{"refund_rule": refundRule(50, "paypal")}
	for _, c := range []struct {
		refund sim.Money
		gold   string
		want   []string
	}{
		{4999, "gift_card_1", nil},
		{4999, "paypal_1", []string{"gift_card_1"}},
		{5000, "paypal_1", nil},
		{5000, "gift_card_1", []string{"paypal_1"}},
	} {
		if got := otherMethods(u, facts, c.gold, c.refund); !slices.Equal(got, c.want) {
			t.Errorf("refund %s to %s: alternatives %v, want %v", c.refund, c.gold, got, c.want)
		}
	}
}
