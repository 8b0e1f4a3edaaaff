package retail

import (
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/emobench/emobench/sim"
)

// Tool names.
const (
	ToolFindUserByEmail   = "find_user_id_by_email"
	ToolFindUserByNameZip = "find_user_id_by_name_zip"
	ToolGetUser           = "get_user_details"
	ToolGetOrder          = "get_order_details"
	ToolGetProduct        = "get_product_details"
	ToolListProducts      = "list_all_product_types"
	ToolCalculate         = "calculate"
	ToolCancelOrder       = "cancel_pending_order"
	ToolModifyAddress     = "modify_pending_order_address"
	ToolModifyItems       = "modify_pending_order_items"
	ToolModifyPayment     = "modify_pending_order_payment"
	ToolModifyUserAddress = "modify_user_address"
	ToolReturnItems       = "return_delivered_order_items"
	ToolExchangeItems     = "exchange_delivered_order_items"
	ToolTransfer          = "transfer_to_human_agents"
)

// replacing returns the address of a tool's arguments with its parts
// trimmed, or an error naming the part that is empty or not well formed,
// or saying that it is the same as the current address of whose (the
// order's, the user's).
func (a Address) replacing(current Address, whose string) (Address, error) {
	addr := Address{
		Address1: strings.TrimSpace(a.Address1), Address2: strings.TrimSpace(a.Address2),
		City: strings.TrimSpace(a.City), State: strings.TrimSpace(a.State),
		Country: strings.TrimSpace(a.Country), Zip: strings.TrimSpace(a.Zip),
	}
	for _, f := range []struct{ name, v string }{{"address1", addr.Address1}, {"city", addr.City}, {"state", addr.State}, {"country", addr.Country}} {
		if f.v == "" {
			return Address{}, fmt.Errorf("%s must not be empty", f.name)
		}
	}
	if len(addr.Zip) != 5 || strings.Trim(addr.Zip, "0123456789") != "" {
		return Address{}, fmt.Errorf("zip %q is not a five-digit zip code", a.Zip)
	}
	if addr == current {
		return Address{}, fmt.Errorf("the new address is the same as the %s current address", whose)
	}
	return addr, nil
}

// Tools returns the retail domain's tools in the order of tools.json, as
// a new slice.
func Tools() []sim.Tool[DB] { return slices.Clone(tools()) }

// toolsJSON declares the tools: their names, descriptions and parameter
// schemas, as the agent sees them.
//
//go:embed tools.json
var toolsJSON []byte

// tools are built at their first use (sync.OnceValue), not at package
// init: their schemas cost every command, most of which run no domain.
var tools = sync.OnceValue(func() []sim.Tool[DB] {
	tools, err := sim.ReadTools(toolsJSON, map[string]sim.ToolCall[DB]{
		ToolFindUserByEmail:   sim.Typed(findUserByEmail),
		ToolFindUserByNameZip: sim.Typed(findUserByNameZip),
		ToolGetUser:           sim.Typed(getUser),
		ToolGetOrder:          sim.Typed(getOrder),
		ToolGetProduct:        sim.Typed(getProduct),
		ToolListProducts:      sim.Typed(listProducts),
		ToolCalculate:         sim.Typed(calculate),
		ToolCancelOrder:       sim.Typed(orderTool("cancelled", StatusPending, cancelOrder)),
		ToolModifyAddress:     sim.Typed(orderTool("modified", StatusPending, modifyAddress)),
		ToolModifyItems:       sim.Typed(orderTool("modified", StatusPending, modifyItems)),
		ToolModifyPayment:     sim.Typed(orderTool("modified", StatusPending, modifyPayment)),
		ToolModifyUserAddress: sim.Typed(modifyUserAddress),
		ToolReturnItems:       sim.Typed(orderTool("returned", StatusDelivered, returnItems)),
		ToolExchangeItems:     sim.Typed(orderTool("exchanged", StatusDelivered, exchangeItems)),
		ToolTransfer:          sim.Typed(transfer),
	})
	if err != nil {
		panic("retail: " + err.Error()) // tools.json is embedded: a build bug
	}
	return tools
})

func findUserByEmail(db *DB, a *struct {
	Email string `json:"email"`
}) (string, error) {
	email := strings.ToLower(strings.TrimSpace(a.Email))
	for id, u := range db.Users.All() {
		if strings.ToLower(u.Email) == email {
			return sim.JSONResult(map[string]string{"user_id": id})
		}
	}
	return "", fmt.Errorf("no user found with email %q", a.Email)
}

func findUserByNameZip(db *DB, a *struct {
	First string `json:"first_name"`
	Last  string `json:"last_name"`
	Zip   string `json:"zip"`
}) (string, error) {
	first, last, zip := strings.TrimSpace(a.First), strings.TrimSpace(a.Last), strings.TrimSpace(a.Zip)
	for id, u := range db.Users.All() {
		if strings.EqualFold(u.Name.First, first) && strings.EqualFold(u.Name.Last, last) && u.Address.Zip == zip {
			return sim.JSONResult(map[string]string{"user_id": id})
		}
	}
	return "", fmt.Errorf("no user found named %s %s with zip %s", first, last, zip)
}

func getUser(db *DB, a *struct {
	UserID string `json:"user_id"`
}) (string, error) {
	u, ok := db.Users.Get(strings.TrimSpace(a.UserID))
	if !ok {
		return "", fmt.Errorf("user %q not found", a.UserID)
	}
	return sim.JSONResult(u)
}

func getOrder(db *DB, a *orderArg) (string, error) {
	o, ok := db.Orders.Get(normOrderID(a.OrderID))
	if !ok {
		return "", fmt.Errorf("order %q not found", a.OrderID)
	}
	return sim.JSONResult(o)
}

func getProduct(db *DB, a *struct {
	ProductID string `json:"product_id"`
}) (string, error) {
	p, ok := db.Products.Get(strings.TrimSpace(a.ProductID))
	if !ok {
		if _, _, isItem := db.findItem(strings.TrimSpace(a.ProductID)); isItem {
			return "", fmt.Errorf("%q is an item id, not a product id", a.ProductID)
		}
		return "", fmt.Errorf("product %q not found", a.ProductID)
	}
	return sim.JSONResult(p)
}

func listProducts(db *DB, _ *struct{}) (string, error) {
	names := make(map[string]string, db.Products.Len())
	for id, p := range db.Products.All() {
		names[p.Name] = id
	}
	return sim.JSONResult(names)
}

func calculate(_ *DB, a *struct {
	Expression string `json:"expression"`
}) (string, error) {
	v, err := sim.Calculate(a.Expression)
	if err != nil {
		return "", fmt.Errorf("cannot compute %q: %v", a.Expression, err)
	}
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64), nil
}

func cancelOrder(db *DB, o *Order, a *struct {
	orderArg
	Reason string `json:"reason"`
}) error {
	reason := strings.TrimSpace(a.Reason)
	if reason != ReasonNoLongerNeeded && reason != ReasonOrderedByMistake {
		return fmt.Errorf("reason %q is not 'no longer needed' or 'ordered by mistake'", a.Reason)
	}
	u, _ := db.Users.Edit(o.UserID)
	for _, paid := range o.netPaid() {
		o.PaymentHistory = append(o.PaymentHistory, Payment{Type: transactionRefund, Amount: paid.amount, PaymentMethodID: paid.method})
		if pm := u.paymentMethod(paid.method); pm != nil && pm.Balance != nil {
			*pm.Balance += paid.amount
		}
	}
	o.Status, o.CancelReason = StatusCancelled, reason
	return nil
}

func modifyAddress(db *DB, o *Order, a *struct {
	orderArg
	Address
}) error {
	addr, err := a.Address.replacing(o.Address, "order's")
	if err != nil {
		return err
	}
	o.Address = addr
	return nil
}

func modifyItems(db *DB, o *Order, a *swapArgs) error {
	if o.ItemsModified {
		return fmt.Errorf("the items of order %s were already modified once and cannot be modified again", o.ID)
	}
	positions, newItems, diff, pm, err := db.checkSwap(o, a)
	if err != nil {
		return err
	}
	for i, pos := range positions {
		o.Items[pos] = newItems[i]
	}
	o.ItemsModified = true
	switch {
	case diff > 0:
		o.PaymentHistory = append(o.PaymentHistory, Payment{Type: transactionPayment, Amount: diff, PaymentMethodID: pm.ID})
	case diff < 0:
		o.PaymentHistory = append(o.PaymentHistory, Payment{Type: transactionRefund, Amount: -diff, PaymentMethodID: pm.ID})
	}
	if pm.Balance != nil {
		*pm.Balance -= diff
	}
	return nil
}

func modifyPayment(db *DB, o *Order, a *struct {
	orderArg
	PaymentMethodID string `json:"payment_method_id"`
}) error {
	pm, err := db.userPaymentMethod(o.UserID, a.PaymentMethodID)
	if err != nil {
		return err
	}
	paid := o.netPaid()
	if len(paid) != 1 {
		return fmt.Errorf("order %s was paid with %d payment methods; only an order paid with one method can change it", o.ID, len(paid))
	}
	old := paid[0]
	if old.method == pm.ID {
		return fmt.Errorf("order %s is already paid with %s", o.ID, pm.ID)
	}
	if err := pm.canPay(old.amount); err != nil {
		return err
	}
	o.PaymentHistory = append(o.PaymentHistory,
		Payment{Type: transactionPayment, Amount: old.amount, PaymentMethodID: pm.ID},
		Payment{Type: transactionRefund, Amount: old.amount, PaymentMethodID: old.method})
	if pm.Balance != nil {
		*pm.Balance -= old.amount
	}
	if oldPM, err := db.userPaymentMethod(o.UserID, old.method); err == nil && oldPM.Balance != nil {
		*oldPM.Balance += old.amount
	}
	return nil
}

func modifyUserAddress(db *DB, a *struct {
	UserID string `json:"user_id"`
	Address
}) (string, error) {
	u, ok := db.Users.Edit(strings.TrimSpace(a.UserID))
	if !ok {
		return "", fmt.Errorf("user %q not found", a.UserID)
	}
	addr, err := a.Address.replacing(u.Address, "user's")
	if err != nil {
		return "", err
	}
	u.Address = addr
	return sim.JSONResult(u)
}

func returnItems(db *DB, o *Order, a *struct {
	orderArg
	ItemIDs         []string `json:"item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
}) error {
	positions, err := o.itemPositions(a.ItemIDs)
	if err != nil {
		return err
	}
	pm, err := db.userPaymentMethod(o.UserID, a.PaymentMethodID)
	if err != nil {
		return err
	}
	var refund sim.Money
	ids := make([]string, len(positions))
	for i, pos := range positions {
		refund += o.Items[pos].Price
		ids[i] = o.Items[pos].ItemID
	}
	o.Status = StatusReturnRequested
	o.Return = &ReturnRequest{ItemIDs: ids, PaymentMethodID: pm.ID, Refund: refund}
	return nil
}

func exchangeItems(db *DB, o *Order, a *swapArgs) error {
	positions, newItems, diff, pm, err := db.checkSwap(o, a)
	if err != nil {
		return err
	}
	x := &ExchangeRequest{PaymentMethodID: pm.ID, PriceDifference: diff}
	for i, pos := range positions {
		x.ItemIDs = append(x.ItemIDs, o.Items[pos].ItemID)
		x.NewItemIDs = append(x.NewItemIDs, newItems[i].ItemID)
	}
	o.Status, o.Exchange = StatusExchangeRequested, x
	return nil
}

func transfer(_ *DB, a *struct {
	Summary string `json:"summary"`
}) (string, error) {
	if strings.TrimSpace(a.Summary) == "" {
		return "", errors.New("summary must not be empty")
	}
	return sim.JSONResult(map[string]string{"status": "transferred", "message": transferMessage})
}

type swapArgs struct {
	orderArg
	ItemIDs         []string `json:"item_ids"`
	NewItemIDs      []string `json:"new_item_ids"`
	PaymentMethodID string   `json:"payment_method_id"`
}

// normOrderID accepts an order id with or without its leading '#'.
func normOrderID(id string) string {
	id = strings.TrimSpace(id)
	if id != "" && !strings.HasPrefix(id, "#") {
		id = "#" + id
	}
	return id
}

// orderArg is the argument every order tool takes: the order's id,
// with or without its leading '#' (normOrderID).
type orderArg struct {
	OrderID string `json:"order_id"`
}

func (a *orderArg) orderID() string { return a.OrderID }

// orderTool makes a tool that changes an order, called with arguments
// A: it takes the order a names for changing (Edit) if its status is
// want (verb says what the tool would do to it, for the error), lets
// change check and change it, and returns the order.
func orderTool[A any, P interface {
	*A
	orderID() string
}](verb, want string, change func(db *DB, o *Order, a P) error) func(*DB, P) (string, error) {
	return func(db *DB, a P) (string, error) {
		o, ok := db.Orders.Get(normOrderID(a.orderID()))
		if !ok {
			return "", fmt.Errorf("order %q not found", a.orderID())
		}
		if o.Status != want {
			return "", fmt.Errorf("order %s is %s; only %s orders can be %s", o.ID, o.Status, want, verb)
		}
		o, _ = db.Orders.Edit(o.ID)
		if err := change(db, o, a); err != nil {
			return "", err
		}
		return sim.JSONResult(o)
	}
}

// userPaymentMethod returns the user's payment method id for changing
// (the user's row taken with Edit).
func (db *DB) userPaymentMethod(userID, id string) (*PaymentMethod, error) {
	id = strings.TrimSpace(id)
	u, _ := db.Users.Edit(userID)
	pm := u.paymentMethod(id)
	if pm == nil {
		return nil, fmt.Errorf("payment method %q is not one of user %s's payment methods", id, userID)
	}
	return pm, nil
}

// canPay reports whether pm can be charged amount: gift cards need the
// balance.
func (pm *PaymentMethod) canPay(amount sim.Money) error {
	if pm.Balance != nil && amount > *pm.Balance {
		return fmt.Errorf("gift card %s has a balance of %s, less than the %s to pay", pm.ID, *pm.Balance, amount)
	}
	return nil
}

type paidAmount struct {
	method string
	amount sim.Money
}

// netPaid returns, for each payment method in order of first use, what it
// paid minus what it was refunded, leaving out methods with nothing left.
func (o *Order) netPaid() []paidAmount {
	var out []paidAmount
	index := map[string]int{}
	for _, p := range o.PaymentHistory {
		i, ok := index[p.PaymentMethodID]
		if !ok {
			i = len(out)
			index[p.PaymentMethodID] = i
			out = append(out, paidAmount{method: p.PaymentMethodID})
		}
		if p.Type == transactionRefund {
			out[i].amount -= p.Amount
		} else {
			out[i].amount += p.Amount
		}
	}
	return slices.DeleteFunc(out, func(p paidAmount) bool { return p.amount <= 0 })
}

// itemPositions returns the positions in o.Items of the given item ids,
// which must be distinct items of the order.
func (o *Order) itemPositions(itemIDs []string) ([]int, error) {
	if len(itemIDs) == 0 {
		return nil, errors.New("item_ids must name at least one item")
	}
	if len(itemIDs) > maxItemsPerOrderRequest {
		return nil, fmt.Errorf("item_ids names %d items; an order has at most %d", len(itemIDs), maxItemsPerOrderRequest)
	}
	positions := make([]int, len(itemIDs))
	for i, id := range itemIDs {
		id = strings.TrimSpace(id)
		pos := -1
		for j, it := range o.Items {
			if it.ItemID == id && !slices.Contains(positions[:i], j) {
				pos = j
				break
			}
		}
		if pos < 0 {
			if slices.Contains(itemIDs[:i], id) {
				return nil, fmt.Errorf("item %q is listed twice", id)
			}
			return nil, fmt.Errorf("item %q is not in order %s", id, o.ID)
		}
		positions[i] = pos
	}
	return positions, nil
}

// checkSwap validates the swap a of o's items for new ones, which may be
// items of any product, and returns their positions, the new order items,
// the price difference (new minus old) and the payment method, taken for
// changing, that pays or receives it. Keeping to the same product is the
// policy's rule, not the store's.
func (db *DB) checkSwap(o *Order, a *swapArgs) ([]int, []OrderItem, sim.Money, *PaymentMethod, error) {
	positions, err := o.itemPositions(a.ItemIDs)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	if len(a.NewItemIDs) != len(a.ItemIDs) {
		return nil, nil, 0, nil, fmt.Errorf("new_item_ids has %d items but item_ids has %d", len(a.NewItemIDs), len(a.ItemIDs))
	}
	var diff sim.Money
	newItems := make([]OrderItem, len(positions))
	for i, pos := range positions {
		old := o.Items[pos]
		newID := strings.TrimSpace(a.NewItemIDs[i])
		p, it, ok := db.findItem(newID)
		switch {
		case newID == old.ItemID:
			return nil, nil, 0, nil, fmt.Errorf("new item %s is the same as the item it replaces", newID)
		case !ok:
			return nil, nil, 0, nil, fmt.Errorf("new item %q not found", newID)
		case !it.Available:
			return nil, nil, 0, nil, fmt.Errorf("new item %s is not available", newID)
		}
		newItems[i] = OrderItem{Name: p.Name, ProductID: p.ID, ItemID: it.ID, Options: maps.Clone(it.Options), Price: it.Price}
		diff += it.Price - old.Price
	}
	pm, err := db.userPaymentMethod(o.UserID, a.PaymentMethodID)
	if err == nil {
		err = pm.canPay(diff)
	}
	if err != nil {
		return nil, nil, 0, nil, err
	}
	return positions, newItems, diff, pm, nil
}

// paymentMethod returns the user's payment method id, or nil (also for a
// nil user: an order whose user is gone).
func (u *User) paymentMethod(id string) *PaymentMethod {
	if u == nil {
		return nil
	}
	return u.PaymentMethods[id]
}
