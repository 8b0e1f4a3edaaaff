package telehealth

import (
	"maps"
	"regexp"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
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
func checkAlternatives(t *testing.T, who string, env *sim.StateEnv[DB], patientID string, forbidden []emobench.Action) int {
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
// grounding and every embedded task the alternative's calls that pass
// CheckPolicy match no forbidden entry, while the forbidden write matches
// its own entry. So a user who accepted the offer would not fail an agent
// for making it, and an agent that made it would not be caught as
// breaking the policy.
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

	groundings := 20 // of each intent: every variant of a booking is many calls
	if testing.Short() {
		groundings = 5
	}
	for i, in := range c.Intents {
		alt := refusalAlternatives[in.Name]
		if !alt.offered {
			continue
		}
		t.Run(in.Name, func(t *testing.T) {
			grounded, withAlternative, checked := 0, 0, 0
			for j := 0; j < NumPatients && grounded < groundings; j++ {
				gr, ok := groundFor(t, in, j, uint64(i))
				if !ok {
					continue
				}
				grounded++
				for _, f := range gr.g.Forbidden {
					if !sim.ForbiddenMatch(f, f) {
						t.Errorf("%s/%s: the forbidden %s%s does not match itself", in.Name, gr.userID, f.Name, f.Arguments)
					}
				}
				n := checkAlternatives(t, in.Name+"/"+gr.userID, gr.env, gr.userID, gr.g.Forbidden)
				if n > 0 {
					withAlternative++
				}
				checked += n
			}
			switch {
			case grounded == 0 || withAlternative == 0:
				t.Errorf("%d groundings, %d with an allowed alternative: want one at least", grounded, withAlternative)
			case !alt.sometimes && withAlternative < grounded:
				t.Errorf("%d groundings, %d with an allowed alternative: the policy offers one, want it for each", grounded, withAlternative)
			}
			t.Logf("%d groundings, %d with an allowed alternative, %d alternatives checked", grounded, withAlternative, checked)
		})
	}

	for _, task := range New().Tasks() {
		env := envOver(initialState())
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

// extraEndStates replays actions for patientID on a fresh environment
// and, at each write but the transfer, returns the calls of Alternatives
// (with facts) that CheckPolicy allows and that leave another state than
// the gold write: each a second valid end state.
func extraEndStates(t *testing.T, who, patientID string, facts map[string]string, actions []emobench.Action) (writes int, extra []emobench.Action) {
	t.Helper()
	writing := map[string]bool{}
	for _, tool := range Tools() {
		writing[tool.Name] = tool.Writes && tool.Name != ToolTransfer
	}
	replay := func(calls []emobench.Action) *sim.StateEnv[DB] {
		env := newEnv()
		for _, a := range calls {
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Fatalf("%s: %s%s: %v", who, a.Name, a.Arguments, err)
			}
		}
		return env
	}
	for i, gold := range actions {
		if !writing[gold.Name] {
			continue
		}
		writes++
		want := replay(actions[:i+1]).Hash()
		before := replay(actions[:i])
		for _, alt := range Alternatives(before, patientID, facts, gold) {
			env := replay(actions[:i])
			if CheckPolicy(env, patientID, alt) != nil {
				continue
			}
			if _, err := env.Call(alt.Name, alt.Arguments); err == nil && env.Hash() != want {
				extra = append(extra, alt)
			}
		}
	}
	return writes, extra
}

// TestAlternatives_OneEndState checks what tracer audit checks of the
// embedded tasks (the suite's Audit) on every write intent grounded for
// many patients:
// no write has an alternative the patient's words and the policy allow
// that ends elsewhere. And that Alternatives is no empty answer: without
// the slot a patient named, a booking has other valid end states.
func TestAlternatives_OneEndState(t *testing.T) {
	c := Catalog()
	traits := map[string]int{}
	for i, in := range c.Intents {
		if in.Kind != sim.IntentWrite {
			continue
		}
		grounded := 0
		for j := 0; j < NumPatients && grounded < 25; j++ {
			gr, ok := groundFor(t, in, j, uint64(i))
			if !ok {
				continue
			}
			grounded++
			for _, tr := range gr.g.Traits {
				traits[in.Name+"/"+tr]++
			}
			facts := maps.Clone(gr.g.Facts)
			maps.Copy(facts, gr.authFact)
			actions := append([]emobench.Action{gr.auth}, gr.g.Actions...)
			if _, extra := extraEndStates(t, in.Name+"/"+gr.userID, gr.userID, facts, actions); len(extra) > 0 {
				t.Errorf("%s for %s (facts %v): %d other valid end states, first %s%s", in.Name, gr.userID, facts, len(extra), extra[0].Name, extra[0].Arguments)
			}
			if in.Name == "book_appointment" {
				delete(facts, "start_time")
				delete(facts, "preferred_day")
				if _, extra := extraEndStates(t, in.Name, gr.userID, facts, actions); len(extra) == 0 {
					t.Errorf("%s for %s: no other valid end state once the patient names no slot", in.Name, gr.userID)
				}
			}
		}
	}
	t.Logf("traits of the write groundings: %v", traits)
	for _, want := range []string{"cancel_appointment/findable", "book_appointment/conditional", "update_supplier/conditional", "request_refill/findable"} {
		if traits[want] == 0 {
			t.Errorf("no grounding %s", want)
		}
	}
}
