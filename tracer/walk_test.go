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

// TestWalker_WeightsByIntentsBehind: a branch with one intent behind it
// and a branch with three get their intents drawn about evenly (a quarter
// each), not half of the walks for the lone one.
func TestWalker_WeightsByIntentsBehind(t *testing.T) {
	cat := &sim.Catalog{
		Openers: []string{"login"},
		Follows: map[string][]string{"login": {"rare", "common"}, "common": {"x", "y", "z"}, "rare": {"w"}},
		Intents: []sim.Intent{
			{Name: "rare_w", Kind: sim.IntentWrite, Path: []string{"rare", "w"}},
			{Name: "common_x", Kind: sim.IntentWrite, Path: []string{"common", "x"}},
			{Name: "common_y", Kind: sim.IntentWrite, Path: []string{"common", "y"}},
			{Name: "common_z", Kind: sim.IntentWrite, Path: []string{"common", "z"}},
			{Name: "common_read", Kind: sim.IntentRead, Path: []string{"common", "x"}},
		},
	}
	w := &walker{cat: cat, steps: []int{3}}
	r := rand.New(rand.NewPCG(5, 6))
	const walks = 4000
	got := map[string]int{}
	for i := 0; i < walks; i++ {
		in, _, ok := w.walk(r, "login", []sim.IntentKind{sim.IntentWrite})
		if !ok {
			t.Fatal("no walk")
		}
		got[in.Name]++
	}
	for _, name := range []string{"rare_w", "common_x", "common_y", "common_z"} {
		if share := float64(got[name]) / walks; share < 0.21 || share > 0.29 {
			t.Errorf("%s drawn %.3f of the walks, want about 0.25 (all: %v)", name, share, got)
		}
	}
	if got["common_read"] != 0 {
		t.Errorf("a read intent was drawn for a write slot: %v", got)
	}
}
