package tracer_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// shopWithTraits gives the shop catalog what MeasurePolicy draws on: a
// cancellation grounder that, asked for a trait, lets the user not know
// the order id (findable) and gives advice (the refund amount, its
// output), and a second forbidden intent, so that two
// request types share the refusals.
func shopWithTraits() shopDomain {
	return shopDomain{edit: func(c *sim.Catalog) {
		i := slices.IndexFunc(c.Intents, func(in sim.Intent) bool { return in.Name == "cancel_order" })
		plain := c.Intents[i].Ground
		c.Intents[i].Ground = func(g sim.GroundContext) (sim.Grounding, bool) {
			gr, ok := plain(g)
			if ok && g.WantTraits {
				gr.Traits = []string{emobench.TraitFindable}
				// The phrase is what the offline PROCEDURE check finds
				// (and the oracle says): advice without one never passes.
				gr.Advice = []emobench.Advice{{AnyOf: gr.Outputs, NLAssertion: "The agent tells the user the refund amount."}}
			}
			return gr, ok
		}
		j := slices.IndexFunc(c.Intents, func(in sim.Intent) bool { return in.Name == "return_final_sale" })
		again := c.Intents[j]
		again.Name = "return_final_sale_again"
		c.Intents = append(c.Intents, again)
	}}
}

// A split measuring the policy meets every share TestShares checks: mixed
// tasks, traits, each forbidden and transfer intent twice, and each
// family 20% of every kind; the kinds' counts are multiples of 5, the
// groundings' traits and advice reach the tasks, and every emotion
// instruction is the one its profile renders.
func TestGenerate_MeasurePolicy(t *testing.T) {
	dom := shopWithTraits()
	g := generate(t, dom, tracer.GenerateOptions{N: 40, Seed: 5, MeasurePolicy: true})
	cat := dom.Catalog()
	shares := tracer.SplitShares(cat, g.Tasks)
	if v := shares.Violations(); len(v) > 0 {
		t.Errorf("violations: %s\nshortfalls: %s", strings.Join(v, "; "), strings.Join(g.Shortfalls, "; "))
	}
	perKind := map[string]int{}
	for i := range g.Tasks {
		task := &g.Tasks[i]
		perKind[sim.KindOf(sim.IntentAsks(cat, task), true)]++
		if (len(task.Traits) > 0) != (len(task.Advice) > 0) {
			t.Errorf("%s: traits %v, advice %v: the grounding's advice is not the task's", task.ID, task.Traits, task.Advice)
		}
		if len(task.Traits) > 0 && !slices.Equal(task.Traits, []string{emobench.TraitFindable}) {
			t.Errorf("%s: traits %v, want [findable] merged", task.ID, task.Traits)
		}
		if want := sim.RenderEmotion(task.Emotion, sim.EpisodeSeed(5, task.ID, 1)); task.EmotionInstruction != want {
			t.Errorf("%s: emotion instruction not re-rendered for %s", task.ID, task.Emotion.Family)
		}
	}
	for kind, n := range perKind {
		if n%5 != 0 {
			t.Errorf("%s: %d tasks, want a multiple of 5 (kinds %v)", kind, n, perKind)
		}
	}
	if perKind[tracer.KindMixed] != 10 || g.Kinds[tracer.KindMixed] != 10 {
		t.Errorf("mixed tasks %d (generator %d), want 10 of 40", perKind[tracer.KindMixed], g.Kinds[tracer.KindMixed])
	}
	// The shop's refusal and transfer intents do not list enjoyment or
	// pride: their balance goes against Families, and says so.
	if !slices.ContainsFunc(g.Shortfalls, func(s string) bool { return strings.Contains(s, "get a family their intents do not list") }) {
		t.Errorf("shortfalls %v, want the family conflicts reported", g.Shortfalls)
	}
}

// Advice without a phrase (only an NL assertion) can never pass the
// offline PROCEDURE check: Generate says so, naming the intent, instead
// of rejecting every candidate as oracle_failed.
func TestGenerate_AdviceWithoutPhrase(t *testing.T) {
	dom := shopDomain{edit: func(c *sim.Catalog) {
		shopWithTraits().edit(c)
		i := slices.IndexFunc(c.Intents, func(in sim.Intent) bool { return in.Name == "cancel_order" })
		withPhrase := c.Intents[i].Ground
		c.Intents[i].Ground = func(g sim.GroundContext) (sim.Grounding, bool) {
			gr, ok := withPhrase(g)
			for k := range gr.Advice {
				gr.Advice[k].AnyOf = nil
			}
			return gr, ok
		}
	}}
	_, err := tracer.Generate(context.Background(), dom, tracer.GenerateOptions{N: 40, Seed: 5, MeasurePolicy: true})
	want := `domain shop: intent cancel_order: advice "The agent tells the user the refund amount." has no any_of phrase`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
}

// A catalog whose grounders never give a trait still makes its split: the
// trait share is given up and reported, not an endless search.
func TestGenerate_MeasurePolicyWithoutTraits(t *testing.T) {
	g := generate(t, shopDomain{}, tracer.GenerateOptions{N: 20, Seed: 5, MeasurePolicy: true})
	if len(g.Tasks) != 20 {
		t.Fatalf("%d tasks, want 20", len(g.Tasks))
	}
	if !slices.ContainsFunc(g.Shortfalls, func(s string) bool { return strings.Contains(s, "tasks carry a trait, not 6") }) {
		t.Errorf("shortfalls %v, want the trait share reported", g.Shortfalls)
	}
}

// SplitShares on hand-made tasks: kinds by the intents' kinds, fractions
// of the split, every catalog intent listed.
func TestSplitShares(t *testing.T) {
	cat := shopDomain{}.Catalog()
	task := func(family string, traits []string, intents ...string) emobench.TaskSpec {
		return emobench.TaskSpec{Intents: intents, Traits: traits, Emotion: emobench.EmotionProfile{Family: family}}
	}
	tasks := []emobench.TaskSpec{
		task("anger", nil, "cancel_order", "return_final_sale"),
		task("fear", []string{emobench.TraitConditional}, "return_final_sale"),
		task("anger", nil, "order_status"),
		task("enjoyment", []string{emobench.TraitFindable}, "return_order", "dispute_charge"),
	}
	s := tracer.SplitShares(cat, tasks)
	if s.Tasks != 4 || s.Mixed != 0.5 || s.ConditionalOrFindable != 0.5 {
		t.Errorf("shares %+v, want 4 tasks, mixed 0.5, conditional_or_findable 0.5", s)
	}
	if s.ForbiddenTypes["return_final_sale"] != 2 || s.TransferTriggers["dispute_charge"] != 1 || len(s.ForbiddenTypes) != 1 {
		t.Errorf("forbidden %v, transfer %v", s.ForbiddenTypes, s.TransferTriggers)
	}
	if got := s.FamilyByKind[tracer.KindMixed]; got["anger"] != 0.5 || got["enjoyment"] != 0.5 || got["fear"] != 0 {
		t.Errorf("mixed families %v", got)
	}
	if got := s.FamilyByKind[tracer.KindRefusal]["fear"]; got != 1 {
		t.Errorf("refusal fear %v, want 1", got)
	}
	if _, ok := s.FamilyByKind[tracer.KindTransfer]; ok {
		t.Errorf("family_by_kind lists transfer, which has no task")
	}
	v := strings.Join(s.Violations(), "; ")
	for _, want := range []string{"transfer trigger dispute_charge is in 1 tasks, want at least 2", "read tasks: family anger has 100.0%"} {
		if !strings.Contains(v, want) {
			t.Errorf("violations %q lack %q", v, want)
		}
	}
}
