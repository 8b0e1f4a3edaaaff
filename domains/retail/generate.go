package retail

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/emobench/emobench/sim"
)

// Sizes of a generated database, at τ-bench's retail scale.
const (
	NumUsers  = 500
	NumOrders = 1000
)

// Seed is the seed of the initial database every environment starts from.
const Seed uint64 = 20240601

// storeData is what GenerateDB draws from (generate.json): the product
// types, and the users' names, cities (with the first three digits of
// their zip codes), streets and card brands.
type storeData struct {
	Products   []productType `json:"products"`
	FirstNames []string      `json:"first_names"`
	LastNames  []string      `json:"last_names"`
	Cities     []struct {
		City      string `json:"city"`
		State     string `json:"state"`
		ZipPrefix string `json:"zip_prefix"`
	} `json:"cities"`
	Streets    []string `json:"streets"`
	CardBrands []string `json:"card_brands"`
}

// productType is a product type: its name, the price of its cheapest
// variant before noise, the share of its option combinations the store
// carries and its options (one to five, of two to six values). Each
// becomes a Product whose variants are some of its option combinations
// (see GenerateDB).
type productType struct {
	Name    string    `json:"name"`
	Base    sim.Money `json:"base"`
	Keep    float64   `json:"keep"`
	Options []option  `json:"options"`
}

// option is a product option and its values, in the order the generator
// combines them.
type option struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

//go:embed generate.json
var generateJSON []byte

// store is generate.json, decoded once.
var store = sync.OnceValue(func() *storeData {
	d := new(storeData)
	if err := json.Unmarshal(generateJSON, d); err != nil {
		panic("retail: generate.json: " + err.Error()) // embedded: a build bug
	}
	return d
})

// GenerateDB returns a retail database made deterministically from seed
// (math/rand/v2 PCG): NumUsers users with one to three payment methods,
// len(store().Products) products with their variants, and NumOrders orders. Every
// user has at least one order.
func GenerateDB(seed uint64) *DB {
	r := rand.New(rand.NewPCG(seed, 0x7265_7461_696c)) // "retail"
	data := store()
	users, orders := make(map[string]*User, NumUsers), make(map[string]*Order, NumOrders)
	products := make(map[string]*Product, len(data.Products))
	ids := map[string]bool{}
	newID := func(format string, digits int) string {
		for {
			low := int(math.Pow10(digits - 1))
			n := r.IntN(9*low) + low
			id := fmt.Sprintf(format, n)
			if !ids[id] {
				ids[id] = true
				return id
			}
		}
	}

	// Products: a share (productType.Keep) of the option combinations,
	// at least two and at most maxVariants, four in five available.
	var productIDs []string
	for _, c := range data.Products {
		p := &Product{ID: newID("%d", 10), Name: c.Name, Variants: map[string]*Item{}}
		combos := combinations(c.Options)
		r.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
		k := int(c.Keep*float64(len(combos)) + 0.5)
		k = max(2, min(k, maxVariants, len(combos)))
		for _, opts := range combos[:k] {
			it := &Item{
				ID:        newID("%d", 10),
				Options:   opts,
				Price:     c.Base + sim.Money(r.IntN(int(c.Base)/3+1)),
				Available: r.IntN(5) != 0,
			}
			p.Variants[it.ID] = it
		}
		products[p.ID] = p
		productIDs = append(productIDs, p.ID)
	}

	// Users: unique names and emails.
	names := map[string]bool{}
	var userIDs []string
	for len(userIDs) < NumUsers {
		first, last := data.FirstNames[r.IntN(len(data.FirstNames))], data.LastNames[r.IntN(len(data.LastNames))]
		if names[first+" "+last] {
			continue
		}
		names[first+" "+last] = true
		u := &User{
			ID:             fmt.Sprintf("%s_%s_%d", strings.ToLower(first), strings.ToLower(last), 1000+r.IntN(9000)),
			Name:           UserName{First: first, Last: last},
			Email:          fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), r.IntN(100)),
			Address:        randomAddress(r),
			PaymentMethods: map[string]*PaymentMethod{},
			Orders:         []string{},
		}
		// One to three methods, at most one of each source.
		sources := []string{sourceGiftCard, sourcePayPal, sourceCreditCard}
		r.Shuffle(len(sources), func(i, j int) { sources[i], sources[j] = sources[j], sources[i] })
		for _, src := range sources[:1+r.IntN(3)] {
			pm := &PaymentMethod{ID: newID(src+"_%d", 7), Source: src}
			switch src {
			case sourceGiftCard:
				b := sim.Money(r.IntN(40000))
				pm.Balance = &b
			case sourceCreditCard:
				pm.Brand = data.CardBrands[r.IntN(len(data.CardBrands))]
				pm.LastFour = fmt.Sprintf("%04d", r.IntN(10000))
			}
			u.PaymentMethods[pm.ID] = pm
		}
		users[u.ID] = u
		userIDs = append(userIDs, u.ID)
	}

	// Orders: the first NumUsers go one to each user, the rest at random.
	for i := range NumOrders {
		u := users[userIDs[i%NumUsers]]
		if i >= NumUsers {
			u = users[userIDs[r.IntN(NumUsers)]]
		}
		o := &Order{ID: newID(orderIDPrefix+"%d", 7), UserID: u.ID, Address: u.Address}
		picked := slices.Clone(productIDs)
		r.Shuffle(len(picked), func(i, j int) { picked[i], picked[j] = picked[j], picked[i] })
		for _, pid := range picked[:[]int{1, 1, 2, 2, 2, 3, 3, 4, 5}[r.IntN(9)]] {
			p := products[pid]
			variants := slices.Sorted(maps.Keys(p.Variants))
			it := p.Variants[variants[r.IntN(len(variants))]]
			o.Items = append(o.Items, OrderItem{Name: p.Name, ProductID: p.ID, ItemID: it.ID, Options: maps.Clone(it.Options), Price: it.Price})
		}
		methods := slices.Sorted(maps.Keys(u.PaymentMethods))
		pm := methods[r.IntN(len(methods))]
		o.PaymentHistory = []Payment{{Type: transactionPayment, Amount: o.Total(), PaymentMethodID: pm}}
		switch k := r.IntN(20); {
		case k < 7:
			o.Status = StatusPending
		case k < 10:
			o.Status = StatusProcessed
		case k < 18:
			o.Status = StatusDelivered
		default:
			o.Status = StatusCancelled
			o.CancelReason = []string{ReasonNoLongerNeeded, ReasonOrderedByMistake}[r.IntN(2)]
			o.PaymentHistory = append(o.PaymentHistory, Payment{Type: transactionRefund, Amount: o.Total(), PaymentMethodID: pm})
		}
		orders[o.ID] = o
		u.Orders = append(u.Orders, o.ID)
	}
	markEarlierRequests(orders)
	db := &DB{}
	for id, u := range users {
		db.Users.Put(id, u)
	}
	for id, p := range products {
		db.Products.Put(id, p)
	}
	for id, o := range orders {
		db.Orders.Put(id, o)
	}
	return db
}

// maxVariants caps the variants of one product.
const maxVariants = 60

// combinations returns every combination of the options' values, in
// lexicographic order of the values' positions.
func combinations(options []option) []map[string]string {
	out := []map[string]string{{}}
	for _, o := range options {
		next := make([]map[string]string, 0, len(out)*len(o.Values))
		for _, prev := range out {
			for _, v := range o.Values {
				m := maps.Clone(prev)
				m[o.Name] = v
				next = append(next, m)
			}
		}
		out = next
	}
	return out
}

func randomAddress(r *rand.Rand) Address {
	cities, streets := store().Cities, store().Streets
	c := cities[r.IntN(len(cities))]
	a := Address{
		Address1: fmt.Sprintf("%d %s", 10+r.IntN(990), streets[r.IntN(len(streets))]),
		City:     c.City,
		State:    c.State,
		Country:  defaultCountry,
		Zip:      fmt.Sprintf("%s%02d", c.ZipPrefix, r.IntN(100)),
	}
	if r.IntN(3) == 0 {
		a.Address2 = fmt.Sprintf("Apt %d", 1+r.IntN(40))
	}
	return a
}

// markEarlierRequests gives some orders what an earlier conversation
// would have left, so that the requests the store takes once (a change of
// a pending order's items, a return of a delivered order) can be asked a
// second time without an earlier request in the same task: every fourth
// pending order (by id) had its items changed, and every fourth delivered
// order with two items or more has a return of its first item, refunded
// to the method that paid. It takes no random draw, so the rest of the
// data stays as GenerateDB's draws made it.
func markEarlierRequests(orders map[string]*Order) {
	var pending, delivered int
	for _, id := range slices.Sorted(maps.Keys(orders)) {
		o := orders[id]
		switch o.Status {
		case StatusPending:
			pending++
			o.ItemsModified = pending%4 == 0
		case StatusDelivered:
			if len(o.Items) < 2 {
				continue
			}
			if delivered++; delivered%4 == 0 {
				o.Status = StatusReturnRequested
				o.Return = &ReturnRequest{ItemIDs: []string{o.Items[0].ItemID}, PaymentMethodID: o.PaymentMethodID(), Refund: o.Items[0].Price}
			}
		}
	}
}
