package telecom

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// The tool tests find their material in the default database, so they
// follow the generator instead of hard-coding its ids. Cases named
// "breaks: RULE" call a write that policy.md forbids: the tool must carry
// it out (the agent is the one to refuse).

// customerWhere returns the first customer (by id) ok accepts.
func customerWhere(t *testing.T, desc string, ok func(*Customer) bool) *Customer {
	t.Helper()
	db := initialState()
	for _, id := range db.Customers.Keys() {
		if c := row(&db.Customers, id); ok(c) {
			return c
		}
	}
	t.Fatalf("no customer %s in the default database", desc)
	return nil
}

// lineWhere returns a customer and a line of theirs that ok accepts.
func lineWhere(t *testing.T, desc string, ok func(*Customer, *Line) bool) (*Customer, *Line) {
	t.Helper()
	var line *Line
	c := customerWhere(t, desc, func(c *Customer) bool {
		for _, num := range slices.Sorted(maps.Keys(c.Lines)) {
			if ok(c, c.Lines[num]) {
				line = c.Lines[num]
				return true
			}
		}
		return false
	})
	return c, line
}

func billWhere(c *Customer, ok func(*Bill) bool) *Bill {
	for _, b := range c.Bills {
		if ok(b) {
			return b
		}
	}
	return nil
}

func args(kv ...any) json.RawMessage { return sim.NewAction("x", kv...).Arguments }

// call runs a tool on env and fails the test on an error.
func call(t *testing.T, env *sim.StateEnv[DB], tool string, a json.RawMessage) string {
	t.Helper()
	res, err := env.Call(tool, a)
	if err != nil {
		t.Fatalf("%s%s: %v", tool, a, err)
	}
	return res
}

// callErr runs a tool on env, wants an error containing want and no
// change of the state.
func callErr(t *testing.T, env *sim.StateEnv[DB], tool string, a json.RawMessage, want string) {
	t.Helper()
	before := env.Hash()
	_, err := env.Call(tool, a)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s%s: error %v, want one with %q", tool, a, err, want)
	}
	if env.Hash() != before {
		t.Fatalf("%s%s failed but changed the state", tool, a)
	}
}

// breaks runs a write that breaks rule and wants it to succeed and change
// the state; the policy predicate must see the violation.
func breaks(t *testing.T, env *sim.StateEnv[DB], rule, verified, tool string, a json.RawMessage) string {
	t.Helper()
	err := CheckPolicy(env, verified, emobench.Action{Name: tool, Arguments: a})
	if v, ok := err.(*PolicyViolation); !ok || v.Rule != rule {
		t.Fatalf("breaks: %s: CheckPolicy(%s%s) = %v, want a %s violation", rule, tool, a, err, rule)
	}
	before := env.Hash()
	res, cerr := env.Call(tool, a)
	if cerr != nil {
		t.Fatalf("breaks: %s: %s%s: %v (the tools leave this rule to the agent)", rule, tool, a, cerr)
	}
	if env.Hash() == before {
		t.Fatalf("breaks: %s: %s%s did not change the state", rule, tool, a)
	}
	return res
}

func TestFindCustomer(t *testing.T) {
	env := newEnv()
	c := customerWhere(t, "any", func(*Customer) bool { return true })
	if got := call(t, env, ToolFindByPhone, args("phone_number", c.ContactPhone)); !strings.Contains(got, c.ID) {
		t.Errorf("find by phone: %s, want %s", got, c.ID)
	}
	callErr(t, env, ToolFindByPhone, args("phone_number", "000-555-0000"), "no customer")
	if got := call(t, env, ToolFindByNameDOB, args("first_name", strings.ToLower(c.FirstName), "last_name", c.LastName, "date_of_birth", c.DateOfBirth)); !strings.Contains(got, c.ID) {
		t.Errorf("find by name and dob: %s, want %s", got, c.ID)
	}
	callErr(t, env, ToolFindByNameDOB, args("first_name", c.FirstName, "last_name", c.LastName, "date_of_birth", "1900-01-01"), "no customer")
}

func TestReads(t *testing.T) {
	env := newEnv()
	c, l := lineWhere(t, "with an installment", func(c *Customer, l *Line) bool { return c.Devices[l.DeviceIMEI].InstallmentBalance > 0 })
	got := call(t, env, ToolGetCustomer, args("customer_id", c.ID))
	if !strings.Contains(got, `"next_billing_cycle_start":"`+c.NextCycleStart()+`"`) || !strings.Contains(got, l.PhoneNumber) {
		t.Errorf("get_customer_details: %s", got)
	}
	callErr(t, env, ToolGetCustomer, args("customer_id", "C000000"), "not found")
	got = call(t, env, ToolGetLine, args("customer_id", c.ID, "phone_number", l.PhoneNumber))
	if !strings.Contains(got, c.Devices[l.DeviceIMEI].InstallmentBalance.String()) || strings.Contains(got, "condition") {
		t.Errorf("get_line_details shows no installment balance or shows the device's condition: %s", got)
	}
	callErr(t, env, ToolGetLine, args("customer_id", c.ID, "phone_number", "000-555-0000"), "has no line")
	got = call(t, env, ToolGetBilling, args("customer_id", c.ID))
	if !strings.Contains(got, c.Bills[3].ID) || !strings.Contains(got, `"balance":`) {
		t.Errorf("get_billing_history: %s", got)
	}
	got = call(t, env, ToolListPlans, nil)
	if strings.Count(got, `"plan_id"`) != len(plans) || strings.Count(got, `"feature_id"`) != len(features) {
		t.Errorf("list_plans: %s", got)
	}
	var o *Outage
	for _, id := range initialState().Outages.Keys() {
		o = row(&initialState().Outages, id)
		break
	}
	if got := call(t, env, ToolCheckOutages, args("zip", o.Zips[0])); !strings.Contains(got, o.ID) {
		t.Errorf("check_network_outages %s: %s, want %s", o.Zips[0], got, o.ID)
	}
	callErr(t, env, ToolCheckOutages, args("zip", "9722"), "five-digit")
}

func TestTroubleshoot(t *testing.T) {
	env := newEnv()
	c, l := lineWhere(t, "with corrupt settings", func(c *Customer, l *Line) bool {
		return isActive(l) && c.Devices[l.DeviceIMEI].Condition == ConditionNetworkConfig
	})
	got := call(t, env, ToolTroubleshoot, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "issue", "slow data"))
	if !strings.Contains(got, `"result":"resolved"`) || !strings.Contains(got, nextDiagnosticID(c)) {
		t.Errorf("troubleshooting corrupt settings: %s", got)
	}
	if d := row(&env.State.Customers, c.ID).Devices[l.DeviceIMEI]; d.Condition != ConditionOK {
		t.Errorf("device condition after the reset: %s", d.Condition)
	}
	c, l = lineWhere(t, "with a hardware fault", func(c *Customer, l *Line) bool {
		return isActive(l) && c.Devices[l.DeviceIMEI].Condition == ConditionHardware
	})
	if got := call(t, env, ToolTroubleshoot, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "issue", "no signal")); !strings.Contains(got, `"result":"unresolved"`) {
		t.Errorf("troubleshooting a hardware fault: %s", got)
	}
	callErr(t, env, ToolTroubleshoot, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "issue", "it is broken"), "is not one of")
	c, l = lineWhere(t, "suspended", func(c *Customer, l *Line) bool { return l.Status == LineSuspended })
	breaks(t, env, RuleLineActive, c.ID, ToolTroubleshoot, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "issue", "no signal"))
}

func TestChangePlan(t *testing.T) {
	env := newEnv()
	c, l := lineWhere(t, "active", func(c *Customer, l *Line) bool { return isActive(l) && c.NextCycleStart() != Today })
	other := "unlimited_premium"
	if l.PlanID == other {
		other = "essential_10gb"
	}
	got := call(t, env, ToolChangePlan, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "new_plan_id", other, "effective_date", c.NextCycleStart()))
	if nl := row(&env.State.Customers, c.ID).Lines[l.PhoneNumber]; nl.PlanID != l.PlanID || nl.PendingPlanID != other || nl.PendingEffectiveOn != c.NextCycleStart() {
		t.Errorf("scheduled change: %s", got)
	}
	callErr(t, env, ToolChangePlan, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "new_plan_id", l.PlanID, "effective_date", c.NextCycleStart()), "already on plan")
	callErr(t, env, ToolChangePlan, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "new_plan_id", other, "effective_date", "2025-06-01"), "in the past")
	callErr(t, env, ToolChangePlan, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "new_plan_id", "gold", "effective_date", Today), "not found")
	breaks(t, env, RulePlanChangeAtCycle, c.ID, ToolChangePlan, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "new_plan_id", other, "effective_date", Today))
	if nl := row(&env.State.Customers, c.ID).Lines[l.PhoneNumber]; nl.PlanID != other || nl.PendingPlanID != "" {
		t.Errorf("a change effective today: line %+v", nl)
	}
	c2, l2 := lineWhere(t, "suspended", func(c *Customer, l *Line) bool { return l.Status == LineSuspended })
	breaks(t, env, RuleLineActive, c2.ID, ToolChangePlan, args("customer_id", c2.ID, "phone_number", l2.PhoneNumber, "new_plan_id", newPlanFor(rand.New(rand.NewPCG(1, 2)), c2, l2).ID, "effective_date", c2.NextCycleStart()))
	// Another customer's line, for the verified one: the tools cannot know.
	breaks(t, env, RuleOwnAccount, c2.ID, ToolChangePlan, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "new_plan_id", "business_pro", "effective_date", c.NextCycleStart()))
}

func TestAddFeature(t *testing.T) {
	env := newEnv()
	c, l := lineWhere(t, "active without roaming", func(c *Customer, l *Line) bool { return isActive(l) && len(l.Features) == 0 })
	call(t, env, ToolAddFeature, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", "international_roaming"))
	callErr(t, env, ToolAddFeature, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", "international_roaming"), "already has")
	callErr(t, env, ToolAddFeature, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", "satellite"), "not found")
	c, l = lineWhere(t, "suspended without roaming", func(c *Customer, l *Line) bool {
		return l.Status == LineSuspended && !strings.Contains(strings.Join(l.Features, ","), "international_roaming")
	})
	breaks(t, env, RuleLineActive, c.ID, ToolAddFeature, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", "international_roaming"))
}

func TestSeniorDiscount(t *testing.T) {
	env := newEnv()
	old := customerWhere(t, "65+ without the discount", func(c *Customer) bool { return c.Age() >= 65 && !c.SeniorDiscount })
	call(t, env, ToolSeniorDiscount, args("customer_id", old.ID))
	callErr(t, env, ToolSeniorDiscount, args("customer_id", old.ID), "already has")
	young := customerWhere(t, "under 65", func(c *Customer) bool { return c.Age() < 65 })
	breaks(t, env, RuleSeniorAge, young.ID, ToolSeniorDiscount, args("customer_id", young.ID))
}

func TestCreateArrangement(t *testing.T) {
	env := newEnv()
	c := customerWhere(t, "overdue without an arrangement", func(c *Customer) bool {
		return c.activeArrangement() == nil && billWhere(c, isOverdue) != nil && billWhere(c, func(b *Bill) bool { return b.Status == BillPaid }) != nil
	})
	b, paid := billWhere(c, isOverdue), billWhere(c, func(b *Bill) bool { return b.Status == BillPaid })
	callErr(t, env, ToolCreateArrangement, args("customer_id", c.ID, "bill_id", paid.ID, "installments", 2), "nothing left")
	callErr(t, env, ToolCreateArrangement, args("customer_id", c.ID, "bill_id", b.ID, "installments", 13), "outside 1 to 12")
	breaks(t, env, RuleArrangementInstallments, c.ID, ToolCreateArrangement, args("customer_id", c.ID, "bill_id", b.ID, "installments", 6))
	callErr(t, env, ToolCreateArrangement, args("customer_id", c.ID, "bill_id", b.ID, "installments", 2), "already under arrangement")

	env = newEnv()
	got := call(t, env, ToolCreateArrangement, args("customer_id", c.ID, "bill_id", b.ID, "installments", 3))
	if !strings.Contains(got, b.Balance().String()) {
		t.Errorf("arrangement %s: want the balance %s", got, b.Balance())
	}
	c2 := customerWhere(t, "with an unpaid bill not yet due", func(c *Customer) bool {
		return billWhere(c, func(b *Bill) bool { return b.Status == BillUnpaid }) != nil && c.activeArrangement() == nil
	})
	breaks(t, env, RuleArrangementOverdue, c2.ID, ToolCreateArrangement, args("customer_id", c2.ID, "bill_id", billWhere(c2, func(b *Bill) bool { return b.Status == BillUnpaid }).ID, "installments", 2))
	// A second overdue bill beside one under an active arrangement (the
	// generator gives each customer one overdue bill at most).
	c3 := customerWhere(t, "with an active arrangement", func(c *Customer) bool { return c.activeArrangement() != nil })
	own := edit(&env.State.Customers, c3.ID)
	second := own.Bills[0]
	second.Paid, second.Status = 0, BillOverdue
	breaks(t, env, RuleArrangementSingle, c3.ID, ToolCreateArrangement, args("customer_id", c3.ID, "bill_id", second.ID, "installments", 2))
}

func TestAutopayAndPayment(t *testing.T) {
	env := newEnv()
	c := customerWhere(t, "without autopay and with an overdue bill", func(c *Customer) bool { return !c.Autopay && billWhere(c, isOverdue) != nil })
	pm := slices.Sorted(maps.Keys(c.PaymentMethods))[0]
	call(t, env, ToolEnableAutopay, args("customer_id", c.ID, "payment_method_id", pm))
	callErr(t, env, ToolEnableAutopay, args("customer_id", c.ID, "payment_method_id", pm), "already on")
	callErr(t, env, ToolEnableAutopay, args("customer_id", c.ID, "payment_method_id", "pm_other"), "no payment method")
	b := billWhere(c, isOverdue)
	callErr(t, env, ToolMakePayment, args("customer_id", c.ID, "bill_id", b.ID, "payment_method_id", pm, "amount", dollars(b.Balance())+1), "more than the balance")
	callErr(t, env, ToolMakePayment, args("customer_id", c.ID, "bill_id", b.ID, "payment_method_id", pm, "amount", 0.001), "not a positive number")
	callErr(t, env, ToolMakePayment, args("customer_id", c.ID, "bill_id", b.ID, "payment_method_id", pm, "amount", -5), "not a positive number")
	got := call(t, env, ToolMakePayment, args("customer_id", c.ID, "bill_id", b.ID, "payment_method_id", pm, "amount", dollars(b.Balance())))
	if nb := row(&env.State.Customers, c.ID).bill(b.ID); nb.Status != BillPaid || nb.Balance() != 0 || !strings.Contains(got, `"bill_status":"paid"`) {
		t.Errorf("full payment: %s", got)
	}
}

func TestReactivateLine(t *testing.T) {
	env := newEnv()
	c, l := lineWhere(t, "suspended with an overdue balance", func(c *Customer, l *Line) bool { return l.Status == LineSuspended && hasOverdueBalance(c) })
	breaks(t, env, RuleReactivateAfterPayment, c.ID, ToolReactivateLine, args("customer_id", c.ID, "phone_number", l.PhoneNumber))
	callErr(t, env, ToolReactivateLine, args("customer_id", c.ID, "phone_number", l.PhoneNumber), "not suspended")
	env = newEnv()
	b := billWhere(c, isOverdue)
	call(t, env, ToolMakePayment, args("customer_id", c.ID, "bill_id", b.ID, "payment_method_id", slices.Sorted(maps.Keys(c.PaymentMethods))[0], "amount", dollars(b.Balance())))
	if err := CheckPolicy(env, c.ID, sim.NewAction(ToolReactivateLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)); err != nil {
		t.Errorf("reactivation after paying: %v", err)
	}
	call(t, env, ToolReactivateLine, args("customer_id", c.ID, "phone_number", l.PhoneNumber))
}

func TestOpenTicket(t *testing.T) {
	env := newEnv()
	c, l := lineWhere(t, "with a hardware fault", func(c *Customer, l *Line) bool {
		return isActive(l) && c.Devices[l.DeviceIMEI].Condition == ConditionHardware
	})
	breaks(t, env, RuleTicketAfterTroubleshooting, c.ID, ToolOpenTicket, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "category", TicketConnectivity))
	callErr(t, env, ToolOpenTicket, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "category", TicketConnectivity, "troubleshooting_id", "TS0"), "no troubleshooting run")
	callErr(t, env, ToolOpenTicket, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "category", "weather"), "is not connectivity")
	id := nextDiagnosticID(row(&env.State.Customers, c.ID))
	call(t, env, ToolTroubleshoot, args("customer_id", c.ID, "phone_number", l.PhoneNumber, "issue", "dropped calls"))
	a := sim.NewAction(ToolOpenTicket, "customer_id", c.ID, "phone_number", l.PhoneNumber, "category", TicketConnectivity, "troubleshooting_id", id)
	if err := CheckPolicy(env, c.ID, a); err != nil {
		t.Errorf("a ticket after an unresolved run: %v", err)
	}
	if got := call(t, env, a.Name, a.Arguments); !strings.Contains(got, id) || !strings.Contains(got, "unresolved") {
		t.Errorf("ticket: %s", got)
	}
}

func TestApplyCredit(t *testing.T) {
	env := newEnv()
	db := initialState()
	c := customerWhere(t, "in an outage zip", func(c *Customer) bool { o, _ := creditableOutage(db, c, rand.New(rand.NewPCG(1, 2))); return o != nil })
	o, _ := creditableOutage(db, c, rand.New(rand.NewPCG(1, 2)))
	a := sim.NewAction(ToolApplyCredit, "customer_id", c.ID, "amount", dollars(OutageCredit(o)), "reason", CreditOutage, "outage_id", o.ID)
	if err := CheckPolicy(env, c.ID, a); err != nil {
		t.Fatalf("the outage credit: %v", err)
	}
	call(t, env, a.Name, a.Arguments)
	breaks(t, env, RuleOutageCredit, c.ID, ToolApplyCredit, a.Arguments) // a second credit for the outage
	breaks(t, env, RuleOutageCredit, c.ID, ToolApplyCredit, args("customer_id", c.ID, "amount", 50, "reason", CreditGoodwill))
	breaks(t, env, RuleOutageCredit, c.ID, ToolApplyCredit, args("customer_id", c.ID, "amount", dollars(OutageCredit(o))+5, "reason", CreditOutage, "outage_id", o.ID))
	callErr(t, env, ToolApplyCredit, args("customer_id", c.ID, "amount", 5, "reason", CreditOutage, "outage_id", "OUT-0"), "not found")
	callErr(t, env, ToolApplyCredit, args("customer_id", c.ID, "amount", 5, "reason", "because"), "is not network_outage")
	callErr(t, env, ToolApplyCredit, args("customer_id", c.ID, "amount", 0, "reason", CreditOutage), "not a positive number")
}

func TestWaiveLateFee(t *testing.T) {
	env := newEnv()
	c := customerWhere(t, "with a late fee and no recent waiver", func(c *Customer) bool { return waiverWithinYear(c) == nil && billWhere(c, hasLateFee) != nil })
	b := billWhere(c, hasLateFee)
	got := call(t, env, ToolWaiveLateFee, args("customer_id", c.ID, "bill_id", b.ID))
	if !strings.Contains(got, (b.Balance() - lateFee).String()) {
		t.Errorf("waiver: %s, want the balance %s", got, b.Balance()-lateFee)
	}
	callErr(t, env, ToolWaiveLateFee, args("customer_id", c.ID, "bill_id", b.ID), "already waived")
	callErr(t, env, ToolWaiveLateFee, args("customer_id", c.ID, "bill_id", billWhere(c, func(b *Bill) bool { return b.LateFee == 0 }).ID), "no late fee")
	c2 := customerWhere(t, "with a late fee and a recent waiver", func(c *Customer) bool { return waiverWithinYear(c) != nil && billWhere(c, hasLateFee) != nil })
	breaks(t, env, RuleLateFeeOncePerYear, c2.ID, ToolWaiveLateFee, args("customer_id", c2.ID, "bill_id", billWhere(c2, hasLateFee).ID))
}

// TestWaiveLateFee_EitherOrder checks that paying an overdue bill less its
// late fee and waiving the fee leave the same state in either order: the
// bill paid and the account, with no other overdue bill, active again.
func TestWaiveLateFee_EitherOrder(t *testing.T) {
	c := customerWhere(t, "past due with one overdue bill, which has a late fee", func(c *Customer) bool {
		overdue := 0
		for _, b := range c.Bills {
			if b.Status == BillOverdue {
				overdue++
			}
		}
		return c.Status == "past_due" && overdue == 1 && hasLateFee(billWhere(c, isOverdue))
	})
	b := billWhere(c, isOverdue)
	pay := args("customer_id", c.ID, "bill_id", b.ID, "payment_method_id", slices.Sorted(maps.Keys(c.PaymentMethods))[0], "amount", dollars(b.Balance()-b.LateFee))
	waive := args("customer_id", c.ID, "bill_id", b.ID)
	payFirst, waiveFirst := newEnv(), newEnv()
	call(t, payFirst, ToolMakePayment, pay)
	call(t, payFirst, ToolWaiveLateFee, waive)
	call(t, waiveFirst, ToolWaiveLateFee, waive)
	call(t, waiveFirst, ToolMakePayment, pay)
	for name, env := range map[string]*sim.StateEnv[DB]{"pay, then waive": payFirst, "waive, then pay": waiveFirst} {
		got := row(&env.State.Customers, c.ID)
		if got.Status != "active" || got.bill(b.ID).Status != BillPaid {
			t.Errorf("%s: account %s, bill %s %s; want active and paid", name, got.Status, b.ID, got.bill(b.ID).Status)
		}
	}
	if got, want := payFirst.Hash(), waiveFirst.Hash(); got != want {
		t.Errorf("hash after paying then waiving = %s, after waiving then paying %s; want equal", got, want)
	}
}

func TestTransfer(t *testing.T) {
	env := newEnv()
	if got := call(t, env, ToolTransfer, args("summary", "port-out")); got != transferMessage {
		t.Errorf("transfer: %q", got)
	}
	callErr(t, env, ToolTransfer, args("summary", " "), "must not be empty")
}

// TestTools_BadArguments calls every tool with malformed arguments: an
// error, never a panic (which StateEnv.Call reports as "tool ... failed").
func TestTools_BadArguments(t *testing.T) {
	env := newEnv()
	for _, tl := range Tools() {
		for _, raw := range []string{`not json`, `[]`, `{"unknown": 1}`, `{"customer_id": 5, "phone_number": true, "amount": "x", "installments": "two"}`,
			`{"customer_id": "", "phone_number": "", "bill_id": "", "amount": 1e308, "installments": -1, "zip": "", "issue": "", "category": "", "reason": "", "summary": ""}`} {
			if tl.Name == ToolListPlans && raw == `{"unknown": 1}` {
				continue
			}
			_, err := env.Call(tl.Name, json.RawMessage(raw))
			if err != nil && strings.Contains(err.Error(), fmt.Sprintf("tool %s failed", tl.Name)) {
				t.Errorf("%s(%s) panicked: %v", tl.Name, raw, err)
			}
		}
	}
}
