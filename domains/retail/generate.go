package retail

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/emobench/emobench/sim"
)

// Sizes of a generated database, at τ-bench's retail scale.
const (
	NumUsers  = 500
	NumOrders = 1000
)

// Seed is the seed of the initial database every environment starts from.
const Seed uint64 = 20240601

type option struct {
	name   string
	values []string
}

// catalogEntry is a product type: its name, the price of its cheapest
// variant before noise, its options (one to five, of two to six values)
// and the share of the option combinations the store carries.
type catalogEntry struct {
	name    string
	base    sim.Money
	keep    float64
	options []option
}

func opt(name string, values ...string) option { return option{name, values} }

// catalog is the store's product types; each becomes a Product whose
// variants are some of its option combinations (see GenerateDB).
var catalog = []catalogEntry{
	{"desk lamp", 3499, 0.7, []option{opt("color", "black", "white", "brass", "silver"), opt("power", "battery", "usb", "plug"), opt("brightness", "low", "medium", "high")}},
	{"water bottle", 1899, 0.5, []option{opt("capacity", "500ml", "750ml", "1000ml"), opt("material", "stainless steel", "plastic", "glass"), opt("color", "blue", "green", "black", "red")}},
	{"backpack", 5499, 0.4, []option{opt("color", "navy", "grey", "olive", "black"), opt("size", "small", "medium", "large"), opt("material", "nylon", "leather", "polyester"), opt("compartment", "laptop", "hydration", "camera")}},
	{"running shoes", 8999, 0.6, []option{opt("size", "7", "8", "9", "10", "11", "12"), opt("color", "white", "black", "red", "yellow"), opt("material", "mesh", "synthetic")}},
	{"coffee maker", 6999, 0.6, []option{opt("color", "black", "stainless steel", "white"), opt("capacity", "1 cup", "4 cups", "8 cups", "12 cups"), opt("type", "drip", "french press", "espresso", "pour-over")}},
	{"wireless headphones", 12999, 0.7, []option{opt("color", "black", "white", "blue"), opt("style", "over-ear", "on-ear", "in-ear")}},
	{"yoga mat", 2999, 0.8, []option{opt("thickness", "4mm", "6mm", "8mm"), opt("material", "PVC", "natural rubber", "TPE"), opt("color", "purple", "teal", "black", "pink")}},
	{"mechanical keyboard", 9999, 0.45, []option{opt("switch type", "linear", "tactile", "clicky"), opt("backlight", "none", "white", "RGB"), opt("size", "full size", "80%", "60%")}},
	{"office chair", 18999, 0.3, []option{opt("material", "mesh", "leather", "fabric"), opt("color", "black", "gray", "blue", "red"), opt("armrest", "none", "fixed", "adjustable"), opt("backrest height", "standard", "high-back")}},
	{"camping tent", 15999, 0.8, []option{opt("capacity", "2-person", "4-person", "6-person"), opt("season", "3-season", "4-season"), opt("color", "green", "orange", "blue")}},
	{"smart watch", 19999, 0.6, []option{opt("color", "black", "silver", "gold"), opt("band", "silicone", "leather", "metal"), opt("display", "AMOLED", "LCD")}},
	{"blender", 7999, 0.7, []option{opt("capacity", "1 liter", "1.5 liters", "2 liters"), opt("material", "plastic", "glass", "stainless steel"), opt("speed settings", "low", "medium", "high")}},
	{"rain jacket", 8499, 0.75, []option{opt("size", "S", "M", "L", "XL", "XXL"), opt("color", "red", "black", "green", "yellow")}},
	{"bookshelf", 11999, 0.4, []option{opt("material", "wood", "metal", "glass"), opt("color", "white", "brown", "black"), opt("height", "3 ft", "4 ft", "5 ft", "6 ft")}},
	{"electric kettle", 3999, 0.6, []option{opt("capacity", "1L", "1.5L", "2L"), opt("material", "stainless steel", "glass", "plastic"), opt("color", "white", "black", "silver")}},
	{"sunglasses", 4999, 0.5, []option{opt("frame color", "black", "brown", "silver"), opt("lens color", "black", "green", "brown", "blue"), opt("lens type", "polarized", "non-polarized"), opt("frame material", "metal", "plastic", "acetate")}},
	{"air purifier", 14999, 0.7, []option{opt("room size", "small", "medium", "large"), opt("filter type", "HEPA", "carbon", "ionic"), opt("features", "quiet operation", "smart sensors", "night mode")}},
	{"skateboard", 6499, 0.3, []option{opt("deck material", "maple", "bamboo", "plastic"), opt("length", "28 inch", "31 inch", "34 inch"), opt("design", "plain", "graphic", "custom")}},
	{"gaming mouse", 4499, 0.8, []option{opt("color", "black", "white", "RGB"), opt("sensor type", "optical", "laser"), opt("connectivity", "wired", "wireless")}},
	{"garden hose", 2499, 0.8, []option{opt("length", "25ft", "50ft", "100ft"), opt("material", "rubber", "vinyl", "latex"), opt("color", "green", "blue", "black")}},
	{"t-shirt", 1999, 0.35, []option{opt("color", "blue", "red", "black", "white", "purple"), opt("size", "S", "M", "L", "XL", "XXL"), opt("material", "cotton", "polyester"), opt("style", "crew neck", "v-neck")}},
	{"laptop", 99999, 0.12, []option{opt("screen size", "13-inch", "15-inch", "17-inch"), opt("processor", "i5", "i7", "i9"), opt("ram", "8GB", "16GB", "32GB"), opt("storage", "256GB SSD", "512GB SSD", "1TB SSD"), opt("color", "silver", "space grey", "black")}},
	{"e-reader", 11999, 0.8, []option{opt("screen size", "6-inch", "7-inch", "8-inch"), opt("connectivity", "Wi-Fi", "Wi-Fi + Cellular"), opt("storage", "8GB", "32GB")}},
	{"smart thermostat", 15999, 0.9, []option{opt("compatibility", "Apple HomeKit", "Google Assistant", "Amazon Alexa"), opt("color", "white", "black", "stainless steel")}},
	{"perfume", 7999, 0.7, []option{opt("scent family", "woody", "citrus", "oriental", "fresh"), opt("size", "30ml", "50ml", "100ml"), opt("gender", "men", "women", "unisex")}},
	{"digital camera", 59999, 0.5, []option{opt("resolution", "20MP", "24MP", "30MP"), opt("zoom", "3x", "5x", "10x"), opt("storage", "SD card", "CF card")}},
	{"hiking boots", 13999, 0.45, []option{opt("size", "7", "8", "9", "10", "11", "12"), opt("material", "leather", "synthetic"), opt("waterproof", "yes", "no")}},
	{"tablet", 34999, 0.35, []option{opt("screen size", "8-inch", "10-inch", "12-inch"), opt("storage", "32GB", "64GB", "128GB", "256GB"), opt("color", "black", "silver", "gold")}},
	{"action camera", 24999, 0.6, []option{opt("resolution", "1080p", "4K", "5K"), opt("waterproof", "yes", "no"), opt("color", "black", "silver")}},
	{"vacuum cleaner", 22999, 0.55, []option{opt("type", "upright", "canister", "robotic", "cordless stick"), opt("bag type", "bagged", "bagless"), opt("features", "pet hair removal", "HEPA filter", "cordless")}},
	{"bluetooth speaker", 7999, 0.6, []option{opt("color", "black", "blue", "red", "green"), opt("battery life", "10 hours", "20 hours"), opt("water resistance", "yes", "no")}},
	{"jigsaw puzzle", 1999, 0.5, []option{opt("pieces", "500", "1000", "1500", "2000"), opt("theme", "animals", "art", "fantasy", "landscape"), opt("difficulty level", "beginner", "intermediate", "expert")}},
	{"cycling helmet", 6999, 0.7, []option{opt("size", "S", "M", "L"), opt("color", "black", "white", "red", "blue"), opt("ventilation", "low", "medium", "high")}},
	{"electric toothbrush", 6499, 0.8, []option{opt("color", "white", "black", "blue"), opt("speed settings", "low", "high"), opt("battery type", "rechargeable", "AA batteries")}},
	{"wristwatch", 19999, 0.7, []option{opt("strap material", "leather", "metal", "silicone"), opt("dial color", "black", "white", "blue")}},
	{"tea kettle", 4999, 0.7, []option{opt("material", "stainless steel", "glass", "ceramic"), opt("capacity", "1 liter", "1.5 liters", "2 liters"), opt("stovetop compatibility", "gas", "induction", "electric")}},
	{"fleece jacket", 6999, 0.7, []option{opt("size", "S", "M", "L", "XL"), opt("color", "navy", "black", "red"), opt("zipper", "full", "half")}},
	{"portable charger", 3999, 0.7, []option{opt("capacity", "5000mAh", "10000mAh", "20000mAh"), opt("output", "USB-A", "USB-C", "wireless"), opt("color", "black", "white", "blue")}},
	{"indoor security camera", 8999, 0.7, []option{opt("resolution", "1080p", "2K", "4K"), opt("field of view", "110 degrees", "130 degrees", "160 degrees"), opt("connectivity", "Wi-Fi", "Ethernet")}},
	{"desk", 24999, 0.5, []option{opt("size", "small", "medium", "large"), opt("material", "wood", "glass", "laminate"), opt("color", "black", "white", "brown")}},
	{"grill", 29999, 0.6, []option{opt("type", "charcoal", "gas", "electric"), opt("size", "portable", "medium", "large"), opt("features", "rotisserie", "side burner", "none")}},
	{"notebook", 899, 1, []option{opt("size", "A4", "A5"), opt("cover type", "hard cover", "soft cover")}},
	{"makeup kit", 4999, 0.6, []option{opt("skin tone", "light", "medium", "dark"), opt("kit size", "basic", "professional"), opt("brand", "Brand A", "Brand B", "Brand C")}},
	{"luggage set", 21999, 0.6, []option{opt("piece count", "2-piece", "3-piece", "4-piece"), opt("color", "black", "blue", "red", "silver"), opt("material", "hardshell", "softshell")}},
	{"pet bed", 3999, 0.8, []option{opt("size", "small", "medium", "large"), opt("material", "polyester", "fleece", "memory foam"), opt("color", "grey", "beige", "brown")}},
	{"headphone stand", 1999, 1, []option{opt("material", "aluminum", "wood", "plastic")}},
	{"espresso machine", 44999, 0.45, []option{opt("pressure", "9 bar", "15 bar", "19 bar"), opt("capacity", "1L", "1.5L", "2L"), opt("type", "manual", "automatic", "capsule")}},
	{"dumbbell set", 14999, 0.6, []option{opt("weight range", "5-25 lbs", "30-50 lbs", "55-75 lbs"), opt("material", "iron", "rubber", "urethane"), opt("set type", "fixed", "adjustable")}},
	{"wall clock", 2999, 0.7, []option{opt("diameter", "10 inches", "12 inches", "14 inches"), opt("color", "black", "white", "wood"), opt("type", "analog", "digital")}},
	{"gaming chair", 27999, 0.8, []option{opt("color", "black", "red", "blue"), opt("recline", "135 degrees", "180 degrees")}},
	{"usb hub", 2499, 1, []option{opt("ports", "4 ports", "7 ports", "10 ports")}},
	{"mountain bike", 64999, 0.4, []option{opt("frame size", "small", "medium", "large"), opt("wheel size", "27.5 inch", "29 inch"), opt("suspension", "hardtail", "full"), opt("color", "black", "red", "green")}},
}

var (
	firstNames = []string{
		"Amara", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonah",
		"Keiko", "Liam", "Maya", "Nikolai", "Olivia", "Pedro", "Quinn", "Rosa", "Samir", "Tessa",
		"Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe", "Aditi", "Felix", "Leila", "Marcus",
		"Noor", "Oscar", "Priya", "Rafael", "Sofia", "Tariq", "Uma", "Victor", "Wanda", "Yara",
		"Anders", "Beatriz", "Caleb", "Daria", "Emeka", "Fatima", "Gideon", "Hana", "Ivan", "Julia",
	}
	lastNames = []string{
		"Abara", "Brennan", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gallagher", "Haddad", "Ito", "Jovanovic",
		"Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quintero", "Rahman", "Silva", "Takahashi",
		"Ueda", "Varga", "Whitfield", "Xu", "Yilmaz", "Zimmer", "Achebe", "Bianchi", "Costa", "Delgado",
		"Novak", "Olsen", "Park", "Reyes", "Sato", "Thompson", "Vance", "Walsh", "Young", "Zhang",
		"Alvarez", "Becker", "Chen", "Dlamini", "Evans", "Ferreira", "Gupta", "Horvat", "Iqbal", "Jensen",
	}
	cities = []struct{ city, state, zipPrefix string }{
		{"Portland", "OR", "972"}, {"Denver", "CO", "802"}, {"Austin", "TX", "787"}, {"Madison", "WI", "537"},
		{"Raleigh", "NC", "276"}, {"Tucson", "AZ", "857"}, {"Columbus", "OH", "432"}, {"Boise", "ID", "837"},
		{"Richmond", "VA", "232"}, {"Omaha", "NE", "681"}, {"Albany", "NY", "122"}, {"Savannah", "GA", "314"},
		{"Spokane", "WA", "992"}, {"Burlington", "VT", "054"}, {"Santa Fe", "NM", "875"}, {"Duluth", "MN", "558"},
		{"Fresno", "CA", "937"}, {"Tampa", "FL", "336"}, {"Louisville", "KY", "402"}, {"Providence", "RI", "029"},
		{"Anchorage", "AK", "995"}, {"Charleston", "SC", "294"}, {"Des Moines", "IA", "503"}, {"Reno", "NV", "895"},
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
	users, products, orders := make(map[string]*User, NumUsers), make(map[string]*Product, len(catalog)), make(map[string]*Order, NumOrders)
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

	// Products: a share (catalogEntry.keep) of the option combinations,
	// at least two and at most maxVariants, four in five available.
	var productIDs []string
	for _, c := range catalog {
		p := &Product{ID: newID("%d", 10), Name: c.name, Variants: map[string]*Item{}}
		combos := combinations(c.options)
		r.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
		k := int(c.keep*float64(len(combos)) + 0.5)
		k = max(2, min(k, maxVariants, len(combos)))
		for _, opts := range combos[:k] {
			it := &Item{
				ID:        newID("%d", 10),
				Options:   opts,
				Price:     c.base + sim.Money(r.IntN(int(c.base)/3+1)),
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
				b := sim.Money(r.IntN(40000))
				pm.Balance = &b
			case sourceCreditCard:
				pm.Brand = cardBrands[r.IntN(len(cardBrands))]
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
		next := make([]map[string]string, 0, len(out)*len(o.values))
		for _, prev := range out {
			for _, v := range o.values {
				m := maps.Clone(prev)
				m[o.name] = v
				next = append(next, m)
			}
		}
		out = next
	}
	return out
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
