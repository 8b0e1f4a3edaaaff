package retail

import (
	"encoding/json"
	"testing"

	"github.com/emobench/emobench/sim"
)

func hashOf(db *DB) string { return sim.NewStateEnv(db, Tools()).Hash() }

func TestGenerateDB_Deterministic(t *testing.T) {
	a, b, c := hashOf(GenerateDB(1)), hashOf(GenerateDB(1)), hashOf(GenerateDB(2))
	if a != b {
		t.Errorf("GenerateDB(1) hashes %s and %s, want equal", a, b)
	}
	if a == c {
		t.Errorf("GenerateDB(1) and GenerateDB(2) hash equally (%s)", a)
	}
}

func TestGenerateDB_Shape(t *testing.T) {
	db := GenerateDB(Seed)
	if got, want := len(db.Users), NumUsers; got != want {
		t.Errorf("users = %d, want %d", got, want)
	}
	if got, want := len(db.Products), len(catalog); got != want {
		t.Errorf("products = %d, want %d", got, want)
	}
	if got, want := len(db.Orders), NumOrders; got != want {
		t.Errorf("orders = %d, want %d", got, want)
	}
	status := map[string]int{}
	for _, o := range db.Orders {
		status[o.Status]++
		if _, ok := db.Users[o.UserID]; !ok {
			t.Errorf("order %s: unknown user %s", o.ID, o.UserID)
		}
		if len(o.Items) == 0 || o.PaymentMethodID() == "" {
			t.Errorf("order %s: no items or no payment", o.ID)
		}
	}
	for _, s := range []string{StatusPending, StatusProcessed, StatusDelivered, StatusCancelled} {
		if status[s] == 0 {
			t.Errorf("no %s order", s)
		}
	}
	for _, u := range db.Users {
		if len(u.Orders) == 0 || len(u.PaymentMethods) == 0 {
			t.Errorf("user %s: %d orders, %d payment methods; want some of each", u.ID, len(u.Orders), len(u.PaymentMethods))
		}
	}
}

func TestDB_Clone(t *testing.T) {
	db := GenerateDB(Seed)
	want := hashOf(db)
	c := db.Clone()
	if got := hashOf(c); got != want {
		t.Fatalf("clone hash = %s, want %s", got, want)
	}
	// Change every kind of nested value of the clone; db must not move.
	for _, u := range c.Users {
		u.Orders[0] = "x"
		for _, pm := range u.PaymentMethods {
			if pm.Balance != nil {
				*pm.Balance++
			}
		}
	}
	for _, p := range c.Products {
		for _, it := range p.Variants {
			it.Options = map[string]string{"color": "x"}
			it.Price++
		}
	}
	for _, o := range c.Orders {
		o.Items[0].Options = map[string]string{"x": "x"}
		o.Items[0].Price++
		o.PaymentHistory[0].Amount++
	}
	if got := hashOf(db); got != want {
		t.Fatalf("changing the clone changed the original")
	}
}

func TestDB_JSONRoundTrip(t *testing.T) {
	db := GenerateDB(Seed)
	b, err := json.Marshal(db)
	if err != nil {
		t.Fatal(err)
	}
	var back DB
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := hashOf(&back), hashOf(db); got != want {
		t.Fatalf("round-trip hash = %s, want %s", got, want)
	}
}

func TestMoney_String(t *testing.T) {
	for _, c := range []struct {
		m    Money
		want string
	}{{5404, "54.04"}, {5400, "54.00"}, {5, "0.05"}, {0, "0.00"}, {-350, "-3.50"}} {
		if got := c.m.String(); got != c.want {
			t.Errorf("Money(%d) = %q, want %q", int64(c.m), got, c.want)
		}
		var back Money
		if err := json.Unmarshal([]byte(c.want), &back); err != nil || back != c.m {
			t.Errorf("unmarshal %s = %d, %v; want %d", c.want, back, err, c.m)
		}
	}
}
