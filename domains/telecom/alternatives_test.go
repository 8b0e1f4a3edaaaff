package telecom

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// refusalAlternative is what the policy offers instead of a forbidden
// intent's write: calls of the forbidden tool (from the forbidden entry
// f, for customer c) that the policy allows, and the words every
// template of the intent declines the alternative with. No calls: the
// policy offers none, or only after another write the user declines
// (paying the bill first, troubleshooting first). No decline: it offers
// nothing to decline.
type refusalAlternative struct {
	decline *regexp.Regexp
	tool    string
	calls   func(c *Customer, f emobench.Action) []emobench.Action
}

var refusalAlternatives = map[string]refusalAlternative{
	"change_plan_today": {regexp.MustCompile(`(?i)If it can't start today, I don't want the change at all\.`), ToolChangePlan,
		func(c *Customer, f emobench.Action) []emobench.Action {
			return []emobench.Action{withArg(f, "effective_date", c.NextCycleStart())}
		}},
	"arrangement_too_long": {regexp.MustCompile(`(?i)If I can't split it into (\d+|\{installments\}) payments, leave it\.`), ToolCreateArrangement,
		func(_ *Customer, f emobench.Action) []emobench.Action {
			return []emobench.Action{withArg(f, "installments", 2), withArg(f, "installments", maxPolicyInstallments)}
		}},
	"reactivate_with_overdue":        {decline: regexp.MustCompile(`(?i)If the bill has to be paid first, leave the line as it is\.`)},
	"feature_on_suspended_line":      {decline: regexp.MustCompile(`(?i)If it can't go on the line as it is now, leave it\.`)},
	"ticket_without_troubleshooting": {decline: regexp.MustCompile(`(?i)don't run any tests|Skip the troubleshooting|without any checks`)},
	"second_late_fee_waiver":         {},
	"arrangement_bill_not_due":       {},
	"senior_discount_underage":       {},
	"credit_without_outage":          {},
}

// withArg returns a call of a's tool with a's arguments but key set to
// value.
func withArg(a emobench.Action, key string, value any) emobench.Action {
	kw, _ := sim.CallArgs(a)
	kw[key] = value
	raw, _ := json.Marshal(kw)
	return emobench.Action{Name: a.Name, Arguments: raw}
}

// TestCatalog_RefusalAlternatives checks each forbidden intent against
// what its policy offers instead: every template declines the
// alternative (so does every embedded task's instruction), and on every
// embedded task the alternative's calls that pass CheckPolicy (others are
// another trap's entry, such as a bill not yet due) match no forbidden
// entry, and there is one at least. So a user who accepted the offer
// would not fail an agent for making it.
func TestCatalog_RefusalAlternatives(t *testing.T) {
	for _, in := range Catalog().Intents {
		alt, ok := refusalAlternatives[in.Name]
		if ok != (in.Kind == sim.IntentForbidden) {
			t.Errorf("intent %s (%s): in refusalAlternatives %v, want it exactly for forbidden intents", in.Name, in.Kind, ok)
		}
		for _, tmpl := range in.Templates {
			if alt.decline != nil && !alt.decline.MatchString(tmpl) {
				t.Errorf("%s: template %q does not decline the alternative (%s)", in.Name, tmpl, alt.decline)
			}
		}
	}
	for _, task := range New().Tasks() {
		env := newEnv()
		for _, a := range task.Actions {
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Fatalf("task %s: %s: %v", task.ID, a.Name, err)
			}
		}
		for _, in := range task.Intents {
			alt := refusalAlternatives[in]
			if alt.decline != nil && !alt.decline.MatchString(task.Instruction) {
				t.Errorf("task %s: instruction %q does not decline the alternative to %s (%s)", task.ID, task.Instruction, in, alt.decline)
			}
			if alt.calls == nil {
				continue
			}
			n := 0
			for _, f := range task.Forbidden {
				if f.Name != alt.tool {
					continue
				}
				for _, call := range alt.calls(env.State.Customers.At(task.UserID), f) {
					if CheckPolicy(env, task.UserID, call) != nil {
						continue
					}
					n++
					for _, g := range task.Forbidden {
						if sim.ForbiddenMatch(g, call) {
							t.Errorf("task %s: the allowed %s%s matches the forbidden %s%s (compare_args %v)", task.ID, call.Name, call.Arguments, g.Name, g.Arguments, g.CompareArgs)
						}
					}
				}
			}
			if n == 0 {
				t.Errorf("task %s (%v): no allowed alternative of %s checked", task.ID, task.Intents, in)
			}
		}
	}
}

// TestAlternatives_Named checks Alternatives on one customer: a write
// whose arguments the facts name has none, and one whose facts leave the
// payment method open lists the customer's other methods.
func TestAlternatives_Named(t *testing.T) {
	env := newEnv()
	c := customerWhere(t, "with two payment methods", func(c *Customer) bool { return len(c.PaymentMethods) >= 2 })
	methods := slices.Sorted(maps.Keys(c.PaymentMethods))
	gold := sim.NewAction(ToolEnableAutopay, "customer_id", c.ID, "payment_method_id", methods[0])
	if got := Alternatives(env, c.ID, map[string]string{"payment_method": c.PaymentMethods[methods[0]].Describe()}, gold); len(got) != 0 {
		t.Errorf("named method: alternatives %v, want none", got)
	}
	got := Alternatives(env, c.ID, map[string]string{}, gold)
	if len(got) != len(methods)-1 {
		t.Fatalf("no method named: %d alternatives, want %d", len(got), len(methods)-1)
	}
	for i, a := range got {
		if want := sim.NewAction(ToolEnableAutopay, "customer_id", c.ID, "payment_method_id", methods[i+1]); !sim.SameCall(a, want) {
			t.Errorf("alternative %d = %s, want %s", i, a.Arguments, want.Arguments)
		}
	}
}
