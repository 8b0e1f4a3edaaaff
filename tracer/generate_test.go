package tracer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func generate(t testing.TB, dom sim.CatalogDomain, opts tracer.GenerateOptions) *tracer.Generated {
	t.Helper()
	g, err := tracer.Generate(context.Background(), dom, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func encode(t testing.TB, tasks []emobench.TaskSpec) []byte {
	t.Helper()
	b, err := sim.EncodeTasks(tasks)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGenerate_Deterministic(t *testing.T) {
	opts := tracer.GenerateOptions{N: 40, Seed: 7}
	a := encode(t, generate(t, shopDomain{}, opts).Tasks)
	b := encode(t, generate(t, shopDomain{}, opts).Tasks)
	if !bytes.Equal(a, b) {
		t.Fatal("two generations with seed 7 differ")
	}
	opts.Seed = 8
	if c := encode(t, generate(t, shopDomain{}, opts).Tasks); bytes.Equal(a, c) {
		t.Fatal("seeds 7 and 8 gave the same tasks")
	}
}

func TestGenerate_TasksAreComplete(t *testing.T) {
	g := generate(t, shopDomain{}, tracer.GenerateOptions{N: 30, Seed: 3, Split: emobench.SplitTrain})
	if got, want := len(g.Tasks), 30; got != want {
		t.Fatalf("kept %d tasks, want %d (rejected %v)", got, want, g.Rejected)
	}
	kinds := 0
	for _, n := range g.Kinds {
		kinds += n
	}
	if kinds != 30 || len(g.Writes) != 30 {
		t.Fatalf("kinds %v and writes %v do not count 30 tasks", g.Kinds, g.Writes)
	}
	if g.Candidates != 30+sum(g.Rejected) {
		t.Fatalf("candidates %d, want kept 30 + rejected %d", g.Candidates, sum(g.Rejected))
	}
	for i, task := range g.Tasks {
		if got, want := task.ID, fmt.Sprintf("shop-train-%03d", i); got != want {
			t.Errorf("task %d id %q, want %q", i, got, want)
		}
		if task.Split != emobench.SplitTrain || task.Domain != "shop" {
			t.Errorf("%s: split %s domain %s", task.ID, task.Split, task.Domain)
		}
		if task.Actions[0].Name != "find_user_id_by_email" {
			t.Errorf("%s: first action %s, want the opener", task.ID, task.Actions[0].Name)
		}
		if got, want := len(task.Scenario.Requests), len(task.Intents); got != want {
			t.Errorf("%s: %d requests for %d intents", task.ID, got, want)
		}
		if task.Generator == nil || *task.Generator != (emobench.GeneratorInfo{Name: "tracer", Version: tracer.GeneratorVersion, Seed: 3}) {
			t.Errorf("%s: generator %+v", task.ID, task.Generator)
		}
		if strings.Contains(task.Instruction, "_") || strings.Contains(task.Instruction, "{") {
			t.Errorf("%s: instruction names a tool or slot: %q", task.ID, task.Instruction)
		}
		if err := task.Validate(); err != nil {
			t.Error(err)
		}
	}
	// The generated file decodes as run --tasks-file reads it.
	if _, err := sim.DecodeTasks(encode(t, g.Tasks)); err != nil {
		t.Fatal(err)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestGenerate_Quotas: the forbidden and transfer shares hold for every
// prefix of the kept tasks, forbidden tasks leave the database as it was
// and list their refused writes, and the oracle passes every task.
func TestGenerate_Quotas(t *testing.T) {
	dom := shopDomain{}
	g := generate(t, dom, tracer.GenerateOptions{N: 60, Seed: 11, ForbiddenShare: 0.2, TransferShare: 0.1})
	initial := dom.NewEnvironment().Hash()
	forbidden, transfer := 0, 0
	for i, task := range g.Tasks {
		isForbidden := slices.Contains(task.Intents, "return_final_sale")
		if isForbidden {
			forbidden++
			if len(task.Forbidden) == 0 {
				t.Errorf("%s: forbidden intent without forbidden writes", task.ID)
			}
			h, err := sim.GoldHash(dom, &task)
			if err != nil || h != initial {
				t.Errorf("%s: gold database %s (%v), want the initial %s", task.ID, h, err, initial)
			}
		}
		if slices.Contains(task.Intents, "dispute_charge") {
			transfer++
			if last := task.Actions[len(task.Actions)-1].Name; last != "transfer_to_human_agents" {
				t.Errorf("%s: transfer task ends with %s", task.ID, last)
			}
		}
		n := float64(i + 1)
		if float64(forbidden) < 0.2*n-1e-9-1 || float64(transfer) < 0.1*n-1e-9-1 {
			t.Fatalf("after %d tasks: %d forbidden, %d transfer", i+1, forbidden, transfer)
		}
	}
	if forbidden < 12 || transfer < 6 {
		t.Fatalf("%d forbidden and %d transfer of 60, want at least 12 and 6", forbidden, transfer)
	}
	reads := 0
	for i, task := range g.Tasks {
		if task.Forbidden != nil || slices.Contains(task.Intents, "dispute_charge") {
			continue
		}
		readOnly := !slices.ContainsFunc(task.Intents, func(in string) bool { return in == "cancel_order" || in == "return_order" })
		if readOnly {
			reads++
		}
		if g.Writes[i] == 0 != readOnly {
			t.Errorf("%s: %d writes, intents %v", task.ID, g.Writes[i], task.Intents)
		}
	}
	if reads < 9 || g.Kinds[tracer.KindRead] != reads || g.Kinds[tracer.KindWrite] != 60-reads-forbidden-transfer {
		t.Fatalf("%d read-only tasks of 60, kinds %v; want at least 9 (0.15)", reads, g.Kinds)
	}
	if g.Kinds[tracer.KindRefusal] != forbidden || g.Kinds[tracer.KindTransfer] != transfer {
		t.Fatalf("kinds %v, counted %d forbidden %d transfer", g.Kinds, forbidden, transfer)
	}
	for _, task := range g.Tasks {
		traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{Domain: dom, Task: &task, Agent: sim.Oracle{}, User: sim.ScriptedUser{}, WithEmotions: true, Seed: 99})
		if err != nil || !traj.Passed() {
			t.Errorf("%s: oracle fails (%v)", task.ID, err)
		}
	}
}

func TestGenerate_NoQuotas(t *testing.T) {
	g := generate(t, shopDomain{}, tracer.GenerateOptions{N: 30, Seed: 2, ForbiddenShare: -1, TransferShare: -1})
	if g.Kinds[tracer.KindRefusal] != 0 || g.Kinds[tracer.KindTransfer] != 0 {
		t.Fatalf("kinds %v: want no forbidden or transfer task", g.Kinds)
	}
}

// TestGenerate_Walks: with 2-step walks only, every intent has a
// one-tool path, except the transfer, which falls back to its 3 steps.
func TestGenerate_Walks(t *testing.T) {
	g := generate(t, shopDomain{}, tracer.GenerateOptions{N: 30, Seed: 5, WalkSteps: []int{2}, ForbiddenShare: 0.3, TransferShare: 0.2, ReadShare: 0.5})
	for _, task := range g.Tasks {
		for _, in := range task.Intents {
			if !slices.Contains([]string{"order_status", "return_final_sale", "dispute_charge"}, in) {
				t.Errorf("%s: intent %s has a path longer than 1", task.ID, in)
			}
		}
	}
	if g.WalkFallbacks == 0 {
		t.Fatal("the transfer (3 steps) was drawn without counting a fallback")
	}
	g = generate(t, shopDomain{}, tracer.GenerateOptions{N: 20, Seed: 5, WalkSteps: []int{2, 3, 4}, WalkStepsDist: []float64{0, 0, 1}, ForbiddenShare: -1, TransferShare: -1, ReadShare: -1})
	for _, task := range g.Tasks {
		for _, in := range task.Intents {
			if in != "return_order" {
				t.Errorf("%s: intent %s, want only return_order (the one 4-step walk)", task.ID, in)
			}
		}
	}
}

// TestGenerate_MultiIntent: three intents per task for one user, each
// grounded after the earlier ones ran: two cancellations never cancel the
// same order, and a later order's fact key is "second_order_id".
func TestGenerate_MultiIntent(t *testing.T) {
	g := generate(t, shopDomain{}, tracer.GenerateOptions{N: 20, Seed: 9, Intents: []int{3}, ForbiddenShare: -1, TransferShare: -1})
	second := false
	for _, task := range g.Tasks {
		if got := len(task.Intents); got != 3 {
			t.Errorf("%s: %d intents, want 3", task.ID, got)
		}
		var cancelled []string
		for _, a := range task.Actions {
			if a.Name == "cancel_pending_order" || a.Name == "return_delivered_order" {
				args, _ := sim.CallArgs(a)
				id := args["order_id"].(string)
				if slices.Contains(cancelled, id) {
					t.Errorf("%s: %s twice on %s", task.ID, a.Name, id)
				}
				cancelled = append(cancelled, id)
			}
		}
		if _, ok := task.Scenario.Facts["second_order_id"]; ok {
			second = true
		}
	}
	if !second {
		t.Fatal("no task holds a second order id")
	}
}

func TestGenerate_Rejections(t *testing.T) {
	wrap := func(name string, ground func(g sim.GroundContext, gr sim.Grounding) sim.Grounding) func(*sim.Catalog) {
		return func(c *sim.Catalog) {
			for i := range c.Intents {
				if c.Intents[i].Name != name {
					continue
				}
				inner := c.Intents[i].Ground
				c.Intents[i].Ground = func(g sim.GroundContext) (sim.Grounding, bool) {
					gr, ok := inner(g)
					if !ok {
						return gr, false
					}
					return ground(g, gr), true
				}
			}
		}
	}
	cases := []struct {
		reason string
		edit   func(*sim.Catalog)
	}{
		{tracer.RejectNoGrounding, func(c *sim.Catalog) {
			for i := range c.Intents {
				if c.Intents[i].Kind == sim.IntentWrite || c.Intents[i].Kind == sim.IntentRead {
					c.Intents[i].Ground = func(sim.GroundContext) (sim.Grounding, bool) { return sim.Grounding{}, false }
				}
			}
		}},
		{tracer.RejectGoldToolError, wrap("order_status", func(_ sim.GroundContext, gr sim.Grounding) sim.Grounding {
			gr.Actions = []emobench.Action{act("get_order_details", map[string]string{"order_id": "#W9999"})}
			return gr
		})},
		{tracer.RejectGoldWritePolicy, wrap("cancel_order", func(g sim.GroundContext, gr sim.Grounding) sim.Grounding {
			other := "#W1000" // ana's pending order
			if g.UserID == "ana_100" {
				other = "#W1006"
			}
			gr.Actions = []emobench.Action{act("cancel_pending_order", map[string]string{"order_id": other, "reason": "no longer needed"})}
			return gr
		})},
		{tracer.RejectForbiddenAllowed, wrap("return_final_sale", func(g sim.GroundContext, gr sim.Grounding) sim.Grounding {
			ok := ordersWhere(g, func(o *shopOrder) bool { return o.Status == "delivered" && !o.FinalSale })
			gr.Forbidden = []emobench.Action{act("return_delivered_order", map[string]string{"order_id": ok[0]})}
			return gr
		})},
		{tracer.RejectFactsUnreachable, wrap("cancel_order", func(_ sim.GroundContext, gr sim.Grounding) sim.Grounding {
			args, _ := sim.CallArgs(gr.Actions[1])
			gr.Actions[1] = act("cancel_pending_order", map[string]string{"order_id": args["order_id"].(string), "reason": "found it cheaper"})
			return gr
		})},
		{tracer.RejectForbiddenChangesDB, wrap("return_final_sale", func(g sim.GroundContext, gr sim.Grounding) sim.Grounding {
			pending := ordersWhere(g, func(o *shopOrder) bool { return o.Status == "pending" })
			if len(pending) > 0 {
				gr.Actions = append(gr.Actions, act("cancel_pending_order", map[string]string{"order_id": pending[0], "reason": "no longer needed"}))
				gr.Facts["reason"] = "no longer needed"
			}
			return gr
		})},
		{tracer.RejectOracleFailed, wrap("order_status", func(_ sim.GroundContext, gr sim.Grounding) sim.Grounding {
			gr.Request.Tools = []string{"return_delivered_order"} // never called: the user is never done
			return gr
		})},
		{tracer.RejectCarelessPassed, wrap("return_final_sale", func(_ sim.GroundContext, gr sim.Grounding) sim.Grounding {
			// Worded without a write, careless infers none, and its
			// closing says the output, which reads as a refusal.
			gr.Request.Text = "Tell me about my final sale order."
			gr.Outputs = []string{"final sale orders cannot be returned"}
			return gr
		})},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			g, err := tracer.Generate(context.Background(), shopDomain{edit: c.edit}, tracer.GenerateOptions{N: 20, Seed: 4, MaxCandidates: 400})
			if err != nil && !errors.Is(err, tracer.ErrShort) {
				t.Fatal(err)
			}
			if g.Rejected[c.reason] == 0 || g.Examples[c.reason] == "" {
				t.Fatalf("rejected %v (examples %v), want some %s", g.Rejected, g.Examples, c.reason)
			}
			t.Logf("%s: %s", c.reason, g.Examples[c.reason])
		})
	}
}

func TestGenerate_Duplicates(t *testing.T) {
	one := func(c *sim.Catalog) {
		c.Users = func(sim.Environment) []string { return []string{"ana_100"} }
		c.Intents = slices.DeleteFunc(c.Intents, func(in sim.Intent) bool { return in.Name != "order_status" })
	}
	g, err := tracer.Generate(context.Background(), shopDomain{edit: one}, tracer.GenerateOptions{N: 6, Seed: 1, Intents: []int{1}, ForbiddenShare: -1, TransferShare: -1, ReadShare: 1})
	if err != nil {
		t.Fatal(err)
	}
	if g.Rejected[tracer.RejectDuplicate] == 0 {
		t.Fatalf("rejected %v, want duplicates (one user, six orders, six tasks)", g.Rejected)
	}
	seen := map[string]bool{}
	for _, task := range g.Tasks {
		key := tracer.ActionSetKey(task.Actions)
		if seen[key] {
			t.Fatalf("%s repeats an action set", task.ID)
		}
		seen[key] = true
	}
	// A seventh distinct task does not exist.
	_, err = tracer.Generate(context.Background(), shopDomain{edit: one}, tracer.GenerateOptions{N: 7, Seed: 1, Intents: []int{1}, ForbiddenShare: -1, TransferShare: -1, ReadShare: 1, MaxCandidates: 100})
	if !errors.Is(err, tracer.ErrShort) {
		t.Fatalf("err %v, want ErrShort", err)
	}
}

func TestGenerate_Leakage(t *testing.T) {
	test := generate(t, shopDomain{}, tracer.GenerateOptions{N: 20, Seed: 1})
	train := generate(t, shopDomain{}, tracer.GenerateOptions{N: 20, Seed: 1, Split: emobench.SplitTrain, Exclude: test.Tasks})
	if len(train.Leaks) == 0 || train.Rejected[tracer.RejectLeakage] != len(train.Leaks) {
		t.Fatalf("leaks %v, rejected %v: want the same seed's candidates refused", train.Leaks, train.Rejected)
	}
	testIDs := map[string]string{}
	for _, task := range test.Tasks {
		testIDs[tracer.ActionSetKey(task.Actions)] = task.ID
	}
	for _, l := range train.Leaks {
		if !slices.ContainsFunc(test.Tasks, func(t emobench.TaskSpec) bool { return t.ID == l.TestTaskID && t.UserID == l.UserID }) {
			t.Errorf("leak %+v names no test task of that user", l)
		}
	}
	for _, task := range train.Tasks {
		if id, ok := testIDs[tracer.ActionSetKey(task.Actions)]; ok {
			t.Errorf("train %s has the action set of test %s", task.ID, id)
		}
	}
}

func TestActionSetKey(t *testing.T) {
	a := []emobench.Action{{Name: "x", Arguments: []byte(`{"b": 1, "a": "q"}`)}, {Name: "y"}}
	b := []emobench.Action{{Name: "y", Arguments: []byte(`{}`)}, {Name: "x", Arguments: []byte(`{"a":"q","b":1}`)}}
	if tracer.ActionSetKey(a) != tracer.ActionSetKey(b) {
		t.Fatalf("%q != %q", tracer.ActionSetKey(a), tracer.ActionSetKey(b))
	}
	c := append(slices.Clone(a), a[0])
	if tracer.ActionSetKey(a) == tracer.ActionSetKey(c) {
		t.Fatal("a repeated call is a different multiset")
	}
}

// uniform3 weighs three walk lengths or intent counts evenly: the shop's
// ten users have too few distinct three-intent tasks for the defaults'
// weights, which favour them.
var uniform3 = []float64{1, 1, 1}

func TestGenerate_Emotions(t *testing.T) {
	g := generate(t, shopDomain{}, tracer.GenerateOptions{N: 150, Seed: 21, WalkStepsDist: uniform3, IntentsDist: uniform3})
	fam, leaf, dim := map[string]int{}, map[string]bool{}, map[string]bool{}
	for _, task := range g.Tasks {
		p := task.Emotion
		fam[p.Family]++
		leaf[p.Family+"/"+p.Leaf] = true
		dim["politeness/"+p.Politeness], dim["urgency/"+p.Urgency], dim["trust/"+p.Trust] = true, true, true
		if slices.Contains(task.Intents, "dispute_charge") && !slices.Contains([]string{"anger", "fear", "sadness"}, p.Family) {
			t.Errorf("%s: a charge dispute felt as %s", task.ID, p.Family)
		}
		if _, ok := emobench.FindFamily(p.Family); !ok || !slices.Contains(mustFamily(p.Family).Leaves, p.Leaf) {
			t.Errorf("%s: profile %+v outside the taxonomy", task.ID, p)
		}
	}
	for _, f := range emobench.Taxonomy.Families {
		if fam[f.Name] < 150/5-8 || fam[f.Name] > 150/5+8 {
			t.Errorf("family %s on %d of 150 tasks, want about 30: %v", f.Name, fam[f.Name], fam)
		}
		for _, l := range f.Leaves {
			if !leaf[f.Name+"/"+l] {
				t.Errorf("leaf %s/%s never drawn", f.Name, l)
			}
		}
	}
	for d, values := range emobench.Taxonomy.Dimensions {
		for _, v := range values {
			if !dim[d+"/"+v] {
				t.Errorf("%s %s never drawn", d, v)
			}
		}
	}

	w, err := tracer.ParseEmotionWeights("anger=3, fear=1")
	if err != nil {
		t.Fatal(err)
	}
	g = generate(t, shopDomain{}, tracer.GenerateOptions{N: 40, Seed: 21, EmotionWeights: w})
	fam = map[string]int{}
	for _, task := range g.Tasks {
		fam[task.Emotion.Family]++
	}
	if len(fam) != 2 || fam["anger"] < 28 || fam["fear"] < 8 {
		t.Fatalf("families %v, want anger about 30 and fear about 10", fam)
	}
}

func mustFamily(name string) emobench.Family {
	f, _ := emobench.FindFamily(name)
	return f
}

func TestGenerate_NoEmotionFits(t *testing.T) {
	g, err := tracer.Generate(context.Background(), shopDomain{}, tracer.GenerateOptions{N: 10, Seed: 1, EmotionWeights: map[string]float64{"enjoyment": 1}, MaxCandidates: 60})
	if !errors.Is(err, tracer.ErrShort) || g.Rejected[tracer.RejectNoEmotionFits] == 0 {
		t.Fatalf("err %v, rejected %v: a forbidden return is never felt as enjoyment", err, g.Rejected)
	}
}

func TestParseEmotionWeights(t *testing.T) {
	w, err := tracer.ParseEmotionWeights("anger=2,fear=1")
	if err != nil || len(w) != 2 || w["anger"] != 2 || w["fear"] != 1 {
		t.Fatalf("got %v, %v", w, err)
	}
	if w, err := tracer.ParseEmotionWeights(""); w != nil || err != nil {
		t.Fatalf("empty: %v, %v", w, err)
	}
	for in, want := range map[string]string{
		"rage=1":          `unknown emotion family "rage"`,
		"anger":           `"anger" is not family=weight`,
		"anger=x":         `weight of anger "x"`,
		"anger=-1":        `weight of anger "-1"`,
		"anger=1,anger=2": `family "anger" given twice`,
		"anger=0":         "every weight is 0",
	} {
		if _, err := tracer.ParseEmotionWeights(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", in, err, want)
		}
	}
}

type plainDomain struct{ shopDomain }

func (plainDomain) Catalog() *sim.Catalog { return nil }

func TestGenerate_ErrOptions(t *testing.T) {
	noTransfer := func(c *sim.Catalog) {
		c.Intents = slices.DeleteFunc(c.Intents, func(in sim.Intent) bool { return in.Kind == sim.IntentTransfer })
	}
	for _, c := range []struct {
		dom  sim.CatalogDomain
		opts tracer.GenerateOptions
		want string
	}{
		{shopDomain{}, tracer.GenerateOptions{}, "need at least 1 task"},
		{shopDomain{}, tracer.GenerateOptions{N: 1, Split: "dev"}, `split "dev"`},
		{shopDomain{}, tracer.GenerateOptions{N: 1, WalkSteps: []int{1}}, "walk steps 1"},
		{shopDomain{}, tracer.GenerateOptions{N: 1, Intents: []int{1, 2}, IntentsDist: []float64{1}}, "1 weights for 2 values"},
		{shopDomain{}, tracer.GenerateOptions{N: 1, IntentsDist: []float64{0, 0, 0}}, "every weight is 0"},
		{shopDomain{}, tracer.GenerateOptions{N: 1, ForbiddenShare: 0.7, TransferShare: 0.5}, "exceed 1"},
		{plainDomain{}, tracer.GenerateOptions{N: 1}, "domain shop has no intent catalog"},
		{shopDomain{edit: noTransfer}, tracer.GenerateOptions{N: 1}, "no transfer intent"},
		{shopDomain{edit: func(c *sim.Catalog) { c.Intents[0].Path = []string{"cancel_pending_order"} }}, tracer.GenerateOptions{N: 1}, "does not follow"},
	} {
		if _, err := tracer.Generate(context.Background(), c.dom, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.opts, err, c.want)
		}
	}
}

func TestGenerate_ErrTemplate(t *testing.T) {
	bad := func(c *sim.Catalog) { c.Intents[2].Templates = []string{"Status of {order}."} }
	_, err := tracer.Generate(context.Background(), shopDomain{edit: bad}, tracer.GenerateOptions{N: 20, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "intent order_status") || !strings.Contains(err.Error(), `no slot "order"`) {
		t.Fatalf("err %v, want the intent and slot named", err)
	}
}

func TestGenerate_Canceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tracer.Generate(ctx, shopDomain{}, tracer.GenerateOptions{N: 5}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("shop/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				generate(b, shopDomain{}, tracer.GenerateOptions{N: n, Seed: uint64(i)})
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "tasks/s")
		})
	}
}

// An exhausted catalog stops Generate long before 50·N + 200 candidates,
// with the rejections as readable counts, and Progress sees every
// candidate.
func TestGenerate_ErrExhausted(t *testing.T) {
	one := func(c *sim.Catalog) {
		c.Intents = slices.DeleteFunc(c.Intents, func(in sim.Intent) bool { return in.Name != "order_status" })
	}
	var kept, calls, last int
	g, err := tracer.Generate(context.Background(), shopDomain{edit: one}, tracer.GenerateOptions{
		N: 200, Seed: 1, Intents: []int{1}, ForbiddenShare: -1, TransferShare: -1, ReadShare: 1,
		Progress: func(k, c int) { kept, last = k, c; calls++ },
	})
	if !errors.Is(err, tracer.ErrShort) || !strings.Contains(err.Error(), "none in the last 2000: the catalog looks exhausted") {
		t.Fatalf("err %v, want ErrShort naming an exhausted catalog", err)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("duplicate %d", g.Rejected[tracer.RejectDuplicate])) || strings.Contains(err.Error(), "map[") {
		t.Errorf("err %v: want the rejections as \"duplicate N\", not a map", err)
	}
	if g.Candidates >= 50*200+200 || g.Candidates < 2000 {
		t.Errorf("%d candidates, want at least 2000 and fewer than the 10200 budget", g.Candidates)
	}
	if calls != g.Candidates || last != g.Candidates || kept != len(g.Tasks) || kept == 0 {
		t.Errorf("Progress called %d times, last (%d kept, %d candidates); want %d calls, (%d, %d)", calls, kept, last, g.Candidates, len(g.Tasks), g.Candidates)
	}
}

// TestGenerate_SpreadIntents: with four forbidden intents and two
// transfers that ground for every user, SpreadIntents deals the 12
// refusal positions of 60 tasks 3 to each forbidden intent and the 6
// transfer positions 3 to each transfer, in turn; the walks alone do not.
func TestGenerate_SpreadIntents(t *testing.T) {
	dom := shopDomain{edit: func(c *sim.Catalog) {
		for _, name := range []string{"return_final_sale", "dispute_charge"} {
			i := slices.IndexFunc(c.Intents, func(in sim.Intent) bool { return in.Name == name })
			copies := 1
			if name == "return_final_sale" {
				copies = 3
			}
			for k := 2; k < 2+copies; k++ {
				in := c.Intents[i]
				in.Name = fmt.Sprintf("%s_%d", name, k)
				c.Intents = append(c.Intents, in)
			}
		}
	}}
	count := func(spread bool) map[string]int {
		g := generate(t, dom, tracer.GenerateOptions{N: 60, Seed: 11, ForbiddenShare: 0.2, TransferShare: 0.1, SpreadIntents: spread})
		kept := map[string]int{}
		for _, task := range g.Tasks {
			for _, in := range task.Intents {
				if strings.HasPrefix(in, "return_final_sale") || strings.HasPrefix(in, "dispute_charge") {
					kept[in]++
				}
			}
		}
		return kept
	}
	want := map[string]int{"return_final_sale": 3, "return_final_sale_2": 3, "return_final_sale_3": 3, "return_final_sale_4": 3, "dispute_charge": 3, "dispute_charge_2": 3}
	if got := count(true); !maps.Equal(got, want) {
		t.Errorf("spread: kept %v, want %v", got, want)
	}
	if got := count(false); maps.Equal(got, want) {
		t.Errorf("walks alone dealt the intents evenly too (%v): the test shows nothing", got)
	}
}
