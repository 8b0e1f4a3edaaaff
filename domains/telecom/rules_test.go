package telecom

import (
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// ruleDB is a small hand-made database for the policy predicates: Ada
// (70, cycle day 20, zip 97210 under outage OUT-1 of 3 days and OUT-3,
// ongoing for 2 days) with an
// active line, a suspended one, an overdue bill with a late fee, an
// unpaid bill not yet due, and a troubleshooting run of today that did
// not fix line 1 and an old one; Bo (40, zip 30210) with a late fee
// waiver two months ago and an active arrangement.
func ruleDB() *DB {
	bills := func(prefix string) []*Bill {
		return []*Bill{
			{ID: prefix + "-04", Period: "2025-04", DueOn: "2025-05-11", Total: 5000, Status: BillOverdue, LateFee: lateFee},
			{ID: prefix + "-05", Period: "2025-05", DueOn: "2025-06-11", Total: 5000, Status: BillUnpaid},
		}
	}
	return &DB{
		Customers: sim.NewTable(map[string]*Customer{
			"C1": {ID: "C1", DateOfBirth: "1955-01-02", BillingCycleDay: 20, Address: Address{Zip: "97210"},
				Lines: map[string]*Line{
					"503-555-0001": {PhoneNumber: "503-555-0001", PlanID: "p", Status: LineActive},
					"503-555-0002": {PhoneNumber: "503-555-0002", PlanID: "p", Status: LineSuspended},
				},
				Bills: bills("B1"),
				Diagnostics: []Diagnostic{
					{ID: "TS1-1", PhoneNumber: "503-555-0001", Date: "2025-03-01", Result: ResultUnresolved},
					{ID: "TS1-2", PhoneNumber: "503-555-0001", Date: Today, Result: ResultUnresolved},
					{ID: "TS1-3", PhoneNumber: "503-555-0002", Date: Today, Result: ResultResolved},
				}},
			"C2": {ID: "C2", DateOfBirth: "1985-07-01", BillingCycleDay: 5, Address: Address{Zip: "30210"}, Bills: bills("B2"),
				Credits:      []Credit{{ID: "CR2-1", Kind: CreditLateFee, Amount: lateFee, Date: "2025-04-10"}},
				Arrangements: []Arrangement{{ID: "PA2-1", BillID: "B2-04", Installments: 2, Status: "active"}}},
		}),
		Plans: sim.NewTable(map[string]*Plan{"p": {ID: "p", MaxLines: 2}, "q": {ID: "q", MaxLines: 2}, "solo": {ID: "solo", MaxLines: 1}}),
		Outages: sim.NewTable(map[string]*Outage{"OUT-1": {ID: "OUT-1", Zips: []string{"97210"}, Days: 3, Status: "resolved"}, "OUT-2": {ID: "OUT-2", Zips: []string{"11111"}, Days: 9},
			"OUT-3": {ID: "OUT-3", Zips: []string{"97210"}, Start: "2025-06-08", Days: 2, Status: "ongoing"}}),
	}
}

// TestCheckPolicy checks every rule with a write it allows and one it
// forbids.
func TestCheckPolicy(t *testing.T) {
	for _, tc := range []struct {
		name, user string
		a          emobench.Action
		rule       string // "": allowed
	}{
		{"own account", "C1", sim.NewAction(ToolSeniorDiscount, "customer_id", "C1"), ""},
		{"another account", "C1", sim.NewAction(ToolSeniorDiscount, "customer_id", "C2"), RuleOwnAccount},
		{"plan at the next cycle", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0001", "new_plan_id", "q", "effective_date", "2025-06-20"), ""},
		{"plan for fewer lines", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0001", "new_plan_id", "solo", "effective_date", "2025-06-20"), RulePlanMaxLines},
		{"plan today", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0001", "new_plan_id", "q", "effective_date", Today), RulePlanChangeAtCycle},
		{"plan on a suspended line", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0002", "new_plan_id", "q", "effective_date", "2025-06-20"), RuleLineActive},
		{"feature on an active line", "C1", sim.NewAction(ToolAddFeature, "customer_id", "C1", "phone_number", "503-555-0001", "feature_id", "x"), ""},
		{"feature on a suspended line", "C1", sim.NewAction(ToolAddFeature, "customer_id", "C1", "phone_number", "503-555-0002", "feature_id", "x"), RuleLineActive},
		{"senior at 70", "C1", sim.NewAction(ToolSeniorDiscount, "customer_id", "C1"), ""},
		{"senior at 39", "C2", sim.NewAction(ToolSeniorDiscount, "customer_id", "C2"), RuleSeniorAge},
		{"arrangement overdue", "C1", sim.NewAction(ToolCreateArrangement, "customer_id", "C1", "bill_id", "B1-04", "installments", 3), ""},
		{"arrangement not due", "C1", sim.NewAction(ToolCreateArrangement, "customer_id", "C1", "bill_id", "B1-05", "installments", 2), RuleArrangementOverdue},
		{"arrangement of 4", "C1", sim.NewAction(ToolCreateArrangement, "customer_id", "C1", "bill_id", "B1-04", "installments", 4), RuleArrangementInstallments},
		{"second arrangement", "C2", sim.NewAction(ToolCreateArrangement, "customer_id", "C2", "bill_id", "B2-04", "installments", 2), RuleArrangementSingle},
		{"ticket after today's unresolved run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity, "troubleshooting_id", "TS1-2"), ""},
		{"billing ticket without a run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketBilling), RuleTicketConnectivityOnly},
		{"device ticket after a run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketDevice, "troubleshooting_id", "TS1-2"), RuleTicketConnectivityOnly},
		{"ticket without a run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity), RuleTicketAfterTroubleshooting},
		{"ticket on an old run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity, "troubleshooting_id", "TS1-1"), RuleTicketAfterTroubleshooting},
		{"ticket on another line's run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity, "troubleshooting_id", "TS1-3"), RuleTicketAfterTroubleshooting},
		{"outage credit", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditOutage, "outage_id", "OUT-1"), ""},
		{"outage credit too large", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 20, "reason", CreditOutage, "outage_id", "OUT-1"), RuleOutageCredit},
		{"ongoing outage for the days so far", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 10, "reason", CreditOutage, "outage_id", "OUT-3"), ""},
		{"ongoing outage for more days", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditOutage, "outage_id", "OUT-3"), RuleOutageCredit},
		{"outage elsewhere", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 25, "reason", CreditOutage, "outage_id", "OUT-2"), RuleOutageCredit},
		{"goodwill credit", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditGoodwill), RuleOutageCredit},
		{"first waiver in a year", "C1", sim.NewAction(ToolWaiveLateFee, "customer_id", "C1", "bill_id", "B1-04"), ""},
		{"second waiver in a year", "C2", sim.NewAction(ToolWaiveLateFee, "customer_id", "C2", "bill_id", "B2-04"), RuleLateFeeOncePerYear},
		{"reactivate with an overdue balance", "C1", sim.NewAction(ToolReactivateLine, "customer_id", "C1", "phone_number", "503-555-0002"), RuleReactivateAfterPayment},
		{"a read", "C1", sim.NewAction(ToolGetCustomer, "customer_id", "C2"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckPolicy(sim.NewStateEnv(ruleDB(), Tools()), tc.user, tc.a)
			var v *PolicyViolation
			switch {
			case tc.rule == "" && err != nil:
				t.Fatalf("CheckPolicy = %v, want allowed", err)
			case tc.rule != "" && (!errors.As(err, &v) || v.Rule != tc.rule):
				t.Fatalf("CheckPolicy = %v, want a %s violation", err, tc.rule)
			}
		})
	}
	// Once the overdue bill is paid, the reactivation is allowed.
	db := ruleDB()
	row(&db.Customers, "C1").Bills[0].Paid = 6000
	if err := CheckPolicy(sim.NewStateEnv(db, Tools()), "C1", sim.NewAction(ToolReactivateLine, "customer_id", "C1", "phone_number", "503-555-0002")); err != nil {
		t.Fatalf("reactivate after paying: %v", err)
	}
	// One credit per outage.
	row(&db.Customers, "C1").Credits = []Credit{{ID: "CR1-1", Kind: CreditOutage, OutageID: "OUT-1"}}
	var v *PolicyViolation
	if err := CheckPolicy(sim.NewStateEnv(db, Tools()), "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditOutage, "outage_id", "OUT-1")); !errors.As(err, &v) || v.Rule != RuleOutageCredit {
		t.Fatalf("second credit for an outage: %v", err)
	}
}

// TestOngoingOutageDays checks that each ongoing outage of the initial
// database reports, as duration_days, the whole days from its start to
// Today (at least one), which policy.md credits.
func TestOngoingOutageDays(t *testing.T) {
	ongoing := 0
	for _, o := range initialState().Outages.All() {
		if o.Status != "ongoing" {
			continue
		}
		ongoing++
		days := int(mustDate(Today).Sub(mustDate(o.Start)).Hours() / 24)
		if o.Days != days || days < 1 || o.End != "" {
			t.Errorf("outage %s from %s, end %q: duration_days %d, want %d (at least 1) and no end", o.ID, o.Start, o.End, o.Days, days)
		}
		if want := min(sim.Money(500*days), 2500); OutageCredit(o) != want {
			t.Errorf("outage %s: credit %s, want %s", o.ID, OutageCredit(o), want)
		}
	}
	if ongoing == 0 {
		t.Error("no ongoing outage in the initial database")
	}
}
