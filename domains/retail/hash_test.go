package retail

import (
	"encoding/json"
	"reflect"
	"testing"
)

// roundTrip returns db through JSON: an equal database that is no clone,
// so its StateHash encodes every entity.
func roundTrip(t *testing.T, db *DB) *DB {
	t.Helper()
	b, err := json.Marshal(db)
	if err != nil {
		t.Fatal(err)
	}
	var out DB
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func TestStateHash_IncrementalEqualsFull(t *testing.T) {
	root := GenerateDB(Seed)
	c := root.Clone()
	before := c.StateHash()
	if want := roundTrip(t, root).StateHash(); before != want {
		t.Fatalf("clone hash %s, full hash %s", before, want)
	}
	o := c.Orders[sortedKeys(c.Orders)[9]]
	o.Return = &ReturnRequest{ItemIDs: []string{o.Items[0].ItemID}, PaymentMethodID: "x", Refund: o.Items[0].Price}
	u := c.Users[sortedKeys(c.Users)[4]]
	u.Address.Zip = "00000"
	after := c.StateHash()
	if after == before {
		t.Fatal("changing the clone left its hash unchanged")
	}
	if got := roundTrip(t, c).StateHash(); got != after {
		t.Fatalf("changed clone hash %s, full hash %s", after, got)
	}
	if got := root.Clone().StateHash(); got != before {
		t.Fatalf("the root moved: a new clone hashes %s, want %s", got, before)
	}
	o.Return = nil
	u.Address = root.Users[u.ID].Address
	if got := c.StateHash(); got != before {
		t.Fatalf("undoing the changes gives hash %s, want %s", got, before)
	}
}

// The equal functions of StateHash list every field: a new field must be
// added to them too.
func TestStateHash_EqualFunctionsCoverFields(t *testing.T) {
	for _, c := range []struct {
		v    any
		want int
	}{{User{}, 6}, {PaymentMethod{}, 5}, {Product{}, 3}, {Item{}, 4}, {OrderItem{}, 5}, {Order{}, 10}, {ReturnRequest{}, 3}, {ExchangeRequest{}, 4}} {
		n := 0
		for i := range reflect.TypeOf(c.v).NumField() {
			if reflect.TypeOf(c.v).Field(i).IsExported() {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%T has %d fields, equal functions know %d: update hash.go", c.v, n, c.want)
		}
	}
}

// BenchmarkStateHash measures the state hash of a clone of the initial
// database with one order changed, as after an episode.
func BenchmarkStateHash(b *testing.B) {
	c := InitialDB()
	for _, o := range c.Orders {
		o.Status = StatusCancelled
		break
	}
	for b.Loop() {
		_ = c.StateHash()
	}
}

// BenchmarkStateHash_Full measures the hash of a database that is not a
// clone: every entity is encoded.
func BenchmarkStateHash_Full(b *testing.B) {
	db := GenerateDB(Seed)
	for b.Loop() {
		_ = db.StateHash()
	}
}

// BenchmarkClone measures a fresh environment's copy of the initial
// database.
func BenchmarkClone(b *testing.B) {
	db := GenerateDB(Seed)
	for b.Loop() {
		_ = db.Clone()
	}
}

// The items of a return are a set: returning A and B hashes as returning
// B and A (Order.StateForm), and returning A alone does not (#21).
func TestStateHash_ReturnItemsAreASet(t *testing.T) {
	db := initialDB()
	var order *Order
	for _, id := range sortedKeys(db.Orders) {
		if o := db.Orders[id]; o.Status == StatusDelivered && len(o.Items) >= 2 && o.Items[0].ItemID != o.Items[1].ItemID {
			order = o
			break
		}
	}
	if order == nil {
		t.Fatal("no delivered order with two items")
	}
	pm := order.PaymentHistory[0].PaymentMethodID
	hashAfter := func(items ...string) string {
		b, _ := json.Marshal(map[string]any{"order_id": order.ID, "item_ids": items, "payment_method_id": pm})
		env := New().NewEnvironment()
		if _, err := env.Call(ToolReturnItems, b); err != nil {
			t.Fatal(err)
		}
		return env.Hash()
	}
	a, b := order.Items[0].ItemID, order.Items[1].ItemID
	want := hashAfter(a, b)
	if got := hashAfter(b, a); got != want {
		t.Error("return items in another order hash differently")
	}
	if got := hashAfter(a); got == want {
		t.Error("returning one item hashes as returning two")
	}
}
