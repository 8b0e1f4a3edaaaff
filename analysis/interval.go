package analysis

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Wilson returns the Wilson score interval for a binomial proportion p̂ = x/n
// at two-sided confidence level (Wilson 1927, JASA 22:209–212; Newcombe 1998,
// Statist. Med. 17:857–872, method 3, no continuity correction):
//
//	centre    = (p̂ + z²/2n) / (1 + z²/n)
//	halfwidth = z/(1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²)
//	z         = Φ⁻¹(1 − (1−level)/2)
//
// The interval is clamped to [0, 1] against rounding. Its Method is
// MethodWilson. Lo and Hi are NaN when n ≤ 0 or successes is outside
// [0, n]. Wilson panics when level is outside (0, 1).
func Wilson(successes, n int, level float64) CI {
	if !(level > 0 && level < 1) {
		panic(fmt.Sprintf("analysis: Wilson level = %v, want in (0, 1)", level))
	}
	ci := CI{Lo: math.NaN(), Hi: math.NaN(), Level: level, Method: MethodWilson}
	if n <= 0 || successes < 0 || successes > n {
		return ci
	}
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	nf := float64(n)
	p := float64(successes) / nf
	z2n := z * z / nf
	centre := (p + z2n/2) / (1 + z2n)
	half := z / (1 + z2n) * math.Sqrt(p*(1-p)/nf+z2n/(4*nf))
	ci.Lo = max(0, centre-half)
	ci.Hi = min(1, centre+half)
	// The bounds are exactly 0 and 1 there; rounding leaves 2.8e-17.
	if successes == 0 {
		ci.Lo = 0
	}
	if successes == n {
		ci.Hi = 1
	}
	return ci
}
