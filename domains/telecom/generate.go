package telecom

import (
	_ "embed"
	"encoding/json"
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

// generateJSON is the data the generator draws from: the plan and
// feature catalogs, and what customers are made of (names, cities with
// their zip prefix and area code, streets, device models, card brands and
// banks).
//
//go:embed generate.json
var generateJSON []byte

// vocab is generateJSON decoded.
var vocab = func() (v struct {
	Plans        []Plan    `json:"plans"`
	Features     []Feature `json:"features"`
	FirstNames   []string  `json:"first_names"`
	LastNames    []string  `json:"last_names"`
	Streets      []string  `json:"streets"`
	DeviceModels []string  `json:"device_models"`
	CardBrands   []string  `json:"card_brands"`
	Banks        []string  `json:"banks"`
	Cities       []struct {
		City      string `json:"city"`
		State     string `json:"state"`
		ZipPrefix string `json:"zip_prefix"`
		Area      string `json:"area_code"`
	} `json:"cities"`
}) {
	if err := json.Unmarshal(generateJSON, &v); err != nil {
		panic(err) // generate.json is embedded: a bug every test catches
	}
	return v
}()

// plans is the rate plan catalog, features the add-on catalog.
var plans, features = vocab.Plans, vocab.Features

// issues are the connectivity problems a customer reports, as the
// troubleshooting tool takes them.
var issues = []string{"no signal", "dropped calls", "slow data", "cannot send texts"}

// zipsPerCity is how many zip codes of each city customers live in.
const zipsPerCity = 4

func zipOf(cityIndex, k int) string {
	return fmt.Sprintf("%s%02d", vocab.Cities[cityIndex].ZipPrefix, 10+k*7)
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
		ci := r.IntN(len(vocab.Cities))
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
		first, last := vocab.FirstNames[r.IntN(len(vocab.FirstNames))], vocab.LastNames[r.IntN(len(vocab.LastNames))]
		age := 19 + r.IntN(50)
		if r.IntN(4) == 0 {
			age = 62 + r.IntN(24) // a fair share of seniors, some just under 65
		}
		dob := time.Date(today.Year()-age, time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
		if names[first+last+day(dob)] {
			continue
		}
		names[first+last+day(dob)] = true
		ci := r.IntN(len(vocab.Cities))
		city := vocab.Cities[ci]
		c := &Customer{
			ID:        unique(func() string { return fmt.Sprintf("C%06d", 100000+r.IntN(900000)) }),
			FirstName: first, LastName: last,
			Email:       fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), r.IntN(100)),
			DateOfBirth: day(dob),
			Address: Address{Street: fmt.Sprintf("%d %s", 10+r.IntN(990), vocab.Streets[r.IntN(len(vocab.Streets))]),
				City: city.City, State: city.State, Zip: zipOf(ci, r.IntN(zipsPerCity))},
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
			return unique(func() string { return fmt.Sprintf("%s-555-%04d", city.Area, r.IntN(10000)) })
		}
		c.ContactPhone = phone()
		for k := range 1 + r.IntN(2) {
			pm := &PaymentMethod{ID: fmt.Sprintf("pm_%s_%d", c.ID[1:], k+1), Kind: "credit_card", Brand: vocab.CardBrands[r.IntN(len(vocab.CardBrands))], LastFour: fmt.Sprintf("%04d", r.IntN(10000))}
			if r.IntN(4) == 0 {
				pm.Kind, pm.Brand = "bank_account", vocab.Banks[r.IntN(len(vocab.Banks))]
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
				Model:       vocab.DeviceModels[r.IntN(len(vocab.DeviceModels))],
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
