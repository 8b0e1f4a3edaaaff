package retail

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Sizes of a generated database.
const (
	NumUsers  = 50
	NumOrders = 100
)

// Seed is the seed of the initial database every environment starts from.
const Seed uint64 = 20240601

type option struct {
	name   string
	values []string
}

type catalogEntry struct {
	name    string
	base    Money // price of the cheapest variant, before noise
	options [2]option
}

// catalog is the store's product types; each becomes a Product whose
// variants are some of the option combinations.
var catalog = []catalogEntry{
	{"desk lamp", 3499, [2]option{{"color", []string{"black", "white", "brass"}}, {"power", []string{"battery", "usb", "plug"}}}},
	{"water bottle", 1899, [2]option{{"capacity", []string{"500ml", "750ml", "1000ml"}}, {"color", []string{"blue", "green", "black", "red"}}}},
	{"backpack", 5499, [2]option{{"color", []string{"navy", "grey", "olive"}}, {"size", []string{"small", "medium", "large"}}}},
	{"running shoes", 8999, [2]option{{"size", []string{"8", "9", "10", "11"}}, {"color", []string{"white", "black", "red"}}}},
	{"coffee maker", 6999, [2]option{{"capacity", []string{"4 cups", "8 cups", "12 cups"}}, {"type", []string{"drip", "pour-over", "espresso"}}}},
	{"wireless headphones", 12999, [2]option{{"color", []string{"black", "white", "blue"}}, {"style", []string{"over-ear", "on-ear", "in-ear"}}}},
	{"yoga mat", 2999, [2]option{{"thickness", []string{"4mm", "6mm", "8mm"}}, {"color", []string{"purple", "teal", "black"}}}},
	{"mechanical keyboard", 9999, [2]option{{"switch", []string{"linear", "tactile", "clicky"}}, {"layout", []string{"full", "tenkeyless", "compact"}}}},
	{"office chair", 18999, [2]option{{"material", []string{"mesh", "leather", "fabric"}}, {"color", []string{"black", "grey", "blue"}}}},
	{"camping tent", 15999, [2]option{{"capacity", []string{"2 person", "4 person", "6 person"}}, {"season", []string{"3 season", "4 season"}}}},
	{"smart watch", 19999, [2]option{{"size", []string{"40mm", "44mm"}}, {"band", []string{"silicone", "leather", "metal"}}}},
	{"blender", 7999, [2]option{{"capacity", []string{"1 liter", "1.5 liters", "2 liters"}}, {"color", []string{"black", "silver", "red"}}}},
	{"rain jacket", 8499, [2]option{{"size", []string{"s", "m", "l", "xl"}}, {"color", []string{"red", "black", "green"}}}},
	{"bookshelf", 11999, [2]option{{"material", []string{"oak", "pine", "walnut"}}, {"shelves", []string{"3", "4", "5"}}}},
	{"electric kettle", 3999, [2]option{{"material", []string{"steel", "glass", "plastic"}}, {"capacity", []string{"1 liter", "1.5 liters", "1.7 liters"}}}},
	{"sunglasses", 4999, [2]option{{"frame", []string{"metal", "plastic", "acetate"}}, {"lens", []string{"polarized", "tinted", "mirrored"}}}},
	{"air purifier", 14999, [2]option{{"coverage", []string{"small room", "medium room", "large room"}}, {"filter", []string{"hepa", "carbon"}}}},
	{"skateboard", 6499, [2]option{{"deck", []string{"maple", "bamboo"}}, {"length", []string{"28 inch", "31 inch", "33 inch"}}}},
	{"gaming mouse", 4499, [2]option{{"color", []string{"black", "white", "pink"}}, {"connectivity", []string{"wired", "wireless"}}}},
	{"garden hose", 2499, [2]option{{"length", []string{"25 ft", "50 ft", "100 ft"}}, {"material", []string{"rubber", "vinyl", "latex"}}}},
}

var (
	firstNames = []string{
		"Amara", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonah",
		"Keiko", "Liam", "Maya", "Nikolai", "Olivia", "Pedro", "Quinn", "Rosa", "Samir", "Tessa",
		"Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe", "Aditi", "Felix", "Leila", "Marcus",
	}
	lastNames = []string{
		"Abara", "Brennan", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gallagher", "Haddad", "Ito", "Jovanovic",
		"Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quintero", "Rahman", "Silva", "Takahashi",
		"Ueda", "Varga", "Whitfield", "Xu", "Yilmaz", "Zimmer", "Achebe", "Bianchi", "Costa", "Delgado",
	}
	cities = []struct{ city, state, zipPrefix string }{
		{"Portland", "OR", "972"}, {"Denver", "CO", "802"}, {"Austin", "TX", "787"}, {"Madison", "WI", "537"},
		{"Raleigh", "NC", "276"}, {"Tucson", "AZ", "857"}, {"Columbus", "OH", "432"}, {"Boise", "ID", "837"},
		{"Richmond", "VA", "232"}, {"Omaha", "NE", "681"}, {"Albany", "NY", "122"}, {"Savannah", "GA", "314"},
		{"Spokane", "WA", "992"}, {"Burlington", "VT", "054"}, {"Santa Fe", "NM", "875"}, {"Duluth", "MN", "558"},
	}
	streets = []string{
		"Maple Avenue", "Cedar Street", "Birch Lane", "Harbor Road", "Willow Way", "Summit Drive",
		"Orchard Street", "Lakeview Terrace", "Juniper Court", "Mill Road", "Aspen Place", "River Street",
		"Chestnut Boulevard", "Meadow Lane", "Granite Avenue", "Foxglove Drive",
	}
	cardBrands = []string{"visa", "mastercard", "amex", "discover"}
)

// GenerateDB returns a retail database made deterministically from seed
// (math/rand/v2 PCG): NumUsers users with one to three payment methods,
// len(catalog) products with their variants, and NumOrders orders. Every
// user has at least one order.
func GenerateDB(seed uint64) *DB {
	r := rand.New(rand.NewPCG(seed, 0x7265_7461_696c)) // "retail"
	db := &DB{
		Users:    make(map[string]*User, NumUsers),
		Products: make(map[string]*Product, len(catalog)),
		Orders:   make(map[string]*Order, NumOrders),
	}
	ids := map[string]bool{}
	newID := func(format string, digits int) string {
		for {
			n := r.IntN(9*pow10(digits-1)) + pow10(digits-1)
			id := fmt.Sprintf(format, n)
			if !ids[id] {
				ids[id] = true
				return id
			}
		}
	}

	// Products: every option combination, each kept with probability 3/4,
	// and at least two variants per product.
	var productIDs []string
	for _, c := range catalog {
		p := &Product{ID: newID("%d", 10), Name: c.name, Variants: map[string]*Item{}}
		for len(p.Variants) < 2 {
			for _, v0 := range c.options[0].values {
				for _, v1 := range c.options[1].values {
					if r.IntN(4) == 0 || hasVariant(p, c, v0, v1) {
						continue
					}
					it := &Item{
						ID:        newID("%d", 10),
						Options:   map[string]string{c.options[0].name: v0, c.options[1].name: v1},
						Price:     c.base + Money(r.IntN(c.base.cents()/3+1)),
						Available: r.IntN(5) != 0,
					}
					p.Variants[it.ID] = it
				}
			}
		}
		db.Products[p.ID] = p
		productIDs = append(productIDs, p.ID)
	}

	// Users: unique names and emails.
	names := map[string]bool{}
	var userIDs []string
	for len(userIDs) < NumUsers {
		first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
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
				b := Money(r.IntN(40000))
				pm.Balance = &b
			case sourceCreditCard:
				pm.Brand = cardBrands[r.IntN(len(cardBrands))]
				pm.LastFour = fmt.Sprintf("%04d", r.IntN(10000))
			}
			u.PaymentMethods[pm.ID] = pm
		}
		db.Users[u.ID] = u
		userIDs = append(userIDs, u.ID)
	}

	// Orders: the first NumUsers go one to each user, the rest at random.
	for i := range NumOrders {
		u := db.Users[userIDs[i%NumUsers]]
		if i >= NumUsers {
			u = db.Users[userIDs[r.IntN(NumUsers)]]
		}
		o := &Order{ID: newID(orderIDPrefix+"%d", 7), UserID: u.ID, Address: u.Address}
		picked := slices.Clone(productIDs)
		r.Shuffle(len(picked), func(i, j int) { picked[i], picked[j] = picked[j], picked[i] })
		for _, pid := range picked[:1+r.IntN(3)] {
			p := db.Products[pid]
			variants := sortedKeys(p.Variants)
			it := p.Variants[variants[r.IntN(len(variants))]]
			o.Items = append(o.Items, OrderItem{Name: p.Name, ProductID: p.ID, ItemID: it.ID, Options: cloneOptions(it.Options), Price: it.Price})
		}
		methods := sortedKeys(u.PaymentMethods)
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
		db.Orders[o.ID] = o
		u.Orders = append(u.Orders, o.ID)
	}
	return db
}

func hasVariant(p *Product, c catalogEntry, v0, v1 string) bool {
	for _, it := range p.Variants {
		if it.Options[c.options[0].name] == v0 && it.Options[c.options[1].name] == v1 {
			return true
		}
	}
	return false
}

func (m Money) cents() int { return int(m) }

func pow10(n int) int {
	p := 1
	for range n {
		p *= 10
	}
	return p
}

func randomAddress(r *rand.Rand) Address {
	c := cities[r.IntN(len(cities))]
	a := Address{
		Address1: fmt.Sprintf("%d %s", 10+r.IntN(990), streets[r.IntN(len(streets))]),
		City:     c.city,
		State:    c.state,
		Country:  defaultCountry,
		Zip:      fmt.Sprintf("%s%02d", c.zipPrefix, r.IntN(100)),
	}
	if r.IntN(3) == 0 {
		a.Address2 = fmt.Sprintf("Apt %d", 1+r.IntN(40))
	}
	return a
}
