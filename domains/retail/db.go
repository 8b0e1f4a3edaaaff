package retail

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
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

// Money is an amount in US cents. It encodes in JSON as a number of dollars
// with exactly two decimals (54.04), so amounts never pick up float noise.
type Money int64

// Dollars returns m as a float number of dollars.
func (m Money) Dollars() float64 { return float64(m) / 100 }

// String returns m as dollars with two decimals, e.g. "54.04" or "-3.50".
func (m Money) String() string { return string(m.appendTo(nil)) }

// MarshalJSON encodes m as a JSON number of dollars with two decimals.
func (m Money) MarshalJSON() ([]byte, error) { return m.appendTo(make([]byte, 0, 12)), nil }

func (m Money) appendTo(b []byte) []byte {
	v := int64(m)
	if v < 0 {
		b, v = append(b, '-'), -v
	}
	b = strconv.AppendInt(b, v/100, 10)
	return append(b, '.', byte('0'+v%100/10), byte('0'+v%10))
}

// UnmarshalJSON decodes a JSON number of dollars, rounded to the cent.
func (m *Money) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("money %s: %w", b, err)
	}
	*m = Money(math.Round(f * 100))
	return nil
}

// DB is the retail store's state: users, products and orders, each keyed by
// its id. Its JSON encoding is canonical (structs, string-keyed maps, slices
// in a fixed order), so sim.StateEnv can hash it.
type DB struct {
	Users    map[string]*User    `json:"users"`
	Products map[string]*Product `json:"products"`
	Orders   map[string]*Order   `json:"orders"`

	// root is set on a generated database: its clones hash incrementally
	// against a snapshot of it (see StateHash); base is a clone's snapshot.
	root *hashRoot
	base *hashBase
	// owned is set on a copy-on-write clone (episodeClone): its users and
	// orders are base's own until a tool takes one (ownUser, ownOrder),
	// which copies it first; the ids it took are owned.
	owned *ownedEntities
}

// ownedEntities are the users and orders a copy-on-write clone copied.
type ownedEntities struct{ users, orders map[string]bool }

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
	ID       string `json:"id"`
	Source   string `json:"source"` // gift_card, paypal or credit_card
	Brand    string `json:"brand,omitempty"`
	LastFour string `json:"last_four,omitempty"`
	Balance  *Money `json:"balance,omitempty"` // gift cards only
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
	Price     Money             `json:"price"`
	Available bool              `json:"available"`
}

// OrderItem is an item as it was ordered, at the price paid.
type OrderItem struct {
	Name      string            `json:"name"`
	ProductID string            `json:"product_id"`
	ItemID    string            `json:"item_id"`
	Options   map[string]string `json:"options"`
	Price     Money             `json:"price"`
}

// Payment is one transaction of an order's payment history.
type Payment struct {
	Type            string `json:"transaction_type"` // payment or refund
	Amount          Money  `json:"amount"`
	PaymentMethodID string `json:"payment_method_id"`
}

// ReturnRequest records the items a user sends back and where the refund
// goes.
type ReturnRequest struct {
	ItemIDs         []string `json:"item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
	Refund          Money    `json:"refund_amount"`
}

// ExchangeRequest records the items a user exchanges, their replacements and
// how the price difference (new minus old; negative is a refund) is settled.
type ExchangeRequest struct {
	ItemIDs         []string `json:"item_ids"`
	NewItemIDs      []string `json:"new_item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
	PriceDifference Money    `json:"price_difference"`
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
func (o *Order) Total() Money {
	var t Money
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

// Clone returns a copy of db; changing one never changes the other. The
// options maps of items and order items are shared: no one changes an
// options map (a tool that changes an item's options gives it a new map).
func (db *DB) Clone() *DB {
	out := db.clone()
	switch {
	case db.base != nil:
		out.base = db.base
	case db.root != nil:
		out.base = db.root.get(db)
	}
	return out
}

// clone is Clone without the hashing snapshot.
func (db *DB) clone() *DB {
	out := &DB{
		Users:    make(map[string]*User, len(db.Users)),
		Products: make(map[string]*Product, len(db.Products)),
		Orders:   make(map[string]*Order, len(db.Orders)),
	}
	for id, u := range db.Users {
		out.Users[id] = cloneUser(u)
	}
	for id, p := range db.Products {
		c := *p
		c.Variants = make(map[string]*Item, len(p.Variants))
		for iid, it := range p.Variants {
			ic := *it // Options shared: an options map is never changed
			c.Variants[iid] = &ic
		}
		out.Products[id] = &c
	}
	for id, o := range db.Orders {
		out.Orders[id] = cloneOrder(o)
	}
	return out
}

func cloneUser(u *User) *User {
	c := *u
	c.PaymentMethods = make(map[string]*PaymentMethod, len(u.PaymentMethods))
	for pid, p := range u.PaymentMethods {
		pc := *p
		if p.Balance != nil {
			b := *p.Balance
			pc.Balance = &b
		}
		c.PaymentMethods[pid] = &pc
	}
	c.Orders = slices.Clone(u.Orders)
	return &c
}

func cloneOrder(o *Order) *Order {
	c := *o
	c.Items = slices.Clone(o.Items) // Options shared: never changed
	c.PaymentHistory = slices.Clone(o.PaymentHistory)
	if o.Return != nil {
		r := *o.Return
		r.ItemIDs = slices.Clone(r.ItemIDs)
		c.Return = &r
	}
	if o.Exchange != nil {
		x := *o.Exchange
		x.ItemIDs = slices.Clone(x.ItemIDs)
		x.NewItemIDs = slices.Clone(x.NewItemIDs)
		c.Exchange = &x
	}
	return &c
}

// episodeClone returns a copy-on-write copy of db for one episode's
// environment: its maps are new, but their users, orders and products
// are those of db's hashing snapshot (which nothing else changes) until
// a tool takes a user or an order (ownUser, ownOrder), so a clone costs
// three map copies instead of a deep copy, and its StateHash compares
// the untouched entities by pointer. The tools take every user and order
// they may change; no tool changes a product. Anything else that changes
// an environment's state in place must Clone instead. On a database with
// no snapshot (not generated) it is Clone.
func (db *DB) episodeClone() *DB {
	base := db.base
	if base == nil && db.root != nil {
		base = db.root.get(db)
	}
	if base == nil {
		return db.Clone()
	}
	return &DB{
		Users: maps.Clone(base.db.Users), Products: maps.Clone(base.db.Products), Orders: maps.Clone(base.db.Orders),
		base:  base,
		owned: &ownedEntities{users: map[string]bool{}, orders: map[string]bool{}},
	}
}

// ownUser returns the user id for changing: on a copy-on-write clone, a
// copy of the shared user, made once. nil when there is no such user.
func (db *DB) ownUser(id string) *User {
	u := db.Users[id]
	if u == nil || db.owned == nil || db.owned.users[id] {
		return u
	}
	u = cloneUser(u)
	db.Users[id], db.owned.users[id] = u, true
	return u
}

// ownOrder is ownUser for orders.
func (db *DB) ownOrder(id string) *Order {
	o := db.Orders[id]
	if o == nil || db.owned == nil || db.owned.orders[id] {
		return o
	}
	o = cloneOrder(o)
	db.Orders[id], db.owned.orders[id] = o, true
	return o
}

func cloneOptions(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sortedKeys returns a map's keys in increasing order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// findItem returns the product and variant with the given item id.
func (db *DB) findItem(itemID string) (*Product, *Item, bool) {
	for _, pid := range sortedKeys(db.Products) {
		p := db.Products[pid]
		if it, ok := p.Variants[itemID]; ok {
			return p, it, true
		}
	}
	return nil, nil, false
}
