package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPickPreferred checks that the pick never takes an id used in the
// task, takes from the ids meeting the earlier preferences first, and
// draws once.
func TestPickPreferred(t *testing.T) {
	fresh := func(id string) bool { return id != "a" && id != "b" } // a and b were used by kept tasks
	unchanged := func(id string) bool { return id == "b" || id == "d" }
	for _, c := range []struct {
		ids, usedInTask, want []string
	}{
		{ids: []string{"a", "b", "c", "d"}, want: []string{"d"}},
		{ids: []string{"a", "b", "c"}, want: []string{"c"}}, // fresh outweighs unchanged
		{ids: []string{"a", "b", "c", "d", "e"}, usedInTask: []string{"d"}, want: []string{"c", "e"}},
		{ids: []string{"a", "b"}, want: []string{"b"}},
		{ids: []string{"a"}, usedInTask: []string{"a"}},
	} {
		g := GroundContext{Rand: rand.New(rand.NewPCG(1, 2)), Used: func(id string) bool { return !fresh(id) },
			UsedInTask: func(id string) bool { return slices.Contains(c.usedInTask, id) }}
		seen := map[string]bool{}
		for range 20 {
			id, ok := PickPreferred(g, c.ids, fresh, unchanged)
			if ok != (len(c.want) > 0) || ok && !slices.Contains(c.want, id) {
				t.Fatalf("PickPreferred(%v, used in task %v) = %q, %v; want one of %v", c.ids, c.usedInTask, id, ok, c.want)
			}
			seen[id] = true
		}
		if len(c.want) > 1 && len(seen) != len(c.want) {
			t.Errorf("PickPreferred(%v) picked %v over 20 draws, want each of %v", c.ids, seen, c.want)
		}
	}
	// One draw a pick: the same seed then gives the next value.
	r1, r2 := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
	PickPreferred(GroundContext{Rand: r1}, []string{"x", "y", "z"})
	r2.IntN(3)
	if a, b := r1.Uint64(), r2.Uint64(); a != b {
		t.Errorf("PickPreferred took other than one draw")
	}
}
