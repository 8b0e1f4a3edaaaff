package analysis_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/emobench/emobench/analysis"
)

func TestWilson(t *testing.T) {
	const eps = 5e-5 // published limits are rounded to 4 decimals
	tests := []struct {
		x, n   int
		lo, hi float64
		source string
	}{
		// Newcombe (1998), Statist. Med. 17:857–872, Table II, method 3
		// (score interval without continuity correction), 95%.
		{81, 263, 0.2553, 0.3662, "Newcombe 1998 Table II (a)"},
		{15, 148, 0.0624, 0.1605, "Newcombe 1998 Table II (b)"},
		{0, 20, 0.0000, 0.1611, "Newcombe 1998 Table II (c)"},
		{1, 29, 0.0061, 0.1718, "Newcombe 1998 Table II (d)"},
		// By hand: z = 1.959964, centre = (0.8 + z²/20)/(1 + z²/10) = 0.71674,
		// half = z/(1 + z²/10)·√(0.016 + z²/400) = 0.22658.
		{8, 10, 0.4902, 0.9433, "hand computation"},
		// All successes: the upper limit is exactly 1, the lower is
		// n/(n + z²) = 29/(29 + 3.841459) = 0.8830 (by hand).
		{29, 29, 0.8830, 1, "hand computation"},
	}
	for _, tt := range tests {
		ci := analysis.Wilson(tt.x, tt.n, 0.95)
		if math.Abs(ci.Lo-tt.lo) > eps || math.Abs(ci.Hi-tt.hi) > eps {
			t.Errorf("Wilson(%d, %d, 0.95) = [%.5f, %.5f], want [%.4f, %.4f] (%s)", tt.x, tt.n, ci.Lo, ci.Hi, tt.lo, tt.hi, tt.source)
		}
		if got, want := ci.Method, analysis.MethodWilson; got != want {
			t.Errorf("Method = %q, want %q", got, want)
		}
	}
}

// TestWilson_Symmetry: the interval for n−x failures mirrors the interval
// for x successes, [lo, hi] ↦ [1−hi, 1−lo].
func TestWilson_Symmetry(t *testing.T) {
	const eps = 1e-12
	for _, level := range []float64{0.8, 0.95, 0.99} {
		for x := 0; x <= 12; x++ {
			a, b := analysis.Wilson(x, 12, level), analysis.Wilson(12-x, 12, level)
			if math.Abs(a.Lo-(1-b.Hi)) > eps || math.Abs(a.Hi-(1-b.Lo)) > eps {
				t.Errorf("level %v: Wilson(%d, 12) = %v, Wilson(%d, 12) = %v, want mirrored", level, x, a, 12-x, b)
			}
		}
	}
}

func TestWilson_NaN(t *testing.T) {
	for _, tt := range []struct{ x, n int }{{0, 0}, {1, 0}, {-1, 5}, {6, 5}} {
		if ci := analysis.Wilson(tt.x, tt.n, 0.95); !math.IsNaN(ci.Lo) || !math.IsNaN(ci.Hi) {
			t.Errorf("Wilson(%d, %d) = %v, want NaN", tt.x, tt.n, ci)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Wilson(1, 2, 95) did not panic")
		}
	}()
	analysis.Wilson(1, 2, 95)
}

func ExampleWilson() {
	// 8 of 10 trials passed.
	ci := analysis.Wilson(8, 10, 0.95)
	fmt.Printf("[%.4f, %.4f]\n", ci.Lo, ci.Hi)
	// Output:
	// [0.4902, 0.9433]
}

// No successes give a lower bound of exactly 0, all successes an upper
// bound of exactly 1 (not 2.8e-17 and 1 − 1e-16 from rounding).
func TestWilson_ExactEnds(t *testing.T) {
	for n := 1; n <= 200; n++ {
		if lo := analysis.Wilson(0, n, 0.95).Lo; lo != 0 {
			t.Fatalf("Wilson(0, %d).Lo = %g, want 0", n, lo)
		}
		if hi := analysis.Wilson(n, n, 0.95).Hi; hi != 1 {
			t.Fatalf("Wilson(%d, %d).Hi = %g, want 1", n, n, hi)
		}
	}
}
