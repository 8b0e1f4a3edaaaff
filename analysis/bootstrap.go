package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Interval methods, as stored in CI.Method.
const (
	// MethodPercentile is Efron's percentile bootstrap interval.
	MethodPercentile = "percentile"
	// MethodBCa is the bias-corrected and accelerated bootstrap interval.
	MethodBCa = "bca"
	// MethodWilson is Wilson's score interval for a binomial proportion.
	MethodWilson = "wilson"
)

// CI is a two-sided confidence interval [Lo, Hi] at confidence Level (for
// example 0.95), computed by Method (MethodPercentile, MethodBCa or
// MethodWilson). Lo and Hi are NaN when the data cannot support an interval.
type CI struct {
	Lo, Hi float64
	Level  float64
	Method string
}

// Contains reports whether x lies in [ci.Lo, ci.Hi]. It is false for a NaN
// interval or a NaN x.
func (ci CI) Contains(x float64) bool {
	return ci.Lo <= x && x <= ci.Hi
}

// String formats the interval as "[lo, hi] (95% percentile)".
func (ci CI) String() string {
	return fmt.Sprintf("[%.4f, %.4f] (%g%% %s)", ci.Lo, ci.Hi, 100*ci.Level, ci.Method)
}

// BootstrapOptions configures BootstrapTasks, PassKCI and PairedDelta. The
// zero value asks for 2000 percentile resamples at 95% with seed 0.
type BootstrapOptions struct {
	// Resamples is the number B of bootstrap resamples; 2000 when 0.
	Resamples int
	// Level is the two-sided confidence level in (0, 1); 0.95 when 0.
	Level float64
	// Seed seeds the resampler, rand.NewPCG(Seed, 0): the same seed and
	// input give the same interval. Record it with the report.
	Seed uint64
	// Method is MethodPercentile or MethodBCa; MethodPercentile when empty.
	Method string
}

// normalized fills in the defaults and panics on a caller bug.
func (o BootstrapOptions) normalized() BootstrapOptions {
	if o.Resamples == 0 {
		o.Resamples = 2000
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Method == "" {
		o.Method = MethodPercentile
	}
	if o.Resamples < 0 {
		panic(fmt.Sprintf("analysis: bootstrap resamples = %d, want > 0", o.Resamples))
	}
	if !(o.Level > 0 && o.Level < 1) {
		panic(fmt.Sprintf("analysis: bootstrap level = %v, want in (0, 1)", o.Level))
	}
	if o.Method != MethodPercentile && o.Method != MethodBCa {
		panic(fmt.Sprintf("analysis: bootstrap method %q is not %q or %q", o.Method, MethodPercentile, MethodBCa))
	}
	return o
}

// BootstrapTasks returns stat(tasks) and a bootstrap confidence interval for
// it, resampling whole tasks with replacement (the task, not the trial, is
// the unit of sampling; Efron & Tibshirani 1993, An Introduction to the
// Bootstrap, ch. 6). Each of the B = opts.Resamples replicates is
// θ*_b = stat(x*_b), where x*_b draws len(tasks) tasks uniformly with
// replacement from tasks. With α = 1 − opts.Level:
//
//	percentile:  [θ*_(α/2), θ*_(1−α/2)]                   (E&T 1993, ch. 13)
//	BCa:         [θ*_(α1), θ*_(α2)],                      (E&T 1993, ch. 14)
//	             α1 = Φ(z0 + (z0 + z_{α/2}) / (1 − a(z0 + z_{α/2})))
//	             α2 = Φ(z0 + (z0 + z_{1−α/2}) / (1 − a(z0 + z_{1−α/2})))
//	             z0 = Φ⁻¹((#{θ*_b < θ̂} + ½·#{θ*_b = θ̂}) / B)
//	             a  = Σ(θ̄ − θ_(i))³ / (6 · (Σ(θ̄ − θ_(i))²)^{3/2})
//
// where θ*_(q) is the empirical q-quantile of the replicates, θ_(i) is stat
// with task i left out (the jackknife) and θ̄ their mean. z0 counts ties with
// θ̂ as one half, so a discrete statistic whose replicates often equal θ̂
// (a pass rate over few tasks) is not biased downward; without ties it is
// E&T's (14.14). When every jackknife value is equal, a = 0.
//
// stat must not retain or modify its argument, and must be deterministic.
// Replicates for which stat is NaN are dropped. The estimate is NaN, and the
// interval NaN, when tasks is empty or stat(tasks) is NaN; the interval is
// NaN when every replicate is NaN or z0 is infinite. The same opts.Seed and
// input give the same interval. The BCa jackknife costs len(tasks) more
// calls of stat.
//
// BootstrapTasks panics when opts.Resamples < 0, opts.Level is outside
// (0, 1), or opts.Method is unknown.
func BootstrapTasks(tasks []TaskTrials, stat func([]TaskTrials) float64, opts BootstrapOptions) (estimate float64, ci CI) {
	return bootstrapItems(tasks, stat, opts)
}

// bootstrapItems is BootstrapTasks over any unit of resampling (tasks,
// precomputed per-task values, pairs).
func bootstrapItems[T any](items []T, statFn func([]T) float64, opts BootstrapOptions) (float64, CI) {
	opts = opts.normalized()
	nan := CI{Lo: math.NaN(), Hi: math.NaN(), Level: opts.Level, Method: opts.Method}
	n := len(items)
	if n == 0 {
		return math.NaN(), nan
	}
	est := statFn(items)
	if math.IsNaN(est) {
		return est, nan
	}

	rng := rand.New(rand.NewPCG(opts.Seed, 0))
	buf := make([]T, n)
	reps := make([]float64, 0, opts.Resamples)
	for range opts.Resamples {
		for i := range buf {
			buf[i] = items[rng.IntN(n)]
		}
		if v := statFn(buf); !math.IsNaN(v) {
			reps = append(reps, v)
		}
	}
	if len(reps) == 0 {
		return est, nan
	}
	slices.Sort(reps)

	alpha := 1 - opts.Level
	qLo, qHi := alpha/2, 1-alpha/2
	if opts.Method == MethodBCa {
		qLo, qHi = bcaLevels(items, statFn, est, reps, qLo, qHi, buf[:n-1])
		if math.IsNaN(qLo) || math.IsNaN(qHi) {
			return est, nan
		}
	}
	return est, CI{
		Lo:     stat.Quantile(qLo, stat.Empirical, reps, nil),
		Hi:     stat.Quantile(qHi, stat.Empirical, reps, nil),
		Level:  opts.Level,
		Method: opts.Method,
	}
}

// bcaLevels returns the BCa-adjusted quantile levels α1, α2 for the nominal
// levels lo, hi (Efron & Tibshirani 1993, eq. 14.9–14.15). sorted holds the
// replicates in ascending order; scratch has room for len(items)−1 items.
func bcaLevels[T any](items []T, statFn func([]T) float64, est float64, sorted []float64, lo, hi float64, scratch []T) (float64, float64) {
	norm := distuv.UnitNormal

	// Bias correction from the share of replicates below θ̂, ties half.
	below, _ := slices.BinarySearch(sorted, est)
	atOrBelow := below
	for atOrBelow < len(sorted) && sorted[atOrBelow] == est {
		atOrBelow++
	}
	share := (float64(below) + 0.5*float64(atOrBelow-below)) / float64(len(sorted))
	z0 := norm.Quantile(share)
	if math.IsInf(z0, 0) || math.IsNaN(z0) {
		return math.NaN(), math.NaN()
	}

	// Acceleration from the jackknife over items.
	n := len(items)
	jack := make([]float64, 0, n)
	for i := 0; i < n && n > 1; i++ { // one item has no leave-one-out value
		copy(scratch, items[:i])
		copy(scratch[i:], items[i+1:])
		if v := statFn(scratch); !math.IsNaN(v) {
			jack = append(jack, v)
		}
	}
	a := 0.0
	if len(jack) > 1 {
		mean := stat.Mean(jack, nil)
		var num, den float64
		for _, v := range jack {
			d := mean - v
			num += d * d * d
			den += d * d
		}
		if den > 0 {
			a = num / (6 * math.Pow(den, 1.5))
		}
	}

	adjust := func(q float64) float64 {
		z := z0 + norm.Quantile(q)
		return norm.CDF(z0 + z/(1-a*z))
	}
	return adjust(lo), adjust(hi)
}

// PassKCI returns pass^k and pass@k of one group of tasks (one run, one
// group value) with bootstrap confidence intervals over tasks:
//
//	pass^k = mean_t C(c_t,k)/C(n,k)       (Yao et al. 2024, τ-bench)
//	pass@k = mean_t 1 − C(n−c_t,k)/C(n,k) (Chen et al. 2021, Codex)
//
// The estimates equal PassK's PassHatK and PassAtK for the same tasks and
// convention. n is n_t under PerTask (the default when conv is empty) and
// runTrials under MinTrials (the largest n_t when runTrials ≤ 0). Tasks that
// cannot estimate pass^k (n < k, or c_t > n) are dropped before resampling,
// as PassK drops them from the mean, so each resample draws from the tasks
// that entered the estimate. Both intervals come from the same resampled
// task sets (see BootstrapTasks for the interval and opts).
//
// The estimates and intervals are NaN when no task can estimate pass^k,
// including empty tasks and k < 1, and when no trial was evaluated
// (NotEvaluated). PassKCI panics when conv is not a
// Convention, or on the opts that make BootstrapTasks panic.
func PassKCI(tasks []TaskTrials, k int, conv Convention, runTrials int, opts BootstrapOptions) (hat, at float64, hatCI, atCI CI) {
	if conv == "" {
		conv = PerTask
	}
	if _, err := ParseConvention(string(conv)); err != nil {
		panic("analysis: PassKCI: " + err.Error())
	}
	if NotEvaluated(tasks) {
		tasks = nil // not evaluated: NaN, as for no task at all
	}
	n := runTrials
	if conv == MinTrials && n <= 0 {
		n = maxTrials(tasks)
	}
	hats := make([]float64, 0, len(tasks))
	ats := make([]float64, 0, len(tasks))
	for _, t := range tasks {
		nt := t.Trials
		if conv == MinTrials {
			nt = minTrialsN(n, t)
		}
		h := PassHatK(nt, t.Passes, k)
		if math.IsNaN(h) {
			continue
		}
		hats = append(hats, h)
		ats = append(ats, PassAtK(nt, t.Passes, k))
	}
	hat, hatCI = bootstrapItems(hats, meanFloats, opts)
	at, atCI = bootstrapItems(ats, meanFloats, opts)
	return hat, at, hatCI, atCI
}

// meanFloats is the arithmetic mean of x, NaN when x is empty.
func meanFloats(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// PassKIntervals sets HatCI and AtCI of every row of rows (from PassK over
// tasks with runTrials) to the bootstrap intervals of PassKCI over the
// tasks of the row's (run, group), in place, with the row's convention.
func PassKIntervals(rows []PassKRow, tasks []TaskTrials, runTrials map[int64]int, opts BootstrapOptions) {
	byGroup := map[string][]TaskTrials{}
	key := func(run int64, group []string) string { return fmt.Sprint(run) + "\x00" + strings.Join(group, "\x00") }
	for _, t := range tasks {
		byGroup[key(t.RunID, t.Group)] = append(byGroup[key(t.RunID, t.Group)], t)
	}
	for i, r := range rows {
		_, _, rows[i].HatCI, rows[i].AtCI = PassKCI(byGroup[key(r.RunID, r.Group)], r.K, r.Convention, runTrials[r.RunID], opts)
	}
}
