package retail

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"reflect"
	"slices"
	"sync"

	"github.com/emobench/emobench/sim"
)

// The state hash (sim.StateEnv.Hash calls StateHash) is a sha256 over each
// entity's sha256, so a clone of the initial database encodes only the
// entities a tool changed: the digests of the others come from a private
// snapshot of the database it was cloned from, made once.

// hashBase is a frozen copy of a database with the digest of every entity.
type hashBase struct {
	db                      *DB
	users, products, orders map[string][32]byte
	// keys are the sorted keys of each collection of db.
	userKeys, productKeys, orderKeys []string
}

// hashRoot makes, once, the hashBase of a generated database for its clones.
type hashRoot struct {
	once sync.Once
	base *hashBase
}

func (h *hashRoot) get(db *DB) *hashBase {
	h.once.Do(func() {
		snap := db.clone()
		h.base = &hashBase{db: snap,
			users:       sim.EntityDigests(snap.Users),
			products:    sim.EntityDigests(snap.Products),
			orders:      sim.EntityDigests(snap.Orders),
			userKeys:    sortedKeys(snap.Users),
			productKeys: sortedKeys(snap.Products),
			orderKeys:   sortedKeys(snap.Orders)}
	})
	return h.base
}

// StateHash returns the hex sha256 of db's canonical state: equal states
// give equal hashes, whether or not they were cloned.
func (db *DB) StateHash() string {
	var base hashBase
	if db.base != nil {
		base = *db.base
	} else {
		base.db = &DB{}
	}
	h := sha256.New()
	// A copy-on-write clone shares the entities it did not take with the
	// snapshot, which nothing changes: the same pointer is the same entity.
	sim.HashSection(h, "users", db.Users, base.db.Users, base.users, base.userKeys, sim.SamePointerOr(equalUser))
	sim.HashSection(h, "products", db.Products, base.db.Products, base.products, base.productKeys, sim.SamePointerOr(equalProduct))
	sim.HashSection(h, "orders", db.Orders, base.db.Orders, base.orders, base.orderKeys, sim.SamePointerOr(equalOrder))
	return hex.EncodeToString(h.Sum(nil))
}

// equalUser reports whether a and b encode equally.
func equalUser(a, b *User) bool {
	if a.ID != b.ID || a.Name != b.Name || a.Email != b.Email || a.Address != b.Address ||
		!equalSlice(a.Orders, b.Orders) || len(a.PaymentMethods) != len(b.PaymentMethods) ||
		(a.PaymentMethods == nil) != (b.PaymentMethods == nil) {
		return false
	}
	for id, pa := range a.PaymentMethods {
		pb, ok := b.PaymentMethods[id]
		if !ok || (pa == nil) != (pb == nil) {
			return false
		}
		if pa != nil && (pa.ID != pb.ID || pa.Source != pb.Source || pa.Brand != pb.Brand || pa.LastFour != pb.LastFour ||
			(pa.Balance == nil) != (pb.Balance == nil) || pa.Balance != nil && *pa.Balance != *pb.Balance) {
			return false
		}
	}
	return true
}

// equalProduct reports whether a and b encode equally.
func equalProduct(a, b *Product) bool {
	if a.ID != b.ID || a.Name != b.Name || len(a.Variants) != len(b.Variants) || (a.Variants == nil) != (b.Variants == nil) {
		return false
	}
	for id, va := range a.Variants {
		vb, ok := b.Variants[id]
		if !ok || (va == nil) != (vb == nil) {
			return false
		}
		if va != nil && (va.ID != vb.ID || va.Price != vb.Price || va.Available != vb.Available || !equalMap(va.Options, vb.Options)) {
			return false
		}
	}
	return true
}

// equalOrder reports whether a and b encode equally.
func equalOrder(a, b *Order) bool {
	if a.ID != b.ID || a.UserID != b.UserID || a.Address != b.Address || a.Status != b.Status ||
		a.ItemsModified != b.ItemsModified || a.CancelReason != b.CancelReason ||
		!equalSlice(a.PaymentHistory, b.PaymentHistory) || len(a.Items) != len(b.Items) || (a.Items == nil) != (b.Items == nil) {
		return false
	}
	for i := range a.Items {
		x, y := a.Items[i], b.Items[i]
		if x.Name != y.Name || x.ProductID != y.ProductID || x.ItemID != y.ItemID || x.Price != y.Price || !equalMap(x.Options, y.Options) {
			return false
		}
	}
	if (a.Return == nil) != (b.Return == nil) || (a.Exchange == nil) != (b.Exchange == nil) {
		return false
	}
	if r, s := a.Return, b.Return; r != nil && (r.PaymentMethodID != s.PaymentMethodID || r.Refund != s.Refund || !equalSlice(r.ItemIDs, s.ItemIDs)) {
		return false
	}
	if x, y := a.Exchange, b.Exchange; x != nil && (x.PaymentMethodID != y.PaymentMethodID || x.PriceDifference != y.PriceDifference ||
		!equalSlice(x.ItemIDs, y.ItemIDs) || !equalSlice(x.NewItemIDs, y.NewItemIDs)) {
		return false
	}
	return true
}

// equalSlice is slices.Equal that also tells nil from empty, as JSON does.
func equalSlice[T comparable](a, b []T) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// equalMap is maps.Equal that also tells nil from empty, as JSON does.
func equalMap(a, b map[string]string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return true // the same map, shared by a clone
	}
	return maps.Equal(a, b)
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
