package telecom

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file holds the catalog's grounders: each reads the state (never
// changes it) and returns one instance of its intent for the customer.

// customerOf returns the database and g's customer.
func customerOf(g sim.GroundContext) (*DB, *Customer, bool) {
	db, ok := sim.StateOf[DB](g.Env)
	if !ok {
		return nil, nil, false
	}
	c := db.Customers.At(g.UserID)
	return db, c, c != nil
}

// pickLine picks a line of c that keep accepts; nil and false when none
// does.
func pickLine(g sim.GroundContext, c *Customer, keep func(l *Line) bool) (*Line, bool) {
	nums := slices.DeleteFunc(slices.Sorted(maps.Keys(c.Lines)), func(n string) bool { return !keep(c.Lines[n]) })
	num, ok := sim.PickFresh(g, nums)
	return c.Lines[num], ok
}

// lineOf returns the database, g's customer and a line of theirs that
// keep accepts (pickLine); keep may also test the customer, since it
// draws nothing from g.Rand.
func lineOf(g sim.GroundContext, keep func(c *Customer, l *Line) bool) (*DB, *Customer, *Line, bool) {
	db, c, ok := customerOf(g)
	if !ok {
		return nil, nil, nil, false
	}
	l, ok := pickLine(g, c, func(l *Line) bool { return keep(c, l) })
	return db, c, l, ok
}

// billOf returns g's customer and a bill of theirs that keep accepts, as
// lineOf does for a line.
func billOf(g sim.GroundContext, keep func(c *Customer, b *Bill) bool) (*Customer, *Bill, bool) {
	_, c, ok := customerOf(g)
	if !ok {
		return nil, nil, false
	}
	var ids []string
	for _, b := range c.Bills {
		if keep(c, b) {
			ids = append(ids, b.ID)
		}
	}
	id, ok := sim.PickFresh(g, ids)
	return c, c.bill(id), ok
}

// once reports whether the customer-level request key was not asked yet
// in the task, for requests made once a task (the senior discount).
func once(g sim.GroundContext, key string) bool { return !sim.UsedInTask(g, g.UserID+"/"+key) }

func isActive(l *Line) bool { return l.Status == LineActive }

// monthName says a bill's period as a customer does: "April 2025".
func monthName(period string) string {
	t, err := time.Parse("2006-01", period)
	if err != nil {
		return period
	}
	return t.Format("January 2006")
}

// Why a customer asks a question: about money (a bill, a device balance,
// the billing cycle), about a plan, about an outage.
var (
	moneyPurposes = []string{
		"to plan my budget this month", "because I'm comparing offers", "for my records",
		"before I decide anything", "so I can tell my partner",
	}
	planPurposes = []string{
		"because I'm comparing offers", "for my records", "before I decide anything",
		"so I can tell my partner", "before I travel next month",
	}
	outagePurposes = []string{
		"because I work from home", "so I know whether to wait it out", "before I restart my phone again",
		"so I can tell my partner",
	}
)

// pickPurpose picks one of purposes that no earlier intent of the task
// gave, so one instruction does not say the same reason twice; the
// returned use marks it.
func pickPurpose(g sim.GroundContext, purposes []string) (purpose, use string) {
	var fresh []string
	for _, p := range purposes {
		if !sim.UsedInTask(g, "purpose:"+p) {
			fresh = append(fresh, p)
		}
	}
	if len(fresh) == 0 {
		fresh = purposes
	}
	p := fresh[g.Rand.IntN(len(fresh))]
	return p, "purpose:" + p
}

// featurePhrase says a feature's name inside a sentence: lower case but
// for acronyms and sizes ("mobile hotspot 15GB", "HD video streaming").
func featurePhrase(name string) string {
	words := strings.Fields(name)
	for i, w := range words {
		if strings.ToUpper(w) != w {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

// chargePhrase says a bill's line item as a customer disputing it does:
// "the Unlimited Plus plan charge for 503-555-0101", "the device
// installment for my Pixel 8".
func chargePhrase(item string) string {
	what, whose, ok := strings.Cut(item, ", ")
	switch {
	case !ok:
		return item + " charge"
	case what == "Device installment":
		return "device installment for my " + whose
	}
	return what + " charge for " + whose
}

// issuePhrase says a troubleshooting issue as a customer does, as a noun
// phrase that fits "I've had …" and "the … on line": "trouble sending
// texts" for "cannot send texts".
func issuePhrase(issue string) string {
	if issue == "cannot send texts" {
		return "trouble sending texts"
	}
	return issue
}

// lineRef says line l of c as the customer does in a template's {line}:
// "line 503-555-0101" (fact phone_number) or, two times in three when a
// description names l alone among c's lines, "my suspended line" (fact
// line_status) or "my line on the Essential 10GB plan" (fact
// line_current_plan; not while a line has a change to or from that plan
// pending, which would make "on" ambiguous), which the agent finds
// through the account (findable: the gold then reads the account first).
func lineRef(g sim.GroundContext, c *Customer, l *Line) (ref string, facts map[string]string, findable bool) {
	same := func(keep func(*Line) bool) int {
		n := 0
		for _, o := range c.Lines {
			if keep(o) {
				n++
			}
		}
		return n
	}
	if g.WantTraits || g.Rand.IntN(3) != 0 {
		switch {
		case l.Status == LineSuspended && same(func(o *Line) bool { return o.Status == LineSuspended }) == 1:
			return "my suspended line", map[string]string{"line_status": LineSuspended}, true
		case len(c.Lines) > 1 && same(func(o *Line) bool { return o.PlanID == l.PlanID || o.PendingPlanID == l.PlanID }) == 1 && l.PendingPlanID == "":
			name := planName(l.PlanID)
			return "my line on the " + name + " plan", map[string]string{"line_current_plan": name}, true
		}
	}
	return "line " + l.PhoneNumber, map[string]string{"phone_number": l.PhoneNumber}, false
}

// withLine puts line l's reference (lineRef) in gr's {line} slot and
// facts; a findable reference reads the account first and marks the
// grounding findable.
func withLine(g sim.GroundContext, c *Customer, l *Line, gr sim.Grounding) sim.Grounding {
	ref, facts, findable := lineRef(g, c, l)
	gr.Slots["line"], gr.Slots["Line"] = ref, sim.Capitalize(ref)
	maps.Copy(gr.Facts, facts)
	if findable {
		delete(gr.Facts, "phone_number")
		gr.Traits = append(gr.Traits, emobench.TraitFindable)
		if gr.Actions[0].Name != ToolGetCustomer {
			gr.Actions = append([]emobench.Action{sim.NewAction(ToolGetCustomer, "customer_id", c.ID)}, gr.Actions...)
		}
	}
	gr.Request.Text = strings.ReplaceAll(gr.Request.Text, "line "+l.PhoneNumber, ref)
	return gr
}

// billRef says bill b of c as the customer does in a template's
// "{month} bill": its month ("May 2025", fact bill_month) or, two times
// in three when b is c's latest bill, "most recent" (fact which_bill),
// which the agent finds in the billing history.
func billRef(g sim.GroundContext, c *Customer, b *Bill, gr sim.Grounding) sim.Grounding {
	ref := monthName(b.Period)
	gr.Facts["bill_month"] = ref
	if c.Bills[len(c.Bills)-1] == b && (g.WantTraits || g.Rand.IntN(3) != 0) {
		ref = mostRecentBill
		delete(gr.Facts, "bill_month")
		gr.Facts["which_bill"] = ref
		gr.Traits = append(gr.Traits, emobench.TraitFindable)
	}
	gr.Slots["month"] = ref
	gr.Request.Text = strings.ReplaceAll(gr.Request.Text, "{month}", ref)
	return gr
}

// Outputs as the agent may say them: an amount with its unit, a status
// with its synonyms (emobench.TaskSpec.Outputs).
func moneyOutput(m sim.Money) string { return "$" + m.String() + "|" + m.String() + " dollars" }

const (
	resolvedOutput   = "resolved|fixed|working again|working now"
	unresolvedOutput = "unresolved|not resolved|not fixed|did not fix|didn't fix|still not working"
)

// newPlanFor picks a plan the line is not on, none is pending for and
// whose max_lines takes c's lines.
func newPlanFor(r *rand.Rand, c *Customer, l *Line) *Plan {
	var cands []*Plan
	for i := range plans {
		if p := &plans[i]; p.ID != l.PlanID && p.ID != l.PendingPlanID && planFits(p, c) {
			cands = append(cands, p)
		}
	}
	return cands[r.IntN(len(cands))]
}

// methodOf picks one of c's payment methods.
func methodOf(r *rand.Rand, c *Customer) *PaymentMethod {
	ids := slices.Sorted(maps.Keys(c.PaymentMethods))
	return c.PaymentMethods[ids[r.IntN(len(ids))]]
}

// --- writes ---------------------------------------------------------------

func groundChangePlan(withFeature bool) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool {
			return isActive(l) && l.PendingPlanID == "" && (!withFeature || !slices.Contains(l.Features, "international_roaming"))
		})
		if !ok {
			return sim.Grounding{}, false
		}
		p := newPlanFor(g.Rand, c, l)
		eff := c.NextCycleStart()
		gr := sim.Grounding{
			Slots:   map[string]string{"phone_number": l.PhoneNumber, "plan": p.Name},
			Facts:   map[string]string{"phone_number": l.PhoneNumber, "new_plan": p.Name},
			Request: emobench.Request{Text: fmt.Sprintf("Change the plan of line %s to %s.", l.PhoneNumber, p.Name), Tools: []string{ToolChangePlan}},
			Actions: []emobench.Action{sim.NewAction(ToolGetCustomer, "customer_id", c.ID),
				sim.NewAction(ToolChangePlan, "customer_id", c.ID, "phone_number", l.PhoneNumber, "new_plan_id", p.ID, "effective_date", eff)},
			Outputs: []string{eff},
			Uses:    []string{l.PhoneNumber},
		}
		if withFeature {
			f := "international_roaming"
			gr.Slots["feature"] = "international roaming"
			gr.Facts["feature"] = "international roaming"
			gr.Request.Text = fmt.Sprintf("Change the plan of line %s to %s and add international roaming.", l.PhoneNumber, p.Name)
			gr.Request.Tools = []string{ToolChangePlan, ToolAddFeature}
			gr.Actions = append(gr.Actions, sim.NewAction(ToolAddFeature, "customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", f))
		}
		return withLine(g, c, l, gr), true
	}
}

func groundAddFeature(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool { return isActive(l) && len(l.Features) < len(features) })
	if !ok {
		return sim.Grounding{}, false
	}
	var missing []string
	for _, id := range db.Features.Keys() {
		if !slices.Contains(l.Features, id) {
			missing = append(missing, id)
		}
	}
	f := db.Features.At(missing[g.Rand.IntN(len(missing))])
	name := featurePhrase(f.Name)
	return withLine(g, c, l, sim.Grounding{
		Slots:   map[string]string{"phone_number": l.PhoneNumber, "feature": name},
		Facts:   map[string]string{"phone_number": l.PhoneNumber, "feature": name},
		Request: emobench.Request{Text: fmt.Sprintf("Add %s to line %s.", name, l.PhoneNumber), Tools: []string{ToolAddFeature}},
		Actions: []emobench.Action{sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber),
			sim.NewAction(ToolAddFeature, "customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", f.ID)},
		Uses: []string{l.PhoneNumber},
	}), true
}

func groundSeniorDiscount(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, ok := customerOf(g)
	if !ok || c.SeniorDiscount || c.Age() < 65 || !once(g, "senior") {
		return sim.Grounding{}, false
	}
	age := strconv.Itoa(c.Age())
	return sim.Grounding{
		Slots:   map[string]string{"age": age},
		Facts:   map[string]string{"age": age},
		Request: emobench.Request{Text: "Apply the senior discount to my bills.", Tools: []string{ToolSeniorDiscount}},
		Actions: []emobench.Action{sim.NewAction(ToolGetCustomer, "customer_id", c.ID), sim.NewAction(ToolSeniorDiscount, "customer_id", c.ID)},
		Uses:    []string{c.ID + "/senior"},
	}, true
}

func isOverdue(b *Bill) bool { return b.Status == BillOverdue && b.Balance() > 0 }

func groundArrangement(withAutopay bool) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		c, b, ok := billOf(g, func(c *Customer, b *Bill) bool {
			return c.activeArrangement() == nil && !(withAutopay && c.Autopay) && isOverdue(b)
		})
		if !ok {
			return sim.Grounding{}, false
		}
		n := 2 + g.Rand.IntN(2)
		month := monthName(b.Period)
		gr := sim.Grounding{
			Slots:   map[string]string{"month": month, "installments": strconv.Itoa(n)},
			Facts:   map[string]string{"bill_month": month, "installments": strconv.Itoa(n)},
			Request: emobench.Request{Text: fmt.Sprintf("Set up a payment arrangement for my %s bill in %d installments.", month, n), Tools: []string{ToolCreateArrangement}},
			Actions: []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID),
				sim.NewAction(ToolCreateArrangement, "customer_id", c.ID, "bill_id", b.ID, "installments", n)},
			Uses: []string{b.ID},
		}
		if withAutopay {
			pm := methodOf(g.Rand, c)
			gr.Slots["payment"] = pm.Describe()
			gr.Facts["payment_method"] = pm.Describe()
			gr.Request.Text = fmt.Sprintf("Set up a payment arrangement for my %s bill in %d installments, then enable autopay with my %s.", month, n, pm.Describe())
			gr.Request.Tools = []string{ToolCreateArrangement, ToolEnableAutopay}
			gr.Actions = append(gr.Actions, sim.NewAction(ToolEnableAutopay, "customer_id", c.ID, "payment_method_id", pm.ID))
			gr.Uses = append(gr.Uses, c.ID+"/autopay")
		}
		return gr, true
	}
}

func groundAutopay(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, ok := customerOf(g)
	if !ok || c.Autopay || !once(g, "autopay") {
		return sim.Grounding{}, false
	}
	pm := methodOf(g.Rand, c)
	return sim.Grounding{
		Slots:   map[string]string{"payment": pm.Describe()},
		Facts:   map[string]string{"payment_method": pm.Describe()},
		Request: emobench.Request{Text: fmt.Sprintf("Enable autopay with my %s.", pm.Describe()), Tools: []string{ToolEnableAutopay}},
		Actions: []emobench.Action{sim.NewAction(ToolGetCustomer, "customer_id", c.ID), sim.NewAction(ToolEnableAutopay, "customer_id", c.ID, "payment_method_id", pm.ID)},
		Uses:    []string{c.ID + "/autopay"},
	}, true
}

func hasLateFee(b *Bill) bool { return b.LateFee > 0 && !b.LateFeeWaived }

func groundWaiveLateFee(g sim.GroundContext) (sim.Grounding, bool) {
	c, b, ok := billOf(g, func(c *Customer, b *Bill) bool { return waiverWithinYear(c) == nil && hasLateFee(b) })
	if !ok {
		return sim.Grounding{}, false
	}
	return billRef(g, c, b, sim.Grounding{
		Slots:   map[string]string{},
		Facts:   map[string]string{},
		Request: emobench.Request{Text: "Waive the late fee on my {month} bill and tell me its balance.", Tools: []string{ToolWaiveLateFee}},
		Actions: []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID), sim.NewAction(ToolWaiveLateFee, "customer_id", c.ID, "bill_id", b.ID)},
		Outputs: []string{moneyOutput(b.Balance() - b.LateFee)},
		Uses:    []string{b.ID},
	}), true
}

// groundWaiveThenPayOrSplit grounds "waive the late fee on my overdue
// bill; if what is left is under $threshold pay it now with my card,
// otherwise split it into n payments", a condition the bill's balance
// decides: pay is the branch the data takes (the threshold is above the
// balance left), !pay the other (at or below it).
func groundWaiveThenPayOrSplit(pay bool) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		c, b, ok := billOf(g, func(c *Customer, b *Bill) bool {
			return waiverWithinYear(c) == nil && c.activeArrangement() == nil && isOverdue(b) && hasLateFee(b)
		})
		if !ok {
			return sim.Grounding{}, false
		}
		rest := b.Balance() - b.LateFee
		threshold := int(rest/1000)*10 + 10 + 10*g.Rand.IntN(3) // whole tens of dollars above rest
		if !pay {
			threshold = int(rest/1000)*10 - 10*g.Rand.IntN(2) // at or below rest
		}
		if rest <= 0 || threshold <= 0 {
			return sim.Grounding{}, false
		}
		pm := methodOf(g.Rand, c)
		k := 2 + g.Rand.IntN(2)
		n := strconv.Itoa(k)
		month := monthName(b.Period)
		gr := sim.Grounding{
			Slots: map[string]string{"month": month, "threshold": strconv.Itoa(threshold), "payment": pm.Describe(), "installments": n},
			Facts: map[string]string{"bill_month": month, "pay_now_if_balance_under": "$" + strconv.Itoa(threshold), "payment_method": pm.Describe(),
				"payment_amount": fullBalance, "installments": n},
			Request: emobench.Request{Text: fmt.Sprintf("Waive the late fee on my %s bill; then if the rest is under $%d, pay it with my %s, otherwise split it into %s payments.", month, threshold, pm.Describe(), n),
				Tools: []string{ToolWaiveLateFee, ToolMakePayment}},
			Actions: []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID), sim.NewAction(ToolWaiveLateFee, "customer_id", c.ID, "bill_id", b.ID),
				sim.NewAction(ToolMakePayment, "customer_id", c.ID, "bill_id", b.ID, "payment_method_id", pm.ID, "amount", rest.Dollars())},
			Traits: []string{emobench.TraitConditional},
			Uses:   []string{b.ID},
		}
		if !pay {
			gr.Request.Tools[1] = ToolCreateArrangement
			gr.Actions[2] = sim.NewAction(ToolCreateArrangement, "customer_id", c.ID, "bill_id", b.ID, "installments", k)
		}
		return gr, true
	}
}

func groundPayAndReactivate(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool { return l.Status == LineSuspended })
	if !ok {
		return sim.Grounding{}, false
	}
	var overdue []*Bill
	for _, b := range c.Bills {
		if isOverdue(b) {
			overdue = append(overdue, b)
		}
	}
	if len(overdue) != 1 || sim.UsedInTask(g, overdue[0].ID) {
		return sim.Grounding{}, false
	}
	b := overdue[0]
	pm := methodOf(g.Rand, c)
	month := monthName(b.Period)
	return withLine(g, c, l, sim.Grounding{
		Slots: map[string]string{"phone_number": l.PhoneNumber, "month": month, "payment": pm.Describe()},
		Facts: map[string]string{"phone_number": l.PhoneNumber, "bill_month": month, "payment_method": pm.Describe(), "payment_amount": fullBalance},
		Request: emobench.Request{Text: fmt.Sprintf("Pay my %s bill in full with my %s and reactivate line %s.", month, pm.Describe(), l.PhoneNumber),
			Tools: []string{ToolMakePayment, ToolReactivateLine}},
		Actions: []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID),
			sim.NewAction(ToolMakePayment, "customer_id", c.ID, "bill_id", b.ID, "payment_method_id", pm.ID, "amount", b.Balance().Dollars()),
			sim.NewAction(ToolReactivateLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)},
		Outputs: []string{moneyOutput(b.Balance())},
		Uses:    []string{l.PhoneNumber, b.ID},
	}), true
}

// troubleshootable reports whether line l's device shows condition (and,
// for a device with no fault, whether an outage affects the area).
func troubleshootable(c *Customer, l *Line, condition string) bool {
	d := c.Devices[l.DeviceIMEI]
	return isActive(l) && d != nil && d.Condition == condition
}

// nextDiagnosticID is the id the next troubleshooting run on c gets.
func nextDiagnosticID(c *Customer) string {
	return fmt.Sprintf("TS%s-%d", c.ID[1:], len(c.Diagnostics)+1)
}

func groundTroubleshoot(condition string) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, c, ok := customerOf(g)
		if !ok || ongoingOutage(db, c.Address.Zip) != nil {
			return sim.Grounding{}, false
		}
		l, ok := pickLine(g, c, func(l *Line) bool { return troubleshootable(c, l, condition) })
		if !ok {
			return sim.Grounding{}, false
		}
		issue := issues[g.Rand.IntN(len(issues))]
		gr := sim.Grounding{
			Slots:   sim.WithCapitals(map[string]string{"phone_number": l.PhoneNumber, "issue": issuePhrase(issue)}, "issue"),
			Facts:   map[string]string{"phone_number": l.PhoneNumber, "issue": issue},
			Request: emobench.Request{Text: fmt.Sprintf("Fix the %s on line %s, and open a ticket if it stays broken.", issuePhrase(issue), l.PhoneNumber), Tools: []string{ToolTroubleshoot}},
			Actions: []emobench.Action{sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber),
				sim.NewAction(ToolTroubleshoot, "customer_id", c.ID, "phone_number", l.PhoneNumber, "issue", issue)},
			Outputs: []string{resolvedOutput},
			Traits:  []string{emobench.TraitConditional},
			Uses:    []string{l.PhoneNumber},
		}
		if condition == ConditionHardware {
			gr.Request.Tools = []string{ToolTroubleshoot, ToolOpenTicket}
			gr.Actions = append(gr.Actions, sim.NewAction(ToolOpenTicket, "customer_id", c.ID, "phone_number", l.PhoneNumber,
				"category", TicketConnectivity, "troubleshooting_id", nextDiagnosticID(c)))
			gr.Outputs = []string{unresolvedOutput}
		}
		return withLine(g, c, l, gr), true
	}
}

// symptomsOf are the problems a customer has during an outage of service
// (data, voice or all): slow data when data is down, dropped calls or
// texts that do not send when voice is, any of them when all is.
func symptomsOf(service string) []string {
	switch service {
	case "data":
		return []string{"slow data"}
	case "voice":
		return []string{"dropped calls", "cannot send texts"}
	}
	return issues
}

// outagesMatching returns the outages over zip that started on start and
// whose service can cause symptom: the ones a customer who says so means.
func outagesMatching(db *DB, zip, start, symptom string) []*Outage {
	var out []*Outage
	for _, id := range db.Outages.Keys() {
		if o := db.Outages.At(id); slices.Contains(o.Zips, zip) && o.Start == start && slices.Contains(symptomsOf(o.Service), symptom) {
			out = append(out, o)
		}
	}
	return out
}

func credited(c *Customer, o *Outage) bool {
	return slices.ContainsFunc(c.Credits, func(cr Credit) bool { return cr.OutageID == o.ID })
}

// describedOutage picks a symptom of o's service that, with o's start
// date, names o alone among the outages over c's zip; false when none
// does (another outage started the same day with a service of the same
// symptoms).
func describedOutage(r *rand.Rand, db *DB, c *Customer, o *Outage) (string, bool) {
	var fits []string
	for _, s := range symptomsOf(o.Service) {
		if len(outagesMatching(db, c.Address.Zip, o.Start, s)) == 1 {
			fits = append(fits, s)
		}
	}
	if len(fits) == 0 {
		return "", false
	}
	return fits[r.IntN(len(fits))], true
}

// creditableOutage picks an outage over c's zip that c has no credit for
// and a symptom that, with its start date, tells it from the zip's other
// outages; nil when none.
func creditableOutage(db *DB, c *Customer, r *rand.Rand) (*Outage, string) {
	var cands []*Outage
	for _, id := range db.Outages.Keys() {
		if o := db.Outages.At(id); slices.Contains(o.Zips, c.Address.Zip) && !credited(c, o) {
			cands = append(cands, o)
		}
	}
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	for _, o := range cands {
		if symptom, ok := describedOutage(r, db, c, o); ok {
			return o, symptom
		}
	}
	return nil, ""
}

// dayName says a date as a customer does: "June 3".
func dayName(date string) string {
	t, err := time.Parse(dateLayout, date)
	if err != nil {
		return date
	}
	return t.Format("January 2")
}

// outageFacts are what a customer knows of the outage they want a credit
// for: the zip, what stopped working (outage_symptom, one of issues) and
// the day it started (outage_start_date, YYYY-MM-DD); together they name
// one outage of the zip.
func outageFacts(c *Customer, o *Outage, symptom string) (slots, facts map[string]string) {
	return sim.WithCapitals(map[string]string{"zip": c.Address.Zip, "issue": issuePhrase(symptom), "outage_start": dayName(o.Start)}, "issue"),
		map[string]string{"zip": c.Address.Zip, "outage_symptom": symptom, "outage_start_date": o.Start}
}

func groundTicketAndCredit(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, ok := customerOf(g)
	if !ok {
		return sim.Grounding{}, false
	}
	o := ongoingOutage(db, c.Address.Zip)
	if o == nil || credited(c, o) || !once(g, "outage_credit") {
		return sim.Grounding{}, false
	}
	issue, ok := describedOutage(g.Rand, db, c, o)
	if !ok {
		return sim.Grounding{}, false
	}
	l, ok := pickLine(g, c, func(l *Line) bool { return troubleshootable(c, l, ConditionOK) })
	if !ok {
		return sim.Grounding{}, false
	}
	credit := OutageCredit(o)
	slots, facts := outageFacts(c, o, issue)
	slots["phone_number"], facts["phone_number"], facts["issue"] = l.PhoneNumber, l.PhoneNumber, issue
	return sim.Grounding{
		Slots: slots,
		Facts: facts,
		Request: emobench.Request{Text: fmt.Sprintf("Fix the %s on line %s, open a ticket if it stays broken, and credit me for the outage in %s that started on %s.", issuePhrase(issue), l.PhoneNumber, c.Address.Zip, o.Start),
			Tools: []string{ToolTroubleshoot, ToolOpenTicket, ToolApplyCredit}},
		Actions: []emobench.Action{
			sim.NewAction(ToolTroubleshoot, "customer_id", c.ID, "phone_number", l.PhoneNumber, "issue", issue),
			sim.NewAction(ToolOpenTicket, "customer_id", c.ID, "phone_number", l.PhoneNumber, "category", TicketConnectivity, "troubleshooting_id", nextDiagnosticID(c)),
			sim.NewAction(ToolCheckOutages, "zip", c.Address.Zip),
			sim.NewAction(ToolApplyCredit, "customer_id", c.ID, "amount", credit.Dollars(), "reason", CreditOutage, "outage_id", o.ID)},
		Outputs: []string{moneyOutput(credit)},
		Traits:  []string{emobench.TraitConditional},
		Uses:    []string{l.PhoneNumber, o.ID, c.ID + "/outage_credit"},
	}, true
}

func groundOutageCredit(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, ok := customerOf(g)
	if !ok || !once(g, "outage_credit") {
		return sim.Grounding{}, false
	}
	o, symptom := creditableOutage(db, c, g.Rand)
	if o == nil {
		return sim.Grounding{}, false
	}
	credit := OutageCredit(o)
	slots, facts := outageFacts(c, o, symptom)
	return sim.Grounding{
		Slots: slots,
		Facts: facts,
		Request: emobench.Request{Text: fmt.Sprintf("Credit my account for the outage in %s that started on %s (%s) and tell me the amount.", c.Address.Zip, o.Start, symptom),
			Tools: []string{ToolApplyCredit}},
		Actions: []emobench.Action{sim.NewAction(ToolCheckOutages, "zip", c.Address.Zip),
			sim.NewAction(ToolApplyCredit, "customer_id", c.ID, "amount", credit.Dollars(), "reason", CreditOutage, "outage_id", o.ID)},
		Outputs: []string{moneyOutput(credit)},
		Uses:    []string{o.ID, c.ID + "/outage_credit"},
	}, true
}

// --- reads ----------------------------------------------------------------

func groundBillAmount(g sim.GroundContext) (sim.Grounding, bool) {
	c, b, ok := billOf(g, func(*Customer, *Bill) bool { return true })
	if !ok {
		return sim.Grounding{}, false
	}
	purpose, purposeUse := pickPurpose(g, moneyPurposes)
	return billRef(g, c, b, sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "What is the total and due date of my {month} bill?", Tools: []string{ToolGetBilling}},
		Actions: []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID)},
		Outputs: []string{moneyOutput(b.Total), b.DueOn},
		Uses:    []string{b.ID, purposeUse},
	}), true
}

func groundInstallmentBalance(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool {
		return c.Devices[l.DeviceIMEI] != nil && c.Devices[l.DeviceIMEI].InstallmentBalance > 0
	})
	if !ok {
		return sim.Grounding{}, false
	}
	d := c.Devices[l.DeviceIMEI]
	purpose, purposeUse := pickPurpose(g, moneyPurposes)
	return sim.Grounding{
		Slots:   map[string]string{"phone_number": l.PhoneNumber, "purpose": purpose, "model": d.Model},
		Facts:   map[string]string{"phone_number": l.PhoneNumber, "purpose": purpose},
		Request: emobench.Request{Text: fmt.Sprintf("What is left to pay on the device of line %s?", l.PhoneNumber), Tools: []string{ToolGetLine}},
		Actions: []emobench.Action{sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)},
		Outputs: []string{moneyOutput(d.InstallmentBalance)},
		Uses:    []string{l.PhoneNumber, purposeUse},
	}, true
}

func groundCurrentPlan(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool { return l.Status != LineCancelled })
	if !ok {
		return sim.Grounding{}, false
	}
	purpose, purposeUse := pickPurpose(g, planPurposes)
	return sim.Grounding{
		Slots:   map[string]string{"phone_number": l.PhoneNumber, "purpose": purpose},
		Facts:   map[string]string{"phone_number": l.PhoneNumber, "purpose": purpose},
		Request: emobench.Request{Text: fmt.Sprintf("Which plan is line %s on?", l.PhoneNumber), Tools: []string{ToolGetLine}},
		Actions: []emobench.Action{sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)},
		Outputs: []string{db.Plans.At(l.PlanID).Name},
		Uses:    []string{l.PhoneNumber, purposeUse},
	}, true
}

func groundNextCycle(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, ok := customerOf(g)
	if !ok || !once(g, "cycle") {
		return sim.Grounding{}, false
	}
	purpose, purposeUse := pickPurpose(g, moneyPurposes)
	return sim.Grounding{
		Slots:   map[string]string{"purpose": purpose},
		Facts:   map[string]string{"purpose": purpose},
		Request: emobench.Request{Text: "When does my next billing cycle start?", Tools: []string{ToolGetCustomer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetCustomer, "customer_id", c.ID)},
		Outputs: []string{c.NextCycleStart()},
		Uses:    []string{c.ID + "/cycle", purposeUse},
	}, true
}

// outageStatusOutputs say an outage's status as the agent may: ongoing
// or resolved.
var outageStatusOutputs = map[string]string{
	"ongoing":  "ongoing|still going on|still down|not over|not yet resolved|not been resolved",
	"resolved": "resolved|has ended|is over|was fixed|been fixed|been restored",
}

func groundOutageStatus(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, ok := customerOf(g)
	if !ok || !once(g, "outages") {
		return sim.Grounding{}, false
	}
	// The customer asks whether the network is down now: "ongoing" when an
	// outage over the zip is, "resolved" when all of them are over.
	status := ""
	for _, id := range db.Outages.Keys() {
		if o := db.Outages.At(id); slices.Contains(o.Zips, c.Address.Zip) && status != "ongoing" {
			status = o.Status
		}
	}
	if status == "" {
		return sim.Grounding{}, false
	}
	purpose, purposeUse := pickPurpose(g, outagePurposes)
	return sim.Grounding{
		Slots:   map[string]string{"zip": c.Address.Zip, "purpose": purpose},
		Facts:   map[string]string{"zip": c.Address.Zip, "purpose": purpose},
		Request: emobench.Request{Text: fmt.Sprintf("Is there an outage in %s right now?", c.Address.Zip), Tools: []string{ToolCheckOutages}},
		Actions: []emobench.Action{sim.NewAction(ToolCheckOutages, "zip", c.Address.Zip)},
		Outputs: []string{outageStatusOutputs[status]},
		Uses:    []string{c.ID + "/outages", purposeUse},
	}, true
}

// --- transfers ------------------------------------------------------------

// groundTransferLine grounds a transfer about one active line: summary
// says what the customer wants (with the line's number for %s), request
// is the scripted user's request (%s too), and readLine says whether the
// agent reads the line first (a port-out or a cancellation is about the
// line's service; a stolen or broken phone is not).
func groundTransferLine(summary, request string, readLine bool) func(sim.GroundContext) (sim.Grounding, bool) {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		_, c, l, ok := lineOf(g, func(_ *Customer, l *Line) bool { return isActive(l) })
		if !ok {
			return sim.Grounding{}, false
		}
		what := fmt.Sprintf(summary, l.PhoneNumber)
		gr := sim.Grounding{
			Slots:   map[string]string{"phone_number": l.PhoneNumber},
			Facts:   map[string]string{"phone_number": l.PhoneNumber},
			Request: emobench.Request{Tools: []string{ToolTransfer}},
			Actions: []emobench.Action{sim.NewAction(ToolTransfer, "summary", fmt.Sprintf("Customer %s %s.", c.ID, what))},
			Uses:    []string{l.PhoneNumber},
		}
		gr.Request.Text = fmt.Sprintf(request, l.PhoneNumber)
		if readLine {
			gr.Actions = append([]emobench.Action{sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)}, gr.Actions...)
		}
		return gr, true
	}
}

func groundDisputeTransfer(g sim.GroundContext) (sim.Grounding, bool) {
	c, b, ok := billOf(g, func(*Customer, *Bill) bool { return true })
	if !ok {
		return sim.Grounding{}, false
	}
	month := monthName(b.Period)
	var charges []string
	for _, it := range b.Items {
		if it.Amount > 0 {
			charges = append(charges, it.Description)
		}
	}
	if len(charges) == 0 {
		return sim.Grounding{}, false
	}
	charge := charges[g.Rand.IntN(len(charges))]
	return sim.Grounding{
		Slots:   map[string]string{"month": month, "charge": chargePhrase(charge)},
		Facts:   map[string]string{"bill_month": month, "disputed_charge": charge},
		Request: emobench.Request{Text: fmt.Sprintf("Dispute a charge on my %s bill.", month), Tools: []string{ToolTransfer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID),
			sim.NewAction(ToolTransfer, "summary", fmt.Sprintf("Customer %s disputes a charge on bill %s.", c.ID, b.ID))},
		Uses: []string{b.ID},
	}, true
}

// --- forbidden --------------------------------------------------------------

func groundChangePlanToday(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool {
		return c.NextCycleStart() != Today && isActive(l) && l.PendingPlanID == ""
	})
	if !ok {
		return sim.Grounding{}, false
	}
	p := newPlanFor(g.Rand, c, l)
	return sim.Grounding{
		Slots: map[string]string{"phone_number": l.PhoneNumber, "plan": p.Name, "today": Today},
		Facts: map[string]string{"phone_number": l.PhoneNumber, "new_plan": p.Name, "effective_date": Today},
		Request: emobench.Request{Text: fmt.Sprintf("Change the plan of line %s to %s effective today, %s, or not at all.", l.PhoneNumber, p.Name, Today),
			Tools: []string{ToolGetCustomer}},
		Actions: []emobench.Action{sim.NewAction(ToolGetCustomer, "customer_id", c.ID)},
		// Any plan on the line from today is forbidden; the change the
		// policy offers, from the next cycle, is not.
		Forbidden: []emobench.Action{sim.WithCompareArgs(sim.NewAction(ToolChangePlan, "customer_id", c.ID, "phone_number", l.PhoneNumber,
			"new_plan_id", p.ID, "effective_date", Today), "phone_number", "effective_date")},
		Uses: []string{l.PhoneNumber},
	}, true
}

func groundSeniorUnderage(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, ok := customerOf(g)
	if !ok || c.SeniorDiscount || c.Age() >= 65 || c.Age() < 50 || !once(g, "senior") {
		return sim.Grounding{}, false
	}
	age := strconv.Itoa(c.Age())
	return sim.Grounding{
		Slots:     map[string]string{"age": age},
		Facts:     map[string]string{"age": age},
		Request:   emobench.Request{Text: "Apply the senior discount to my bills.", Tools: []string{ToolGetCustomer}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetCustomer, "customer_id", c.ID)},
		Forbidden: []emobench.Action{sim.NewAction(ToolSeniorDiscount, "customer_id", c.ID)},
		Uses:      []string{c.ID + "/senior"},
	}, true
}

// arrangementRefusal grounds a refused arrangement of b in n
// installments; a call matching compare (the forbidden entry's
// CompareArgs, nil: its ids) is the forbidden arrangement.
func arrangementRefusal(c *Customer, b *Bill, n int, compare ...string) sim.Grounding {
	return sim.Grounding{
		Slots:     map[string]string{"month": monthName(b.Period), "installments": strconv.Itoa(n)},
		Facts:     map[string]string{"bill_month": monthName(b.Period), "installments": strconv.Itoa(n)},
		Request:   emobench.Request{Text: fmt.Sprintf("Set up a payment arrangement for my %s bill in %d installments.", monthName(b.Period), n), Tools: []string{ToolGetBilling}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID)},
		Forbidden: []emobench.Action{sim.WithCompareArgs(sim.NewAction(ToolCreateArrangement, "customer_id", c.ID, "bill_id", b.ID, "installments", n), compare...)},
		Uses:      []string{b.ID},
	}
}

func groundArrangementNotDue(g sim.GroundContext) (sim.Grounding, bool) {
	c, b, ok := billOf(g, func(_ *Customer, b *Bill) bool { return b.Status == BillUnpaid })
	if !ok {
		return sim.Grounding{}, false
	}
	return arrangementRefusal(c, b, 2+g.Rand.IntN(2)), true
}

func groundArrangementTooLong(g sim.GroundContext) (sim.Grounding, bool) {
	c, b, ok := billOf(g, func(c *Customer, b *Bill) bool { return c.activeArrangement() == nil && isOverdue(b) })
	if !ok {
		return sim.Grounding{}, false
	}
	// Only the installments asked for are forbidden: the policy allows an
	// arrangement of the bill in three or fewer.
	gr := arrangementRefusal(c, b, 4+g.Rand.IntN(5), "bill_id", "installments")
	gr.Request.Text = strings.TrimSuffix(gr.Request.Text, ".") + ", or none at all."
	return gr, true
}

func groundSecondWaiver(g sim.GroundContext) (sim.Grounding, bool) {
	c, b, ok := billOf(g, func(c *Customer, b *Bill) bool { return waiverWithinYear(c) != nil && hasLateFee(b) })
	if !ok {
		return sim.Grounding{}, false
	}
	return billRef(g, c, b, sim.Grounding{
		Slots:     map[string]string{},
		Facts:     map[string]string{},
		Request:   emobench.Request{Text: "Waive the late fee on my {month} bill.", Tools: []string{ToolGetBilling}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID)},
		Forbidden: []emobench.Action{sim.NewAction(ToolWaiveLateFee, "customer_id", c.ID, "bill_id", b.ID)},
		Uses:      []string{b.ID},
	}), true
}

func groundCreditWithoutOutage(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, ok := customerOf(g)
	if !ok || !once(g, "outages") {
		return sim.Grounding{}, false
	}
	for _, o := range db.Outages.All() {
		if slices.Contains(o.Zips, c.Address.Zip) {
			return sim.Grounding{}, false
		}
	}
	amount := []int{15, 20, 25, 30, 50}[g.Rand.IntN(5)]
	return sim.Grounding{
		Slots:     map[string]string{"zip": c.Address.Zip, "amount": strconv.Itoa(amount)},
		Facts:     map[string]string{"zip": c.Address.Zip, "amount": strconv.Itoa(amount)},
		Request:   emobench.Request{Text: fmt.Sprintf("Credit my account $%d for the bad service in %s.", amount, c.Address.Zip), Tools: []string{ToolCheckOutages}},
		Actions:   []emobench.Action{sim.NewAction(ToolCheckOutages, "zip", c.Address.Zip)},
		Forbidden: []emobench.Action{sim.NewAction(ToolApplyCredit, "customer_id", c.ID, "amount", amount, "reason", CreditOutage)},
		Uses:      []string{c.ID + "/outages"},
	}, true
}

func groundFeatureSuspended(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool {
		return l.Status == LineSuspended && !slices.Contains(l.Features, "international_roaming")
	})
	if !ok {
		return sim.Grounding{}, false
	}
	f := db.Features.At("international_roaming")
	name := featurePhrase(f.Name)
	return withLine(g, c, l, sim.Grounding{
		Slots:     map[string]string{"phone_number": l.PhoneNumber, "feature": name},
		Facts:     map[string]string{"phone_number": l.PhoneNumber, "feature": name},
		Request:   emobench.Request{Text: fmt.Sprintf("Add %s to line %s.", name, l.PhoneNumber), Tools: []string{ToolGetLine}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)},
		Forbidden: []emobench.Action{sim.NewAction(ToolAddFeature, "customer_id", c.ID, "phone_number", l.PhoneNumber, "feature_id", f.ID)},
		Uses:      []string{l.PhoneNumber},
	}), true
}

func groundReactivateOverdue(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool { return hasOverdueBalance(c) && l.Status == LineSuspended })
	if !ok {
		return sim.Grounding{}, false
	}
	gr := withLine(g, c, l, sim.Grounding{
		Slots:     map[string]string{"phone_number": l.PhoneNumber},
		Facts:     map[string]string{"phone_number": l.PhoneNumber},
		Request:   emobench.Request{Text: fmt.Sprintf("Reactivate line %s without paying the overdue bill.", l.PhoneNumber), Tools: []string{ToolGetBilling}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetBilling, "customer_id", c.ID)},
		Forbidden: []emobench.Action{sim.NewAction(ToolReactivateLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)},
		Uses:      []string{l.PhoneNumber},
	})
	if gr.Facts["phone_number"] == "" {
		// The line the user describes is the refused entity: the agent
		// finds its number and reads it.
		gr.Actions = append(gr.Actions, sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber))
	}
	return gr, true
}

func groundTicketWithoutTroubleshooting(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(_ *Customer, l *Line) bool { return isActive(l) })
	if !ok {
		return sim.Grounding{}, false
	}
	issue := issues[g.Rand.IntN(len(issues))]
	return sim.Grounding{
		Slots:     sim.WithCapitals(map[string]string{"phone_number": l.PhoneNumber, "issue": issuePhrase(issue)}, "issue"),
		Facts:     map[string]string{"phone_number": l.PhoneNumber, "issue": issue},
		Request:   emobench.Request{Text: fmt.Sprintf("Open a support ticket for the %s on line %s, without troubleshooting.", issuePhrase(issue), l.PhoneNumber), Tools: []string{ToolGetLine}},
		Actions:   []emobench.Action{sim.NewAction(ToolGetLine, "customer_id", c.ID, "phone_number", l.PhoneNumber)},
		Forbidden: []emobench.Action{sim.NewAction(ToolOpenTicket, "customer_id", c.ID, "phone_number", l.PhoneNumber, "category", TicketConnectivity)},
		Uses:      []string{l.PhoneNumber},
	}, true
}
