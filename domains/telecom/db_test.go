package telecom

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestGenerateDB checks the generated database's size and consistency:
// every line has its device, every bill adds up and has the status its
// payments and due date give, plans and features exist, and the material
// the policy's rules need is there (seniors, overdue bills, suspended
// lines, active arrangements, recent waivers, outages over customers'
// zips, devices with each condition).
func TestGenerateDB(t *testing.T) {
	db := GenerateDB(Seed)
	if got := db.Customers.Len(); got != NumCustomers {
		t.Fatalf("customers = %d, want %d", got, NumCustomers)
	}
	if db.Plans.Len() < 10 || db.Features.Len() < 5 || db.Outages.Len() != NumOutages {
		t.Fatalf("plans %d, features %d, outages %d", db.Plans.Len(), db.Features.Len(), db.Outages.Len())
	}
	counts := map[string]int{}
	phones := map[string]bool{}
	zips := map[string]bool{}
	for _, o := range db.Outages.All() {
		for _, z := range o.Zips {
			zips[z] = true
		}
		if o.Days < 1 || o.Start >= Today || (o.Status == "resolved") == (o.End == "") {
			t.Errorf("outage %s: %+v", o.ID, o)
		}
	}
	for _, id := range db.Customers.Keys() {
		c := row(&db.Customers, id)
		if c.ID != id || c.Age() < 18 || c.BillingCycleDay < 1 || c.BillingCycleDay > 28 || len(c.PaymentMethods) == 0 || len(c.Lines) == 0 || len(c.Bills) != 4 {
			t.Fatalf("customer %s: %+v", id, c)
		}
		if c.Lines[c.ContactPhone] == nil {
			t.Errorf("customer %s: contact phone %s is no line of the account", id, c.ContactPhone)
		}
		if c.Autopay && c.PaymentMethods[c.AutopayMethod] == nil {
			t.Errorf("customer %s: autopay with unknown method %q", id, c.AutopayMethod)
		}
		for num, l := range c.Lines {
			if phones[num] {
				t.Errorf("phone number %s on two accounts", num)
			}
			phones[num] = true
			d := c.Devices[l.DeviceIMEI]
			if row(&db.Plans, l.PlanID) == nil || d == nil || d.PhoneNumber != num || !slices.IsSorted(l.Features) {
				t.Errorf("customer %s line %s: %+v", id, num, l)
			}
			counts["lines"]++
			counts["line "+l.Status]++
			counts["device "+d.Condition]++
		}
		for _, b := range c.Bills {
			var sum sim.Money
			for _, it := range b.Items {
				sum += it.Amount
			}
			want := BillPaid
			if b.Paid < b.Total {
				want = BillUnpaid
				if b.DueOn < Today {
					want = BillOverdue
				}
			}
			if max(sum, 0) != b.Total || b.Status != want || (b.LateFee > 0) != (b.Status == BillOverdue) {
				t.Errorf("bill %s: total %s of items %s, status %s want %s, late fee %s", b.ID, b.Total, sum, b.Status, want, b.LateFee)
			}
			counts["bill "+b.Status]++
		}
		if c.Age() >= 65 {
			counts["seniors"]++
		}
		if c.activeArrangement() != nil {
			counts["active arrangements"]++
		}
		if waiverWithinYear(c) != nil {
			counts["recent waivers"]++
		}
		if zips[c.Address.Zip] {
			counts["customers in an outage zip"]++
		}
	}
	t.Logf("counts: %v", counts)
	for _, k := range []string{"line suspended", "device " + ConditionNetworkConfig, "device " + ConditionHardware, "bill overdue", "bill unpaid",
		"seniors", "active arrangements", "recent waivers", "customers in an outage zip"} {
		if counts[k] < 10 {
			t.Errorf("%s: %d, want at least 10", k, counts[k])
		}
	}
}

// TestGenerateDB_Deterministic: the same seed gives the same database,
// another seed another one.
func TestGenerateDB_Deterministic(t *testing.T) {
	enc := func(db *DB) string {
		b, err := json.Marshal(db)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a, b, c := enc(GenerateDB(Seed)), enc(GenerateDB(Seed)), enc(GenerateDB(Seed+1))
	if a != b {
		t.Fatal("GenerateDB(Seed) is not deterministic")
	}
	if a == c {
		t.Fatal("two seeds gave the same database")
	}
}

func TestCustomer_NextCycleStartAndAge(t *testing.T) {
	for _, tc := range []struct {
		day  int
		want string
	}{{1, "2025-07-01"}, {10, "2025-07-10"}, {11, "2025-06-11"}, {28, "2025-06-28"}} {
		if got := (&Customer{BillingCycleDay: tc.day}).NextCycleStart(); got != tc.want {
			t.Errorf("cycle day %d: next cycle start %s, want %s", tc.day, got, tc.want)
		}
	}
	for _, tc := range []struct {
		dob  string
		want int
	}{{"1960-06-10", 65}, {"1960-06-11", 64}, {"1960-01-31", 65}, {"1960-12-01", 64}, {"bad", -1}} {
		if got := (&Customer{DateOfBirth: tc.dob}).Age(); got != tc.want {
			t.Errorf("born %s: age %d, want %d", tc.dob, got, tc.want)
		}
	}
}
