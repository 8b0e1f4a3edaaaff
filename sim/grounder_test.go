package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGrounderHelpers checks GroundOn (grounds on its state's
// environment only), OneOf (draws each option) and WithCompareArgs.
func TestGrounderHelpers(t *testing.T) {
	type state struct{ n int }
	ground := GroundOn(func(_ GroundContext, s *state) (Grounding, bool) { return Grounding{Uses: []string{"x"}}, s.n == 1 })
	if gr, ok := ground(GroundContext{Env: NewStateEnv(&state{n: 1}, nil)}); !ok || gr.Uses[0] != "x" {
		t.Errorf("GroundOn on its state = %v, %v; want the grounding", gr, ok)
	}
	if _, ok := ground(GroundContext{Env: NewStateEnv(&struct{}{}, nil)}); ok {
		t.Error("GroundOn grounded on another state")
	}
	r, seen := rand.New(rand.NewPCG(1, 2)), map[string]bool{}
	for range 50 {
		seen[OneOf(r, "a", "b", "c")] = true
	}
	if len(seen) != 3 {
		t.Errorf("OneOf drew %v in 50 draws, want a, b and c", seen)
	}
	a := WithCompareArgs(NewAction("t", "x", "1", "y", "2"), "x")
	if !slices.Equal(a.CompareArgs, []string{"x"}) || a.Name != "t" {
		t.Errorf("WithCompareArgs = %+v", a)
	}
}
