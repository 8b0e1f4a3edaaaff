package telecom

import (
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
// follow the generator instead of hard-coding its ids.

// customerWhere returns the first customer (by id) ok accepts.
func customerWhere(t *testing.T, desc string, ok func(*Customer) bool) *Customer {
	t.Helper()
	db := initialState()
	for _, c := range db.Customers.All() {
		if ok(c) {
			return c
		}
	}
	t.Fatalf("no customer %s in the default database", desc)
	return nil
}

// lineWhere returns a customer and a line of theirs that ok accepts.
func lineWhere(t *testing.T, desc string, ok func(*Customer, *Line) bool) (c *Customer, line *Line) {
	t.Helper()
	c = customerWhere(t, desc, func(c *Customer) bool {
		i := slices.IndexFunc(slices.Sorted(maps.Keys(c.Lines)), func(n string) bool { return ok(c, c.Lines[n]) })
		line = c.Lines[slices.Sorted(maps.Keys(c.Lines))[max(i, 0)]]
		return i >= 0
	})
	return c, line
}

func billWhere(c *Customer, ok func(*Bill) bool) *Bill {
	if i := slices.IndexFunc(c.Bills, ok); i >= 0 {
		return c.Bills[i]
	}
	return nil
}

// call makes a on env and fails the test on an error.
func call(t *testing.T, env *sim.StateEnv[DB], a emobench.Action) string {
	t.Helper()
	res, err := env.Call(a.Name, a.Arguments)
	if err != nil {
		t.Fatalf("%s%s: %v", a.Name, a.Arguments, err)
	}
	return res
}

func firstMethod(c *Customer) string { return slices.Sorted(maps.Keys(c.PaymentMethods))[0] }

// has accepts a result holding every one of subs.
func has(subs ...string) func(string, *DB) bool {
	return func(res string, _ *DB) bool {
		return !slices.ContainsFunc(subs, func(s string) bool { return !strings.Contains(res, s) })
	}
}

// TestTools makes each call a on a fresh environment, after setup and the
// writes steps (if any), and checks one of three things:
//   - ok: a's result and the state after it (the tool's result);
//   - err: a fails with an error holding err, leaving the state unchanged
//     (what the backend cannot do);
//   - rule ("breaks: RULE"): a is a write policy.md forbids for the
//     verified user: CheckPolicy sees the violation of rule, and the tool
//     carries the write out (the agent is the one to refuse).
func TestTools(t *testing.T) {
	db := initialState()
	c, l := lineWhere(t, "with an installment", func(c *Customer, l *Line) bool { return c.Devices[l.DeviceIMEI].InstallmentBalance > 0 })
	o := db.Outages.At(db.Outages.Keys()[0])
	cf, lf := lineWhere(t, "active, without features", func(c *Customer, l *Line) bool { return isActive(l) && len(l.Features) == 0 })
	id, num := cf.ID, lf.PhoneNumber
	cn, ln := lineWhere(t, "with corrupt settings", func(c *Customer, l *Line) bool { return troubleshootable(c, l, ConditionNetworkConfig) })
	ch, lh := lineWhere(t, "with a hardware fault", func(c *Customer, l *Line) bool { return troubleshootable(c, l, ConditionHardware) })
	ca, la := lineWhere(t, "active, cycle not today", func(c *Customer, l *Line) bool { return isActive(l) && c.NextCycleStart() != Today })
	p1, p2 := newPlanFor(rand.New(rand.NewPCG(1, 2)), ca, la).ID, newPlanFor(rand.New(rand.NewPCG(3, 4)), ca, la).ID
	line := func(db *DB) *Line { return db.Customers.At(ca.ID).Lines[la.PhoneNumber] }
	cs, ls := lineWhere(t, "suspended, without roaming, with an overdue balance", func(c *Customer, l *Line) bool {
		return l.Status == LineSuspended && hasOverdueBalance(c) && !slices.Contains(l.Features, "international_roaming")
	})
	bs := billWhere(cs, isOverdue)
	isPaid := func(b *Bill) bool { return b.Status == BillPaid }
	co := customerWhere(t, "overdue, with a paid bill, without autopay or arrangement", func(c *Customer) bool {
		return !c.Autopay && c.activeArrangement() == nil && billWhere(c, isOverdue) != nil && billWhere(c, isPaid) != nil
	})
	bo, paid, pm := billWhere(co, isOverdue), billWhere(co, isPaid), firstMethod(co)
	cu := customerWhere(t, "with an unpaid bill not yet due", func(c *Customer) bool {
		return billWhere(c, func(b *Bill) bool { return b.Status == BillUnpaid }) != nil && c.activeArrangement() == nil
	})
	c3 := customerWhere(t, "with an active arrangement", func(c *Customer) bool { return c.activeArrangement() != nil })
	old := customerWhere(t, "65+ without the discount", func(c *Customer) bool { return c.Age() >= 65 && !c.SeniorDiscount })
	young := customerWhere(t, "under 65", func(c *Customer) bool { return c.Age() < 65 })
	cw := customerWhere(t, "with a late fee, a bill without and no recent waiver", func(c *Customer) bool {
		return waiverWithinYear(c) == nil && billWhere(c, hasLateFee) != nil && billWhere(c, func(b *Bill) bool { return b.LateFee == 0 }) != nil
	})
	bw, nofee := billWhere(cw, hasLateFee), billWhere(cw, func(b *Bill) bool { return b.LateFee == 0 })
	cr := customerWhere(t, "with a late fee and a recent waiver", func(c *Customer) bool { return waiverWithinYear(c) != nil && billWhere(c, hasLateFee) != nil })
	cc := customerWhere(t, "in an outage zip", func(c *Customer) bool { o, _ := creditableOutage(db, c, rand.New(rand.NewPCG(1, 2))); return o != nil })
	oc, _ := creditableOutage(db, cc, rand.New(rand.NewPCG(1, 2)))
	credit := sim.NewAction(ToolApplyCredit, "customer_id", cc.ID, "amount", OutageCredit(oc).Dollars(), "reason", CreditOutage, "outage_id", oc.ID)
	roaming := func(c *Customer, l *Line) emobench.Action {
		return sim.NewAction(ToolAddFeature, "customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", "international_roaming")
	}
	for _, tc := range []struct {
		what, user, rule, err string
		setup                 func(*DB)
		steps                 []emobench.Action
		a                     emobench.Action
		ok                    func(res string, db *DB) bool
	}{
		{what: "find by phone", a: sim.NewAction(ToolFindByPhone, "phone_number", c.ContactPhone), ok: has(c.ID)},
		{a: sim.NewAction(ToolFindByPhone, "phone_number", "000-555-0000"), err: "no customer"},
		{what: "find by name and dob", a: sim.NewAction(ToolFindByNameDOB, "first_name", strings.ToLower(c.FirstName), "last_name", c.LastName, "date_of_birth", c.DateOfBirth), ok: has(c.ID)},
		{a: sim.NewAction(ToolFindByNameDOB, "first_name", c.FirstName, "last_name", c.LastName, "date_of_birth", "1900-01-01"), err: "no customer"},
		{what: "get_customer_details", a: sim.NewAction(ToolGetCustomer, "customer_id", c.ID), ok: has(`"next_billing_cycle_start":"`+c.NextCycleStart()+`"`, l.PhoneNumber)},
		{a: sim.NewAction(ToolGetCustomer, "customer_id", "C000000"), err: "not found"},
		{what: "get_line_details: the installment balance, not the device's condition", a: sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber),
			ok: func(res string, _ *DB) bool {
				return has(c.Devices[l.DeviceIMEI].InstallmentBalance.String())(res, nil) && !strings.Contains(res, "condition")
			}},
		{a: sim.NewAction(ToolGetLine, "customer_id", id, "phone_number", "000-555-0000"), err: "has no line"},
		{what: "get_billing_history", a: sim.NewAction(ToolGetBilling, "customer_id", c.ID), ok: has(c.Bills[3].ID, `"balance":`)},
		{what: "list_plans", a: sim.NewAction(ToolListPlans), ok: func(res string, _ *DB) bool {
			return strings.Count(res, `"plan_id"`) == len(plans) && strings.Count(res, `"feature_id"`) == len(features)
		}},
		{what: "check_network_outages", a: sim.NewAction(ToolCheckOutages, "zip", o.Zips[0]), ok: has(o.ID)},
		{a: sim.NewAction(ToolCheckOutages, "zip", "9722"), err: "five-digit"},
		{what: "transfer", a: sim.NewAction(ToolTransfer, "summary", "port-out"), ok: func(res string, _ *DB) bool { return res == transferMessage }},
		{a: sim.NewAction(ToolTransfer, "summary", " "), err: "must not be empty"},
		{what: "troubleshooting corrupt settings resets them", a: sim.NewAction(ToolTroubleshoot, "customer_id", cn.ID, "phone_number", ln.PhoneNumber, "issue", "slow data"), ok: func(res string, db *DB) bool {
			return has(`"result":"resolved"`, nextDiagnosticID(cn))(res, db) && db.Customers.At(cn.ID).Devices[ln.DeviceIMEI].Condition == ConditionOK
		}},
		{what: "troubleshooting a hardware fault", a: sim.NewAction(ToolTroubleshoot, "customer_id", ch.ID, "phone_number", lh.PhoneNumber, "issue", "dropped calls"), ok: has(`"result":"unresolved"`)},
		{a: sim.NewAction(ToolTroubleshoot, "customer_id", id, "phone_number", num, "issue", "it is broken"), err: "is not one of"},
		{user: cs.ID, rule: RuleLineActive, a: sim.NewAction(ToolTroubleshoot, "customer_id", cs.ID, "phone_number", ls.PhoneNumber, "issue", "no signal")},
		{what: "a ticket attaches the run", steps: []emobench.Action{sim.NewAction(ToolTroubleshoot, "customer_id", ch.ID, "phone_number", lh.PhoneNumber, "issue", "dropped calls")},
			a: sim.NewAction(ToolOpenTicket, "customer_id", ch.ID, "phone_number", lh.PhoneNumber, "category", TicketConnectivity, "troubleshooting_id", nextDiagnosticID(ch)), ok: has(nextDiagnosticID(ch), "unresolved")},
		{a: sim.NewAction(ToolOpenTicket, "customer_id", id, "phone_number", num, "category", TicketConnectivity, "troubleshooting_id", "TS0"), err: "no troubleshooting run"},
		{a: sim.NewAction(ToolOpenTicket, "customer_id", id, "phone_number", num, "category", "weather"), err: "is not connectivity"},
		{user: ch.ID, rule: RuleTicketAfterTroubleshooting, a: sim.NewAction(ToolOpenTicket, "customer_id", ch.ID, "phone_number", lh.PhoneNumber, "category", TicketConnectivity)},
		{what: "a change at the next cycle is scheduled", a: sim.NewAction(ToolChangePlan, "customer_id", ca.ID, "phone_number", la.PhoneNumber, "new_plan_id", p1, "effective_date", ca.NextCycleStart()),
			ok: func(_ string, db *DB) bool {
				return line(db).PlanID == la.PlanID && line(db).PendingPlanID == p1 && line(db).PendingEffectiveOn == ca.NextCycleStart()
			}},
		{what: "a change effective today is made at once", steps: []emobench.Action{sim.NewAction(ToolChangePlan, "customer_id", ca.ID, "phone_number", la.PhoneNumber, "new_plan_id", p1, "effective_date", ca.NextCycleStart())},
			a: sim.NewAction(ToolChangePlan, "customer_id", ca.ID, "phone_number", la.PhoneNumber, "new_plan_id", p2, "effective_date", Today), ok: func(_ string, db *DB) bool { return line(db).PlanID == p2 && line(db).PendingPlanID == "" }},
		{a: sim.NewAction(ToolChangePlan, "customer_id", id, "phone_number", num, "new_plan_id", lf.PlanID, "effective_date", Today), err: "already on plan"},
		{a: sim.NewAction(ToolChangePlan, "customer_id", id, "phone_number", num, "new_plan_id", "business_pro", "effective_date", "2025-06-01"), err: "in the past"},
		{user: ca.ID, rule: RulePlanChangeAtCycle, a: sim.NewAction(ToolChangePlan, "customer_id", ca.ID, "phone_number", la.PhoneNumber, "new_plan_id", p1, "effective_date", Today)},
		{user: cs.ID, rule: RuleLineActive, a: sim.NewAction(ToolChangePlan, "customer_id", cs.ID, "phone_number", ls.PhoneNumber, "new_plan_id", newPlanFor(rand.New(rand.NewPCG(1, 2)), cs, ls).ID, "effective_date", cs.NextCycleStart())},
		// Another customer's line, for the verified one: the tools cannot know.
		{user: cs.ID, rule: RuleOwnAccount, a: sim.NewAction(ToolChangePlan, "customer_id", ca.ID, "phone_number", la.PhoneNumber, "new_plan_id", p1, "effective_date", ca.NextCycleStart())},
		{steps: []emobench.Action{roaming(cf, lf)}, a: roaming(cf, lf), err: "already has"},
		{user: cs.ID, rule: RuleLineActive, a: roaming(cs, ls)},
		{steps: []emobench.Action{sim.NewAction(ToolSeniorDiscount, "customer_id", old.ID)}, a: sim.NewAction(ToolSeniorDiscount, "customer_id", old.ID), err: "already has"},
		{user: young.ID, rule: RuleSeniorAge, a: sim.NewAction(ToolSeniorDiscount, "customer_id", young.ID)},
		{what: "an arrangement of the balance", a: sim.NewAction(ToolCreateArrangement, "customer_id", co.ID, "bill_id", bo.ID, "installments", 3), ok: has(bo.Balance().String())},
		{a: sim.NewAction(ToolCreateArrangement, "customer_id", co.ID, "bill_id", paid.ID, "installments", 2), err: "nothing left"},
		{a: sim.NewAction(ToolCreateArrangement, "customer_id", co.ID, "bill_id", bo.ID, "installments", 13), err: "outside 1 to 12"},
		{user: co.ID, rule: RuleArrangementInstallments, a: sim.NewAction(ToolCreateArrangement, "customer_id", co.ID, "bill_id", bo.ID, "installments", 6)},
		{steps: []emobench.Action{sim.NewAction(ToolCreateArrangement, "customer_id", co.ID, "bill_id", bo.ID, "installments", 6)}, a: sim.NewAction(ToolCreateArrangement, "customer_id", co.ID, "bill_id", bo.ID, "installments", 2), err: "already under arrangement"},
		{user: cu.ID, rule: RuleArrangementOverdue, a: sim.NewAction(ToolCreateArrangement, "customer_id", cu.ID, "bill_id", billWhere(cu, func(b *Bill) bool { return b.Status == BillUnpaid }).ID, "installments", 2)},
		// A second overdue bill beside one under an active arrangement (the
		// generator gives each customer one overdue bill at most).
		{user: c3.ID, rule: RuleArrangementSingle, a: sim.NewAction(ToolCreateArrangement, "customer_id", c3.ID, "bill_id", c3.Bills[0].ID, "installments", 2), setup: func(db *DB) {
			c, _ := db.Customers.Edit(c3.ID)
			c.Bills[0].Paid, c.Bills[0].Status = 0, BillOverdue
		}},
		{steps: []emobench.Action{sim.NewAction(ToolEnableAutopay, "customer_id", co.ID, "payment_method_id", pm)}, a: sim.NewAction(ToolEnableAutopay, "customer_id", co.ID, "payment_method_id", pm), err: "already on"},
		{a: sim.NewAction(ToolEnableAutopay, "customer_id", co.ID, "payment_method_id", "pm_other"), err: "no payment method"},
		{what: "a full payment completes the arrangement", steps: []emobench.Action{sim.NewAction(ToolCreateArrangement, "customer_id", co.ID, "bill_id", bo.ID, "installments", 3)},
			a: sim.NewAction(ToolMakePayment, "customer_id", co.ID, "bill_id", bo.ID, "payment_method_id", pm, "amount", bo.Balance().Dollars()), ok: func(res string, db *DB) bool {
				nc := db.Customers.At(co.ID)
				return nc.bill(bo.ID).Status == BillPaid && nc.bill(bo.ID).Balance() == 0 && strings.Contains(res, `"bill_status":"paid"`) && nc.activeArrangement() == nil
			}},
		{a: sim.NewAction(ToolMakePayment, "customer_id", co.ID, "bill_id", bo.ID, "payment_method_id", pm, "amount", bo.Balance().Dollars()+1), err: "more than the balance"},
		{what: "reactivation after paying", steps: []emobench.Action{sim.NewAction(ToolMakePayment, "customer_id", cs.ID, "bill_id", bs.ID, "payment_method_id", firstMethod(cs), "amount", bs.Balance().Dollars())},
			a: sim.NewAction(ToolReactivateLine, "customer_id", cs.ID, "phone_number", ls.PhoneNumber), ok: func(_ string, db *DB) bool { return isActive(db.Customers.At(cs.ID).Lines[ls.PhoneNumber]) }},
		{a: sim.NewAction(ToolReactivateLine, "customer_id", id, "phone_number", num), err: "not suspended"},
		{user: cs.ID, rule: RuleReactivateAfterPayment, a: sim.NewAction(ToolReactivateLine, "customer_id", cs.ID, "phone_number", ls.PhoneNumber)},
		{what: "the outage credit", a: credit, ok: has(`"kind":"network_outage"`, oc.ID)},
		{user: cc.ID, rule: RuleOutageCredit, steps: []emobench.Action{credit}, a: credit}, // a second credit for the outage
		{user: cc.ID, rule: RuleOutageCredit, a: sim.NewAction(ToolApplyCredit, "customer_id", cc.ID, "amount", 50, "reason", CreditGoodwill)},
		{user: cc.ID, rule: RuleOutageCredit, a: sim.NewAction(ToolApplyCredit, "customer_id", cc.ID, "amount", OutageCredit(oc).Dollars()+5, "reason", CreditOutage, "outage_id", oc.ID)},
		{a: sim.NewAction(ToolApplyCredit, "customer_id", id, "amount", 5, "reason", CreditOutage, "outage_id", "OUT-0"), err: "not found"},
		{a: sim.NewAction(ToolApplyCredit, "customer_id", id, "amount", 5, "reason", "because"), err: "is not network_outage"},
		{a: sim.NewAction(ToolApplyCredit, "customer_id", id, "amount", 0, "reason", CreditOutage), err: "not a positive number"},
		{what: "a waiver leaves the balance less the fee", a: sim.NewAction(ToolWaiveLateFee, "customer_id", cw.ID, "bill_id", bw.ID), ok: has((bw.Balance() - lateFee).String())},
		{steps: []emobench.Action{sim.NewAction(ToolWaiveLateFee, "customer_id", cw.ID, "bill_id", bw.ID)}, a: sim.NewAction(ToolWaiveLateFee, "customer_id", cw.ID, "bill_id", bw.ID), err: "already waived"},
		{a: sim.NewAction(ToolWaiveLateFee, "customer_id", cw.ID, "bill_id", nofee.ID), err: "no late fee"},
		{user: cr.ID, rule: RuleLateFeeOncePerYear, a: sim.NewAction(ToolWaiveLateFee, "customer_id", cr.ID, "bill_id", billWhere(cr, hasLateFee).ID)},
	} {
		env := newEnv()
		if tc.setup != nil {
			tc.setup(env.State)
		}
		for _, s := range tc.steps {
			call(t, env, s)
		}
		what := fmt.Sprintf("%s%s", tc.a.Name, tc.a.Arguments)
		if tc.rule != "" {
			what = "breaks " + tc.rule + ": " + what
			if err := CheckPolicy(env, tc.user, tc.a); !isViolation(err, tc.rule) {
				t.Errorf("%s: CheckPolicy = %v, want a %s violation", what, err, tc.rule)
			}
		}
		before := env.Hash()
		res, err := env.Call(tc.a.Name, tc.a.Arguments)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || env.Hash() != before):
			t.Errorf("%s: error %v, state changed %v; want an error with %q and no change", what, err, env.Hash() != before, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", what, err)
		case tc.rule != "" && env.Hash() == before:
			t.Errorf("%s: the state did not change (the tools leave this rule to the agent)", what)
		case tc.ok != nil && !tc.ok(res, env.State):
			t.Errorf("%s: %s = %s", tc.what, what, res)
		}
	}
	if err := CheckPolicy(newEnv(), cc.ID, credit); err != nil {
		t.Errorf("the outage credit: %v", err)
	}
}

// TestWaiveLateFee_EitherOrder checks that paying an overdue bill less its
// late fee and waiving the fee leave the same state in either order: the
// bill paid and the account, with no other overdue bill, active again.
func TestWaiveLateFee_EitherOrder(t *testing.T) {
	c := customerWhere(t, "past due with one overdue bill, which has a late fee", func(c *Customer) bool {
		return c.Status == "past_due" && len(slices.DeleteFunc(slices.Clone(c.Bills), func(b *Bill) bool { return b.Status != BillOverdue })) == 1 && hasLateFee(billWhere(c, isOverdue))
	})
	b := billWhere(c, isOverdue)
	pay := sim.NewAction(ToolMakePayment, "customer_id", c.ID, "bill_id", b.ID, "payment_method_id", firstMethod(c), "amount", (b.Balance() - b.LateFee).Dollars())
	waive := sim.NewAction(ToolWaiveLateFee, "customer_id", c.ID, "bill_id", b.ID)
	var hashes []string
	for _, order := range [][]emobench.Action{{pay, waive}, {waive, pay}} {
		env := newEnv()
		call(t, env, order[0])
		call(t, env, order[1])
		if got := env.State.Customers.At(c.ID); got.Status != "active" || got.bill(b.ID).Status != BillPaid {
			t.Errorf("%s, then %s: account %s, bill %s %s; want active and paid", order[0].Name, order[1].Name, got.Status, b.ID, got.bill(b.ID).Status)
		}
		hashes = append(hashes, env.Hash())
	}
	if hashes[0] != hashes[1] {
		t.Errorf("hash after paying then waiving = %s, after waiving then paying %s; want equal", hashes[0], hashes[1])
	}
}
