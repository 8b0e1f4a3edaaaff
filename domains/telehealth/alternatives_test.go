package telehealth

import (
	"maps"
	"regexp"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/sim/domaintest"
	"github.com/emobench/emobench/tracer"
)

// refusalAlternative is what the policy offers or allows instead of a
// forbidden intent's write, and the words every template of the intent
// declines it with (nil: the policy offers nothing instead). offered: the
// policy allows some variants of the forbidden write (another licensed
// provider, an eligible supplier, another approved option), which
// Alternatives lists; sometimes: only for some groundings.
type refusalAlternative struct {
	decline   *regexp.Regexp
	offered   bool
	sometimes bool
}

var refusalAlternatives = map[string]refusalAlternative{
	"book_unlicensed_provider": {regexp.MustCompile(`(?i)If (Dr\. [\w' -]+|\{provider\}) can't see me, I don't want another provider\.`), true, false},
	"supplier_not_shipping":    {regexp.MustCompile(`(?i)If ([\w&' -]+|\{supplier\}) can't take it, leave my prescription where it is\.`), true, false},
	"supplier_not_stocking":    {regexp.MustCompile(`(?i)If ([\w&' -]+|\{supplier\}) can't take it, leave my prescription where it is\.`), true, false},
	"change_dose_at_will":      {regexp.MustCompile(`(?i)If you can't change it to ([\w. ]+|\{dose\}), leave my prescription as it is\.`), true, true},
	// Another approved option without a major interaction would be
	// allowed, but no patient of the data has one: the decline alone.
	"switch_to_interacting_option": {decline: regexp.MustCompile(`(?i)If you can't switch me to ([\w-]+|\{medication\}), leave my prescription as it is\.`)},
	"waive_second_no_show_fee":     {},
	"cancel_late_appointment":      {},
	"refill_expired_prescription":  {},
	"replace_working_device":       {},
	"cancel_relatives_appointment": {},
}

// checkAlternatives checks the variants of the forbidden entries of a
// task for patientID on env that Alternatives lists (as for a patient who
// said nothing) and the policy allows: each matches no forbidden entry.
// It returns how many it checked.
func checkAlternatives(t *testing.T, who string, env sim.Environment, patientID string, forbidden []emobench.Action) int {
	t.Helper()
	n := 0
	for _, f := range forbidden {
		for _, call := range Alternatives(env, patientID, nil, f) {
			if CheckPolicy(env, patientID, call) != nil {
				continue // not the policy's alternative: another unlicensed provider, an ineligible supplier
			}
			n++
			for _, g := range forbidden {
				if sim.ForbiddenMatch(g, call) {
					t.Errorf("%s: the allowed %s%s matches the forbidden %s%s (compare_args %v)", who, call.Name, call.Arguments, g.Name, g.Arguments, g.CompareArgs)
				}
			}
		}
	}
	return n
}

// TestCatalog_RefusalAlternatives checks each forbidden intent against
// what its policy offers or allows instead: every template declines the
// alternative (so does every embedded task's instruction), and on every
// embedded task the alternative's calls that pass CheckPolicy match no
// forbidden entry (TestCatalog_Groundings checks many more groundings).
// So a user who accepted the offer would not fail an agent for making it,
// and an agent that made it would not be caught as breaking the policy.
func TestCatalog_RefusalAlternatives(t *testing.T) {
	c := Catalog()
	for _, in := range c.Intents {
		alt, ok := refusalAlternatives[in.Name]
		if ok != (in.Kind == sim.IntentForbidden) {
			t.Errorf("intent %s (%s): in refusalAlternatives %v, want it exactly for forbidden intents", in.Name, in.Kind, ok)
		}
		if alt.offered && alt.decline == nil {
			t.Errorf("intent %s: an alternative needs the words declining it", in.Name)
		}
		if alt.decline == nil {
			continue
		}
		for _, tmpl := range in.Templates {
			if !alt.decline.MatchString(tmpl) {
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
			if !alt.offered {
				continue
			}
			if checkAlternatives(t, task.ID, env, task.UserID, task.Forbidden) == 0 && !alt.sometimes {
				t.Errorf("task %s (%v): no allowed alternative of %s checked", task.ID, task.Intents, in)
			}
		}
	}
}

// endStates runs Tracer's single-end-state rule (the suite's Audit runs it
// on the embedded tasks) on a task for patientID whose gold is actions and
// whose patient said facts: false and why when a gold write has an
// alternative the patient's words and the policy allow that ends
// elsewhere.
func endStates(patientID string, facts map[string]string, actions []emobench.Action) (bool, string) {
	task := emobench.TaskSpec{ID: "grounding", Domain: Name, UserID: patientID, Actions: actions, Scenario: emobench.Scenario{Facts: facts}}
	r := tracer.AuditSingleEndState([]emobench.TaskSpec{task}, New()).Tasks[0]
	return !r.Failed(), r.Results[0].Reason
}

// TestCatalog_Groundings checks the intents grounded for many patients
// (under -short, a few): what tracer audit checks of the embedded tasks
// (the suite's Audit), on many more. A refusal's forbidden write matches
// its own entry, and the alternative the policy offers (refusalAlternatives)
// passes CheckPolicy and matches no forbidden entry, for every grounding
// unless it is offered only sometimes. No write has an alternative the
// patient's words and the policy allow that ends elsewhere; and
// Alternatives is no empty answer: without the slot a patient named, a
// booking has other valid end states.
func TestCatalog_Groundings(t *testing.T) {
	n := 25 // of each intent: every variant of a booking is many calls
	if testing.Short() {
		n = 5
	}
	traits := map[string]int{}
	for i, in := range Catalog().Intents {
		alt := refusalAlternatives[in.Name]
		if in.Kind != sim.IntentWrite && !alt.offered {
			continue
		}
		withAlternative := 0
		grs := domaintest.Groundings(t, New(), Catalog(), in, uint64(i), n)
		for _, gr := range grs {
			who := in.Name + "/" + gr.UserID
			for _, tr := range gr.Traits {
				traits[in.Name+"/"+tr]++
			}
			if alt.offered {
				for _, f := range gr.Forbidden {
					if !sim.ForbiddenMatch(f, f) {
						t.Errorf("%s: the forbidden %s%s does not match itself", who, f.Name, f.Arguments)
					}
				}
				if checkAlternatives(t, who, gr.Env, gr.UserID, gr.Forbidden) > 0 {
					withAlternative++
				}
				continue
			}
			facts := maps.Clone(gr.Facts)
			maps.Copy(facts, gr.AuthFacts)
			actions := append([]emobench.Action{gr.Auth}, gr.Actions...)
			if ok, why := endStates(gr.UserID, facts, actions); !ok {
				t.Errorf("%s (facts %v): %s", who, facts, why)
			}
			if in.Name == "book_appointment" {
				delete(facts, "start_time")
				delete(facts, "preferred_day")
				if ok, why := endStates(gr.UserID, facts, actions); ok {
					t.Errorf("%s: %s once the patient names no slot, want another valid end state", who, why)
				}
			}
		}
		switch {
		case !alt.offered:
		case len(grs) == 0 || withAlternative == 0:
			t.Errorf("%s: %d groundings, %d with an allowed alternative: want one at least", in.Name, len(grs), withAlternative)
		case !alt.sometimes && withAlternative < len(grs):
			t.Errorf("%s: %d groundings, %d with an allowed alternative: the policy offers one, want it for each", in.Name, len(grs), withAlternative)
		}
	}
	for _, want := range []string{"cancel_appointment/findable", "book_appointment/conditional", "update_supplier/conditional", "request_refill/findable"} {
		if traits[want] == 0 {
			t.Errorf("no grounding %s among %v", want, traits)
		}
	}
}
