package telecom

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/emobench/emobench/sim"
)

// Sizes of a generated database.
const (
	NumCustomers = 500
	NumOutages   = 40
)

// Seed is the seed of the initial database every environment starts from.
const Seed uint64 = 20250610

// lateFee is the fee an overdue bill carries.
const lateFee sim.Money = 1000

// plans is the rate plan catalog.
var plans = []Plan{
	{ID: "basic_talk_text", Name: "Basic Talk & Text", MonthlyPrice: 1500, DataGB: 1, MaxLines: 1, Kind: "prepaid"},
	{ID: "prepaid_5gb", Name: "Prepaid 5GB", MonthlyPrice: 2500, DataGB: 5, MaxLines: 1, Kind: "prepaid"},
	{ID: "prepaid_15gb", Name: "Prepaid 15GB", MonthlyPrice: 3500, DataGB: 15, MaxLines: 1, Kind: "prepaid"},
	{ID: "prepaid_unlimited", Name: "Prepaid Unlimited", MonthlyPrice: 5000, DataGB: 0, MaxLines: 1, Kind: "prepaid"},
	{ID: "essential_10gb", Name: "Essential 10GB", MonthlyPrice: 4000, DataGB: 10, MaxLines: 2, Kind: "postpaid"},
	{ID: "essential_25gb", Name: "Essential 25GB", MonthlyPrice: 5000, DataGB: 25, MaxLines: 4, Kind: "postpaid"},
	{ID: "unlimited_starter", Name: "Unlimited Starter", MonthlyPrice: 6000, DataGB: 0, MaxLines: 5, Kind: "postpaid"},
	{ID: "unlimited_plus", Name: "Unlimited Plus", MonthlyPrice: 7500, DataGB: 0, MaxLines: 5, Kind: "postpaid", ContractMonths: 24},
	{ID: "unlimited_premium", Name: "Unlimited Premium", MonthlyPrice: 9000, DataGB: 0, MaxLines: 5, Kind: "postpaid", ContractMonths: 24},
	{ID: "family_share_50gb", Name: "Family Share 50GB", MonthlyPrice: 11000, DataGB: 50, MaxLines: 6, Kind: "postpaid", ContractMonths: 12},
	{ID: "unlimited_duo", Name: "Unlimited Duo", MonthlyPrice: 4500, DataGB: 0, MaxLines: 2, Kind: "postpaid"},
	{ID: "business_pro", Name: "Business Pro", MonthlyPrice: 8500, DataGB: 0, MaxLines: 10, Kind: "postpaid", ContractMonths: 24},
	{ID: "data_only_tablet", Name: "Tablet Data 20GB", MonthlyPrice: 2000, DataGB: 20, MaxLines: 1, Kind: "postpaid"},
}

// features is the add-on catalog.
var features = []Feature{
	{ID: "international_roaming", Name: "International Roaming", MonthlyPrice: 1000},
	{ID: "international_calling", Name: "International Calling", MonthlyPrice: 500},
	{ID: "mobile_hotspot", Name: "Mobile Hotspot 15GB", MonthlyPrice: 1000},
	{ID: "device_protection", Name: "Device Protection", MonthlyPrice: 1500},
	{ID: "hd_streaming", Name: "HD Video Streaming", MonthlyPrice: 800},
	{ID: "visual_voicemail", Name: "Visual Voicemail", MonthlyPrice: 300},
}

var (
	firstNames = []string{
		"Amara", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonah",
		"Keiko", "Liam", "Maya", "Nikolai", "Olivia", "Pedro", "Quinn", "Rosa", "Samir", "Tessa",
		"Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe", "Aditi", "Felix", "Leila", "Marcus",
		"Noor", "Oscar", "Priya", "Rafael", "Sofia", "Tariq", "Uma", "Victor", "Wanda", "Yara",
		"Harold", "Dorothy", "Walter", "Evelyn", "Frank", "Margaret", "George", "Ruth", "Arthur", "Lillian",
	}
	lastNames = []string{
		"Abara", "Brennan", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gallagher", "Haddad", "Ito", "Jovanovic",
		"Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quintero", "Rahman", "Silva", "Takahashi",
		"Ueda", "Varga", "Whitfield", "Xu", "Yilmaz", "Zimmer", "Achebe", "Bianchi", "Costa", "Delgado",
		"Novak", "Olsen", "Park", "Reyes", "Sato", "Thompson", "Vance", "Walsh", "Young", "Zhang",
	}
	cities = []struct{ city, state, zipPrefix, area string }{
		{"Portland", "OR", "972", "503"}, {"Denver", "CO", "802", "303"}, {"Austin", "TX", "787", "512"},
		{"Madison", "WI", "537", "608"}, {"Raleigh", "NC", "276", "919"}, {"Tucson", "AZ", "857", "520"},
		{"Columbus", "OH", "432", "614"}, {"Boise", "ID", "837", "208"}, {"Richmond", "VA", "232", "804"},
		{"Omaha", "NE", "681", "402"}, {"Albany", "NY", "122", "518"}, {"Savannah", "GA", "314", "912"},
		{"Spokane", "WA", "992", "509"}, {"Fresno", "CA", "937", "559"}, {"Tampa", "FL", "336", "813"},
		{"Reno", "NV", "895", "775"},
	}
	streets = []string{
		"Maple Avenue", "Cedar Street", "Birch Lane", "Harbor Road", "Willow Way", "Summit Drive",
		"Orchard Street", "Lakeview Terrace", "Juniper Court", "Mill Road", "Aspen Place", "River Street",
	}
	deviceModels = []string{
		"Pixel 8", "Pixel 7a", "iPhone 15", "iPhone 14", "iPhone SE", "Galaxy S24", "Galaxy A54",
		"Moto G Power", "OnePlus 12", "Galaxy Tab A9", "iPad 10th gen",
	}
	cardBrands = []string{"visa", "mastercard", "amex", "discover"}
	banks      = []string{"chase", "wells fargo", "credit union"}
	issues     = []string{"no signal", "dropped calls", "slow data", "cannot send texts"}
)

// zipsPerCity is how many zip codes of each city customers live in.
const zipsPerCity = 4

func zipOf(cityIndex, k int) string {
	return fmt.Sprintf("%s%02d", cities[cityIndex].zipPrefix, 10+k*7)
}

// GenerateDB returns a telecom database made deterministically from seed
// (math/rand/v2 PCG): the plan and feature catalogs, NumOutages outages
// over the service area's zip codes in the 60 days before Today, and
// NumCustomers customers with one to four lines, a device on each, four
// monthly bills with their payments, and some earlier credits,
// arrangements, diagnostics and tickets.
func GenerateDB(seed uint64) *DB {
	r := rand.New(rand.NewPCG(seed, 0x74656c65636f6d)) // "telecom"
	db := &DB{}
	for _, p := range plans {
		db.Plans.Put(p.ID, &p)
	}
	for _, f := range features {
		db.Features.Put(f.ID, &f)
	}
	today := mustDate(Today)
	day := func(t time.Time) string { return t.Format(dateLayout) }

	for i := range NumOutages {
		ci := r.IntN(len(cities))
		zips := []string{zipOf(ci, r.IntN(zipsPerCity))}
		if r.IntN(2) == 0 {
			if z := zipOf(ci, r.IntN(zipsPerCity)); z != zips[0] {
				zips = append(zips, z)
			}
		}
		slices.Sort(zips)
		start := today.AddDate(0, 0, -1-r.IntN(60))
		o := &Outage{ID: fmt.Sprintf("OUT-%04d", 1001+i), Zips: zips, Service: []string{"data", "voice", "all"}[r.IntN(3)], Start: day(start), Status: "resolved"}
		days := 1 + r.IntN(6)
		end := start.AddDate(0, 0, days)
		if !end.Before(today) {
			o.Status, o.Days = "ongoing", int(today.Sub(start).Hours()/24)
		} else {
			o.End, o.Days = day(end), days
		}
		db.Outages.Put(o.ID, o)
	}

	ids := map[string]bool{}
	unique := func(make func() string) string {
		for {
			if id := make(); !ids[id] {
				ids[id] = true
				return id
			}
		}
	}
	names := map[string]bool{}
	for db.Customers.Len() < NumCustomers {
		first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
		age := 19 + r.IntN(50)
		if r.IntN(4) == 0 {
			age = 62 + r.IntN(24) // a fair share of seniors, some just under 65
		}
		dob := time.Date(today.Year()-age, time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
		if names[first+last+day(dob)] {
			continue
		}
		names[first+last+day(dob)] = true
		ci := r.IntN(len(cities))
		city := cities[ci]
		c := &Customer{
			ID:        unique(func() string { return fmt.Sprintf("C%06d", 100000+r.IntN(900000)) }),
			FirstName: first, LastName: last,
			Email:       fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), r.IntN(100)),
			DateOfBirth: day(dob),
			Address: Address{Street: fmt.Sprintf("%d %s", 10+r.IntN(990), streets[r.IntN(len(streets))]),
				City: city.city, State: city.state, Zip: zipOf(ci, r.IntN(zipsPerCity))},
			Status:          "active",
			BillingCycleDay: 1 + r.IntN(28),
			PaymentMethods:  map[string]*PaymentMethod{},
			Lines:           map[string]*Line{},
			Devices:         map[string]*Device{},
			Bills:           []*Bill{},
			Payments:        []Payment{},
			Credits:         []Credit{},
			Arrangements:    []Arrangement{},
			Diagnostics:     []Diagnostic{},
			Tickets:         []Ticket{},
		}
		phone := func() string {
			return unique(func() string { return fmt.Sprintf("%s-555-%04d", city.area, r.IntN(10000)) })
		}
		c.ContactPhone = phone()
		for k := range 1 + r.IntN(2) {
			pm := &PaymentMethod{ID: fmt.Sprintf("pm_%s_%d", c.ID[1:], k+1), Kind: "credit_card", Brand: cardBrands[r.IntN(len(cardBrands))], LastFour: fmt.Sprintf("%04d", r.IntN(10000))}
			if r.IntN(4) == 0 {
				pm.Kind, pm.Brand = "bank_account", banks[r.IntN(len(banks))]
			}
			c.PaymentMethods[pm.ID] = pm
		}
		methods := slices.Sorted(maps.Keys(c.PaymentMethods))
		if r.IntN(2) == 0 {
			c.Autopay, c.AutopayMethod = true, methods[0]
		}
		c.SeniorDiscount = c.Age() >= 65 && r.IntN(2) == 0

		nLines := []int{1, 1, 1, 2, 2, 3, 4}[r.IntN(7)]
		var numbers []string
		for k := range nLines {
			num := c.ContactPhone
			if k > 0 {
				num = phone()
			}
			p := plans[r.IntN(len(plans))]
			for p.MaxLines < nLines {
				p = plans[r.IntN(len(plans))]
			}
			activated := today.AddDate(0, -3-r.IntN(60), -r.IntN(28))
			l := &Line{PhoneNumber: num, PlanID: p.ID, Status: LineActive, ActivatedOn: day(activated), Features: []string{},
				SIM: unique(func() string { return fmt.Sprintf("8901260%012d", r.Int64N(1e12)) })}
			for _, f := range features {
				if r.IntN(6) == 0 {
					l.Features = append(l.Features, f.ID)
				}
			}
			slices.Sort(l.Features)
			d := &Device{
				IMEI:        unique(func() string { return fmt.Sprintf("35%013d", r.Int64N(1e13)) }),
				Model:       deviceModels[r.IntN(len(deviceModels))],
				PhoneNumber: num, Status: "active",
				PurchasedOn: day(activated.AddDate(0, 0, r.IntN(60))),
				Condition:   ConditionOK,
			}
			if d.PurchasedOn > Today {
				d.PurchasedOn = day(activated)
			}
			if r.IntN(2) == 0 {
				d.InstallmentBalance = sim.Money(100 * (100 + r.IntN(700)))
			}
			switch k := r.IntN(10); {
			case k < 2:
				d.Condition = ConditionNetworkConfig
			case k < 4:
				d.Condition = ConditionHardware
			}
			l.DeviceIMEI = d.IMEI
			c.Lines[num], c.Devices[d.IMEI] = l, d
			numbers = append(numbers, num)
		}

		// Four monthly bills, issued on the cycle day of February to May.
		scenario := r.IntN(10) // 0-5 all paid, 6-7 latest unpaid, 8-9 overdue
		for m := 2; m <= 5; m++ {
			issued := time.Date(2025, time.Month(m), c.BillingCycleDay, 0, 0, 0, 0, time.UTC)
			b := &Bill{ID: fmt.Sprintf("B%s-2025%02d", c.ID[1:], m), Period: fmt.Sprintf("2025-%02d", m), IssuedOn: day(issued), DueOn: day(issued.AddDate(0, 0, 21)), Items: []LineItem{}}
			for _, num := range numbers {
				l := c.Lines[num]
				b.Items = append(b.Items, LineItem{db.Plans.At(l.PlanID).Name + " plan, " + num, db.Plans.At(l.PlanID).MonthlyPrice})
				for _, f := range l.Features {
					b.Items = append(b.Items, LineItem{db.Features.At(f).Name + ", " + num, db.Features.At(f).MonthlyPrice})
				}
				if d := c.Devices[l.DeviceIMEI]; d.InstallmentBalance > 0 {
					b.Items = append(b.Items, LineItem{"Device installment, " + d.Model, 2000})
				}
			}
			if c.SeniorDiscount {
				b.Items = append(b.Items, LineItem{"Senior discount", -1000})
			}
			for _, it := range b.Items {
				b.Total += it.Amount
			}
			b.Total = max(b.Total, 0)
			b.Status, b.Paid = BillPaid, b.Total
			c.Bills = append(c.Bills, b)
		}
		owe := func(b *Bill) {
			b.Paid = 0
			if b.DueOn < Today {
				b.Status, b.LateFee = BillOverdue, lateFee
			} else {
				b.Status = BillUnpaid
			}
		}
		latest := c.Bills[len(c.Bills)-1]
		switch {
		case scenario >= 8:
			owe(latest)
			if latest.Status != BillOverdue {
				owe(c.Bills[len(c.Bills)-2])
			}
		case scenario >= 6:
			owe(latest)
		case latest.DueOn >= Today && !c.Autopay && r.IntN(2) == 0:
			owe(latest) // many pay close to the due date
		}
		for _, b := range c.Bills {
			if b.Status == BillPaid {
				method := methods[r.IntN(len(methods))]
				if c.Autopay {
					method = c.AutopayMethod
				}
				paidOn := mustDate(b.DueOn).AddDate(0, 0, -r.IntN(10))
				c.Payments = append(c.Payments, Payment{ID: fmt.Sprintf("PAY%s-%d", c.ID[1:], len(c.Payments)+1), BillID: b.ID, Amount: b.Total, MethodID: method, Date: day(paidOn)})
			}
		}
		var overdue *Bill
		for _, b := range c.Bills {
			if b.Status == BillOverdue {
				overdue = b
			}
		}
		if overdue != nil {
			c.Status = "past_due"
			// Most past-due accounts have had a line suspended for it.
			if r.IntN(5) < 4 {
				c.Lines[numbers[r.IntN(len(numbers))]].Status = LineSuspended
			}
			if r.IntN(5) == 0 {
				c.Arrangements = append(c.Arrangements, Arrangement{ID: fmt.Sprintf("PA%s-1", c.ID[1:]), BillID: overdue.ID, Amount: overdue.Balance(), Installments: 2, CreatedOn: day(today.AddDate(0, 0, -2-r.IntN(5))), Status: "active"})
			}
		}
		// An earlier late fee waiver, within the last 12 months or before:
		// more often and more recent for an account late now, as late
		// payers are late again.
		if k := r.IntN(4); k == 0 || overdue != nil && k == 1 {
			months := 20
			if overdue != nil {
				months = 10
			}
			when := today.AddDate(0, -2-r.IntN(months), 0)
			c.Credits = append(c.Credits, Credit{ID: fmt.Sprintf("CR%s-%d", c.ID[1:], len(c.Credits)+1), Kind: CreditLateFee, Amount: lateFee, Date: day(when), BillID: fmt.Sprintf("B%s-%s", c.ID[1:], when.Format("200601"))})
		}
		// Earlier diagnostics and tickets, all at least a month old.
		if r.IntN(4) == 0 {
			num := numbers[r.IntN(len(numbers))]
			when := day(today.AddDate(0, 0, -30-r.IntN(120)))
			diag := Diagnostic{ID: fmt.Sprintf("TS%s-1", c.ID[1:]), PhoneNumber: num, Date: when, Issue: issues[r.IntN(len(issues))], Steps: "network reset, signal test", Result: ResultUnresolved}
			c.Diagnostics = append(c.Diagnostics, diag)
			c.Tickets = append(c.Tickets, Ticket{ID: fmt.Sprintf("TK%s-1", c.ID[1:]), PhoneNumber: num, Category: TicketConnectivity, Status: "closed", CreatedOn: when, TroubleshootingID: diag.ID, Notes: "Closed after a tower repair."})
		}
		db.Customers.Put(c.ID, c)
	}
	return db
}
