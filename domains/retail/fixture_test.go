package retail

import (
	"maps"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// newEnv returns an environment over db with the retail tools.
func newEnv(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, Tools()) }

// replay returns a fork of the initial state (New) after actions.
func replay(t testing.TB, actions ...emobench.Action) *sim.StateEnv[DB] {
	t.Helper()
	env := New().NewEnvironment().(*sim.StateEnv[DB])
	for i, a := range actions {
		if _, err := env.Call(a.Name, a.Arguments); err != nil {
			t.Fatalf("replay: action %d %s%s: %v", i, a.Name, a.Arguments, err)
		}
	}
	return env
}

// tableOf returns a table of rows.
func tableOf[V any](rows map[string]*V) sim.Table[V] {
	var t sim.Table[V]
	for id, v := range rows {
		t.Put(id, v)
	}
	return t
}

// testDB returns a small hand-made database whose numbers the tool tests
// assert exactly.
//
//   - ana_silva_1000 (ana@example.com; Ana Silva, 80203) has a gift card
//     (balance 50.00), a PayPal account and a visa ending in 4242, and orders
//     #R0000001 (pending, paypal, black usb lamp 40.00), #R0000002
//     (delivered, visa, white usb lamp 42.00 + blue bottle 20.00), #R0000003
//     (processed, paypal, blue bottle 20.00) and #R0000004 (pending, gift
//     card, blue bottle 20.00).
//   - ben_ito_2000 (ben@example.com; Ben Ito, 97201) has a PayPal account
//     and order #R0000005 (pending, black usb lamp 40.00).
//   - Lamp 100 has items 1001 black/usb 40.00, 1002 white/usb 42.00, 1003
//     brass/usb 60.00 (unavailable) and 1004 black/plug 45.00; bottle 200
//     has 2001 blue/500ml 20.00 and 2002 green/500ml 22.50.
func testDB() *DB {
	balance := sim.Money(5000)
	lamp := func(id string) OrderItem {
		it := lampItems[id]
		return OrderItem{Name: "desk lamp", ProductID: "100", ItemID: id, Options: maps.Clone(it.Options), Price: it.Price}
	}
	bottle := OrderItem{Name: "water bottle", ProductID: "200", ItemID: "2001", Options: map[string]string{"color": "blue", "capacity": "500ml"}, Price: 2000}
	pay := func(method string, amount sim.Money) []Payment {
		return []Payment{{Type: transactionPayment, Amount: amount, PaymentMethodID: method}}
	}
	anaAddr := Address{Address1: "1 Main Street", City: "Denver", State: "CO", Country: "USA", Zip: "80203"}
	benAddr := Address{Address1: "9 Oak Road", Address2: "Apt 2", City: "Portland", State: "OR", Country: "USA", Zip: "97201"}
	lamps := map[string]*Item{}
	for id, it := range lampItems {
		c := *it
		c.Options = maps.Clone(it.Options)
		lamps[id] = &c
	}
	return &DB{
		Users: tableOf(map[string]*User{
			"ana_silva_1000": {
				ID: "ana_silva_1000", Name: UserName{"Ana", "Silva"}, Email: "ana@example.com", Address: anaAddr,
				PaymentMethods: map[string]*PaymentMethod{
					"gift_card_1":   {ID: "gift_card_1", Source: sourceGiftCard, Balance: &balance},
					"paypal_1":      {ID: "paypal_1", Source: sourcePayPal},
					"credit_card_1": {ID: "credit_card_1", Source: sourceCreditCard, Brand: "visa", LastFour: "4242"},
				},
				Orders: []string{"#R0000001", "#R0000002", "#R0000003", "#R0000004"},
			},
			"ben_ito_2000": {
				ID: "ben_ito_2000", Name: UserName{"Ben", "Ito"}, Email: "ben@example.com", Address: benAddr,
				PaymentMethods: map[string]*PaymentMethod{"paypal_2": {ID: "paypal_2", Source: sourcePayPal}},
				Orders:         []string{"#R0000005"},
			},
		}),
		Products: tableOf(map[string]*Product{
			"100": {ID: "100", Name: "desk lamp", Variants: lamps},
			"200": {ID: "200", Name: "water bottle", Variants: map[string]*Item{
				"2001": {ID: "2001", Options: map[string]string{"color": "blue", "capacity": "500ml"}, Price: 2000, Available: true},
				"2002": {ID: "2002", Options: map[string]string{"color": "green", "capacity": "500ml"}, Price: 2250, Available: true},
			}},
		}),
		Orders: tableOf(map[string]*Order{
			"#R0000001": {ID: "#R0000001", UserID: "ana_silva_1000", Address: anaAddr, Status: StatusPending,
				Items: []OrderItem{lamp("1001")}, PaymentHistory: pay("paypal_1", 4000)},
			"#R0000002": {ID: "#R0000002", UserID: "ana_silva_1000", Address: anaAddr, Status: StatusDelivered,
				Items: []OrderItem{lamp("1002"), bottle}, PaymentHistory: pay("credit_card_1", 6200)},
			"#R0000003": {ID: "#R0000003", UserID: "ana_silva_1000", Address: anaAddr, Status: StatusProcessed,
				Items: []OrderItem{bottle}, PaymentHistory: pay("paypal_1", 2000)},
			"#R0000004": {ID: "#R0000004", UserID: "ana_silva_1000", Address: anaAddr, Status: StatusPending,
				Items: []OrderItem{bottle}, PaymentHistory: pay("gift_card_1", 2000)},
			"#R0000005": {ID: "#R0000005", UserID: "ben_ito_2000", Address: benAddr, Status: StatusPending,
				Items: []OrderItem{lamp("1001")}, PaymentHistory: pay("paypal_2", 4000)},
		}),
	}
}

var lampItems = map[string]*Item{
	"1001": {ID: "1001", Options: map[string]string{"color": "black", "power": "usb"}, Price: 4000, Available: true},
	"1002": {ID: "1002", Options: map[string]string{"color": "white", "power": "usb"}, Price: 4200, Available: true},
	"1003": {ID: "1003", Options: map[string]string{"color": "brass", "power": "usb"}, Price: 6000, Available: false},
	"1004": {ID: "1004", Options: map[string]string{"color": "black", "power": "plug"}, Price: 4500, Available: true},
}
