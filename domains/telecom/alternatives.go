package telecom

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file is the catalog's Alternatives: for a gold write, the other
// calls of its tool that a customer with the task's facts could accept.
// The facts that decide a write's arguments (the user's preference
// facts) are:
//
//   - the line: phone_number, or a description of it, line_current_plan
//     (the plan name the line is on now) or line_status ("suspended");
//   - the bill: bill_month ("May 2025") or which_bill (mostRecentBill);
//   - new_plan (a plan's name), feature (featurePhrase of its name),
//     installments (a count), payment_method (PaymentMethod.Describe),
//     payment_amount (fullBalance), issue (one of issues), and the outage
//     (outage_symptom with outage_start_date).
//
// A fact may come with ordinals in a multi-intent task (second_feature).
// When one of them names or describes the gold's own value, the user
// meant the gold's (sim.MeantValues, sim.DescribedValues); otherwise
// every value the facts name stays (all of them when the facts say
// nothing). Arguments the policy decides (effective dates, credit
// amounts, ticket categories) are left open: Tracer's audit applies
// CheckPolicy.

// Preference phrases a grounder puts in facts.
const (
	mostRecentBill = "most recent" // which_bill: the latest period's bill
	fullBalance    = "the full balance"
)

func same(s string) string { return s }

// Alternatives is sim.Catalog.Alternatives for telecom: the calls of
// gold's tool, other than gold, whose arguments the facts allow (see
// above), for customer userID on env.
func Alternatives(env sim.Environment, userID string, facts map[string]string, gold emobench.Action) []emobench.Action {
	db, ok := sim.StateOf[DB](env)
	if !ok || db.Customers.At(userID) == nil {
		return nil
	}
	c := db.Customers.At(userID)
	var args map[string]any
	if json.Unmarshal(gold.Arguments, &args) != nil {
		return nil
	}
	str := func(k string) string { s, _ := args[k].(string); return s }
	lines := meantLines(c, facts, str("phone_number"))
	bills := meantBills(c, facts, str("bill_id"))
	var out []emobench.Action
	add := func(kv ...any) {
		a := sim.NewAction(gold.Name, append([]any{"customer_id", userID}, kv...)...)
		if !sim.SameCall(a, gold) {
			out = append(out, a)
		}
	}
	switch gold.Name {
	case ToolChangePlan:
		ids := sim.MeantValues(facts, "new_plan", db.Plans.Keys(), str("new_plan_id"), func(id string) string { return db.Plans.At(id).Name })
		for _, l := range lines {
			for _, p := range ids {
				for _, eff := range []string{Today, c.NextCycleStart()} {
					add("phone_number", l, "new_plan_id", p, "effective_date", eff)
				}
			}
		}
	case ToolAddFeature:
		ids := sim.MeantValues(facts, "feature", db.Features.Keys(), str("feature_id"), func(id string) string { return featurePhrase(db.Features.At(id).Name) })
		for _, l := range lines {
			for _, f := range ids {
				add("phone_number", l, "feature_id", f)
			}
		}
	case ToolReactivateLine:
		for _, l := range lines {
			add("phone_number", l)
		}
	case ToolTroubleshoot:
		for _, l := range lines {
			for _, is := range sim.MeantValues(facts, "issue", issues, str("issue"), same) {
				add("phone_number", l, "issue", is)
			}
		}
	case ToolOpenTicket:
		for _, l := range lines {
			for _, cat := range []string{TicketConnectivity, TicketBilling, TicketDevice} {
				for _, d := range c.Diagnostics {
					add("phone_number", l, "category", cat, "troubleshooting_id", d.ID)
				}
				add("phone_number", l, "category", cat)
			}
		}
	case ToolCreateArrangement:
		n, _ := args["installments"].(float64)
		counts := sim.MeantValues(facts, "installments", []string{"1", "2", "3", "4", "5", "6"}, strconv.Itoa(int(n)), same)
		for _, b := range bills {
			for _, k := range counts {
				k, _ := strconv.Atoi(k)
				add("bill_id", b, "installments", k)
			}
		}
	case ToolWaiveLateFee:
		for _, b := range bills {
			add("bill_id", b)
		}
	case ToolEnableAutopay:
		for _, m := range meantMethods(c, facts, str("payment_method_id")) {
			add("payment_method_id", m)
		}
	case ToolMakePayment:
		amount, _ := args["amount"].(float64)
		for _, b := range bills {
			bill := c.bill(b)
			amounts := []float64{amount, bill.Balance().Dollars(), (bill.Balance() - bill.LateFee).Dollars(), (bill.Balance() / 2).Dollars()}
			if slices.Contains(sim.FactValues(facts, "payment_amount"), fullBalance) {
				amounts = []float64{bill.Balance().Dollars()}
			}
			for _, m := range meantMethods(c, facts, str("payment_method_id")) {
				for _, am := range amounts {
					if am > 0 {
						add("bill_id", b, "payment_method_id", m, "amount", am)
					}
				}
			}
		}
	case ToolApplyCredit:
		amount, _ := args["amount"].(float64)
		for _, o := range meantOutages(db, c, facts, str("outage_id")) {
			for _, reason := range []string{CreditOutage, CreditGoodwill, CreditBilling} {
				for _, am := range []float64{amount, OutageCredit(db.Outages.At(o)).Dollars()} {
					add("amount", am, "reason", reason, "outage_id", o)
				}
			}
		}
	}
	return out
}

// meantLines returns the phone numbers of c's lines the facts allow for
// gold (a line's number): phone_number names one, or line_current_plan or
// line_status describes it; every line when the facts say neither.
func meantLines(c *Customer, facts map[string]string, gold string) []string {
	all := slices.Sorted(maps.Keys(c.Lines))
	if slices.Contains(sim.FactValues(facts, "phone_number"), gold) {
		return []string{gold}
	}
	if d := sim.DescribedValues(facts, "line_current_plan", all, gold, func(num, plan string) bool { return c.Lines[num] != nil && planName(c.Lines[num].PlanID) == plan }); d != nil {
		return d
	}
	if d := sim.DescribedValues(facts, "line_status", all, gold, func(num, status string) bool { return c.Lines[num] != nil && c.Lines[num].Status == status }); d != nil {
		return d
	}
	return all
}

// meantBills returns the ids of c's bills the facts allow for gold:
// bill_month names one's period, which_bill describes it; every bill
// when the facts say neither.
func meantBills(c *Customer, facts map[string]string, gold string) []string {
	ids := make([]string, len(c.Bills))
	for i, b := range c.Bills {
		ids[i] = b.ID
	}
	month := func(id string) string {
		if b := c.bill(id); b != nil {
			return monthName(b.Period)
		}
		return ""
	}
	if slices.Contains(sim.FactValues(facts, "bill_month"), month(gold)) {
		return []string{gold}
	}
	if d := sim.DescribedValues(facts, "which_bill", ids, gold, func(id, which string) bool { return which == mostRecentBill && len(ids) > 0 && id == ids[len(ids)-1] }); d != nil {
		return d
	}
	return ids
}

// meantMethods returns the ids of c's payment methods the facts allow
// for gold.
func meantMethods(c *Customer, facts map[string]string, gold string) []string {
	return sim.MeantValues(facts, "payment_method", slices.Sorted(maps.Keys(c.PaymentMethods)), gold, func(id string) string {
		if pm := c.PaymentMethods[id]; pm != nil {
			return pm.Describe()
		}
		return ""
	})
}

// meantOutages returns the ids of the outages over c's zip that fit the
// facts' outage_start_date and outage_symptom (all of them when the facts
// give neither), or gold's when they name it.
func meantOutages(db *DB, c *Customer, facts map[string]string, gold string) []string {
	starts, symptoms := sim.FactValues(facts, "outage_start_date"), sim.FactValues(facts, "outage_symptom")
	var out []string
	for _, id := range db.Outages.Keys() {
		o := db.Outages.At(id)
		if !slices.Contains(o.Zips, c.Address.Zip) || len(starts) > 0 && !slices.Contains(starts, o.Start) {
			continue
		}
		if len(symptoms) > 0 && !slices.ContainsFunc(symptoms, func(s string) bool { return slices.Contains(symptomsOf(o.Service), s) }) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// planName returns plan id's name, or "" for an unknown id.
func planName(id string) string {
	for _, p := range plans {
		if p.ID == id {
			return p.Name
		}
	}
	return ""
}
