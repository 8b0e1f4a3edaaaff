package tracer

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// What a split that measures the policy holds (issue 21, Scope 5):
// GenerateOptions.MeasurePolicy aims at it and TestShares.Violations
// checks it.
const (
	// MinMixedShare is the least share of mixed tasks (KindMixed).
	MinMixedShare = 0.20
	// MinTraitShare is the least share of tasks with a trait
	// (emobench.TraitConditional or emobench.TraitFindable).
	MinTraitShare = 0.30
	// MinIntentTasks is the least number of tasks holding each forbidden
	// intent (request type) and each transfer intent (trigger).
	MinIntentTasks = 2
	// FamilyShare and FamilyTolerance: within each task kind, each
	// emotion family's share is FamilyShare ± FamilyTolerance.
	FamilyShare     = 0.20
	FamilyTolerance = 0.05
)

// ShareKinds are the task kinds SplitShares reports, in report order.
var ShareKinds = []string{KindWrite, KindRead, KindRefusal, KindTransfer, KindMixed}

// TestShares are what a split holds of issue 21's test-split measures.
type TestShares struct {
	Tasks int `json:"tasks"`
	// Mixed is the fraction (0–1) of mixed tasks (KindMixed; a task's
	// kind is sim.KindOf of its intents, mixed told apart).
	Mixed float64 `json:"mixed"`
	// ConditionalOrFindable is the fraction (0–1) of tasks whose Traits
	// hold emobench.TraitConditional or emobench.TraitFindable.
	ConditionalOrFindable float64 `json:"conditional_or_findable"`
	// ForbiddenTypes counts, for every forbidden intent of the catalog
	// (0 when none), the tasks holding it; TransferTriggers the same for
	// the transfer intents.
	ForbiddenTypes   map[string]int `json:"forbidden_types"`
	TransferTriggers map[string]int `json:"transfer_triggers"`
	// FamilyByKind is, per task kind that has tasks, each emotion
	// family's fraction of them (every family, 0 when none).
	FamilyByKind map[string]map[string]float64 `json:"family_by_kind"`
}

// SplitShares measures tasks (one split of a domain) against cat, the
// domain's catalog.
func SplitShares(cat *sim.Catalog, tasks []emobench.TaskSpec) TestShares {
	s := TestShares{Tasks: len(tasks), ForbiddenTypes: map[string]int{}, TransferTriggers: map[string]int{}, FamilyByKind: map[string]map[string]float64{}}
	kindOf := map[string]sim.IntentKind{}
	for _, in := range cat.Intents {
		kindOf[in.Name] = in.Kind
		switch in.Kind {
		case sim.IntentForbidden:
			s.ForbiddenTypes[in.Name] = 0
		case sim.IntentTransfer:
			s.TransferTriggers[in.Name] = 0
		}
	}
	if len(tasks) == 0 {
		return s
	}
	mixed, traited := 0, 0
	perKind, families := map[string]int{}, map[string]map[string]int{}
	for i := range tasks {
		t := &tasks[i]
		kind := sim.KindOf(sim.IntentAsks(cat, t), true)
		if kind == KindMixed {
			mixed++
		}
		if slices.Contains(t.Traits, emobench.TraitConditional) || slices.Contains(t.Traits, emobench.TraitFindable) {
			traited++
		}
		for _, name := range slices.Compact(slices.Sorted(slices.Values(t.Intents))) {
			switch kindOf[name] {
			case sim.IntentForbidden:
				s.ForbiddenTypes[name]++
			case sim.IntentTransfer:
				s.TransferTriggers[name]++
			}
		}
		perKind[kind]++
		if families[kind] == nil {
			families[kind] = map[string]int{}
		}
		families[kind][t.Emotion.Family]++
	}
	s.Mixed = float64(mixed) / float64(len(tasks))
	s.ConditionalOrFindable = float64(traited) / float64(len(tasks))
	for kind, n := range perKind {
		shares := map[string]float64{}
		for _, f := range familyNames() {
			shares[f] = 0
		}
		for f, c := range families[kind] {
			shares[f] = float64(c) / float64(n)
		}
		s.FamilyByKind[kind] = shares
	}
	return s
}

// Violations lists, one sentence each, where s falls short of a split
// that measures the policy: mixed below MinMixedShare, traits below
// MinTraitShare, a forbidden or transfer intent in fewer than
// MinIntentTasks tasks, a family's share of a kind outside FamilyShare ±
// FamilyTolerance. nil: none.
func (s TestShares) Violations() []string {
	var out []string
	const eps = 1e-9
	if s.Mixed < MinMixedShare-eps {
		out = append(out, fmt.Sprintf("mixed tasks are %.1f%%, want at least %.0f%%", 100*s.Mixed, 100*MinMixedShare))
	}
	if s.ConditionalOrFindable < MinTraitShare-eps {
		out = append(out, fmt.Sprintf("tasks with a condition or something to find are %.1f%%, want at least %.0f%%", 100*s.ConditionalOrFindable, 100*MinTraitShare))
	}
	for _, list := range []struct {
		what   string
		counts map[string]int
	}{{"forbidden request type", s.ForbiddenTypes}, {"transfer trigger", s.TransferTriggers}} {
		for _, name := range slices.Sorted(maps.Keys(list.counts)) {
			if n := list.counts[name]; n < MinIntentTasks {
				out = append(out, fmt.Sprintf("%s %s is in %d tasks, want at least %d", list.what, name, n, MinIntentTasks))
			}
		}
	}
	for _, kind := range ShareKinds {
		shares, ok := s.FamilyByKind[kind]
		if !ok {
			continue
		}
		for _, f := range slices.Sorted(maps.Keys(shares)) {
			if v := shares[f]; math.Abs(v-FamilyShare) > FamilyTolerance+eps {
				out = append(out, fmt.Sprintf("%s tasks: family %s has %.1f%%, want %.0f%% ± %.0f", kind, f, 100*v, 100*FamilyShare, 100*FamilyTolerance))
			}
		}
	}
	return out
}

// policyPatience is how many candidates in a row MeasurePolicy lets a
// position fail before it gives up what the position asks for: first the
// trait (for that position's kind, when no candidate of the kind ever had
// one; else for that position), then the kind, whose count left goes to
// write tasks. Both are reported in Generated.Shortfalls.
const policyPatience = 150

// roundTo5 rounds c to a multiple of 5, at least 5 for a positive c: a
// kind's count that lets five families share it equally.
func roundTo5(c float64) int {
	if c <= 0 {
		return 0
	}
	return max(5, int(math.Round(c/5))*5)
}

// policyQuotas returns MeasurePolicy's task count per generator kind
// (KindMixed, KindRefusal, KindTransfer, KindRead, KindWrite), summing
// to o.N; see GenerateOptions.MeasurePolicy.
func policyQuotas(cat *sim.Catalog, o GenerateOptions) map[string]int {
	n := float64(o.N)
	count := map[sim.IntentKind]int{}
	for _, in := range cat.Intents {
		count[in.Kind]++
	}
	q := map[string]int{
		KindMixed:    roundTo5(math.Ceil(MinMixedShare*n - 1e-9)),
		KindRefusal:  roundTo5(o.ForbiddenShare * n),
		KindTransfer: roundTo5(o.TransferShare * n),
		KindRead:     roundTo5(o.ReadShare * n),
	}
	if q[KindMixed] < 5*int(math.Ceil(MinMixedShare*n/5-1e-9)) {
		q[KindMixed] += 5
	}
	for kind, intent := range map[string]sim.IntentKind{KindRefusal: sim.IntentForbidden, KindTransfer: sim.IntentTransfer, KindRead: sim.IntentRead} {
		if count[intent] == 0 {
			q[kind] = 0
		}
	}
	if count[sim.IntentWrite] == 0 || count[sim.IntentForbidden]+count[sim.IntentTransfer] == 0 {
		q[KindMixed] = 0
	}
	sum := func() int { return q[KindMixed] + q[KindRefusal] + q[KindTransfer] + q[KindRead] }
	// Each refusal, transfer and mixed task holds one forbidden or
	// transfer intent: room for every one of them twice.
	for q[KindMixed] > 0 && q[KindMixed]+q[KindRefusal]+q[KindTransfer] < MinIntentTasks*(count[sim.IntentForbidden]+count[sim.IntentTransfer]) && sum()+5 <= o.N {
		q[KindMixed] += 5
	}
	for _, kind := range []string{KindRead, KindTransfer, KindRefusal, KindMixed} {
		for sum() > o.N && q[kind] > 0 {
			q[kind] = max(0, q[kind]-5)
		}
	}
	q[KindWrite] = o.N - sum()
	return q
}

// quotaKind is the kind of the next position under MeasurePolicy: the
// first kind, in the order mixed, refusal, transfer, read, write, whose
// kept tasks fall short of its count prorated to the position.
func (g *generator) quotaKind() string {
	j := len(g.out.Tasks) + 1
	for _, k := range []string{KindMixed, KindRefusal, KindTransfer, KindRead, KindWrite} {
		if q := g.quota[k]; q > 0 && g.out.Kinds[k]*g.opts.N < j*q {
			return k
		}
	}
	return KindWrite
}

// wantTraits says whether the current position must have a trait: the
// kept tasks with one are below MinTraitShare of the position, and
// neither the position nor its kind gave up on them.
func (g *generator) wantTraits() bool {
	if g.quota == nil || g.traitsRelax || g.traitless[g.positionKind()] {
		return false
	}
	j := len(g.out.Tasks) + 1
	return float64(g.traited) < math.Ceil(float64(j)*MinTraitShare-1e-9)
}

// relax gives up part of the current position after policyPatience
// candidates in a row kept nothing (since counts them).
func (g *generator) relax(since int) {
	if since == 0 || since%policyPatience != 0 {
		return
	}
	kind := g.positionKind()
	if g.wantTraits() {
		if !g.traitKinds[kind] {
			g.traitless[kind] = true
			g.shortfall(fmt.Sprintf("no %s candidate's grounding gave a trait in %d candidates: %s tasks are kept without one", kind, policyPatience, kind))
		} else {
			g.traitsRelax = true
		}
		return
	}
	if kind == KindWrite {
		return
	}
	left := g.quota[kind] - g.out.Kinds[kind]
	g.quota[kind] = g.out.Kinds[kind]
	g.quota[KindWrite] += left
	g.shortfall(fmt.Sprintf("%s tasks: no candidate kept in %d, so %d of them are write tasks instead", kind, policyPatience, left))
}

func (g *generator) shortfall(s string) { g.out.Shortfalls = append(g.out.Shortfalls, s) }

// byKeptCount returns the catalog's intents of kinds, those kept least
// often first (catalog order among equals): those following opener, or
// every one of kinds when none does.
func (g *generator) byKeptCount(opener string, kinds []sim.IntentKind) []*sim.Intent {
	var follow, any []*sim.Intent
	for i := range g.cat.Intents {
		in := &g.cat.Intents[i]
		if !slices.Contains(kinds, in.Kind) {
			continue
		}
		any = append(any, in)
		if slices.Contains(g.cat.Follows[opener], in.Path[0]) {
			follow = append(follow, in)
		}
	}
	if len(follow) == 0 {
		follow = any
	}
	slices.SortStableFunc(follow, func(a, b *sim.Intent) int { return cmp.Compare(g.keptIntents[a.Name], g.keptIntents[b.Name]) })
	return follow
}

// coverageUsers is how many users coverageUser tries.
const coverageUsers = 25

// coverageUser returns the user of a refusal, transfer or mixed position
// (kind) under MeasurePolicy: while a forbidden or transfer intent the
// position may end with is in fewer than MinIntentTasks kept tasks, the
// first of user and up to coverageUsers-1 users drawn with r for whom
// one of those intents grounds on the initial database; user otherwise.
// Users are drawn at random, so the rare traps (held by few users) would
// otherwise stay below their two tasks.
func (g *generator) coverageUser(r *rand.Rand, kind, user string) string {
	var kinds []sim.IntentKind
	switch kind {
	case KindRefusal:
		kinds = []sim.IntentKind{sim.IntentForbidden}
	case KindTransfer:
		kinds = []sim.IntentKind{sim.IntentTransfer}
	case KindMixed:
		kinds = []sim.IntentKind{sim.IntentForbidden, sim.IntentTransfer}
	default:
		return user
	}
	var short []*sim.Intent
	for i := range g.cat.Intents {
		if in := &g.cat.Intents[i]; slices.Contains(kinds, in.Kind) && g.keptIntents[in.Name] < MinIntentTasks {
			short = append(short, in)
		}
	}
	if len(short) == 0 {
		return user
	}
	if g.probe == nil {
		g.probe = g.dom.NewEnvironment()
	}
	for try := 0; try < coverageUsers; try++ {
		u := user
		if try > 0 {
			u = g.users[r.IntN(len(g.users))]
		}
		for _, in := range short {
			if _, ok := in.Ground(sim.GroundContext{Env: g.probe, UserID: u, Rand: r, Used: func(id string) bool { return g.used[id] }, UsedInTask: func(string) bool { return false }}); ok {
				return u
			}
		}
	}
	return user
}

// balancePolicy ends a MeasurePolicy generation: it reports the forbidden
// and transfer intents kept fewer than MinIntentTasks times and a trait
// share below MinTraitShare, then reassigns emotion families within each
// kind (balanceFamilies).
func (g *generator) balancePolicy(ctx context.Context) error {
	for _, in := range g.cat.Intents {
		if (in.Kind == sim.IntentForbidden || in.Kind == sim.IntentTransfer) && g.keptIntents[in.Name] < MinIntentTasks {
			g.shortfall(fmt.Sprintf("%s intent %s is in %d tasks, not %d: it grounded for no more candidates", in.Kind, in.Name, g.keptIntents[in.Name], MinIntentTasks))
		}
	}
	if want := int(math.Ceil(float64(g.opts.N)*MinTraitShare - 1e-9)); g.traited < want {
		g.shortfall(fmt.Sprintf("%d tasks carry a trait, not %d (%.0f%%)", g.traited, want, 100*MinTraitShare))
	}
	return g.balanceFamilies(ctx)
}

// familyKindOrder is the order in which balanceFamilies takes kinds, each
// taking its draws of the family generator in turn: the alphabetical
// order of the words the kinds had when tasks were first generated
// (refusal was "forbidden"), kept so that a seed gives the tasks it gave.
var familyKindOrder = []string{KindRefusal, KindMixed, KindRead, KindTransfer, KindWrite}

// balanceFamilies gives each kind's tasks (in position order) the five
// emotion families in equal numbers (n/5 each, the remainder to families
// drawn with the seed). Tasks whose intents restrict their families
// (Intent.Families) are served first, each keeping its family when the
// family has room, else taking the allowed family with the most room; a
// task whose allowed families are full takes the family with the most
// room and is reported. A task whose family changed gets a new profile
// (the family's least used leaf and dimension values, as the sampler
// picks them) and its EmotionInstruction re-rendered, and the oracle
// episodes are run again on it (a failure is reported, never hidden).
func (g *generator) balanceFamilies(ctx context.Context) error {
	fams := familyNames()
	r := rand.New(rand.NewPCG(g.opts.Seed, 0x66616d696c79)) // "family"
	byKind := map[string][]int{}
	for i, k := range g.keptKinds {
		byKind[k] = append(byKind[k], i)
	}
	assigned := make([]string, len(g.out.Tasks))
	for _, kind := range familyKindOrder {
		idx, ok := byKind[kind]
		if !ok {
			continue
		}
		n := len(idx)
		if n%5 != 0 && n < 20 && (float64(n/5)/float64(n) < FamilyShare-FamilyTolerance || float64((n+4)/5)/float64(n) > FamilyShare+FamilyTolerance) {
			g.shortfall(fmt.Sprintf("%s tasks: %d cannot give five families %.0f%% ± %.0f each", kind, n, 100*FamilyShare, 100*FamilyTolerance))
		}
		room := map[string]int{}
		for _, f := range fams {
			room[f] = n / 5
		}
		for _, p := range r.Perm(len(fams))[:n%5] {
			room[fams[p]]++
		}
		allowed := func(i int) []string {
			if l := g.keptFamilies[i]; len(l) > 0 {
				return l
			}
			return fams
		}
		order := slices.Clone(idx)
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(allowed(a)), len(allowed(b))) })
		mostRoom := func(among []string) string {
			best := ""
			for _, f := range fams {
				if slices.Contains(among, f) && room[f] > 0 && (best == "" || room[f] > room[best]) {
					best = f
				}
			}
			return best
		}
		var conflicts []string
		for _, i := range order {
			cur := g.out.Tasks[i].Emotion.Family
			pick := mostRoom(allowed(i))
			if slices.Contains(allowed(i), cur) && room[cur] > 0 {
				pick = cur
			}
			if pick != "" {
				assigned[i] = pick
				room[pick]--
			}
		}
		for _, i := range idx {
			if assigned[i] == "" {
				assigned[i] = mostRoom(fams)
				room[assigned[i]]--
				conflicts = append(conflicts, fmt.Sprintf("%s %s (intents allow %s)", g.out.Tasks[i].ID, assigned[i], strings.Join(allowed(i), ", ")))
			}
		}
		if len(conflicts) > 0 {
			g.shortfall(fmt.Sprintf("%s tasks: %d get a family their intents do not list, for the balance: %s", kind, len(conflicts), strings.Join(conflicts, "; ")))
		}
	}
	sampler := newEmotionSampler(nil)
	for i, t := range g.out.Tasks {
		if assigned[i] == t.Emotion.Family {
			sampler.add(t.Emotion)
		}
	}
	for i := range g.out.Tasks {
		t := &g.out.Tasks[i]
		if assigned[i] == t.Emotion.Family {
			continue
		}
		p, _ := sampler.sample(rand.New(rand.NewPCG(g.opts.Seed, uint64(i))), []string{assigned[i]})
		sampler.add(p)
		t.Emotion = p
		t.EmotionInstruction = sim.RenderEmotion(p, sim.EpisodeSeed(g.opts.Seed, t.ID, 1))
		reason, example, err := g.validEpisodes(ctx, t, false, false)
		if err != nil {
			return err
		}
		if reason != "" {
			g.shortfall(fmt.Sprintf("%s with family %s: %s: %s", t.ID, p.Family, reason, example))
		}
	}
	return nil
}
