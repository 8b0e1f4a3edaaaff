package analysis_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/emobench/emobench/analysis"
)

func TestMcNemarExact(t *testing.T) {
	const eps = 1e-12
	tests := []struct {
		b, c int
		want float64 // 2·Σ_{i≤min(b,c)} C(b+c,i) / 2^(b+c), by hand
	}{
		{1, 7, 0.0703125},     // 2·(1 + 8)/256
		{7, 1, 0.0703125},     // symmetric in b and c
		{0, 0, 1},             // no discordant pairs
		{5, 5, 1},             // 2·638/1024 > 1, capped
		{0, 5, 0.0625},        // 2·1/32
		{6, 4, 0.75390625},    // 2·(1 + 10 + 45 + 120 + 210)/1024 = 2·386/1024
		{2, 10, 0.0385742188}, // 2·(1 + 12 + 66)/4096 = 158/4096
	}
	for _, tt := range tests {
		if got := analysis.McNemarExact(tt.b, tt.c); math.Abs(got-tt.want) > 1e-10 {
			t.Errorf("McNemarExact(%d, %d) = %.12g, want %.12g", tt.b, tt.c, got, tt.want)
		}
	}
	// 158/4096 exactly, to the tighter tolerance.
	if got, want := analysis.McNemarExact(2, 10), 158.0/4096; math.Abs(got-want) > eps {
		t.Errorf("McNemarExact(2, 10) = %.17g, want %.17g", got, want)
	}
	if got := analysis.McNemarExact(-1, 3); !math.IsNaN(got) {
		t.Errorf("McNemarExact(-1, 3) = %v, want NaN", got)
	}
}

func TestMcNemarTable(t *testing.T) {
	with := []bool{true, true, false, false, true}
	without := []bool{false, true, true, false, false}
	// By hand: with-only at 0 and 4 (b = 2), without-only at 2 (c = 1).
	if b, c := analysis.McNemarTable(with, without); b != 2 || c != 1 {
		t.Fatalf("McNemarTable = %d, %d, want 2, 1", b, c)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("McNemarTable with a length mismatch did not panic")
		}
	}()
	analysis.McNemarTable(with, without[:4])
}

func TestHolm(t *testing.T) {
	const eps = 1e-12
	nan := math.NaN()
	tests := []struct {
		p, want []float64 // by hand: sort, multiply by m−j+1, running max, cap 1
	}{
		// 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.06, 0.04·1).
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		// The running max lifts 0.011·2 = 0.022 to 0.03.
		{[]float64{0.01, 0.011, 0.5}, []float64{0.03, 0.03, 0.5}},
		// Capped at 1.
		{[]float64{0.6, 0.9}, []float64{1, 1}},
		// Ties.
		{[]float64{0.01, 0.01}, []float64{0.02, 0.02}},
		// NaN stays NaN and does not count: m = 2.
		{[]float64{0.02, nan, 0.01}, []float64{0.02, nan, 0.02}},
		{[]float64{}, []float64{}},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.p)
		got := analysis.Holm(tt.p)
		if len(got) != len(tt.want) {
			t.Fatalf("Holm(%v) = %v, want %v", tt.p, got, tt.want)
		}
		for i := range got {
			if math.IsNaN(tt.want[i]) != math.IsNaN(got[i]) || math.Abs(got[i]-tt.want[i]) > eps {
				t.Errorf("Holm(%v) = %v, want %v", tt.p, got, tt.want)
				break
			}
		}
		if !slices.EqualFunc(in, tt.p, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
			t.Errorf("Holm modified its input: %v → %v", in, tt.p)
		}
	}
}

// qwen3RetailPairs builds 59 single-trial pairs with 41 passes with and 39
// without: 35 pass in both, 6 only with (b), 4 only without (c), 14 in
// neither. This is the qwen3 retail comparison's marginal counts.
func qwen3RetailPairs() []analysis.Pair {
	var pairs []analysis.Pair
	add := func(count, with, without int) {
		for range count {
			pairs = append(pairs, analysis.Pair{
				With:    analysis.TaskTrials{Trials: 1, Passes: with},
				Without: analysis.TaskTrials{Trials: 1, Passes: without},
			})
		}
	}
	add(35, 1, 1)
	add(6, 1, 0)
	add(4, 0, 1)
	add(14, 0, 0)
	return pairs
}

func TestPairedDelta(t *testing.T) {
	const eps = 1e-12
	pairs := qwen3RetailPairs()
	for _, method := range []string{analysis.MethodPercentile, analysis.MethodBCa} {
		delta, ci := analysis.PairedDelta(pairs, 1, analysis.BootstrapOptions{Seed: 1, Method: method})
		// By hand: (41 − 39)/59 = 2/59 = 0.0339.
		if want := 2.0 / 59; math.Abs(delta-want) > eps {
			t.Errorf("%s: delta = %v, want 2/59 = %v", method, delta, want)
		}
		// 10 discordant pairs give sd(Δ) ≈ √10/59 ≈ 0.054 > Δ, so the
		// interval must contain 0; McNemar agrees (p ≈ 0.75 below).
		if !ci.Contains(0) || !ci.Contains(delta) {
			t.Errorf("%s: interval %v, want it to contain 0 and %v", method, ci, delta)
		}
	}
	if got, want := analysis.McNemarExact(6, 4), 0.75390625; math.Abs(got-want) > eps {
		t.Errorf("McNemarExact(6, 4) = %v, want %v", got, want)
	}

	// k = 2, by hand: pair 1 gives 1 − C(2,2)/C(4,2) = 5/6, pair 2 gives 0,
	// pair 3 has a single trial with and is left out: Δ = (5/6 + 0)/2.
	k2 := []analysis.Pair{
		{With: analysis.TaskTrials{Trials: 4, Passes: 4}, Without: analysis.TaskTrials{Trials: 4, Passes: 2}},
		{With: analysis.TaskTrials{Trials: 4, Passes: 3}, Without: analysis.TaskTrials{Trials: 4, Passes: 3}},
		{With: analysis.TaskTrials{Trials: 1, Passes: 1}, Without: analysis.TaskTrials{Trials: 4, Passes: 0}},
	}
	if delta, _ := analysis.PairedDelta(k2, 2, analysis.BootstrapOptions{}); math.Abs(delta-5.0/12) > eps {
		t.Errorf("pass^2 delta = %v, want 5/12", delta)
	}

	for _, tt := range []struct {
		name  string
		pairs []analysis.Pair
		k     int
	}{{"empty", nil, 1}, {"k = 0", k2, 0}, {"every n < k", k2, 5}} {
		if delta, ci := analysis.PairedDelta(tt.pairs, tt.k, analysis.BootstrapOptions{}); !math.IsNaN(delta) || !math.IsNaN(ci.Lo) || !math.IsNaN(ci.Hi) {
			t.Errorf("%s: got %v %v, want NaN", tt.name, delta, ci)
		}
	}
}

func ExamplePairedDelta() {
	pairs := qwen3RetailPairs()
	delta, ci := analysis.PairedDelta(pairs, 1, analysis.BootstrapOptions{Seed: 1})
	fmt.Printf("Δpass^1 = %+.4f, 95%% CI [%+.3f, %+.3f]\n", delta, ci.Lo, ci.Hi)
	// By hand: Δ = (41 − 39)/59 = +0.0339, and the normal-theory interval
	// Δ ± 1.96·√((10/59 − Δ²)/59) = [−0.071, +0.139] is close to seed 1's.

	// Output:
	// Δpass^1 = +0.0339, 95% CI [-0.068, +0.136]
}

func ExampleMcNemarExact() {
	with := []bool{true, true, true, false, true, true, true, true, true, true}
	without := []bool{false, true, false, false, false, false, true, false, false, false}
	b, c := analysis.McNemarTable(with, without)
	fmt.Printf("b=%d c=%d p=%.4f\n", b, c, analysis.McNemarExact(b, c))
	// By hand: b = 7, c = 0, p = 2/2^7 = 0.015625.

	// Output:
	// b=7 c=0 p=0.0156
}

func ExampleHolm() {
	fmt.Println(analysis.Holm([]float64{0.01, 0.04, 0.03, 0.005}))
	// Output:
	// [0.03 0.06 0.06 0.02]
}
