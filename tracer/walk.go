package tracer

import (
	"math/rand/v2"
	"slices"

	"github.com/emobench/emobench/sim"
)

// A walk is one intent's path through the catalog's tool graph. Its walk
// steps count the tools it visits: the opener (the authentication lookup)
// plus every tool of the intent's Path, so an intent with Path
// [get_order_details, cancel_pending_order] is a 3-step walk. Walk steps
// count tool-graph steps, not gold calls: a grounder may call a tool of
// its path more than once (a multi-item exchange) or add reads.

// walker samples walks over a catalog's tool graph.
type walker struct {
	cat *sim.Catalog
	// steps and stepsDist are GenerateOptions.WalkSteps and WalkStepsDist.
	steps     []int
	stepsDist []float64
}

// walk samples a walk length from the weighted distribution, then walks
// the tool graph from opener one step at a time, choosing among the
// successors that can still complete the Path of some intent of the
// allowed kinds with the remaining length, each weighted by the number of
// those intents behind it (so every such intent of the length is about
// equally likely, however rare its branch), and returns the intent whose
// Path equals the walk (several: the first kind of allowed that matches,
// then uniformly). When no allowed intent has a path of the sampled
// length it takes the nearest length (the shorter on a tie) and reports
// fallback. ok is false when no intent of the allowed kinds is reachable.
func (w *walker) walk(r *rand.Rand, opener string, allowed []sim.IntentKind) (in *sim.Intent, fallback, ok bool) {
	var cands []*sim.Intent
	var starts []string
	for _, starts = range [][]string{w.cat.Follows[opener], w.firstSteps()} {
		for i := range w.cat.Intents {
			c := &w.cat.Intents[i]
			if slices.Contains(allowed, c.Kind) && slices.Contains(starts, c.Path[0]) {
				cands = append(cands, c)
			}
		}
		if len(cands) > 0 {
			break // an intent that does not follow this opener follows another
		}
	}
	if len(cands) == 0 {
		return nil, false, false
	}
	steps := pickWeighted(r, w.steps, w.stepsDist)
	pathLen := nearestLength(cands, steps-1)
	fallback = pathLen != steps-1
	cands = slices.DeleteFunc(cands, func(c *sim.Intent) bool { return len(c.Path) != pathLen })

	var walk []string
	cur := opener
	for i := 0; i < pathLen; i++ {
		var (
			succ   []string
			behind []float64 // candidates whose path goes on with succ[j]
		)
		next := w.cat.Follows[cur]
		if i == 0 {
			next = starts
		}
		for _, t := range next {
			n := 0
			for _, c := range cands {
				if c.Path[i] == t {
					n++
				}
			}
			if n > 0 && !slices.Contains(succ, t) {
				succ = append(succ, t)
				behind = append(behind, float64(n))
			}
		}
		t := succ[pickWeighted(r, indices(len(succ)), behind)]
		walk = append(walk, t)
		cands = slices.DeleteFunc(cands, func(c *sim.Intent) bool { return c.Path[i] != t })
		cur = t
	}
	for _, kind := range allowed {
		var match []*sim.Intent
		for _, c := range cands {
			if c.Kind == kind {
				match = append(match, c)
			}
		}
		if len(match) > 0 {
			return match[r.IntN(len(match))], fallback, true
		}
	}
	return nil, fallback, false // unreachable: cands holds only allowed kinds
}

// indices returns 0, 1, ..., n-1.
func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// firstSteps are the tools that follow any opener, in declaration order.
func (w *walker) firstSteps() []string {
	var out []string
	for _, o := range w.cat.Openers {
		for _, t := range w.cat.Follows[o] {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// nearestLength returns want when some candidate's path has that length,
// else the nearest length a candidate has (the shorter on a tie).
func nearestLength(cands []*sim.Intent, want int) int {
	best, bestDist := -1, 0
	for _, c := range cands {
		d := len(c.Path) - want
		if d < 0 {
			d = -d
		}
		if best < 0 || d < bestDist || d == bestDist && len(c.Path) < best {
			best, bestDist = len(c.Path), d
		}
	}
	return best
}

// pickWeighted returns one of values, drawn with the given weights (nil:
// uniform). Callers have checked that the lengths agree and that some
// weight is positive.
func pickWeighted(r *rand.Rand, values []int, weights []float64) int {
	if len(weights) == 0 {
		return values[r.IntN(len(values))]
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x := r.Float64() * total
	for i, w := range weights {
		if x < w {
			return values[i]
		}
		x -= w
	}
	for i := len(weights) - 1; i >= 0; i-- { // rounding: the last positive weight
		if weights[i] > 0 {
			return values[i]
		}
	}
	return values[len(values)-1]
}
