package retail

import (
	"strings"

	"github.com/emobench/emobench/sim"
)

// Order statuses. Only pending orders may be cancelled or modified; only
// delivered orders may be returned or exchanged.
const (
	StatusPending           = "pending"
	StatusProcessed         = "processed"
	StatusDelivered         = "delivered"
	StatusCancelled         = "cancelled"
	StatusReturnRequested   = "return requested"
	StatusExchangeRequested = "exchange requested"
)

// Cancellation reasons the policy accepts.
const (
	ReasonNoLongerNeeded    = "no longer needed"
	ReasonOrderedByMistake  = "ordered by mistake"
	transactionPayment      = "payment"
	transactionRefund       = "refund"
	sourceGiftCard          = "gift_card"
	sourcePayPal            = "paypal"
	sourceCreditCard        = "credit_card"
	defaultCountry          = "USA"
	orderIDPrefix           = "#R"
	transferMessage         = "You are being transferred to a human agent. Please hold on."
	maxItemsPerOrderRequest = 10
)

// DB is the retail store's state: users, products and orders, each a
// sim.Table keyed by its id. Tools read rows with Get and change them
// through Edit; no tool changes a product.
type DB struct {
	Users    sim.Table[User]    `json:"users"`
	Products sim.Table[Product] `json:"products"`
	Orders   sim.Table[Order]   `json:"orders"`
}

// UserName is a user's first and last name.
type UserName struct {
	First string `json:"first_name"`
	Last  string `json:"last_name"`
}

// Address is a postal address.
type Address struct {
	Address1 string `json:"address1"`
	Address2 string `json:"address2"`
	City     string `json:"city"`
	State    string `json:"state"`
	Country  string `json:"country"`
	Zip      string `json:"zip"`
}

// String returns the address on one line, as a user would say it.
func (a Address) String() string {
	parts := []string{a.Address1}
	if a.Address2 != "" {
		parts = append(parts, a.Address2)
	}
	parts = append(parts, a.City, a.State+" "+a.Zip, a.Country)
	return strings.Join(parts, ", ")
}

// PaymentMethod is one of a user's ways to pay: a gift card (with a
// balance), a PayPal account or a credit card.
type PaymentMethod struct {
	ID       string     `json:"id"`
	Source   string     `json:"source"` // gift_card, paypal or credit_card
	Brand    string     `json:"brand,omitempty"`
	LastFour string     `json:"last_four,omitempty"`
	Balance  *sim.Money `json:"balance,omitempty"` // gift cards only
}

// Describe names the payment method the way its owner would.
func (p *PaymentMethod) Describe() string {
	switch p.Source {
	case sourceGiftCard:
		return "gift card"
	case sourcePayPal:
		return "paypal"
	default:
		return p.Brand + " credit card ending in " + p.LastFour
	}
}

// User is a customer account.
type User struct {
	ID             string                    `json:"user_id"`
	Name           UserName                  `json:"name"`
	Email          string                    `json:"email"`
	Address        Address                   `json:"address"`
	PaymentMethods map[string]*PaymentMethod `json:"payment_methods"`
	Orders         []string                  `json:"orders"` // order ids, oldest first
}

// Product is a product type with its variant items.
type Product struct {
	ID       string           `json:"product_id"`
	Name     string           `json:"name"`
	Variants map[string]*Item `json:"variants"` // by item id
}

// Item is one variant of a product: a set of options and a price.
type Item struct {
	ID        string            `json:"item_id"`
	Options   map[string]string `json:"options"`
	Price     sim.Money         `json:"price"`
	Available bool              `json:"available"`
}

// OrderItem is an item as it was ordered, at the price paid.
type OrderItem struct {
	Name      string            `json:"name"`
	ProductID string            `json:"product_id"`
	ItemID    string            `json:"item_id"`
	Options   map[string]string `json:"options"`
	Price     sim.Money         `json:"price"`
}

// Payment is one transaction of an order's payment history.
type Payment struct {
	Type            string    `json:"transaction_type"` // payment or refund
	Amount          sim.Money `json:"amount"`
	PaymentMethodID string    `json:"payment_method_id"`
}

// ReturnRequest records the items a user sends back and where the refund
// goes.
type ReturnRequest struct {
	ItemIDs         []string  `json:"item_ids"`
	PaymentMethodID string    `json:"payment_method_id"`
	Refund          sim.Money `json:"refund_amount"`
}

// ExchangeRequest records the items a user exchanges, their replacements and
// how the price difference (new minus old; negative is a refund) is settled.
type ExchangeRequest struct {
	ItemIDs         []string  `json:"item_ids"`
	NewItemIDs      []string  `json:"new_item_ids"`
	PaymentMethodID string    `json:"payment_method_id"`
	PriceDifference sim.Money `json:"price_difference"`
}

// Order is a user's order.
type Order struct {
	ID             string           `json:"order_id"`
	UserID         string           `json:"user_id"`
	Address        Address          `json:"address"`
	Items          []OrderItem      `json:"items"`
	Status         string           `json:"status"`
	ItemsModified  bool             `json:"items_modified"`
	PaymentHistory []Payment        `json:"payment_history"`
	CancelReason   string           `json:"cancel_reason,omitempty"`
	Return         *ReturnRequest   `json:"return,omitempty"`
	Exchange       *ExchangeRequest `json:"exchange,omitempty"`
}

// Total returns the sum of the order's item prices.
func (o *Order) Total() sim.Money {
	var t sim.Money
	for _, it := range o.Items {
		t += it.Price
	}
	return t
}

// PaymentMethodID returns the order's payment method: the first method that
// still has money paid on the order, or, when everything was refunded, the
// first method that paid; "" for an order without payments.
func (o *Order) PaymentMethodID() string {
	if paid := o.netPaid(); len(paid) > 0 {
		return paid[0].method
	}
	for _, p := range o.PaymentHistory {
		if p.Type == transactionPayment {
			return p.PaymentMethodID
		}
	}
	return ""
}

// findItem returns the product and variant with the given item id.
func (db *DB) findItem(itemID string) (*Product, *Item, bool) {
	for _, p := range db.Products.All() {
		if it, ok := p.Variants[itemID]; ok {
			return p, it, true
		}
	}
	return nil, nil, false
}

// StateForm is the order as the state hash sees it (sim.StateFormer): its
// cancellation reason normalised (sim.NormalizeFreeText), its items, its
// payments and the items of its return as sets, and its exchange as a set
// of (item, new item) pairs, so that the same request with its items
// listed in another order hashes alike.
func (o *Order) StateForm() any {
	c := *o
	c.CancelReason = sim.NormalizeFreeText(o.CancelReason)
	c.Items, c.PaymentHistory = sim.AsSet(o.Items), sim.AsSet(o.PaymentHistory)
	if o.Return != nil {
		r := *o.Return
		r.ItemIDs = sim.AsSet(r.ItemIDs)
		c.Return = &r
	}
	if x := o.Exchange; x != nil && len(x.ItemIDs) == len(x.NewItemIDs) {
		pairs := make([][2]string, len(x.ItemIDs))
		for i := range pairs {
			pairs[i] = [2]string{x.ItemIDs[i], x.NewItemIDs[i]}
		}
		pairs = sim.AsSet(pairs)
		e := *x
		e.ItemIDs, e.NewItemIDs = make([]string, len(pairs)), make([]string, len(pairs))
		for i, p := range pairs {
			e.ItemIDs[i], e.NewItemIDs[i] = p[0], p[1]
		}
		c.Exchange = &e
	}
	return &c
}
