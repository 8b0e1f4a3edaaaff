package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Pair is one task's outcome under two conditions, for example with and
// without the emotion profile. The caller matches the two by task.
type Pair struct {
	With, Without TaskTrials
}

// PairedDelta returns the mean paired difference in pass^k between the two
// conditions and a paired bootstrap interval for it:
//
//	Δ = mean_p [ C(c_w,k)/C(n_w,k) − C(c_o,k)/C(n_o,k) ]
//
// with the per-task convention (each side's own n; Yao et al. 2024,
// τ-bench). A pair enters only when both sides can estimate pass^k (n ≥ k and
// c ≤ n on each side). The interval resamples whole pairs with replacement,
// which keeps each task's two outcomes together (the paired bootstrap;
// Efron & Tibshirani 1993, ch. 6); see BootstrapTasks for the interval and
// opts.
//
// Δ and the interval are NaN when no pair can estimate pass^k, including
// empty pairs and k < 1. PairedDelta panics on the opts that make
// BootstrapTasks panic.
func PairedDelta(pairs []Pair, k int, opts BootstrapOptions) (delta float64, ci CI) {
	diffs := make([]float64, 0, len(pairs))
	for _, p := range pairs {
		w := PassHatK(p.With.Trials, p.With.Passes, k)
		o := PassHatK(p.Without.Trials, p.Without.Passes, k)
		if d := w - o; !math.IsNaN(d) {
			diffs = append(diffs, d)
		}
	}
	return bootstrapItems(diffs, meanFloats, opts)
}

// McNemarTable counts the discordant trial-matched pairs of pass/fail
// outcomes: b is the number of i with with[i] && !without[i], c the number
// with !with[i] && without[i]. Concordant pairs do not enter McNemar's test.
// McNemarTable panics when the slices differ in length.
func McNemarTable(with, without []bool) (b, c int) {
	if len(with) != len(without) {
		panic(fmt.Sprintf("analysis: McNemarTable length mismatch: %d with, %d without", len(with), len(without)))
	}
	for i, w := range with {
		switch {
		case w && !without[i]:
			b++
		case !w && without[i]:
			c++
		}
	}
	return b, c
}

// McNemarExact returns the exact (conditional binomial) two-sided p-value of
// McNemar's test for b and c discordant pairs (McNemar 1947,
// Psychometrika 12:153–157; exact form as in Fagerland, Lydersen & Laake
// 2013, BMC Med. Res. Methodol. 13:91):
//
//	p = min(1, 2 · P[X ≤ min(b, c)]),  X ~ Binomial(b+c, ½)
//
// It returns 1 when b + c = 0 and NaN when b or c is negative.
func McNemarExact(b, c int) float64 {
	if b < 0 || c < 0 {
		return math.NaN()
	}
	n := b + c
	if n == 0 {
		return 1
	}
	x := distuv.Binomial{N: float64(n), P: 0.5}
	return min(1, 2*x.CDF(float64(min(b, c))))
}

// Holm returns Holm's step-down adjusted p-values, in the order of p
// (Holm 1979, Scand. J. Statist. 6:65–70). With the m non-NaN p-values
// sorted ascending, p_(1) ≤ … ≤ p_(m):
//
//	p̃_(i) = min(1, max_{j ≤ i} (m − j + 1) · p_(j))
//
// Rejecting every hypothesis with p̃ ≤ α controls the family-wise error rate
// at α. NaN entries stay NaN and do not count toward m. Holm does not modify
// p; it returns an empty slice for an empty p.
func Holm(p []float64) []float64 {
	adj := make([]float64, len(p))
	order := make([]int, 0, len(p))
	for i, v := range p {
		if math.IsNaN(v) {
			adj[i] = math.NaN()
			continue
		}
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p[a], p[b]) })
	m := len(order)
	running := 0.0
	for j, i := range order {
		running = max(running, min(1, float64(m-j)*p[i]))
		adj[i] = running
	}
	return adj
}
