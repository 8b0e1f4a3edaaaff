package sim

import (
	"fmt"
	"math/rand/v2"
)

// This file draws among options with relative weights, as a seeded data
// generator draws a membership level or a cabin: one draw a choice, so
// that a generator keeps its sequence of draws.

// WeightedIndex returns the index of one of weights drawn with a single
// r.IntN(sum of the weights), the first weight taking the lowest values:
// weights 5, 3 and 2 give 0 for IntN(10) < 5, 1 below 8 and 2 for the
// rest. It panics when a weight is negative or none is positive, a bug in
// the caller's table.
func WeightedIndex(r *rand.Rand, weights ...int) int {
	total := 0
	for _, w := range weights {
		if w < 0 {
			panic(fmt.Sprintf("sim: WeightedIndex: negative weight %d", w))
		}
		total += w
	}
	if total == 0 {
		panic("sim: WeightedIndex: no positive weight")
	}
	n := r.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	panic("unreachable")
}

// Weighted returns the value of values drawn by WeightedIndex with
// weights, one weight a value.
func Weighted[T any](r *rand.Rand, values []T, weights ...int) T {
	if len(values) != len(weights) {
		panic(fmt.Sprintf("sim: Weighted: %d values, %d weights", len(values), len(weights)))
	}
	return values[WeightedIndex(r, weights...)]
}
