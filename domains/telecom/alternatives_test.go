package telecom

import (
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// refusalCalls are, for the forbidden intents whose policy offers another
// call of the forbidden tool, that tool and the calls it offers (from the
// forbidden entry f, for customer c). The others offer none, or only
// after another write the user declines (paying the bill first).
var refusalCalls = map[string]struct {
	tool  string
	calls func(c *Customer, f emobench.Action) []emobench.Action
}{
	"change_plan_today": {ToolChangePlan, func(c *Customer, f emobench.Action) []emobench.Action {
		return []emobench.Action{sim.WithArgs(f, "effective_date", c.NextCycleStart())}
	}},
	"arrangement_too_long": {ToolCreateArrangement, func(_ *Customer, f emobench.Action) []emobench.Action {
		return []emobench.Action{sim.WithArgs(f, "installments", 2), sim.WithArgs(f, "installments", maxPolicyInstallments)}
	}},
}

// TestCatalog_RefusalAlternatives checks each forbidden intent against
// what its policy offers instead: every template declines the
// alternative (so does every embedded task's instruction), and on every
// embedded task the alternative's calls that pass CheckPolicy (others are
// another trap's entry, such as a bill not yet due) match no forbidden
// entry, and there is one at least. So a user who accepted the offer
// would not fail an agent for making it.
func TestCatalog_RefusalAlternatives(t *testing.T) {
	var declines map[string]string // the file's note says what
	readTestdata(t, "refusal_declines.json", &declines)
	for _, in := range Catalog().Intents {
		decline, ok := declines[in.Name]
		if ok != (in.Kind == sim.IntentForbidden) {
			t.Errorf("intent %s (%s): in refusal_declines.json %v, want it exactly for forbidden intents", in.Name, in.Kind, ok)
		}
		for _, tmpl := range in.Templates {
			if !regexp.MustCompile(decline).MatchString(tmpl) {
				t.Errorf("%s: template %q does not decline the alternative (%s)", in.Name, tmpl, decline)
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
			if !regexp.MustCompile(declines[in]).MatchString(task.Instruction) {
				t.Errorf("task %s: instruction %q does not decline the alternative to %s (%s)", task.ID, task.Instruction, in, declines[in])
			}
			alt, ok := refusalCalls[in]
			if !ok {
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
