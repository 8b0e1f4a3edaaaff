package tracer_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// TestGenerate_EmotionInstruction: every task carries the emotion text of
// its own profile, rendered with its own variant, so label and text agree.
func TestGenerate_EmotionInstruction(t *testing.T) {
	g := generate(t, shopDomain{}, genOptions(30, 7))
	texts := map[string]bool{}
	for _, task := range g.Tasks {
		want := sim.RenderEmotion(task.Emotion, sim.EpisodeSeed(7, task.ID, 1))
		if want == "" || task.EmotionInstruction != want {
			t.Errorf("%s: emotion instruction %q, want %q (profile %+v)", task.ID, task.EmotionInstruction, want, task.Emotion)
		}
		texts[task.EmotionInstruction] = true
	}
	if len(texts) < 10 {
		t.Errorf("%d distinct emotion texts over %d tasks, want varied phrasings", len(texts), len(g.Tasks))
	}
}

// TestGenerate_UsedInTask: a grounder sees the entities the task's earlier
// intents used, and only those: a status question that skips them never
// asks twice about one order within a task, while orders of kept tasks
// stay available to later tasks.
func TestGenerate_UsedInTask(t *testing.T) {
	dom := shopDomain{edit: func(c *sim.Catalog) {
		for i := range c.Intents {
			in := &c.Intents[i]
			if in.Name != "order_status" {
				continue
			}
			in.Ground = func(g sim.GroundContext) (sim.Grounding, bool) {
				if g.UsedInTask == nil {
					return sim.Grounding{}, false
				}
				s := shopOf(g.Env)
				var fresh []string
				for _, id := range s.Users[g.UserID].Orders {
					if !g.UsedInTask(id) {
						fresh = append(fresh, id)
					}
				}
				if len(fresh) == 0 {
					return sim.Grounding{}, false
				}
				id := fresh[g.Rand.IntN(len(fresh))]
				return sim.Grounding{
					Slots:   map[string]string{"order_id": id},
					Facts:   map[string]string{"order_id": id},
					Request: emobench.Request{Text: "What is the status of order " + id + "?", Tools: []string{"get_order_details"}},
					Actions: []emobench.Action{act("get_order_details", map[string]string{"order_id": id})},
					Outputs: []string{s.Orders[id].Status},
					Uses:    []string{id},
				}, true
			}
		}
	}}
	g := generate(t, dom, genOptions(20, 7, func(o *tracer.GenerateOptions) {
		o.Intents = []int{3}
		o.IntentsDist = nil
		o.ReadShare = 1
		o.ForbiddenShare = 0
		o.TransferShare = 0
	}))
	seen := map[string]int{}
	for _, task := range g.Tasks {
		orders := map[string]bool{}
		for _, r := range task.Scenario.Requests {
			id := strings.TrimSuffix(strings.TrimPrefix(r.Text, "What is the status of order "), "?")
			if orders[id] {
				t.Errorf("%s asks twice about order %s: %v", task.ID, id, task.Scenario.Requests)
			}
			orders[id] = true
			seen[id]++
		}
		if len(orders) != 3 {
			t.Errorf("%s: %d orders asked about, want 3", task.ID, len(orders))
		}
	}
	reused := 0
	for _, n := range seen {
		if n > 1 {
			reused++
		}
	}
	if reused == 0 {
		t.Error("no order was asked about in two tasks: UsedInTask must not carry over from kept tasks")
	}
}

// TestGenerate_DefaultWeights: options without weights take the default
// ones (1,2,4 for walk steps 2,3,4 and for 1,2,3 intents), and other
// values without weights are drawn uniformly rather than refused.
func TestGenerate_DefaultWeights(t *testing.T) {
	if got, want := tracer.DefaultWalkStepsDist, []float64{1, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("DefaultWalkStepsDist %v, want %v", got, want)
	}
	implicit := encode(t, generate(t, shopDomain{}, genOptions(12, 4)).Tasks)
	explicit := encode(t, generate(t, shopDomain{}, genOptions(12, 4, func(o *tracer.GenerateOptions) {
		o.WalkSteps = []int{2, 3, 4}
		o.WalkStepsDist = []float64{1, 2, 4}
		o.Intents = []int{1, 2, 3}
		o.IntentsDist = []float64{1, 2, 4}
	})).Tasks)
	if !bytes.Equal(implicit, explicit) {
		t.Fatal("default options differ from walk steps 2,3,4 and intents 1,2,3 weighted 1,2,4")
	}
	uniform := encode(t, generate(t, shopDomain{}, genOptions(12, 4, func(o *tracer.GenerateOptions) { o.WalkStepsDist = uniform3; o.IntentsDist = uniform3 })).Tasks)
	if bytes.Equal(implicit, uniform) {
		t.Fatal("the default weights give the same tasks as uniform ones")
	}
	g := generate(t, shopDomain{}, genOptions(6, 4, func(o *tracer.GenerateOptions) { o.Intents = []int{1, 2}; o.IntentsDist = nil }))
	if len(g.Tasks) != 6 {
		t.Fatalf("intents 1,2 without weights kept %d tasks, want 6", len(g.Tasks))
	}
}
