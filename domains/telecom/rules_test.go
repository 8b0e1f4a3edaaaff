package telecom

import (
	"errors"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// ruleDB is a small hand-made database for the policy predicates: Ada
// (70, cycle day 20, zip 97210 under outage OUT-1 of 3 days and OUT-3,
// ongoing for 2 days) with an active line, a suspended one, an overdue
// bill with a late fee, an unpaid bill not yet due, and a troubleshooting
// run of today that did not fix line 1 and an old one; Bo (40, zip
// 30210) with a late fee waiver two months ago and an active arrangement.
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
				Lines: map[string]*Line{"503-555-0001": {PhoneNumber: "503-555-0001", PlanID: "p", Status: LineActive},
					"503-555-0002": {PhoneNumber: "503-555-0002", PlanID: "p", Status: LineSuspended}}, Bills: bills("B1"),
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
		setup      func(c1 *Customer)
	}{
		{"own account", "C1", sim.NewAction(ToolSeniorDiscount, "customer_id", "C1"), "", nil},
		{"another account", "C1", sim.NewAction(ToolSeniorDiscount, "customer_id", "C2"), RuleOwnAccount, nil},
		{"plan at the next cycle", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0001", "new_plan_id", "q", "effective_date", "2025-06-20"), "", nil},
		{"plan for fewer lines", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0001", "new_plan_id", "solo", "effective_date", "2025-06-20"), RulePlanMaxLines, nil},
		{"plan today", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0001", "new_plan_id", "q", "effective_date", Today), RulePlanChangeAtCycle, nil},
		{"plan on a suspended line", "C1", sim.NewAction(ToolChangePlan, "customer_id", "C1", "phone_number", "503-555-0002", "new_plan_id", "q", "effective_date", "2025-06-20"), RuleLineActive, nil},
		{"feature on an active line", "C1", sim.NewAction(ToolAddFeature, "customer_id", "C1", "phone_number", "503-555-0001", "feature_id", "x"), "", nil},
		{"feature on a suspended line", "C1", sim.NewAction(ToolAddFeature, "customer_id", "C1", "phone_number", "503-555-0002", "feature_id", "x"), RuleLineActive, nil},
		{"senior at 70", "C1", sim.NewAction(ToolSeniorDiscount, "customer_id", "C1"), "", nil},
		{"senior at 39", "C2", sim.NewAction(ToolSeniorDiscount, "customer_id", "C2"), RuleSeniorAge, nil},
		{"arrangement overdue", "C1", sim.NewAction(ToolCreateArrangement, "customer_id", "C1", "bill_id", "B1-04", "installments", 3), "", nil},
		{"arrangement not due", "C1", sim.NewAction(ToolCreateArrangement, "customer_id", "C1", "bill_id", "B1-05", "installments", 2), RuleArrangementOverdue, nil},
		{"arrangement of 4", "C1", sim.NewAction(ToolCreateArrangement, "customer_id", "C1", "bill_id", "B1-04", "installments", 4), RuleArrangementInstallments, nil},
		{"second arrangement", "C2", sim.NewAction(ToolCreateArrangement, "customer_id", "C2", "bill_id", "B2-04", "installments", 2), RuleArrangementSingle, nil},
		{"ticket after today's unresolved run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity, "troubleshooting_id", "TS1-2"), "", nil},
		{"billing ticket without a run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketBilling), RuleTicketConnectivityOnly, nil},
		{"device ticket after a run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketDevice, "troubleshooting_id", "TS1-2"), RuleTicketConnectivityOnly, nil},
		{"ticket without a run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity), RuleTicketAfterTroubleshooting, nil},
		{"ticket on an old run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity, "troubleshooting_id", "TS1-1"), RuleTicketAfterTroubleshooting, nil},
		{"ticket on another line's run", "C1", sim.NewAction(ToolOpenTicket, "customer_id", "C1", "phone_number", "503-555-0001", "category", TicketConnectivity, "troubleshooting_id", "TS1-3"), RuleTicketAfterTroubleshooting, nil},
		{"outage credit", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditOutage, "outage_id", "OUT-1"), "", nil},
		{"outage credit too large", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 20, "reason", CreditOutage, "outage_id", "OUT-1"), RuleOutageCredit, nil},
		{"ongoing outage for the days so far", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 10, "reason", CreditOutage, "outage_id", "OUT-3"), "", nil},
		{"ongoing outage for more days", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditOutage, "outage_id", "OUT-3"), RuleOutageCredit, nil},
		{"outage elsewhere", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 25, "reason", CreditOutage, "outage_id", "OUT-2"), RuleOutageCredit, nil},
		{"goodwill credit", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditGoodwill), RuleOutageCredit, nil},
		{"first waiver in a year", "C1", sim.NewAction(ToolWaiveLateFee, "customer_id", "C1", "bill_id", "B1-04"), "", nil},
		{"second waiver in a year", "C2", sim.NewAction(ToolWaiveLateFee, "customer_id", "C2", "bill_id", "B2-04"), RuleLateFeeOncePerYear, nil},
		{"reactivate with an overdue balance", "C1", sim.NewAction(ToolReactivateLine, "customer_id", "C1", "phone_number", "503-555-0002"), RuleReactivateAfterPayment, nil},
		{"reactivate after paying", "C1", sim.NewAction(ToolReactivateLine, "customer_id", "C1", "phone_number", "503-555-0002"), "", func(c *Customer) { c.Bills[0].Paid = 6000 }},
		{"second credit for an outage", "C1", sim.NewAction(ToolApplyCredit, "customer_id", "C1", "amount", 15, "reason", CreditOutage, "outage_id", "OUT-1"), RuleOutageCredit,
			func(c *Customer) { c.Credits = []Credit{{ID: "CR1-1", Kind: CreditOutage, OutageID: "OUT-1"}} }},
		{"a read", "C1", sim.NewAction(ToolGetCustomer, "customer_id", "C2"), "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := ruleDB()
			if tc.setup != nil {
				tc.setup(db.Customers.At("C1"))
			}
			err := CheckPolicy(sim.NewStateEnv(db, Tools()), tc.user, tc.a)
			if tc.rule == "" && err != nil || tc.rule != "" && !isViolation(err, tc.rule) {
				t.Fatalf("CheckPolicy = %v, want a violation of %q (\"\": allowed)", err, tc.rule)
			}
		})
	}
}

// isViolation reports whether err is a violation of rule.
func isViolation(err error, rule string) bool {
	var v *PolicyViolation
	return errors.As(err, &v) && v.Rule == rule
}
