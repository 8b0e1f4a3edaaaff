package tracer

import (
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench/sim"
)

// TestWalker_Walk: a walk only follows the tool graph, takes the intent
// whose path it spelled, and falls back to the nearest length (counted)
// when no allowed intent has the one drawn.
func TestWalker_Walk(t *testing.T) {
	cat := &sim.Catalog{
		Openers: []string{"login"},
		Follows: map[string][]string{"login": {"a", "c"}, "a": {"b", "d"}},
		Intents: []sim.Intent{
			{Name: "ab", Kind: sim.IntentWrite, Path: []string{"a", "b"}},
			{Name: "ad", Kind: sim.IntentRead, Path: []string{"a", "d"}},
			{Name: "c", Kind: sim.IntentRead, Path: []string{"c"}},
			{Name: "a", Kind: sim.IntentRead, Path: []string{"a"}},
		},
	}
	r := rand.New(rand.NewPCG(1, 2))
	count := func(steps []int, kinds []sim.IntentKind) (map[string]int, int) {
		w := &walker{cat: cat, steps: steps}
		got, fallbacks := map[string]int{}, 0
		for i := 0; i < 200; i++ {
			in, fell, ok := w.walk(r, "login", kinds)
			if !ok {
				t.Fatalf("steps %v kinds %v: no walk", steps, kinds)
			}
			got[in.Name]++
			if fell {
				fallbacks++
			}
		}
		return got, fallbacks
	}
	got, fell := count([]int{3}, []sim.IntentKind{sim.IntentWrite, sim.IntentRead})
	if got["c"]+got["a"] != 0 || got["ab"] == 0 || got["ad"] == 0 || fell != 0 {
		t.Fatalf("3-step walks gave %v (%d fallbacks), want ab and ad only", got, fell)
	}
	got, _ = count([]int{2}, []sim.IntentKind{sim.IntentRead})
	if got["ab"]+got["ad"] != 0 || got["c"] < 60 || got["a"] < 60 {
		t.Fatalf("2-step read walks gave %v, want c and a about evenly", got)
	}
	got, fell = count([]int{2}, []sim.IntentKind{sim.IntentWrite})
	if got["ab"] != 200 || fell != 200 {
		t.Fatalf("2-step write walks gave %v with %d fallbacks, want ab by fallback every time", got, fell)
	}
	if _, _, ok := (&walker{cat: cat, steps: []int{2}}).walk(r, "login", []sim.IntentKind{sim.IntentTransfer}); ok {
		t.Fatal("a walk found a transfer intent the catalog lacks")
	}
}
