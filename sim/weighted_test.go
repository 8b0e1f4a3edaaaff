package sim

import (
	"math/rand/v2"
	"testing"
)

// TestWeighted checks that a weighted draw is one IntN over the sum of the
// weights, the first value taking the lowest numbers.
func TestWeighted(t *testing.T) {
	values := []string{"regular", "silver", "gold"}
	want := func(n int) string {
		switch {
		case n < 5:
			return "regular"
		case n < 8:
			return "silver"
		}
		return "gold"
	}
	r1, r2 := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	counts := map[string]int{}
	for range 1000 {
		got := Weighted(r1, values, 5, 3, 2)
		if w := want(r2.IntN(10)); got != w {
			t.Fatalf("Weighted = %q, want %q (the same draw as IntN(10))", got, w)
		}
		counts[got]++
	}
	if len(counts) != 3 {
		t.Errorf("drew %v, want every value", counts)
	}
	if got := WeightedIndex(r1, 0, 4, 0); got != 1 {
		t.Errorf("WeightedIndex(0, 4, 0) = %d, want 1", got)
	}
	for _, weights := range [][]int{{}, {0, 0}, {2, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WeightedIndex(%v) did not panic", weights)
				}
			}()
			WeightedIndex(r1, weights...)
		}()
	}
}
