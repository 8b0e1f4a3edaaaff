package telecom

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file holds the catalog's grounders: each reads the state (never
// changes it) and returns one instance of its intent for the customer.
// A grounder picks its entities (lineOf, billOf, customerOf), draws what
// the customer wants, and states the request once with grounding (text,
// gold, facts); a family of intents that differs in a condition or a
// last step is one constructor (groundChangePlan, groundArrangement,
// groundTroubleshoot, …), and a refusal is its write's request refused
// (sim.RefusedWrite, refusal). Keep every g.Rand draw in its order: the
// task files depend on it.

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

// customerWords are what customers say and agents answer (ground.json):
// the purposes of questions about money, a plan or an outage, and the
// synonym sets of a troubleshooting result (resolved, unresolved) and of
// an outage's status (ongoing, resolved).
type customerWords struct {
	Purposes struct {
		Money  []string `json:"money"`
		Plan   []string `json:"plan"`
		Outage []string `json:"outage"`
	} `json:"purposes"`
	Troubleshooting map[string]string `json:"troubleshooting"`
	OutageStatus    map[string]string `json:"outage_status"`
}

//go:embed ground.json
var groundJSON []byte

// words is ground.json, decoded once.
var words = sync.OnceValue(func() *customerWords {
	w := new(customerWords)
	if err := json.Unmarshal(groundJSON, w); err != nil {
		panic("telecom: ground.json: " + err.Error()) // embedded: a bug every test catches
	}
	return w
})

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
			gr.Actions = append([]emobench.Action{accountCall(ToolGetCustomer, c)}, gr.Actions...)
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

// moneyOutput says an amount as the agent may, with its unit
// (emobench.TaskSpec.Outputs).
func moneyOutput(m sim.Money) string { return "$" + m.String() + "|" + m.String() + " dollars" }

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

// accountCall is a call of tool on customer c's account, with the
// arguments kv after the customer id: a gold or forbidden action.
func accountCall(tool string, c *Customer, kv ...any) emobench.Action {
	return sim.NewAction(tool, append([]any{"customer_id", c.ID}, kv...)...)
}

// lineCall is accountCall on line l of c.
func lineCall(tool string, c *Customer, l *Line, kv ...any) emobench.Action {
	return accountCall(tool, c, append([]any{"phone_number", l.PhoneNumber}, kv...)...)
}

// billCall is accountCall on bill b of c.
func billCall(tool string, c *Customer, b *Bill, kv ...any) emobench.Action {
	return accountCall(tool, c, append([]any{"bill_id", b.ID}, kv...)...)
}

// outageCheck is the outage check of c's zip.
func outageCheck(c *Customer) emobench.Action {
	return sim.NewAction(ToolCheckOutages, "zip", c.Address.Zip)
}

// grounding returns the grounding of a request: text, the scripted user's
// words for it; gold, its gold actions; uses, the entities it is about;
// facts, name and value pairs the customer states, each also the
// templates' slot of its name. The request's tools are gold's writes
// (the tools writeRules has rules for) and hand-offs, or its last call
// when it has neither (a question).
func grounding(text string, gold []emobench.Action, uses []string, facts ...string) sim.Grounding {
	gr := sim.Grounding{Slots: map[string]string{}, Facts: map[string]string{}, Request: emobench.Request{Text: text}, Actions: gold, Uses: uses}
	for i := 0; i+1 < len(facts); i += 2 {
		gr.Slots[facts[i]], gr.Facts[facts[i]] = facts[i+1], facts[i+1]
	}
	for _, a := range gold {
		if _, writes := writeRules[a.Name]; writes || a.Name == ToolTransfer {
			gr.Request.Tools = append(gr.Request.Tools, a.Name)
		}
	}
	if gr.Request.Tools == nil {
		gr.Request.Tools = []string{gold[len(gold)-1].Name}
	}
	return gr
}

// --- writes ---------------------------------------------------------------

// groundChangePlan grounds a change of an active line's plan from the
// next cycle, withFeature with international roaming added to the line.
func groundChangePlan(withFeature bool) sim.Grounder {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool {
			return isActive(l) && l.PendingPlanID == "" && (!withFeature || !slices.Contains(l.Features, "international_roaming"))
		})
		if !ok {
			return sim.Grounding{}, false
		}
		p := newPlanFor(g.Rand, c, l)
		eff := c.NextCycleStart()
		gr := grounding(fmt.Sprintf("Change the plan of line %s to %s.", l.PhoneNumber, p.Name),
			[]emobench.Action{accountCall(ToolGetCustomer, c), lineCall(ToolChangePlan, c, l, "new_plan_id", p.ID, "effective_date", eff)},
			[]string{l.PhoneNumber}, "phone_number", l.PhoneNumber)
		gr.Slots["plan"], gr.Facts["new_plan"] = p.Name, p.Name
		gr.Outputs = []string{eff}
		if withFeature {
			gr.Slots["feature"], gr.Facts["feature"] = "international roaming", "international roaming"
			gr.Request.Text = strings.TrimSuffix(gr.Request.Text, ".") + " and add international roaming."
			gr.Request.Tools = append(gr.Request.Tools, ToolAddFeature)
			gr.Actions = append(gr.Actions, lineCall(ToolAddFeature, c, l, "feature_id", "international_roaming"))
		}
		return withLine(g, c, l, gr), true
	}
}

// groundAddFeature grounds adding a feature to a line: one the line
// lacks, drawn, to an active line; refuse: international roaming to a
// suspended line, which the policy refuses.
func groundAddFeature(refuse bool) sim.Grounder {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		db, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool {
			if refuse {
				return l.Status == LineSuspended && !slices.Contains(l.Features, "international_roaming")
			}
			return isActive(l) && len(l.Features) < len(features)
		})
		if !ok {
			return sim.Grounding{}, false
		}
		id := "international_roaming"
		if !refuse {
			missing := slices.DeleteFunc(db.Features.Keys(), func(id string) bool { return slices.Contains(l.Features, id) })
			id = missing[g.Rand.IntN(len(missing))]
		}
		name := featurePhrase(db.Features.At(id).Name)
		gr := grounding(fmt.Sprintf("Add %s to line %s.", name, l.PhoneNumber),
			[]emobench.Action{lineCall(ToolGetLine, c, l), lineCall(ToolAddFeature, c, l, "feature_id", id)},
			[]string{l.PhoneNumber}, "phone_number", l.PhoneNumber, "feature", name)
		if refuse {
			gr = sim.RefusedWrite(gr)
		}
		return withLine(g, c, l, gr), true
	}
}

// groundSeniorDiscount grounds the senior discount for a holder of 65 or
// more; refuse: for one of 50 to 64, which the policy refuses.
func groundSeniorDiscount(refuse bool) sim.Grounder {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		_, c, ok := customerOf(g)
		if !ok || c.SeniorDiscount || (c.Age() >= 65) == refuse || c.Age() < 50 || !once(g, "senior") {
			return sim.Grounding{}, false
		}
		gr := grounding("Apply the senior discount to my bills.", []emobench.Action{accountCall(ToolGetCustomer, c), accountCall(ToolSeniorDiscount, c)},
			[]string{c.ID + "/senior"}, "age", strconv.Itoa(c.Age()))
		if refuse {
			gr = sim.RefusedWrite(gr)
		}
		return gr, true
	}
}

func isOverdue(b *Bill) bool { return b.Status == BillOverdue && b.Balance() > 0 }

// groundArrangement grounds a payment arrangement of a bill of the
// customer's that keep accepts, in fewest plus a drawn number below span
// installments; withAutopay with autopay enabled next.
// groundArrangementRefusal refuses it for a bill or a count the policy
// refuses.
func groundArrangement(keep func(c *Customer, b *Bill) bool, fewest, span int, withAutopay bool) sim.Grounder {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		c, b, ok := billOf(g, keep)
		if !ok {
			return sim.Grounding{}, false
		}
		n := fewest + g.Rand.IntN(span)
		month := monthName(b.Period)
		gr := grounding(fmt.Sprintf("Set up a payment arrangement for my %s bill in %d installments.", month, n),
			[]emobench.Action{accountCall(ToolGetBilling, c), billCall(ToolCreateArrangement, c, b, "installments", n)},
			[]string{b.ID}, "installments", strconv.Itoa(n))
		gr.Slots["month"], gr.Facts["bill_month"] = month, month
		if withAutopay {
			gr = withAutopayOn(g, c, gr)
		}
		return gr, true
	}
}

// arrangeable reports whether an arrangement of b, a bill of c's, is what
// the policy allows: overdue, and no other arrangement active (nor
// autopay on, with autopay: the request enables it).
func arrangeable(autopay bool) func(c *Customer, b *Bill) bool {
	return func(c *Customer, b *Bill) bool {
		return c.activeArrangement() == nil && !(autopay && c.Autopay) && isOverdue(b)
	}
}

// refusal is ground's write request refused (sim.RefusedWrite, compared
// on compare): for a grounder whose entities the policy refuses the write on.
func refusal(ground sim.Grounder, compare ...string) sim.Grounder {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		gr, ok := ground(g)
		if !ok {
			return sim.Grounding{}, false
		}
		return sim.RefusedWrite(gr, compare...), true
	}
}

// groundArrangementRefusal grounds an arrangement the policy refuses:
// of a bill not yet due (any arrangement of it is forbidden) or, tooLong,
// of an overdue one in 4 to 8 installments (only the installments asked
// for are forbidden: the policy allows three or fewer).
func groundArrangementRefusal(tooLong bool) sim.Grounder {
	if !tooLong {
		return refusal(groundArrangement(func(_ *Customer, b *Bill) bool { return b.Status == BillUnpaid }, 2, 2, false))
	}
	long := refusal(groundArrangement(arrangeable(false), 4, 5, false), "bill_id", "installments")
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		gr, ok := long(g)
		gr.Request.Text = strings.TrimSuffix(gr.Request.Text, ".") + ", or none at all."
		return gr, ok
	}
}

// withAutopayOn is gr, a request of customer c (or none yet: text ""),
// then autopay enabled with one of c's payment methods, drawn.
func withAutopayOn(g sim.GroundContext, c *Customer, gr sim.Grounding) sim.Grounding {
	pm := methodOf(g.Rand, c)
	gr.Slots["payment"], gr.Facts["payment_method"] = pm.Describe(), pm.Describe()
	step := "enable autopay with my " + pm.Describe() + "."
	if gr.Request.Text == "" {
		gr.Request.Text = sim.Capitalize(step)
	} else {
		gr.Request.Text = strings.TrimSuffix(gr.Request.Text, ".") + ", then " + step
	}
	gr.Request.Tools = append(gr.Request.Tools, ToolEnableAutopay)
	gr.Actions = append(gr.Actions, accountCall(ToolEnableAutopay, c, "payment_method_id", pm.ID))
	gr.Uses = append(gr.Uses, c.ID+"/autopay")
	return gr
}

func groundAutopay(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, ok := customerOf(g)
	if !ok || c.Autopay || !once(g, "autopay") {
		return sim.Grounding{}, false
	}
	return withAutopayOn(g, c, sim.Grounding{Slots: map[string]string{}, Facts: map[string]string{}, Actions: []emobench.Action{accountCall(ToolGetCustomer, c)}}), true
}

func hasLateFee(b *Bill) bool { return b.LateFee > 0 && !b.LateFeeWaived }

// groundWaiveLateFee grounds waiving a bill's late fee, the first in a
// year, and the balance left; refuse: a second one in a year, which the
// policy refuses.
func groundWaiveLateFee(refuse bool) sim.Grounder {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		c, b, ok := billOf(g, func(c *Customer, b *Bill) bool { return (waiverWithinYear(c) != nil) == refuse && hasLateFee(b) })
		if !ok {
			return sim.Grounding{}, false
		}
		gr := grounding("Waive the late fee on my {month} bill and tell me its balance.",
			[]emobench.Action{accountCall(ToolGetBilling, c), billCall(ToolWaiveLateFee, c, b)}, []string{b.ID})
		gr.Outputs = []string{moneyOutput(b.Balance() - b.LateFee)}
		if refuse {
			gr = sim.RefusedWrite(gr)
			gr.Request.Text = "Waive the late fee on my {month} bill."
		}
		return billRef(g, c, b, gr), true
	}
}

// groundWaiveThenPayOrSplit grounds "waive the late fee on my overdue
// bill; if what is left is under $threshold pay it now with my card,
// otherwise split it into n payments", a condition the bill's balance
// decides: pay is the branch the data takes (the threshold is above the
// balance left), !pay the other (at or below it).
func groundWaiveThenPayOrSplit(pay bool) sim.Grounder {
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
		branch := billCall(ToolMakePayment, c, b, "payment_method_id", pm.ID, "amount", rest.Dollars())
		if !pay {
			branch = billCall(ToolCreateArrangement, c, b, "installments", k)
		}
		gr := grounding(fmt.Sprintf("Waive the late fee on my %s bill; then if the rest is under $%d, pay it with my %s, otherwise split it into %s payments.", month, threshold, pm.Describe(), n),
			[]emobench.Action{accountCall(ToolGetBilling, c), billCall(ToolWaiveLateFee, c, b), branch}, []string{b.ID}, "installments", n)
		maps.Copy(gr.Slots, map[string]string{"month": month, "threshold": strconv.Itoa(threshold), "payment": pm.Describe()})
		maps.Copy(gr.Facts, map[string]string{"bill_month": month, "pay_now_if_balance_under": "$" + strconv.Itoa(threshold),
			"payment_method": pm.Describe(), "payment_amount": fullBalance})
		gr.Traits = []string{emobench.TraitConditional}
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
	gr := grounding(fmt.Sprintf("Pay my %s bill in full with my %s and reactivate line %s.", month, pm.Describe(), l.PhoneNumber),
		[]emobench.Action{accountCall(ToolGetBilling, c), billCall(ToolMakePayment, c, b, "payment_method_id", pm.ID, "amount", b.Balance().Dollars()),
			lineCall(ToolReactivateLine, c, l)}, []string{l.PhoneNumber, b.ID}, "phone_number", l.PhoneNumber)
	maps.Copy(gr.Slots, map[string]string{"month": month, "payment": pm.Describe()})
	maps.Copy(gr.Facts, map[string]string{"bill_month": month, "payment_method": pm.Describe(), "payment_amount": fullBalance})
	gr.Outputs = []string{moneyOutput(b.Balance())}
	return withLine(g, c, l, gr), true
}

// withIssue puts the customer's issue (one of issues) in gr: the issue
// fact, and the issue and Issue slots as the customer says it
// (issuePhrase).
func withIssue(gr sim.Grounding, issue string) sim.Grounding {
	gr.Facts["issue"] = issue
	gr.Slots["issue"], gr.Slots["Issue"] = issuePhrase(issue), sim.Capitalize(issuePhrase(issue))
	return gr
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

func groundTroubleshoot(condition string) sim.Grounder {
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
		gold := []emobench.Action{lineCall(ToolGetLine, c, l), lineCall(ToolTroubleshoot, c, l, "issue", issue)}
		outcome := ResultResolved
		if condition == ConditionHardware {
			gold = append(gold, lineCall(ToolOpenTicket, c, l, "category", TicketConnectivity, "troubleshooting_id", nextDiagnosticID(c)))
			outcome = ResultUnresolved
		}
		gr := withIssue(grounding(fmt.Sprintf("Fix the %s on line %s, and open a ticket if it stays broken.", issuePhrase(issue), l.PhoneNumber), gold,
			[]string{l.PhoneNumber}, "phone_number", l.PhoneNumber), issue)
		gr.Outputs, gr.Traits = []string{words().Troubleshooting[outcome]}, []string{emobench.TraitConditional}
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

// aboutOutage puts in gr what a customer knows of the outage o they want
// a credit for: the zip, what stopped working (outage_symptom, one of
// issues, and the issue slots) and the day it started
// (outage_start_date, YYYY-MM-DD); together they name one outage of the
// zip.
func aboutOutage(gr sim.Grounding, c *Customer, o *Outage, symptom string) sim.Grounding {
	maps.Copy(gr.Slots, sim.WithCapitals(map[string]string{"zip": c.Address.Zip, "issue": issuePhrase(symptom), "outage_start": dayName(o.Start)}, "issue"))
	maps.Copy(gr.Facts, map[string]string{"zip": c.Address.Zip, "outage_symptom": symptom, "outage_start_date": o.Start})
	return gr
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
	gr := grounding(fmt.Sprintf("Fix the %s on line %s, open a ticket if it stays broken, and credit me for the outage in %s that started on %s.",
		issuePhrase(issue), l.PhoneNumber, c.Address.Zip, o.Start), []emobench.Action{
		lineCall(ToolTroubleshoot, c, l, "issue", issue),
		lineCall(ToolOpenTicket, c, l, "category", TicketConnectivity, "troubleshooting_id", nextDiagnosticID(c)),
		outageCheck(c),
		accountCall(ToolApplyCredit, c, "amount", credit.Dollars(), "reason", CreditOutage, "outage_id", o.ID),
	}, []string{l.PhoneNumber, o.ID, c.ID + "/outage_credit"}, "phone_number", l.PhoneNumber)
	gr.Outputs, gr.Traits = []string{moneyOutput(credit)}, []string{emobench.TraitConditional}
	gr = aboutOutage(gr, c, o, issue)
	gr.Facts["issue"] = issue
	return gr, true
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
	gr := grounding(fmt.Sprintf("Credit my account for the outage in %s that started on %s (%s) and tell me the amount.", c.Address.Zip, o.Start, symptom),
		[]emobench.Action{outageCheck(c), accountCall(ToolApplyCredit, c, "amount", credit.Dollars(), "reason", CreditOutage, "outage_id", o.ID)},
		[]string{o.ID, c.ID + "/outage_credit"})
	gr.Outputs = []string{moneyOutput(credit)}
	return aboutOutage(gr, c, o, symptom), true
}

// --- reads ----------------------------------------------------------------

// question is the grounding of a question answered by one read, its
// outputs the answer; the rest is grounding's.
func question(text string, read emobench.Action, outputs []string, use string, facts ...string) sim.Grounding {
	gr := grounding(text, []emobench.Action{read}, []string{use}, facts...)
	gr.Outputs = outputs
	return gr
}

// askedFor is gr asked for one of purposes (pickPurpose): its purpose
// slot and fact.
func askedFor(g sim.GroundContext, purposes []string, gr sim.Grounding) sim.Grounding {
	purpose, use := pickPurpose(g, purposes)
	gr.Slots["purpose"], gr.Facts["purpose"] = purpose, purpose
	gr.Uses = append(gr.Uses, use)
	return gr
}

func groundBillAmount(g sim.GroundContext) (sim.Grounding, bool) {
	c, b, ok := billOf(g, func(*Customer, *Bill) bool { return true })
	if !ok {
		return sim.Grounding{}, false
	}
	gr := question("What is the total and due date of my {month} bill?", accountCall(ToolGetBilling, c), []string{moneyOutput(b.Total), b.DueOn}, b.ID)
	return billRef(g, c, b, askedFor(g, words().Purposes.Money, gr)), true
}

func groundInstallmentBalance(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool {
		return c.Devices[l.DeviceIMEI] != nil && c.Devices[l.DeviceIMEI].InstallmentBalance > 0
	})
	if !ok {
		return sim.Grounding{}, false
	}
	d := c.Devices[l.DeviceIMEI]
	gr := question(fmt.Sprintf("What is left to pay on the device of line %s?", l.PhoneNumber), lineCall(ToolGetLine, c, l),
		[]string{moneyOutput(d.InstallmentBalance)}, l.PhoneNumber, "phone_number", l.PhoneNumber)
	gr.Slots["model"] = d.Model
	return askedFor(g, words().Purposes.Money, gr), true
}

func groundCurrentPlan(g sim.GroundContext) (sim.Grounding, bool) {
	db, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool { return l.Status != LineCancelled })
	if !ok {
		return sim.Grounding{}, false
	}
	return askedFor(g, words().Purposes.Plan, question(fmt.Sprintf("Which plan is line %s on?", l.PhoneNumber), lineCall(ToolGetLine, c, l),
		[]string{db.Plans.At(l.PlanID).Name}, l.PhoneNumber, "phone_number", l.PhoneNumber)), true
}

func groundNextCycle(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, ok := customerOf(g)
	if !ok || !once(g, "cycle") {
		return sim.Grounding{}, false
	}
	return askedFor(g, words().Purposes.Money, question("When does my next billing cycle start?", accountCall(ToolGetCustomer, c),
		[]string{c.NextCycleStart()}, c.ID+"/cycle")), true
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
	return askedFor(g, words().Purposes.Outage, question(fmt.Sprintf("Is there an outage in %s right now?", c.Address.Zip), outageCheck(c),
		[]string{words().OutageStatus[status]}, c.ID+"/outages", "zip", c.Address.Zip)), true
}

// --- transfers ------------------------------------------------------------

// groundTransferLine grounds a transfer about one active line: summary
// says what the customer wants (with the line's number for %s), request
// is the scripted user's request (%s too), and readLine says whether the
// agent reads the line first (a port-out or a cancellation is about the
// line's service; a stolen or broken phone is not).
func groundTransferLine(summary, request string, readLine bool) sim.Grounder {
	return func(g sim.GroundContext) (sim.Grounding, bool) {
		_, c, l, ok := lineOf(g, func(_ *Customer, l *Line) bool { return isActive(l) })
		if !ok {
			return sim.Grounding{}, false
		}
		gold := []emobench.Action{sim.NewAction(ToolTransfer, "summary", fmt.Sprintf("Customer %s %s.", c.ID, fmt.Sprintf(summary, l.PhoneNumber)))}
		if readLine {
			gold = append([]emobench.Action{lineCall(ToolGetLine, c, l)}, gold...)
		}
		return grounding(fmt.Sprintf(request, l.PhoneNumber), gold, []string{l.PhoneNumber}, "phone_number", l.PhoneNumber), true
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
	gr := grounding(fmt.Sprintf("Dispute a charge on my %s bill.", month), []emobench.Action{accountCall(ToolGetBilling, c),
		sim.NewAction(ToolTransfer, "summary", fmt.Sprintf("Customer %s disputes a charge on bill %s.", c.ID, b.ID))}, []string{b.ID})
	gr.Slots["month"], gr.Slots["charge"] = month, chargePhrase(charge)
	gr.Facts["bill_month"], gr.Facts["disputed_charge"] = month, charge
	return gr, true
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
	// Any plan on the line from today is forbidden; the change the policy
	// offers, from the next cycle, is not.
	gr := sim.RefusedWrite(grounding(fmt.Sprintf("Change the plan of line %s to %s effective today, %s, or not at all.", l.PhoneNumber, p.Name, Today),
		[]emobench.Action{accountCall(ToolGetCustomer, c), lineCall(ToolChangePlan, c, l, "new_plan_id", p.ID, "effective_date", Today)},
		[]string{l.PhoneNumber}, "phone_number", l.PhoneNumber), "phone_number", "effective_date")
	gr.Slots["plan"], gr.Facts["new_plan"] = p.Name, p.Name
	gr.Slots["today"], gr.Facts["effective_date"] = Today, Today
	return gr, true
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
	return sim.RefusedWrite(grounding(fmt.Sprintf("Credit my account $%d for the bad service in %s.", amount, c.Address.Zip),
		[]emobench.Action{outageCheck(c), accountCall(ToolApplyCredit, c, "amount", amount, "reason", CreditOutage)},
		[]string{c.ID + "/outages"}, "zip", c.Address.Zip, "amount", strconv.Itoa(amount))), true
}

func groundReactivateOverdue(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(c *Customer, l *Line) bool { return hasOverdueBalance(c) && l.Status == LineSuspended })
	if !ok {
		return sim.Grounding{}, false
	}
	gr := withLine(g, c, l, sim.RefusedWrite(grounding(fmt.Sprintf("Reactivate line %s without paying the overdue bill.", l.PhoneNumber),
		[]emobench.Action{accountCall(ToolGetBilling, c), lineCall(ToolReactivateLine, c, l)}, []string{l.PhoneNumber}, "phone_number", l.PhoneNumber)))
	if gr.Facts["phone_number"] == "" {
		// The line the user describes is the refused entity: the agent
		// finds its number and reads it.
		gr.Actions = append(gr.Actions, lineCall(ToolGetLine, c, l))
	}
	return gr, true
}

func groundTicketWithoutTroubleshooting(g sim.GroundContext) (sim.Grounding, bool) {
	_, c, l, ok := lineOf(g, func(_ *Customer, l *Line) bool { return isActive(l) })
	if !ok {
		return sim.Grounding{}, false
	}
	issue := issues[g.Rand.IntN(len(issues))]
	gr := grounding(fmt.Sprintf("Open a support ticket for the %s on line %s, without troubleshooting.", issuePhrase(issue), l.PhoneNumber),
		[]emobench.Action{lineCall(ToolGetLine, c, l), lineCall(ToolOpenTicket, c, l, "category", TicketConnectivity)},
		[]string{l.PhoneNumber}, "phone_number", l.PhoneNumber)
	return sim.RefusedWrite(withIssue(gr, issue)), true
}
