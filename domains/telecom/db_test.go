package telecom

import (
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestGenerateDB checks the generated database's size and consistency:
// every line has its device, every bill adds up and has the status its
// payments and due date give, plans and features exist. That the material
// the policy's rules need is there (seniors, overdue bills, suspended
// lines, …) the conformance suite checks: every intent grounds.
func TestGenerateDB(t *testing.T) {
	db := GenerateDB(Seed)
	if db.Customers.Len() != NumCustomers || db.Plans.Len() < 10 || db.Features.Len() < 5 || db.Outages.Len() != NumOutages {
		t.Fatalf("customers %d, plans %d, features %d, outages %d; want %d customers and %d outages", db.Customers.Len(), db.Plans.Len(), db.Features.Len(), db.Outages.Len(), NumCustomers, NumOutages)
	}
	phones := map[string]bool{}
	for _, o := range db.Outages.All() {
		// An ongoing outage reports, as duration_days, the whole days from
		// its start to Today; policy.md credits $5 a day, at most $25.
		if o.Days < 1 || o.Start >= Today || (o.Status == "resolved") == (o.End == "") || OutageCredit(o) != min(sim.Money(500*o.Days), 2500) ||
			o.Status == "ongoing" && o.Days != int(mustDate(Today).Sub(mustDate(o.Start)).Hours()/24) {
			t.Errorf("outage %s: %+v (credit %s)", o.ID, o, OutageCredit(o))
		}
	}
	for id, c := range db.Customers.All() {
		if c.ID != id || c.Age() < 18 || c.BillingCycleDay < 1 || c.BillingCycleDay > 28 || len(c.PaymentMethods) == 0 || len(c.Lines) == 0 || len(c.Bills) != 4 ||
			c.Lines[c.ContactPhone] == nil || c.Autopay && c.PaymentMethods[c.AutopayMethod] == nil {
			t.Fatalf("customer %s: %+v: want a contact phone of the account and a known autopay method", id, c)
		}
		for num, l := range c.Lines {
			d := c.Devices[l.DeviceIMEI]
			if phones[num] || db.Plans.At(l.PlanID) == nil || d == nil || d.PhoneNumber != num || !slices.IsSorted(l.Features) {
				t.Errorf("customer %s line %s: %+v: want a number of one account, a known plan, its device, sorted features", id, num, l)
			}
			phones[num] = true
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
		}
	}
}

func TestCustomer_NextCycleStartAndAge(t *testing.T) {
	for day, want := range map[int]string{1: "2025-07-01", 10: "2025-07-10", 11: "2025-06-11", 28: "2025-06-28"} {
		if got := (&Customer{BillingCycleDay: day}).NextCycleStart(); got != want {
			t.Errorf("cycle day %d: next cycle start %s, want %s", day, got, want)
		}
	}
	for dob, want := range map[string]int{"1960-06-10": 65, "1960-06-11": 64, "1960-01-31": 65, "1960-12-01": 64, "bad": -1} {
		if got := (&Customer{DateOfBirth: dob}).Age(); got != want {
			t.Errorf("born %s: age %d, want %d", dob, got, want)
		}
	}
}
