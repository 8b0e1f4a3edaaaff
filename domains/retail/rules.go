package retail

import (
	"fmt"
	"strings"

	"github.com/emobench/emobench/sim"
)

// This file is the domain's own copy of policy.md's rules for writes, as
// predicates Tracer checks gold and forbidden writes with. No tool calls
// them: the tools enforce only what the store's systems would.

// Policy rule names, as PolicyViolation.Rule gives them.
const (
	RuleOwnAccount         = "own_account"            // help only the verified user
	RuleOwnOrder           = "own_order"              // ... and only with their own orders
	RuleOrderPending       = "order_pending"          // only pending orders are cancelled or modified
	RuleOrderDelivered     = "order_delivered"        // only delivered orders are returned or exchanged, once
	RuleCancelReason       = "cancel_reason"          // "no longer needed" or "ordered by mistake"
	RuleItemsOnce          = "items_changed_once"     // an order's items change only once
	RuleSameProduct        = "same_product"           // an item changes only to a variant of its product
	RuleItemAvailable      = "new_item_available"     // ... that is available
	RuleOwnPaymentMethod   = "own_payment_method"     // payments use the user's own methods
	RulePaymentDiffers     = "payment_method_differs" // a new payment method differs from the one that paid
	RuleGiftCardCovers     = "gift_card_covers"       // a gift card covers what it is charged
	RuleRefundMethod       = "refund_method"          // a refund goes to the original method or a gift card
	RuleWellFormedArgument = "well_formed_arguments"
)

// PolicyViolation is the error CheckPolicy returns (sim.PolicyViolation).
type PolicyViolation = sim.PolicyViolation

// policyArgs are the arguments of the write tools that the rules read;
// address fields are not needed.
type policyArgs struct {
	OrderID         string   `json:"order_id"`
	UserID          string   `json:"user_id"`
	Reason          string   `json:"reason"`
	ItemIDs         []string `json:"item_ids"`
	NewItemIDs      []string `json:"new_item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
}

// policyRule is one of policy.md's rules, checked on a write about to
// run on the store for the verified user.
type policyRule = sim.PolicyRule[DB, policyArgs]

// writeRules are policy.md's rules by write tool, in the order an agent
// should check them.
var writeRules = map[string][]policyRule{
	ToolCancelOrder:       {ownOrder, orderPending, cancelReason},
	ToolModifyAddress:     {ownOrder, orderPending},
	ToolModifyPayment:     {ownOrder, orderPending, ownPaymentMethod, paymentDiffers, giftCardCoversPaid},
	ToolModifyItems:       {ownOrder, orderPending, itemsOnce, sameProduct, itemAvailable, ownPaymentMethod, giftCardCoversDifference},
	ToolModifyUserAddress: {ownAccount},
	ToolReturnItems:       {ownOrder, orderDelivered, ownPaymentMethod, refundMethod},
	ToolExchangeItems:     {ownOrder, orderDelivered, sameProduct, itemAvailable, ownPaymentMethod, giftCardCoversDifference},
}

// CheckPolicy reports whether policy.md allows the write a, about to run
// on env (a retail environment, *sim.StateEnv[DB]), for the verified user
// userID: nil if it does or a is no write, a *PolicyViolation naming the
// first rule it breaks otherwise (sim.PolicyChecker). It is
// sim.Catalog.CheckPolicy; it never changes env.
var CheckPolicy = sim.PolicyChecker(Name, RuleWellFormedArgument, writeRules)

// policyOrder returns the order a write names, or nil.
func policyOrder(db *DB, a *policyArgs) *Order {
	return db.Orders.At(normOrderID(a.OrderID))
}

var (
	ownAccount = policyRule{Name: RuleOwnAccount, Check: func(_ *DB, userID string, a *policyArgs) string {
		if strings.TrimSpace(a.UserID) != userID {
			return fmt.Sprintf("account %q is not the verified user %s's", a.UserID, userID)
		}
		return ""
	}}
	ownOrder = policyRule{Name: RuleOwnOrder, Check: func(db *DB, userID string, a *policyArgs) string {
		o := policyOrder(db, a)
		switch {
		case o == nil:
			return fmt.Sprintf("order %q does not exist", a.OrderID)
		case o.UserID != userID:
			return fmt.Sprintf("order %s belongs to %s, not to the verified user %s", o.ID, o.UserID, userID)
		}
		return ""
	}}
	orderPending   = statusRule(RuleOrderPending, StatusPending)
	orderDelivered = statusRule(RuleOrderDelivered, StatusDelivered)
	cancelReason   = policyRule{Name: RuleCancelReason, Check: func(_ *DB, _ string, a *policyArgs) string {
		if r := strings.TrimSpace(a.Reason); r != ReasonNoLongerNeeded && r != ReasonOrderedByMistake {
			return fmt.Sprintf("reason %q is neither %q nor %q", a.Reason, ReasonNoLongerNeeded, ReasonOrderedByMistake)
		}
		return ""
	}}
	itemsOnce = policyRule{Name: RuleItemsOnce, Check: func(db *DB, _ string, a *policyArgs) string {
		if policyOrder(db, a).ItemsModified {
			return fmt.Sprintf("the items of order %s were already changed once", a.OrderID)
		}
		return ""
	}}
	sameProduct = policyRule{Name: RuleSameProduct, Check: func(db *DB, _ string, a *policyArgs) string {
		o := policyOrder(db, a)
		positions, err := o.itemPositions(a.ItemIDs)
		if err != nil {
			return err.Error()
		}
		if len(a.NewItemIDs) != len(positions) {
			return fmt.Sprintf("%d new items for %d items", len(a.NewItemIDs), len(positions))
		}
		for i, pos := range positions {
			old := o.Items[pos]
			if _, ok := db.Products.At(old.ProductID).Variants[strings.TrimSpace(a.NewItemIDs[i])]; !ok {
				return fmt.Sprintf("new item %s is not a variant of %s (product %s)", a.NewItemIDs[i], old.Name, old.ProductID)
			}
		}
		return ""
	}}
	itemAvailable = policyRule{Name: RuleItemAvailable, Check: func(db *DB, _ string, a *policyArgs) string {
		for _, id := range a.NewItemIDs {
			if _, it, ok := db.findItem(strings.TrimSpace(id)); !ok || !it.Available {
				return fmt.Sprintf("new item %s is not available", id)
			}
		}
		return ""
	}}
	ownPaymentMethod = policyRule{Name: RuleOwnPaymentMethod, Check: func(db *DB, userID string, a *policyArgs) string {
		if _, ok := db.Users.At(userID).PaymentMethods[strings.TrimSpace(a.PaymentMethodID)]; !ok {
			return fmt.Sprintf("payment method %q is not one of %s's", a.PaymentMethodID, userID)
		}
		return ""
	}}
	paymentDiffers = policyRule{Name: RulePaymentDiffers, Check: func(db *DB, _ string, a *policyArgs) string {
		if o := policyOrder(db, a); strings.TrimSpace(a.PaymentMethodID) == o.PaymentMethodID() {
			return fmt.Sprintf("order %s is already paid with %s", o.ID, a.PaymentMethodID)
		}
		return ""
	}}
	giftCardCoversPaid = policyRule{Name: RuleGiftCardCovers, Check: func(db *DB, userID string, a *policyArgs) string {
		var paid sim.Money
		for _, p := range policyOrder(db, a).netPaid() {
			paid += p.amount
		}
		return giftCardShort(db.Users.At(userID).PaymentMethods[strings.TrimSpace(a.PaymentMethodID)], paid)
	}}
	giftCardCoversDifference = policyRule{Name: RuleGiftCardCovers, Check: func(db *DB, userID string, a *policyArgs) string {
		diff := priceDifference(db, policyOrder(db, a), a)
		return giftCardShort(db.Users.At(userID).PaymentMethods[strings.TrimSpace(a.PaymentMethodID)], diff)
	}}
	refundMethod = policyRule{Name: RuleRefundMethod, Check: func(db *DB, userID string, a *policyArgs) string {
		id := strings.TrimSpace(a.PaymentMethodID)
		o := policyOrder(db, a)
		if pm := db.Users.At(userID).PaymentMethods[id]; id != o.PaymentMethodID() && pm.Source != sourceGiftCard {
			return fmt.Sprintf("refund to %s, which neither paid order %s nor is a gift card", id, o.ID)
		}
		return ""
	}}
)

func statusRule(name, want string) policyRule {
	return policyRule{Name: name, Check: func(db *DB, _ string, a *policyArgs) string {
		if o := policyOrder(db, a); o.Status != want {
			return fmt.Sprintf("order %s is %s, not %s", o.ID, o.Status, want)
		}
		return ""
	}}
}

// giftCardShort says why pm cannot be charged amount, or "" when it can
// (not a gift card, nothing to charge, or enough balance).
func giftCardShort(pm *PaymentMethod, amount sim.Money) string {
	if pm != nil && pm.Balance != nil && amount > *pm.Balance {
		return fmt.Sprintf("gift card %s has %s, less than the %s to charge", pm.ID, *pm.Balance, amount)
	}
	return ""
}

// priceDifference is new minus old price of a swap, over the items both
// lists name; unknown items count nothing (other rules catch them).
func priceDifference(db *DB, o *Order, a *policyArgs) sim.Money {
	positions, err := o.itemPositions(a.ItemIDs)
	if err != nil {
		return 0
	}
	var diff sim.Money
	for i, pos := range positions {
		if i >= len(a.NewItemIDs) {
			break
		}
		if _, it, ok := db.findItem(strings.TrimSpace(a.NewItemIDs[i])); ok {
			diff += it.Price - o.Items[pos].Price
		}
	}
	return diff
}
