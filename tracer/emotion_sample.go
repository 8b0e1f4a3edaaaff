package tracer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
)

// ParseEmotionWeights reads emotion family weights (GenerateOptions.EmotionWeights): comma-separated family=weight
// pairs, e.g. "anger=2,fear=1" (weights are non-negative numbers; families
// not named weigh 0 and are not sampled). "" is nil: every family weighs
// the same. An unknown or repeated family, a bad or negative weight, or
// weights that are all 0 are errors naming the pair.
func ParseEmotionWeights(s string) (map[string]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	out := map[string]float64{}
	positive := false
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		name, value, ok := strings.Cut(pair, "=")
		name = strings.TrimSpace(name)
		if !ok {
			return nil, fmt.Errorf("emotion weights %q: %q is not family=weight", s, pair)
		}
		if _, known := emobench.FindFamily(name); !known {
			return nil, fmt.Errorf("emotion weights %q: unknown emotion family %q (want one of %s)", s, name, strings.Join(familyNames(), ", "))
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("emotion weights %q: family %q given twice", s, name)
		}
		w, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || w < 0 || w != w || w > 1e9 {
			return nil, fmt.Errorf("emotion weights %q: weight of %s %q is not a non-negative number", s, name, value)
		}
		out[name] = w
		positive = positive || w > 0
	}
	if !positive {
		return nil, fmt.Errorf("emotion weights %q: every weight is 0", s)
	}
	return out, nil
}

func familyNames() []string {
	var out []string
	for _, f := range emobench.Taxonomy.Families {
		out = append(out, f.Name)
	}
	return out
}

// emotionSampler gives each task an emotion profile that fits its
// intents, balancing what the kept tasks already have: the family whose
// count over its weight is lowest, the family's least used leaf and each
// dimension's least used value, ties broken by the task's generator.
type emotionSampler struct {
	weights map[string]float64 // nil: every family 1
	family  map[string]int
	leaf    map[string]int // by family + "/" + leaf
	dim     map[string]int // by dimension + "/" + value
}

func newEmotionSampler(weights map[string]float64) *emotionSampler {
	return &emotionSampler{weights: weights, family: map[string]int{}, leaf: map[string]int{}, dim: map[string]int{}}
}

func (s *emotionSampler) weight(family string) float64 {
	if s.weights == nil {
		return 1
	}
	return s.weights[family]
}

// sample returns a profile whose family is among fits (nil: any family);
// ok is false when no fitting family has a positive weight.
func (s *emotionSampler) sample(r *rand.Rand, fits []string) (emobench.EmotionProfile, bool) {
	var best []emobench.Family
	bestScore := 0.0
	for _, f := range emobench.Taxonomy.Families {
		w := s.weight(f.Name)
		if w <= 0 || fits != nil && !slices.Contains(fits, f.Name) {
			continue
		}
		score := float64(s.family[f.Name]) / w
		switch {
		case len(best) == 0 || score < bestScore:
			best, bestScore = []emobench.Family{f}, score
		case score == bestScore:
			best = append(best, f)
		}
	}
	if len(best) == 0 {
		return emobench.EmotionProfile{}, false
	}
	f := best[r.IntN(len(best))]
	p := emobench.EmotionProfile{Family: f.Name, Leaf: leastUsed(r, f.Leaves, func(v string) int { return s.leaf[f.Name+"/"+v] })}
	for _, d := range emobench.ProfileDimensions {
		v := leastUsed(r, emobench.Taxonomy.Dimensions[d], func(v string) int { return s.dim[d+"/"+v] })
		switch d {
		case "politeness":
			p.Politeness = v
		case "urgency":
			p.Urgency = v
		case "trust":
			p.Trust = v
		}
	}
	return p, true
}

// add counts a kept task's profile.
func (s *emotionSampler) add(p emobench.EmotionProfile) {
	s.family[p.Family]++
	s.leaf[p.Family+"/"+p.Leaf]++
	s.dim["politeness/"+p.Politeness]++
	s.dim["urgency/"+p.Urgency]++
	s.dim["trust/"+p.Trust]++
}

// leastUsed returns the value of values with the lowest count, ties
// broken by r.
func leastUsed(r *rand.Rand, values []string, count func(string) int) string {
	var best []string
	for _, v := range values {
		switch {
		case len(best) == 0 || count(v) < count(best[0]):
			best = []string{v}
		case count(v) == count(best[0]):
			best = append(best, v)
		}
	}
	return best[r.IntN(len(best))]
}

// fittingFamilies intersects the intents' Families (nil: every family);
// the result is nil when every intent fits every family, and empty (not
// nil) when they have none in common.
func fittingFamilies(lists [][]string) []string {
	var out []string
	restricted := false
	for _, l := range lists {
		if l == nil {
			continue
		}
		if !restricted {
			out, restricted = slices.Clone(l), true
			continue
		}
		out = slices.DeleteFunc(out, func(f string) bool { return !slices.Contains(l, f) })
	}
	if restricted && out == nil {
		out = []string{}
	}
	return out
}
