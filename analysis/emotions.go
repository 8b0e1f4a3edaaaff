package analysis

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/emobench/emobench"
)

// ConditionTrial is one trajectory as the with- vs without-emotions
// comparison sees it. Its run's unit (see Units) says its condition and
// the agent model, user model and domain it is compared within; tasks pair
// up across conditions by PairKey.
type ConditionTrial struct {
	RunID   int64
	PairKey string
	Trial   int
	Passed  bool
	// Unevaluated is set when the trajectory has no reward information
	// (it then never passes).
	Unevaluated bool
	// Profile maps each dimension (emotion_family, emotion_leaf, politeness,
	// urgency, trust) to the task's value.
	Profile map[string]string
}

// EmotionDelta compares with- and without-emotions pass^k over the tasks of
// one comparison that share a dimension value.
type EmotionDelta struct {
	Group       string  // "agent model / user model / domain"
	WithRuns    []int64 // run ids of the with-emotions side (one run, or a pool)
	WithoutRuns []int64 // run ids of the without-emotions side
	Dimension   string  // "all" for every paired task
	Value       string
	K           int
	Pairs       int     // tasks run in both conditions
	With        float64 // pass^k with emotions
	Without     float64 // pass^k without emotions
	Delta       float64 // With − Without, paired by task
	CI          CI      // paired bootstrap over tasks
	B, C        int     // McNemar discordant pairs (k = 1): with-only passes, without-only passes
	P           float64 // exact McNemar p (k = 1); NaN for k > 1
	PHolm       float64 // P adjusted by Holm across the values of the dimension
	// WithNotEvaluated and WithoutNotEvaluated are set when no trajectory
	// of that side's paired tasks was evaluated (NotEvaluated): that side's
	// pass^k, Delta, its CI and the p-values are then NaN, never a measured
	// difference from 0.
	WithNotEvaluated, WithoutNotEvaluated bool
}

// EmotionComparison is one with-emotions unit set against one
// without-emotions unit of the same agent model, user model and domain,
// with how many tasks pair up and how many ran in one condition only.
type EmotionComparison struct {
	With, Without         Unit
	Pairs                 int // tasks in both
	OnlyWith, OnlyWithout int // tasks left out: they have no pair
}

// Group is the comparison's "agent model / user model / domain".
func (c EmotionComparison) Group() string {
	return KnownLabel(c.With.Key.AgentModel, c.With.Key.UserModel, c.With.Key.Domain)
}

// EmotionComparisons lists every (with-emotions unit, without-emotions
// unit) combination of the same agent model, user model and domain, in the
// order of Group, then the with side's ID, then the without side's. Per run,
// two with-emotions runs and one without-emotions run give two comparisons,
// each naming its runs; pooled, each group has at most one.
func EmotionComparisons(u Units) []EmotionComparison {
	var with, without []Unit
	for _, unit := range u.list {
		switch unit.Key.Condition {
		case "with-emotions":
			with = append(with, unit)
		case "without-emotions":
			without = append(without, unit)
		}
	}
	var out []EmotionComparison
	for _, w := range with {
		for _, o := range without {
			if w.Key.AgentModel == o.Key.AgentModel && w.Key.UserModel == o.Key.UserModel && w.Key.Domain == o.Key.Domain {
				out = append(out, EmotionComparison{With: w, Without: o})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b EmotionComparison) int {
		return cmp.Or(strings.Compare(a.Group(), b.Group()), cmp.Compare(a.With.ID, b.With.ID), cmp.Compare(a.Without.ID, b.Without.ID))
	})
	return out
}

// CompareEmotions pairs tasks (by PairKey) within each comparison of
// EmotionComparisons(u) and reports, for all paired tasks and for each
// value of every dimension, Δpass^k = pass^k(with) − pass^k(without)
// averaged over paired tasks with a paired bootstrap CI, and at k = 1 the
// exact McNemar test on trial-matched pairs (McNemar 1947) with Holm's
// correction across the values of a dimension (Holm 1979).
//
// Every trajectory of a task on a side is one trial of it (a pool's runs
// add up; nothing is dropped). Trial-matched pairs match the same trial
// number, and, when a side holds that trial number several times (a pool),
// its j-th occurrence in run id order with the other side's j-th. A task's
// profile is taken from its with-emotions trials. Rows with no pair are
// left out; the comparisons come back with their pair counts.
func CompareEmotions(trials []ConditionTrial, u Units, ks []int, opts BootstrapOptions) ([]EmotionDelta, []EmotionComparison) {
	if len(ks) == 0 {
		ks = []int{1}
	}
	comparisons := EmotionComparisons(u)
	byUnit := map[int64][]ConditionTrial{}
	for _, t := range trials {
		if unit, ok := u.Of(t.RunID); ok {
			byUnit[unit.ID] = append(byUnit[unit.ID], t)
		}
	}
	var out []EmotionDelta
	for i := range comparisons {
		c := &comparisons[i]
		g := pairComparison(*c, byUnit[c.With.ID], byUnit[c.Without.ID])
		c.Pairs, c.OnlyWith, c.OnlyWithout = len(g.pairs), g.onlyWith, g.onlyWithout
		if len(g.pairs) == 0 {
			continue
		}
		for _, k := range ks {
			out = append(out, g.compare("all", "", g.pairs, k, opts))
			for _, dim := range emobench.EmotionDimensions {
				out = append(out, g.compareDimension(dim, k, opts)...)
			}
		}
	}
	return out, comparisons
}

// trialOutcome is one trajectory of a paired task.
type trialOutcome struct {
	run         int64
	trial       int
	passed      bool
	unevaluated bool
}

type pairedTask struct {
	key           string
	profile       map[string]string
	with, without []trialOutcome
}

type pairGroup struct {
	comparison            EmotionComparison
	pairs                 []*pairedTask
	onlyWith, onlyWithout int
}

func pairComparison(c EmotionComparison, with, without []ConditionTrial) *pairGroup {
	byKey := map[string]*pairedTask{}
	task := func(t ConditionTrial) *pairedTask {
		p := byKey[t.PairKey]
		if p == nil {
			p = &pairedTask{key: t.PairKey}
			byKey[t.PairKey] = p
		}
		return p
	}
	for _, t := range with {
		p := task(t)
		p.with = append(p.with, trialOutcome{t.RunID, t.Trial, t.Passed, t.Unevaluated})
		p.profile = t.Profile
	}
	for _, t := range without {
		p := task(t)
		p.without = append(p.without, trialOutcome{t.RunID, t.Trial, t.Passed, t.Unevaluated})
		if p.profile == nil {
			p.profile = t.Profile
		}
	}
	g := &pairGroup{comparison: c}
	for _, p := range byKey {
		switch {
		case len(p.with) > 0 && len(p.without) > 0:
			g.pairs = append(g.pairs, p)
		case len(p.with) > 0:
			g.onlyWith++
		default:
			g.onlyWithout++
		}
	}
	sort.Slice(g.pairs, func(i, j int) bool { return g.pairs[i].key < g.pairs[j].key })
	return g
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
	c := g.comparison
	row := EmotionDelta{Group: c.Group(), WithRuns: c.With.RunIDs, WithoutRuns: c.Without.RunIDs,
		Dimension: dim, Value: value, K: k, P: math.NaN(), PHolm: math.NaN()}
	var ps []Pair
	var withPassed, withoutPassed []bool
	for _, p := range pairs {
		ps = append(ps, Pair{With: outcome(p.with), Without: outcome(p.without)})
		w, o := matchTrials(p.with, p.without)
		withPassed, withoutPassed = append(withPassed, w...), append(withoutPassed, o...)
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
	var with, without []TaskTrials
	for _, p := range ps {
		with, without = append(with, p.With), append(without, p.Without)
	}
	row.WithNotEvaluated, row.WithoutNotEvaluated = NotEvaluated(with), NotEvaluated(without)
	if row.WithNotEvaluated || row.WithoutNotEvaluated {
		nan := math.NaN()
		if row.WithNotEvaluated {
			row.With = nan
		}
		if row.WithoutNotEvaluated {
			row.Without = nan
		}
		row.Delta, row.CI.Lo, row.CI.Hi, row.P, row.PHolm = nan, nan, nan, nan, nan
	}
	return row
}

// matchTrials pairs one task's trajectories across conditions: the same
// trial number, and the j-th occurrence of a trial number (in run id
// order) with the other side's j-th. Unmatched trajectories are left out.
func matchTrials(with, without []trialOutcome) (w, o []bool) {
	type slot struct{ trial, nth int }
	index := func(ts []trialOutcome) map[slot]bool {
		sorted := slices.Clone(ts)
		slices.SortStableFunc(sorted, func(a, b trialOutcome) int { return cmp.Compare(a.run, b.run) })
		seen, out := map[int]int{}, map[slot]bool{}
		for _, t := range sorted {
			out[slot{t.trial, seen[t.trial]}] = t.passed
			seen[t.trial]++
		}
		return out
	}
	wi, oi := index(with), index(without)
	slots := make([]slot, 0, len(wi))
	for s := range wi {
		if _, ok := oi[s]; ok {
			slots = append(slots, s)
		}
	}
	slices.SortFunc(slots, func(a, b slot) int { return cmp.Or(cmp.Compare(a.trial, b.trial), cmp.Compare(a.nth, b.nth)) })
	for _, s := range slots {
		w, o = append(w, wi[s]), append(o, oi[s])
	}
	return w, o
}

func outcome(trials []trialOutcome) TaskTrials {
	t := TaskTrials{Trials: len(trials)}
	for _, tr := range trials {
		if tr.passed {
			t.Passes++
		}
		if tr.unevaluated {
			t.Unevaluated++
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

// EmotionsResult is the table of stats emotions: the rows with at least one
// paired task, and notes on the tasks and k values that could not be
// paired.
type EmotionsResult struct {
	Rows  []EmotionDelta
	Notes []string
}

// EmotionsWithNotes is CompareEmotions with its notes, in this order: per
// comparison, the tasks run in one condition only (left out); per k, when
// no task has k trials in both conditions (its rows, with Pairs = 0, are
// left out); and, when nothing pairs at all, that emotions needs both
// conditions.
func EmotionsWithNotes(trials []ConditionTrial, u Units, ks []int, opts BootstrapOptions) EmotionsResult {
	compared, comparisons := CompareEmotions(trials, u, ks, opts)
	var res EmotionsResult
	for _, c := range comparisons {
		if c.OnlyWith+c.OnlyWithout > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s, runs %s (with emotions) vs %s (without): left out %d tasks run only with emotions and %d run only without: they have no pair",
				c.Group(), JoinIDs(c.With.RunIDs), JoinIDs(c.Without.RunIDs), c.OnlyWith, c.OnlyWithout))
		}
	}
	emptyK := map[int]bool{}
	for _, r := range compared {
		if r.Pairs > 0 {
			res.Rows = append(res.Rows, r)
		} else if r.Dimension == "all" {
			emptyK[r.K] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(emptyK)) {
		res.Notes = append(res.Notes, fmt.Sprintf("k=%d: no task has %d trials in both conditions (rows left out): run with --trials %d or more", k, k, k))
	}
	if len(compared) == 0 {
		res.Notes = append(res.Notes, "no pairs: emotions needs with-emotions and without-emotions runs of the same agent model, user model and domain over the same tasks")
	}
	return res
}
