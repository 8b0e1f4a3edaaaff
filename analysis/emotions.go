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
	Matched     int     // trial-matched (task, trial) pairs McNemar counts B and C among (k = 1)
	P           float64 // exact McNemar p (k = 1); NaN for k > 1 and when Matched = 0
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

// Pairing says which with-emotions and without-emotions runs belong
// together when they are compared per run (EmotionComparisons); pools
// pair with pools and need none.
type Pairing struct {
	// Groups maps a run id to the group of runs it was made with: the runs
	// one command started, or the runs ingested from a pair of files in
	// one folder whose names differ only in the condition words. "" (or no
	// entry) is none.
	Groups map[int64]string
	// Sources say where runs came from, for the notes on runs left
	// unpaired (Unpaired.Note); a run with no entry gets a general note.
	Sources map[int64]Source
	// Named are pairs the user named, each {with-emotions run,
	// without-emotions run} (CheckNamedPair orders and checks them).
	Named [][2]int64
}

// Source is where a run came from, as a note on a run left unpaired
// names it.
type Source struct {
	// Ingested is whether the run was ingested from a file (or stdin);
	// false for a run of emobench's own `run` (or `tracer collect`).
	Ingested bool
	// File is the path an ingested run was read from, as stored.
	File string
	// NoPair, for an ingested run, says why no file pairs with it by name,
	// e.g. "its stored path is relative, so its folder is unknown"; "" when
	// a file beside it in its folder whose name differs only in the
	// condition words would.
	NoPair string
}

// CheckNamedPair returns the runs a and b of u, which the user named as a
// pair, as {with-emotions run, without-emotions run}. The error, when they
// are not one run of each condition, are a pool or are not in u, or
// differ in agent model, user model or domain, names both runs.
func CheckNamedPair(u Units, a, b int64) ([2]int64, error) {
	ua, okA := u.Of(a)
	ub, okB := u.Of(b)
	switch {
	case !okA:
		return [2]int64{}, fmt.Errorf("run %d is not among the runs compared", a)
	case !okB:
		return [2]int64{}, fmt.Errorf("run %d is not among the runs compared", b)
	case pooledUnit(ua) || pooledUnit(ub):
		return [2]int64{}, fmt.Errorf("runs %d and %d: pools pair with pools, not with named runs", a, b)
	case ua.Key.Condition == ub.Key.Condition || !isCondition(ua) || !isCondition(ub):
		return [2]int64{}, fmt.Errorf("runs %d (%s) and %d (%s): a pair is one with-emotions and one without-emotions run", a, ua.Key.Condition, b, ub.Key.Condition)
	case !sameModels(ua, ub):
		return [2]int64{}, fmt.Errorf("runs %d (%s) and %d (%s) differ in agent model, user model or domain", a, KnownLabel(ua.Key.AgentModel, ua.Key.UserModel, ua.Key.Domain), b, KnownLabel(ub.Key.AgentModel, ub.Key.UserModel, ub.Key.Domain))
	}
	if ua.Key.Condition == string(emobench.ConditionWithoutEmotions) {
		a, b = b, a
	}
	return [2]int64{a, b}, nil
}

// Unpaired is a with- or without-emotions unit that EmotionComparisons
// sets against nothing.
type Unpaired struct {
	Unit Unit
	// Ambiguous are, when its group (Pairing.Groups) holds more than one
	// run of a condition for its agent model, user model and domain, those
	// runs of both conditions, ascending; nil otherwise.
	Ambiguous []int64
	// Source is where the run came from (Pairing.Sources); nil when not
	// known, or for a pool.
	Source *Source
}

// Note says why u is not compared and how to compare it, e.g. "run 5
// (with-emotions, /e3/m-retail-with-emotions.json) has no without-emotions
// run of its agent model, user model and domain from a file beside it
// (its name but for the condition words); pair it with --pair 5:N or use
// --pool". Without a Source it names no origin: "… has no
// without-emotions run from the same `run` command or file pair; …".
func (u Unpaired) Note() string {
	c := u.Unit.Key.Condition
	other := string(emobench.ConditionWithoutEmotions)
	if c == other {
		other = string(emobench.ConditionWithEmotions)
	}
	id := u.Unit.ID
	pair := fmt.Sprintf("--pair %d:N", id)
	if c == string(emobench.ConditionWithoutEmotions) {
		pair = fmt.Sprintf("--pair N:%d", id)
	}
	src := u.Source
	run := fmt.Sprintf("run %d (%s)", id, c)
	if src != nil && src.Ingested {
		run = fmt.Sprintf("run %d (%s, %s)", id, c, cmp.Or(src.File, "no file stored"))
	}
	switch {
	case pooledUnit(u.Unit):
		return fmt.Sprintf("%s has no %s pool of the same agent model, user model and domain: not compared", u.Unit.Name(), other)
	case len(u.Ambiguous) > 0 && src == nil:
		return fmt.Sprintf("%s is one of runs %s from the same `run` command or file pair, not one run per condition: not compared; name the pair with %s",
			run, JoinIDs(u.Ambiguous), pair)
	case len(u.Ambiguous) > 0 && src.Ingested:
		return fmt.Sprintf("%s is one of runs %s ingested from one file pair (files in one folder named alike but for the condition words), which holds several runs of a condition: not compared; name the pair with %s",
			run, JoinIDs(u.Ambiguous), pair)
	case len(u.Ambiguous) > 0:
		return fmt.Sprintf("%s is one of runs %s of one `run` command, which holds several runs of a condition: not compared; name the pair with %s",
			run, JoinIDs(u.Ambiguous), pair)
	case u.Unit.Pooled:
		return fmt.Sprintf("%s is a pool of its own (unknown agent model or domain) and has no %s run from the same `run` command or file pair: not compared",
			run, other)
	case src == nil:
		return fmt.Sprintf("%s has no %s run from the same `run` command or file pair; pair it with %s or use --pool", run, other, pair)
	case src.Ingested && src.NoPair != "":
		return fmt.Sprintf("%s pairs with no file by name: %s; pair it with %s or use --pool", run, src.NoPair, pair)
	case src.Ingested:
		return fmt.Sprintf("%s has no %s run of its agent model, user model and domain from a file beside it (its name but for the condition words); pair it with %s or use --pool",
			run, other, pair)
	}
	return fmt.Sprintf("%s has no %s run of its agent model, user model and domain from the same `run` command; pair it with %s or use --pool", run, other, pair)
}

// pooledUnit reports whether unit is a pool of runs of one Poolable key
// (not a run kept apart).
func pooledUnit(unit Unit) bool { return unit.Pooled && unit.Key.Poolable() }

func isCondition(unit Unit) bool {
	return unit.Key.Condition == string(emobench.ConditionWithEmotions) || unit.Key.Condition == string(emobench.ConditionWithoutEmotions)
}

func sameModels(a, b Unit) bool {
	return a.Key.AgentModel == b.Key.AgentModel && a.Key.UserModel == b.Key.UserModel && a.Key.Domain == b.Key.Domain
}

// EmotionComparisons lists the (with-emotions unit, without-emotions
// unit) pairs of u that belong together, and the with- and
// without-emotions units left unpaired, ordered by ID. The rule:
//   - a pool pairs with the pool of the other condition of the same agent
//     model, user model and domain;
//   - a run (or a run kept apart when pooling) pairs with the one run of
//     the other condition, the same agent model, user model and domain,
//     and its group in p (one command's runs, or a pair of files): when
//     either has several such runs, neither pairs;
//   - the pairs p names pair too.
//
// Nothing else is compared: two runs of separate experiments never are.
// Comparisons come in the order of Group, then the with side's ID, then
// the without side's.
func EmotionComparisons(u Units, p Pairing) ([]EmotionComparison, []Unpaired) {
	var with, without []Unit
	for _, unit := range u.list {
		switch unit.Key.Condition {
		case string(emobench.ConditionWithEmotions):
			with = append(with, unit)
		case string(emobench.ConditionWithoutEmotions):
			without = append(without, unit)
		}
	}
	var out []EmotionComparison
	paired := map[int64]bool{}
	add := func(w, o Unit) {
		for _, c := range out {
			if c.With.ID == w.ID && c.Without.ID == o.ID {
				return
			}
		}
		out = append(out, EmotionComparison{With: w, Without: o})
		paired[w.ID], paired[o.ID] = true, true
	}
	candidates := map[int64][]int64{}
	for _, sides := range [][2][]Unit{{with, without}, {without, with}} {
		for _, x := range sides[0] {
			g := p.Groups[x.ID]
			for _, o := range sides[1] {
				if pooledUnit(x) && pooledUnit(o) && sameModels(x, o) {
					candidates[x.ID] = append(candidates[x.ID], o.ID)
				} else if !pooledUnit(x) && !pooledUnit(o) && g != "" && p.Groups[o.ID] == g && sameModels(x, o) {
					candidates[x.ID] = append(candidates[x.ID], o.ID)
				}
			}
		}
	}
	for _, w := range with {
		if cs := candidates[w.ID]; len(cs) == 1 && len(candidates[cs[0]]) == 1 {
			add(w, u.ByID(cs[0]))
		}
	}
	for _, named := range p.Named {
		w, okW := u.Of(named[0])
		o, okO := u.Of(named[1])
		if okW && okO && w.Key.Condition == string(emobench.ConditionWithEmotions) && o.Key.Condition == string(emobench.ConditionWithoutEmotions) {
			add(w, o)
		}
	}
	var unpaired []Unpaired
	for _, unit := range u.list {
		if !isCondition(unit) || paired[unit.ID] {
			continue
		}
		var ambiguous []int64
		if cs := candidates[unit.ID]; len(cs) > 0 && !pooledUnit(unit) {
			ambiguous = append([]int64{unit.ID}, cs...)
			for _, c := range cs {
				ambiguous = append(ambiguous, candidates[c]...)
			}
			slices.Sort(ambiguous)
			ambiguous = slices.Compact(ambiguous)
		}
		var src *Source
		if s, ok := p.Sources[unit.ID]; ok && !pooledUnit(unit) {
			src = &s
		}
		unpaired = append(unpaired, Unpaired{Unit: unit, Ambiguous: ambiguous, Source: src})
	}
	slices.SortStableFunc(out, func(a, b EmotionComparison) int {
		return cmp.Or(strings.Compare(a.Group(), b.Group()), cmp.Compare(a.With.ID, b.With.ID), cmp.Compare(a.Without.ID, b.Without.ID))
	})
	return out, unpaired
}

// CompareEmotions pairs tasks (by PairKey) within each comparison of
// EmotionComparisons(u, p) and reports, for all paired tasks and for each
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
// left out; the comparisons come back with their pair counts. McNemar's p
// is NaN when no (task, trial) pair matches (Matched = 0): no pair is no
// evidence, unlike pairs that all agree (b = c = 0, p = 1).
func CompareEmotions(trials []ConditionTrial, u Units, p Pairing, ks []int, opts BootstrapOptions) ([]EmotionDelta, []EmotionComparison) {
	if len(ks) == 0 {
		ks = []int{1}
	}
	comparisons, _ := EmotionComparisons(u, p)
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
		row.Matched = len(withPassed)
		if row.Matched > 0 {
			row.P = McNemarExact(row.B, row.C)
			row.PHolm = row.P
		}
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
// paired task, notes on the tasks and k values that could not be paired,
// and the units left unpaired (each with its Note among Notes).
type EmotionsResult struct {
	Rows     []EmotionDelta
	Notes    []string
	Unpaired []Unpaired
}

// EmotionsWithNotes is CompareEmotions with its notes, in this order: per
// unit left unpaired, why (Unpaired.Note); per comparison, the tasks run
// in one condition only (left out); per comparison whose k = 1 row has no
// matched (task, trial) pair, that McNemar's p is NaN; per k, when no task has k trials in
// both conditions (its rows, with Pairs = 0, are left out); and, when
// nothing pairs at all, why.
func EmotionsWithNotes(trials []ConditionTrial, u Units, p Pairing, ks []int, opts BootstrapOptions) EmotionsResult {
	compared, comparisons := CompareEmotions(trials, u, p, ks, opts)
	var res EmotionsResult
	_, res.Unpaired = EmotionComparisons(u, p)
	for _, x := range res.Unpaired {
		res.Notes = append(res.Notes, x.Note())
	}
	for _, c := range comparisons {
		if c.OnlyWith+c.OnlyWithout > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s, runs %s (with emotions) vs %s (without): left out %d tasks run only with emotions and %d run only without: they have no pair",
				c.Group(), JoinIDs(c.With.RunIDs), JoinIDs(c.Without.RunIDs), c.OnlyWith, c.OnlyWithout))
		}
	}
	for _, r := range compared {
		if r.K == 1 && r.Dimension == "all" && r.Pairs > 0 && r.Matched == 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s, runs %s (with emotions) vs %s (without): %s",
				r.Group, JoinIDs(r.WithRuns), JoinIDs(r.WithoutRuns), NoMatchedTrialsNote))
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
		conditions := map[string]bool{}
		for _, x := range res.Unpaired {
			conditions[x.Unit.Key.Condition] = true
		}
		if len(conditions) == 2 {
			res.Notes = append(res.Notes, "no pairs: no with-emotions run (or pool) belongs with a without-emotions one of the same agent model, user model and domain (see the notes above)")
		} else {
			res.Notes = append(res.Notes, "no pairs: emotions needs with-emotions and without-emotions runs of the same agent model, user model and domain over the same tasks")
		}
	}
	return res
}

// NoMatchedTrialsNote says why McNemar's p of a k = 1 row is NaN: no
// (task, trial) pair matches across the two conditions.
const NoMatchedTrialsNote = "no (task, trial) pair matches across the conditions (their trial numbers differ): McNemar's p is n/a, not 1"
