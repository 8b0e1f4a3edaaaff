package retail

import (
	"testing"
)

func TestGenerateDB(t *testing.T) {
	db := GenerateDB(Seed)
	if a, b, c := newEnv(db).Hash(), newEnv(GenerateDB(Seed)).Hash(), newEnv(GenerateDB(Seed+1)).Hash(); a != b || a == c {
		t.Errorf("GenerateDB hashes: same seed %s and %s, another seed %s: want equal, then different", a, b, c)
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{{"users", db.Users.Len(), NumUsers}, {"products", db.Products.Len(), len(store().Products)}, {"orders", db.Orders.Len(), NumOrders}} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
		}
	}
	status := map[string]int{}
	for _, o := range db.Orders.All() {
		status[o.Status]++
		if !db.Users.Has(o.UserID) || len(o.Items) == 0 || o.PaymentMethodID() == "" {
			t.Errorf("order %s: user %s unknown, no items or no payment", o.ID, o.UserID)
		}
	}
	for _, s := range []string{StatusPending, StatusProcessed, StatusDelivered, StatusCancelled, StatusReturnRequested} {
		if status[s] == 0 {
			t.Errorf("no %s order", s)
		}
	}
	for _, u := range db.Users.All() {
		if len(u.Orders) == 0 || len(u.PaymentMethods) == 0 {
			t.Errorf("user %s: %d orders, %d payment methods; want some of each", u.ID, len(u.Orders), len(u.PaymentMethods))
		}
	}
}
