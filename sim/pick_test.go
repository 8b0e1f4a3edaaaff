package sim_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emobench/emobench/sim"
)

func TestPickFresh(t *testing.T) {
	in := func(ids ...string) func(string) bool { return func(id string) bool { return slices.Contains(ids, id) } }
	for _, c := range []struct {
		name             string
		ids              []string
		used, usedInTask func(string) bool
		want             []string // the ids a pick may return; none: false
	}{
		{name: "Any", ids: []string{"a", "b", "c"}, want: []string{"a", "b", "c"}},
		{name: "PrefersFresh", ids: []string{"a", "b", "c"}, used: in("a", "c"), want: []string{"b"}},
		{name: "AllUsedFallsBack", ids: []string{"a", "b"}, used: in("a", "b"), want: []string{"a", "b"}},
		{name: "NeverUsedInTask", ids: []string{"a", "b", "c"}, used: in("b"), usedInTask: in("a", "c"), want: []string{"b"}},
		{name: "AllUsedInTask", ids: []string{"a"}, usedInTask: in("a")},
		{name: "None"},
	} {
		t.Run(c.name, func(t *testing.T) {
			seen := map[string]bool{}
			for seed := range uint64(20) {
				r := rand.New(rand.NewPCG(seed, 1))
				got, ok := sim.PickFresh(sim.GroundContext{Rand: r, Used: c.used, UsedInTask: c.usedInTask}, c.ids)
				if ok != (len(c.want) > 0) || ok && !slices.Contains(c.want, got) {
					t.Fatalf("seed %d: PickFresh = %q, %v; want one of %q", seed, got, ok, c.want)
				}
				seen[got] = ok
				// One draw when it picks, none otherwise.
				again := rand.New(rand.NewPCG(seed, 1))
				if ok {
					again.IntN(2)
				}
				if r.Uint64() != again.Uint64() {
					t.Fatalf("seed %d: PickFresh drew other than one IntN", seed)
				}
			}
			if len(c.want) > 0 && len(seen) != len(c.want) {
				t.Errorf("20 picks gave %v, want each of %q", seen, c.want)
			}
		})
	}
	if sim.UsedInTask(sim.GroundContext{}, "a") {
		t.Error("UsedInTask without a UsedInTask func = true")
	}
}
