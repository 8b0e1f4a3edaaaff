package analysis

import (
	"math"
	"sort"
	"strings"
)

// ConditionTrial is one trajectory as the with- vs without-emotions
// comparison sees it. Tasks pair up across conditions by PairKey within a
// Group (e.g. agent model, user model and domain).
type ConditionTrial struct {
	Group        string
	PairKey      string
	WithEmotions bool
	Trial        int
	Passed       bool
	// Profile maps each dimension (emotion_family, emotion_leaf, politeness,
	// urgency, trust) to the task's value.
	Profile map[string]string
}

// EmotionDelta compares with- and without-emotions pass^k over the tasks of
// one group that share a dimension value.
type EmotionDelta struct {
	Group     string
	Dimension string // "all" for every paired task
	Value     string
	K         int
	Pairs     int     // tasks run in both conditions
	With      float64 // pass^k with emotions
	Without   float64 // pass^k without emotions
	Delta     float64 // With − Without, paired by task
	CI        CI      // paired bootstrap over tasks
	B, C      int     // McNemar discordant pairs (k = 1): with-only passes, without-only passes
	P         float64 // exact McNemar p (k = 1); NaN for k > 1
	PHolm     float64 // P adjusted by Holm across the values of the dimension
}

// EmotionDimensions are the profile fields the comparison splits by.
var EmotionDimensions = []string{"emotion_family", "emotion_leaf", "politeness", "urgency", "trust"}

// CompareEmotions pairs each group's tasks across conditions and reports,
// for the whole group and for each value of every dimension, Δpass^k =
// pass^k(with) − pass^k(without) averaged over paired tasks with a paired
// bootstrap CI, and at k = 1 the exact McNemar test on trial-matched pairs
// (McNemar 1947) with Holm's correction across the values of a dimension
// (Holm 1979). A task's profile is taken from its with-emotions trials.
// Rows with no pair are left out.
func CompareEmotions(trials []ConditionTrial, ks []int, opts BootstrapOptions) []EmotionDelta {
	if len(ks) == 0 {
		ks = []int{1}
	}
	var out []EmotionDelta
	for _, g := range pairGroups(trials) {
		for _, k := range ks {
			out = append(out, g.compare("all", "", g.pairs, k, opts))
			for _, dim := range EmotionDimensions {
				out = append(out, g.compareDimension(dim, k, opts)...)
			}
		}
	}
	return out
}

type pairedTask struct {
	key           string
	profile       map[string]string
	with, without map[int]bool // trial → passed
}

type pairGroup struct {
	name  string
	pairs []*pairedTask
}

func pairGroups(trials []ConditionTrial) []*pairGroup {
	tasks := map[string]map[string]*pairedTask{}
	for _, t := range trials {
		byKey := tasks[t.Group]
		if byKey == nil {
			byKey = map[string]*pairedTask{}
			tasks[t.Group] = byKey
		}
		p := byKey[t.PairKey]
		if p == nil {
			p = &pairedTask{key: t.PairKey, with: map[int]bool{}, without: map[int]bool{}}
			byKey[t.PairKey] = p
		}
		if t.WithEmotions {
			p.with[t.Trial] = t.Passed
			p.profile = t.Profile
		} else {
			p.without[t.Trial] = t.Passed
			if p.profile == nil {
				p.profile = t.Profile
			}
		}
	}
	var groups []*pairGroup
	for name, byKey := range tasks {
		g := &pairGroup{name: name}
		for _, p := range byKey {
			if len(p.with) > 0 && len(p.without) > 0 {
				g.pairs = append(g.pairs, p)
			}
		}
		sort.Slice(g.pairs, func(i, j int) bool { return g.pairs[i].key < g.pairs[j].key })
		if len(g.pairs) > 0 {
			groups = append(groups, g)
		}
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].name < groups[j].name })
	return groups
}

func (g *pairGroup) compareDimension(dim string, k int, opts BootstrapOptions) []EmotionDelta {
	byValue := map[string][]*pairedTask{}
	for _, p := range g.pairs {
		v := p.profile[dim]
		byValue[v] = append(byValue[v], p)
	}
	values := make([]string, 0, len(byValue))
	for v := range byValue {
		values = append(values, v)
	}
	sort.Strings(values)
	rows := make([]EmotionDelta, len(values))
	ps := make([]float64, len(values))
	for i, v := range values {
		rows[i] = g.compare(dim, v, byValue[v], k, opts)
		ps[i] = rows[i].P
	}
	if k == 1 {
		for i, adj := range holmIgnoringNaN(ps) {
			rows[i].PHolm = adj
		}
	}
	return rows
}

func (g *pairGroup) compare(dim, value string, pairs []*pairedTask, k int, opts BootstrapOptions) EmotionDelta {
	row := EmotionDelta{Group: g.name, Dimension: dim, Value: value, K: k, P: math.NaN(), PHolm: math.NaN()}
	var ps []Pair
	var withPassed, withoutPassed []bool
	for _, p := range pairs {
		ps = append(ps, Pair{With: outcome(p.with), Without: outcome(p.without)})
		for trial, w := range p.with {
			if wo, ok := p.without[trial]; ok {
				withPassed = append(withPassed, w)
				withoutPassed = append(withoutPassed, wo)
			}
		}
	}
	row.Delta, row.CI = PairedDelta(ps, k, opts)
	for _, p := range ps {
		if p.With.Trials >= k && p.Without.Trials >= k {
			row.Pairs++
			row.With += PassHatK(p.With.Trials, p.With.Passes, k)
			row.Without += PassHatK(p.Without.Trials, p.Without.Passes, k)
		}
	}
	if row.Pairs == 0 {
		row.With, row.Without = math.NaN(), math.NaN()
	} else {
		row.With /= float64(row.Pairs)
		row.Without /= float64(row.Pairs)
	}
	if k == 1 {
		row.B, row.C = McNemarTable(withPassed, withoutPassed)
		row.P = McNemarExact(row.B, row.C)
		row.PHolm = row.P
	}
	return row
}

func outcome(trials map[int]bool) TaskTrials {
	t := TaskTrials{Trials: len(trials)}
	for _, passed := range trials {
		if passed {
			t.Passes++
		}
	}
	return t
}

// holmIgnoringNaN applies Holm to the finite p-values, keeping NaN.
func holmIgnoringNaN(ps []float64) []float64 {
	var idx []int
	var finite []float64
	for i, p := range ps {
		if !math.IsNaN(p) {
			idx = append(idx, i)
			finite = append(finite, p)
		}
	}
	out := make([]float64, len(ps))
	for i := range out {
		out[i] = math.NaN()
	}
	for j, adj := range Holm(finite) {
		out[idx[j]] = adj
	}
	return out
}

// GroupLabel joins group fields into one label ("gpt-4.1 / retail").
func GroupLabel(fields ...string) string { return strings.Join(fields, " / ") }
