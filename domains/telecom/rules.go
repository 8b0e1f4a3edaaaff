package telecom

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// This file is the domain's own copy of policy.md's rules for writes, as
// predicates Tracer checks gold and forbidden writes with. No tool calls
// them: the tools enforce only what the carrier's systems would.

// Policy rule names, as PolicyViolation.Rule gives them.
const (
	RuleOwnAccount                 = "own_account"                   // only the verified customer's account
	RuleLineActive                 = "line_active"                   // no change to a suspended line
	RulePlanChangeAtCycle          = "plan_change_at_cycle"          // effective at the next billing cycle start
	RulePlanMaxLines               = "plan_max_lines"                // the account's lines within the plan's max_lines
	RuleSeniorAge                  = "senior_age"                    // holder aged 65 or more
	RuleArrangementOverdue         = "arrangement_overdue_bill"      // only for an overdue bill
	RuleArrangementSingle          = "arrangement_single"            // not while one is active
	RuleArrangementInstallments    = "arrangement_installments"      // at most 3
	RuleTicketAfterTroubleshooting = "ticket_after_troubleshooting"  // today's unresolved run on the line
	RuleTicketConnectivityOnly     = "ticket_connectivity_only"      // billing and device problems go to a human agent
	RuleOutageCredit               = "outage_credit"                 // confirmed outage in the zip, ongoing or resolved, $5 a day so far up to $25, once
	RuleLateFeeOncePerYear         = "late_fee_waiver_once_per_year" // one waiver per 12 months
	RuleReactivateAfterPayment     = "reactivate_after_payment"      // no overdue balance left
	RuleWellFormedArgument         = "well_formed_arguments"
)

// Policy limits.
const (
	maxPolicyInstallments = 3
	creditPerOutageDay    = sim.Money(500)
	maxOutageCredit       = sim.Money(2500)
)

// PolicyViolation is the error CheckPolicy returns (sim.PolicyViolation).
type PolicyViolation = sim.PolicyViolation

// policyArgs are the arguments of the write tools that the rules read.
type policyArgs struct {
	CustomerID   string  `json:"customer_id"`
	Phone        string  `json:"phone_number"`
	Effective    string  `json:"effective_date"`
	PlanID       string  `json:"new_plan_id"`
	BillID       string  `json:"bill_id"`
	Installments int     `json:"installments"`
	Category     string  `json:"category"`
	Diagnostic   string  `json:"troubleshooting_id"`
	Amount       float64 `json:"amount"`
	Reason       string  `json:"reason"`
	OutageID     string  `json:"outage_id"`
}

// policyRule is one of policy.md's rules, as CheckPolicy checks it.
type policyRule = sim.PolicyRule[DB, policyArgs]

// customerRule returns the rule name whose check reads the verified
// customer c: ownAccount, checked before it, makes sure c exists.
func customerRule(name string, check func(db *DB, c *Customer, a *policyArgs) string) policyRule {
	return policyRule{Name: name, Check: func(db *DB, userID string, a *policyArgs) string { return check(db, db.Customers.At(userID), a) }}
}

// writeRules are policy.md's rules by write tool, in the order an agent
// should check them: the account's first.
var writeRules = map[string][]policyRule{
	ToolTroubleshoot:      {ownAccount, lineActive},
	ToolChangePlan:        {ownAccount, lineActive, planChangeAtCycle, planMaxLines},
	ToolAddFeature:        {ownAccount, lineActive},
	ToolSeniorDiscount:    {ownAccount, seniorAge},
	ToolCreateArrangement: {ownAccount, arrangementOverdue, arrangementSingle, arrangementInstallments},
	ToolEnableAutopay:     {ownAccount},
	ToolMakePayment:       {ownAccount},
	ToolReactivateLine:    {ownAccount, reactivateAfterPayment},
	ToolOpenTicket:        {ownAccount, lineActive, ticketConnectivityOnly, ticketAfterTroubleshooting},
	ToolApplyCredit:       {ownAccount, outageCredit},
	ToolWaiveLateFee:      {ownAccount, lateFeeOncePerYear},
}

var checkPolicy = sim.PolicyChecker(Name, RuleWellFormedArgument, writeRules)

// CheckPolicy reports whether policy.md allows the write a, about to run
// on env (a telecom environment, *sim.StateEnv[DB]), for the verified
// customer userID: nil if it does or a is no write, a *PolicyViolation
// naming the first rule it breaks otherwise. It is sim.Catalog.CheckPolicy;
// it never changes env.
func CheckPolicy(env sim.Environment, userID string, a emobench.Action) error {
	return checkPolicy(env, userID, a)
}

// OutageCredit returns the credit policy.md grants for outage o: $5 a day
// of its duration_days, at most $25. An ongoing outage's duration_days is
// the whole days from its start to Today, so it is credited for the days
// so far.
func OutageCredit(o *Outage) sim.Money {
	return min(creditPerOutageDay*sim.Money(o.Days), maxOutageCredit)
}

// countedLines is how many lines of c count against a plan's max_lines:
// every line that is not cancelled.
func countedLines(c *Customer) int {
	n := 0
	for _, l := range c.Lines {
		if l.Status != LineCancelled {
			n++
		}
	}
	return n
}

// planFits reports whether plan p may go on a line of c: c's counted
// lines are within p's max_lines.
func planFits(p *Plan, c *Customer) bool { return p != nil && countedLines(c) <= p.MaxLines }

// hasOverdueBalance reports whether an overdue bill of c has a balance.
func hasOverdueBalance(c *Customer) bool {
	return slices.ContainsFunc(c.Bills, func(b *Bill) bool { return b.Status == BillOverdue && b.Balance() > 0 })
}

// waiverWithinYear returns a late fee waiver credit of c dated in the 12
// months before Today, or nil.
func waiverWithinYear(c *Customer) *Credit {
	yearAgo := mustDate(Today).AddDate(-1, 0, 0).Format(dateLayout)
	for i := range c.Credits {
		if cr := &c.Credits[i]; cr.Kind == CreditLateFee && cr.Date > yearAgo {
			return cr
		}
	}
	return nil
}

// diagnosticAllowsTicket reports whether run d, on line phone, lets a
// connectivity ticket be opened: today's and unresolved.
func diagnosticAllowsTicket(d Diagnostic, phone string) bool {
	return d.PhoneNumber == phone && d.Date == Today && d.Result == ResultUnresolved
}

var (
	// ownAccount: the account is the verified customer's, who exists.
	ownAccount = policyRule{Name: RuleOwnAccount, Check: func(db *DB, userID string, a *policyArgs) string {
		switch {
		case strings.TrimSpace(a.CustomerID) != userID:
			return fmt.Sprintf("account %q is not the verified customer %s's", a.CustomerID, userID)
		case db.Customers.At(userID) == nil:
			return fmt.Sprintf("customer %s does not exist", userID)
		}
		return ""
	}}
	lineActive = customerRule(RuleLineActive, func(_ *DB, c *Customer, a *policyArgs) string {
		l := c.Lines[strings.TrimSpace(a.Phone)]
		switch {
		case l == nil:
			return fmt.Sprintf("line %q is not on the account", a.Phone)
		case l.Status != LineActive:
			return fmt.Sprintf("line %s is %s", l.PhoneNumber, l.Status)
		}
		return ""
	})
	planChangeAtCycle = customerRule(RulePlanChangeAtCycle, func(_ *DB, c *Customer, a *policyArgs) string {
		if want := c.NextCycleStart(); strings.TrimSpace(a.Effective) != want {
			return fmt.Sprintf("effective date %q is not the next billing cycle start %s", a.Effective, want)
		}
		return ""
	})
	planMaxLines = customerRule(RulePlanMaxLines, func(db *DB, c *Customer, a *policyArgs) string {
		p := db.Plans.At(strings.TrimSpace(a.PlanID))
		switch {
		case p == nil:
			return fmt.Sprintf("no plan %q", a.PlanID)
		case !planFits(p, c):
			return fmt.Sprintf("the account has %d lines, plan %s takes at most %d", countedLines(c), p.ID, p.MaxLines)
		}
		return ""
	})
	seniorAge = customerRule(RuleSeniorAge, func(_ *DB, c *Customer, _ *policyArgs) string {
		if age := c.Age(); age < 65 {
			return fmt.Sprintf("the holder is %d", age)
		}
		return ""
	})
	arrangementOverdue = customerRule(RuleArrangementOverdue, func(_ *DB, c *Customer, a *policyArgs) string {
		b := c.bill(strings.TrimSpace(a.BillID))
		switch {
		case b == nil:
			return fmt.Sprintf("bill %q is not the account's", a.BillID)
		case b.Status != BillOverdue:
			return fmt.Sprintf("bill %s is %s, not overdue", b.ID, b.Status)
		}
		return ""
	})
	arrangementSingle = customerRule(RuleArrangementSingle, func(_ *DB, c *Customer, _ *policyArgs) string {
		if ar := c.activeArrangement(); ar != nil {
			return fmt.Sprintf("arrangement %s is active", ar.ID)
		}
		return ""
	})
	arrangementInstallments = customerRule(RuleArrangementInstallments, func(_ *DB, _ *Customer, a *policyArgs) string {
		if a.Installments < 1 || a.Installments > maxPolicyInstallments {
			return fmt.Sprintf("%d installments, more than %d", a.Installments, maxPolicyInstallments)
		}
		return ""
	})
	ticketConnectivityOnly = customerRule(RuleTicketConnectivityOnly, func(_ *DB, _ *Customer, a *policyArgs) string {
		if a.Category != TicketConnectivity {
			return fmt.Sprintf("a %q ticket: only connectivity tickets", a.Category)
		}
		return ""
	})
	ticketAfterTroubleshooting = customerRule(RuleTicketAfterTroubleshooting, func(_ *DB, c *Customer, a *policyArgs) string {
		if a.Category != TicketConnectivity {
			return ""
		}
		id := strings.TrimSpace(a.Diagnostic)
		i := slices.IndexFunc(c.Diagnostics, func(d Diagnostic) bool { return d.ID == id })
		switch {
		case id == "":
			return "a connectivity ticket without a troubleshooting run"
		case i < 0:
			return fmt.Sprintf("troubleshooting run %q is not the account's", id)
		case !diagnosticAllowsTicket(c.Diagnostics[i], strings.TrimSpace(a.Phone)):
			d := c.Diagnostics[i]
			return fmt.Sprintf("troubleshooting run %s (line %s, %s, %s) is not today's unresolved run on line %s", d.ID, d.PhoneNumber, d.Date, d.Result, a.Phone)
		}
		return ""
	})
	outageCredit = customerRule(RuleOutageCredit, func(db *DB, c *Customer, a *policyArgs) string {
		o := db.Outages.At(strings.TrimSpace(a.OutageID))
		switch {
		case a.Reason != CreditOutage:
			return fmt.Sprintf("reason %q: only outage credits", a.Reason)
		case o == nil:
			return fmt.Sprintf("no confirmed outage %q", a.OutageID)
		case !slices.Contains(o.Zips, c.Address.Zip):
			return fmt.Sprintf("outage %s does not cover zip %s", o.ID, c.Address.Zip)
		case sim.Money(math.Round(a.Amount*100)) != OutageCredit(o):
			return fmt.Sprintf("amount %.2f is not the outage credit %s", a.Amount, OutageCredit(o))
		case slices.ContainsFunc(c.Credits, func(cr Credit) bool { return cr.OutageID == o.ID }):
			return fmt.Sprintf("outage %s was already credited", o.ID)
		}
		return ""
	})
	lateFeeOncePerYear = customerRule(RuleLateFeeOncePerYear, func(_ *DB, c *Customer, _ *policyArgs) string {
		if cr := waiverWithinYear(c); cr != nil {
			return fmt.Sprintf("late fee waiver %s on %s", cr.ID, cr.Date)
		}
		return ""
	})
	reactivateAfterPayment = customerRule(RuleReactivateAfterPayment, func(_ *DB, c *Customer, _ *policyArgs) string {
		if hasOverdueBalance(c) {
			return "an overdue balance is left"
		}
		return ""
	})
)
