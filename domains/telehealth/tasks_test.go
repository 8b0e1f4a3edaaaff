package telehealth

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// warningWords are words of policy.md's emergency warning signs.
var warningWords = []string{"chest", "breath", "headache", "vision", "numb", "weakness", "speaking", "faint"}

// TestTasks checks what telehealth's embedded tasks promise beyond the
// conformance suite: the test split holds every refusal and transfer
// intent (SpreadIntents, the catalog's rarest-first order); a gold
// transfer for an emergency warning sign, and only one, says in its
// summary that the agent told the patient to call 911 (policy.md) and
// asks the agent for that advice in policy.md's words, and there are
// transfers of both; instructions keep names capitalised (no
// template starts with one); outputs are as people write them (no stored
// "2025-02-15T09:00", no "1 refills").
func TestTasks(t *testing.T) {
	if !strings.Contains(policy, "call 911") || !strings.Contains(policy, "A visit reason is not a symptom report") {
		t.Fatal("policy.md does not say to call 911 for warning signs, or that a visit reason is no symptom report")
	}
	var names []string
	for _, n := range append(slices.Clone(clinic.FirstNames), clinic.LastNames...) {
		names = append(names, strings.ToLower(n))
	}
	lower := regexp.MustCompile(`\b(` + strings.Join(names, "|") + `|dr\.)(\s|$|[^\w])`)
	stamp := regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}`)
	held := map[string]int{}
	advised, other := 0, 0
	for _, task := range New().Tasks() {
		if task.Split == emobench.SplitTest {
			for _, in := range task.Intents {
				held[in]++
			}
		}
		if m := lower.FindString(task.Instruction); m != "" {
			t.Errorf("task %s: %q in lower case: %s", task.ID, m, task.Instruction)
		}
		for _, out := range task.Outputs {
			if stamp.MatchString(out) || out == "1 refills" {
				t.Errorf("%s: output %q is not how an answer says it", task.ID, out)
			}
		}
		last := task.Actions[len(task.Actions)-1]
		if last.Name != ToolTransfer {
			continue
		}
		var args struct{ Summary string }
		if err := json.Unmarshal(last.Arguments, &args); err != nil {
			t.Fatalf("task %s: transfer arguments: %v", task.ID, err)
		}
		sign := task.Scenario.Facts["symptom"] + task.Scenario.Facts["feeling"]
		if got, want := strings.Contains(args.Summary, "call 911"), warningSign(sign); got != want || (len(task.Advice) > 0) != want {
			t.Errorf("task %s: %q (warning sign %v): summary %q says call 911: %v; advice %v", task.ID, sign, want, args.Summary, got, task.Advice)
		}
		for _, a := range task.Advice {
			if a.Before != ToolTransfer || !slices.Contains(a.AnyOf, "911") || a.NLAssertion == "" ||
				!strings.Contains(policy, a.AnyOf[0]) || !strings.Contains(policy, a.AnyOf[1]) {
				t.Errorf("task %s: advice %+v: want 911 before %s in policy.md's words, with an NL assertion", task.ID, a, ToolTransfer)
			}
		}
		if warningSign(sign) {
			advised++
		} else if sign != "" {
			other++
		}
	}
	if advised == 0 || other == 0 {
		t.Errorf("transfers for a warning sign %d, for another symptom %d: want some of each", advised, other)
	}
	n := map[sim.IntentKind]int{}
	for _, in := range Catalog().Intents {
		if in.Kind == sim.IntentForbidden || in.Kind == sim.IntentTransfer {
			n[in.Kind]++
			if held[in.Name] == 0 {
				t.Errorf("no test task holds the %s intent %s", in.Kind, in.Name)
			}
		}
	}
	if n[sim.IntentForbidden] != 10 || n[sim.IntentTransfer] != 5 {
		t.Errorf("%d refusal and %d transfer intents, want 10 and 5", n[sim.IntentForbidden], n[sim.IntentTransfer])
	}
	for _, sp := range clinic.Specialties {
		for _, reason := range sp.Reasons {
			for _, w := range warningWords {
				if strings.Contains(reason, w) {
					t.Errorf("%s visit reason %q names the warning sign %q (a booking is never a transfer)", sp.Name, reason, w)
				}
			}
		}
	}
}

// TestRelativeWord checks that a relative is named by age and gender:
// every first name of the data has a gender or is Quinn's, a parent is 18
// or more years older and a child 18 or more younger.
func TestRelativeWord(t *testing.T) {
	for _, n := range clinic.FirstNames {
		if !slices.Contains(clinic.FemaleNames, n) && !slices.Contains(clinic.MaleNames, n) && n != "Quinn" {
			t.Errorf("first name %s has no gender", n)
		}
	}
	g := sim.GroundContext{Rand: rand.New(rand.NewPCG(1, 2))}
	me := &Patient{DateOfBirth: "1980-05-01"}
	for _, c := range []struct {
		first, born string
		want        []string
	}{
		{"Wendy", "1950-01-01", []string{"mother"}},
		{"Liam", "2003-01-01", []string{"son"}},
		{"Quinn", "1955-01-01", []string{"parent"}},
		{"Hana", "1975-01-01", []string{"wife", "sister"}},
		{"Ivan", "1990-01-01", []string{"husband", "brother"}},
		{"Quinn", "1982-01-01", []string{"spouse", "sibling"}},
	} {
		owner := &Patient{Name: PersonName{First: c.first}, DateOfBirth: c.born}
		if got := relativeWord(g, me, owner); !slices.Contains(c.want, got) {
			t.Errorf("relative %s born %s of a patient born %s = %q, want one of %v", c.first, c.born, me.DateOfBirth, got, c.want)
		}
	}
}
