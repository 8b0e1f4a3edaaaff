package tracer

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Generator identity recorded in every task (TaskSpec.Generator) and task
// set. GeneratorVersion changes whenever the same seed would give other
// tasks.
const (
	GeneratorName    = "tracer"
	GeneratorVersion = "3"
)

// Defaults of GenerateOptions. The weights favour the longer walks (the
// multi-write intents) and more intents a task, so that default tasks hold
// on average at least 1.5 writes, 30% of them two or more (issue 11's
// shape); they apply when the values are the defaults too.
var (
	DefaultWalkSteps      = []int{2, 3, 4}
	DefaultWalkStepsDist  = []float64{1, 2, 4}
	DefaultIntents        = []int{1, 2, 3}
	DefaultIntentsDist    = []float64{1, 2, 4}
	DefaultForbiddenShare = 0.10
	DefaultTransferShare  = 0.05
	DefaultReadShare      = 0.15
)

// GenerateOptions configures Generate.
type GenerateOptions struct {
	// N is the number of tasks wanted, ≥ 1.
	N int
	// Seed seeds every random choice; the same seed gives the same tasks.
	Seed uint64
	// Split is the tasks' split; "" is test.
	Split emobench.Split
	// WalkSteps are the walk lengths an intent is drawn with (opener plus
	// Path, see walk.go), nil: DefaultWalkSteps; WalkStepsDist are their
	// weights, one per length (nil: DefaultWalkStepsDist when WalkSteps
	// are the default lengths, else uniform).
	WalkSteps     []int
	WalkStepsDist []float64
	// Intents are the intent counts a task combines, nil: DefaultIntents;
	// IntentsDist are their weights (nil: DefaultIntentsDist when Intents
	// are the default counts, else uniform).
	Intents     []int
	IntentsDist []float64
	// ForbiddenShare and TransferShare are the least shares of kept tasks
	// asking for a forbidden write and for a transfer, met by position
	// (task j is forbidden when fewer than ceil((j+1)·share) earlier ones
	// are). 0 means the defaults (0.10, 0.05); a negative value asks for
	// none.
	ForbiddenShare float64
	TransferShare  float64
	// ReadShare is the share of kept tasks that only ask for information
	// (read intents alone), met by position as the others; every other
	// task holds at least one write. 0 means DefaultReadShare (0.15); a
	// negative value asks for none.
	ReadShare float64
	// SpreadIntents makes the last intent of a refusal or a transfer
	// position try, on the position's user, the catalog's intents of that
	// kind kept least often so far (in catalog order) before any walk.
	// The walks alone favour the intents that ground for many users, so a
	// split's few refusals can miss rules whose traps few users hold; with
	// it, 12 refusals cover a catalog's 9 forbidden intents when each
	// grounds for some users. False keeps the walks alone.
	SpreadIntents bool
	// MeasurePolicy makes a split that measures the policy (issue 21's
	// test splits; policyshares.go): task kinds (TaskKind) get counts
	// that are multiples of 5 (at least 5 for a positive share), with
	// ForbiddenShare, TransferShare and ReadShare rounded to them and
	// MinMixedShare (20%) of mixed tasks, raised until the refusal,
	// transfer and mixed tasks can hold every forbidden and transfer
	// intent twice; refusal, transfer and mixed positions try the
	// forbidden and transfer intents kept least often first (as
	// SpreadIntents); while fewer than MinTraitShare (30%) of kept tasks
	// carry a trait, grounders are asked for one (GroundContext.WantTraits)
	// and a candidate without one is rejected (RejectNoTrait); and once
	// every task is kept, each kind's emotion families are reassigned by
	// stratified sampling to 20% each (± 5 points where the kind's count
	// allows no less), keeping Intent.Families where the balance allows
	// it. What could not be met is in Generated.Shortfalls. False keeps
	// the position shares alone (the train splits).
	MeasurePolicy bool
	// EmotionWeights weighs emotion families (ParseEmotionWeights); nil
	// balances them.
	EmotionWeights map[string]float64
	// Paraphraser rewrites instructions; nil keeps the templates' text.
	Paraphraser Paraphraser
	// Exclude are tasks whose action sets a candidate must not repeat (the
	// domain's test tasks when generating train); refusals are listed in
	// Generated.Leaks.
	Exclude []emobench.TaskSpec
	// MaxCandidates bounds the candidates tried; 0 means 50·N + 200.
	// Generate also stops, with ErrShort, when the catalog looks
	// exhausted: no task kept in the last max(1000, 10·N) candidates.
	MaxCandidates int
	// Progress, when not nil, is called after each candidate with the
	// tasks kept and the candidates tried so far (the caller decides how
	// often to show it).
	Progress func(kept, candidates int) `json:"-"`
}

// Generated is what Generate made: the kept tasks, in order, and what it
// refused.
type Generated struct {
	Tasks []emobench.TaskSpec
	// Rejected counts refused candidates by reason (the Reject* constants).
	Rejected map[string]int
	// Leaks are the train candidates refused for repeating an excluded
	// task's action set.
	Leaks []Leak
	// Kinds counts kept tasks by kind (sim.KindOf of their intents):
	// refusal (a forbidden intent), transfer (ends with a transfer),
	// write (a write intent) or read; with MeasurePolicy also mixed
	// (KindMixed: a write intent and a forbidden or transfer intent).
	Kinds map[string]int
	// Candidates is the number of candidates tried; WalkFallbacks the
	// walks that took the nearest length because no intent had the one
	// drawn.
	Candidates    int
	WalkFallbacks int
	// Writes is the number of gold writes of each kept task, in order.
	Writes []int
	// Examples holds, by rejection reason, what happened to the first
	// candidate rejected for it: for catalog authors.
	Examples map[string]string
	// Shortfalls says what MeasurePolicy could not meet, one sentence
	// each: a kind's count moved to writes, an intent kept fewer than
	// twice, the trait share, an emotion family given against an intent's
	// Families. nil without MeasurePolicy or when all was met.
	Shortfalls []string
}

// ErrShort is wrapped by Generate's error when it kept fewer than N tasks
// after MaxCandidates candidates; the Generated it returns holds those it
// kept.
var ErrShort = errors.New("too few valid candidates")

// Task kinds of Generated.Kinds: sim's words (sim.KindOf).
const (
	KindWrite    = sim.KindWrite
	KindRead     = sim.KindRead
	KindRefusal  = sim.KindRefusal
	KindTransfer = sim.KindTransfer
	// KindMixed: an allowed write and a refusal or a transfer in one task
	// (MeasurePolicy only).
	KindMixed = sim.KindMixed
)

// Generate builds opts.N tasks from dom's intent catalog. Each candidate
// draws its intent count, its user (Catalog.Users) and the authentication
// (Catalog.Authenticate); then for each intent a walk over the tool graph
// picks the intent (walk.go), whose grounder is given a working copy of
// the database with the earlier intents' gold calls already run and the
// entities those intents used (GroundContext.UsedInTask). The gold
// calls run on that copy (a tool error rejects the candidate), every gold
// write is checked with Catalog.CheckPolicy before it runs and every
// forbidden write must fail it. A kept task passes every check of
// validate.go: facts reachable, no duplicate (same user and action set),
// no leak of an excluded task, a paraphrase that keeps its facts, an
// unchanged gold database and a careless failure for a forbidden-intent
// task, and the oracle with the scripted user passing it with and without
// emotions (episode seed sim.EpisodeSeed(Seed, id, 0)).
//
// Positions are quota-driven: task j asks for a forbidden write (read
// intents, then one forbidden intent), for a transfer (read intents, then
// a transfer) or for information only (read
// intents) when the kept tasks are short of ForbiddenShare, TransferShare
// or ReadShare, in that order; every other task combines write and read
// intents with at least one write (its last intent is a write when none
// came before). Where a write or a read may come, the first half of an
// intent's walks allow only writes, so that reads join a task when its
// user has no further write to make. Its instruction
// joins the intents' rendered templates; its facts, requests, outputs,
// forbidden writes and advice (TaskSpec.Advice) are the groundings' in
// order, its traits (TaskSpec.Traits) theirs merged, sorted and unique, its actions the opener
// and the groundings' calls, its emotion profile balanced over the
// families the intents fit (emotion_sample.go), its EmotionInstruction
// that profile's text (sim.RenderEmotion, variant
// sim.EpisodeSeed(Seed, id, 1)). IDs are
// <domain>-<split>-NNN.
//
// With MeasurePolicy the positions follow per-kind counts instead, mixed
// tasks join them, and the families are balanced per kind at the end
// (see GenerateOptions.MeasurePolicy and policyshares.go).
//
// Errors: bad options, a catalog that fails Validate or lacks an intent
// kind a share needs, a template with a missing slot, a Paraphraser or ctx
// error, and ErrShort (with the tasks kept so far).
func Generate(ctx context.Context, dom sim.CatalogDomain, opts GenerateOptions) (*Generated, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	cat := dom.Catalog()
	if cat == nil {
		return nil, fmt.Errorf("domain %s has no intent catalog", dom.Name())
	}
	base := dom.NewEnvironment()
	if err := cat.Validate(base.Tools()); err != nil {
		return nil, fmt.Errorf("domain %s: %w", dom.Name(), err)
	}
	for _, need := range []struct {
		share float64
		kind  sim.IntentKind
	}{{o.ForbiddenShare, sim.IntentForbidden}, {o.TransferShare, sim.IntentTransfer}, {o.ReadShare, sim.IntentRead}, {writeShare(o), sim.IntentWrite}} {
		if need.share > 0 && !slices.ContainsFunc(cat.Intents, func(in sim.Intent) bool { return in.Kind == need.kind }) {
			return nil, fmt.Errorf("domain %s: the catalog has no %s intent, so a %s share of %.2f cannot be met", dom.Name(), need.kind, need.kind, need.share)
		}
	}
	users := cat.Users(base)
	if len(users) == 0 {
		return nil, fmt.Errorf("domain %s: the catalog lists no users", dom.Name())
	}
	g := &generator{
		dom: dom, cat: cat, opts: o, users: users,
		walker:      &walker{cat: cat, steps: o.WalkSteps, stepsDist: o.WalkStepsDist},
		writes:      map[string]bool{},
		initialHash: base.Hash(),
		used:        map[string]bool{},
		keptIntents: map[string]int{},
		seen:        map[string]bool{},
		leaks:       newLeakIndex(o.Exclude),
		emotions:    newEmotionSampler(o.EmotionWeights),
		out:         &Generated{Rejected: map[string]int{}, Kinds: map[string]int{}, Examples: map[string]string{}},
	}
	for _, t := range base.Tools() {
		g.writes[t.Name] = t.Writes
	}
	g.enums = enumArgs(base.Tools())
	if o.MeasurePolicy {
		g.quota = policyQuotas(cat, o)
		g.traitKinds, g.traitless = map[string]bool{}, map[string]bool{}
	}
	limit := o.MaxCandidates
	if limit <= 0 {
		limit = 50*o.N + 200
	}
	drought, lastKept := max(1000, 10*o.N), 0
	for cand := 0; len(g.out.Tasks) < o.N; cand++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if cand >= limit {
			return g.out, fmt.Errorf("domain %s: kept %d of %d tasks after %d candidates (rejected %s): %w",
				dom.Name(), len(g.out.Tasks), o.N, cand, formatCounts(g.out.Rejected), ErrShort)
		}
		if cand-lastKept >= drought {
			return g.out, fmt.Errorf("domain %s: kept %d of %d tasks after %d candidates, none in the last %d: the catalog looks exhausted (rejected %s): %w",
				dom.Name(), len(g.out.Tasks), o.N, cand, drought, formatCounts(g.out.Rejected), ErrShort)
		}
		g.out.Candidates++
		r := rand.New(rand.NewPCG(o.Seed, uint64(cand)))
		kept := len(g.out.Tasks)
		if o.MeasurePolicy {
			g.relax(cand - lastKept)
		}
		if err := g.candidate(ctx, r); err != nil {
			return nil, err
		}
		if len(g.out.Tasks) > kept {
			lastKept = cand + 1
		}
		if o.Progress != nil {
			o.Progress(len(g.out.Tasks), g.out.Candidates)
		}
	}
	if o.MeasurePolicy {
		if err := g.balancePolicy(ctx); err != nil {
			return nil, err
		}
	}
	return g.out, nil
}

// formatCounts writes counts as "duplicate 12, oracle_failed 3": the
// largest first, ties by name.
func formatCounts(counts map[string]int) string {
	keys := slices.Collect(maps.Keys(counts))
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// writeShare is the share of positions left for write tasks.
func writeShare(o GenerateOptions) float64 {
	return 1 - max(o.ForbiddenShare, 0) - max(o.TransferShare, 0) - max(o.ReadShare, 0)
}

// resolve fills the defaults and checks the options.
func (o GenerateOptions) resolve() (GenerateOptions, error) {
	if o.N < 1 {
		return o, fmt.Errorf("generate: n %d: need at least 1 task", o.N)
	}
	if o.Split == "" {
		o.Split = emobench.SplitTest
	}
	if o.Split != emobench.SplitTest && o.Split != emobench.SplitTrain {
		return o, fmt.Errorf("generate: split %q is not test or train", o.Split)
	}
	if o.WalkSteps == nil {
		o.WalkSteps = DefaultWalkSteps
	}
	if o.Intents == nil {
		o.Intents = DefaultIntents
	}
	if o.WalkStepsDist == nil && slices.Equal(o.WalkSteps, DefaultWalkSteps) {
		o.WalkStepsDist = DefaultWalkStepsDist
	}
	if o.IntentsDist == nil && slices.Equal(o.Intents, DefaultIntents) {
		o.IntentsDist = DefaultIntentsDist
	}
	for _, d := range []struct {
		name    string
		values  []int
		weights []float64
		least   int
	}{{"walk steps", o.WalkSteps, o.WalkStepsDist, 2}, {"intents", o.Intents, o.IntentsDist, 1}} {
		if len(d.values) == 0 {
			return o, fmt.Errorf("generate: %s: need at least one value", d.name)
		}
		for _, v := range d.values {
			if v < d.least || v > 50 {
				return o, fmt.Errorf("generate: %s %d: need %d to 50", d.name, v, d.least)
			}
		}
		if d.weights == nil {
			continue
		}
		if len(d.weights) != len(d.values) {
			return o, fmt.Errorf("generate: %s: %d weights for %d values", d.name, len(d.weights), len(d.values))
		}
		total := 0.0
		for _, w := range d.weights {
			if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
				return o, fmt.Errorf("generate: %s weight %v: need a non-negative number", d.name, w)
			}
			total += w
		}
		if total <= 0 {
			return o, fmt.Errorf("generate: %s: every weight is 0", d.name)
		}
	}
	for _, s := range []*float64{&o.ForbiddenShare, &o.TransferShare, &o.ReadShare} {
		if math.IsNaN(*s) || *s > 1 {
			return o, fmt.Errorf("generate: share %v: need at most 1", *s)
		}
	}
	if o.ForbiddenShare == 0 {
		o.ForbiddenShare = DefaultForbiddenShare
	}
	if o.TransferShare == 0 {
		o.TransferShare = DefaultTransferShare
	}
	if o.ReadShare == 0 {
		o.ReadShare = DefaultReadShare
	}
	if o.MeasurePolicy && o.EmotionWeights != nil {
		return o, fmt.Errorf("generate: emotion weights with a split that measures the policy: it gives every family the same share of each task kind")
	}
	if max(o.ForbiddenShare, 0)+max(o.TransferShare, 0)+max(o.ReadShare, 0) > 1 {
		return o, fmt.Errorf("generate: forbidden share %v, transfer share %v and read share %v exceed 1", o.ForbiddenShare, o.TransferShare, o.ReadShare)
	}
	return o, nil
}

type generator struct {
	dom         sim.CatalogDomain
	cat         *sim.Catalog
	opts        GenerateOptions
	users       []string
	walker      *walker
	writes      map[string]bool
	enums       map[string]map[string]bool // enum arguments by tool
	initialHash string
	used        map[string]bool // entity ids of kept tasks
	keptIntents map[string]int  // intent name: kept tasks holding it
	seen        map[string]bool // user + action set of kept tasks
	leaks       leakIndex
	emotions    *emotionSampler
	out         *Generated
	// MeasurePolicy's state (policyshares.go): the task count of each
	// kind (nil without MeasurePolicy), the kept tasks with a trait,
	// whether any grounding gave one, whether this position accepts a
	// task without one, and the kinds and families of the kept tasks.
	quota        map[string]int
	traited      int
	traitKinds   map[string]bool // position kinds a candidate's grounding gave a trait
	traitless    map[string]bool // position kinds that gave up on traits
	traitsRelax  bool            // this position accepts a task without a trait
	keptFamilies [][]string      // the families each kept task's intents allow (nil: any)
	keptKinds    []string        // each kept task's kind
	probe        sim.Environment // the initial database, for coverageUser's grounders (which change nothing)
}

// slotKinds returns the intent kinds the slot-th of k intents of a task
// of position kind may take, preferred first; wrote says whether an
// earlier intent is a write.
func slotKinds(kind string, slot, k int, wrote bool) []sim.IntentKind {
	last := slot == k-1
	switch {
	case kind == KindRefusal && last:
		return []sim.IntentKind{sim.IntentForbidden}
	case kind == KindTransfer && last:
		return []sim.IntentKind{sim.IntentTransfer}
	case kind == KindMixed && last:
		return []sim.IntentKind{sim.IntentForbidden, sim.IntentTransfer}
	case kind == KindMixed && slot == k-2 && !wrote:
		return []sim.IntentKind{sim.IntentWrite}
	case kind == KindRefusal, kind == KindTransfer, kind == KindRead:
		// Reads only before a refusal or a transfer: a task with forbidden
		// writes (a transfer intent may list some) makes no write, and
		// holds one forbidden intent.
		return []sim.IntentKind{sim.IntentRead}
	case kind == KindWrite && last && !wrote:
		return []sim.IntentKind{sim.IntentWrite}
	}
	return []sim.IntentKind{sim.IntentWrite, sim.IntentRead}
}

// positionKind is what the next kept task must be to keep the shares.
func (g *generator) positionKind() string {
	if g.quota != nil {
		return g.quotaKind()
	}
	j := float64(len(g.out.Tasks) + 1)
	need := func(share float64) float64 { return math.Ceil(j*share - 1e-9) }
	switch {
	case g.opts.ForbiddenShare > 0 && float64(g.out.Kinds[KindRefusal]) < need(g.opts.ForbiddenShare):
		return KindRefusal
	case g.opts.TransferShare > 0 && float64(g.out.Kinds[KindTransfer]) < need(g.opts.TransferShare):
		return KindTransfer
	case g.opts.ReadShare > 0 && float64(g.out.Kinds[KindRead]) < need(g.opts.ReadShare):
		return KindRead
	}
	return KindWrite
}

// reject counts a rejected candidate and keeps the first example of each
// reason.
func (g *generator) reject(reason, example string) {
	g.out.Rejected[reason]++
	if _, ok := g.out.Examples[reason]; !ok {
		g.out.Examples[reason] = example
	}
}

// slotAttempts is how many walks one intent of a candidate may draw before
// the candidate is rejected as no_grounding: a task of three intents is
// not refused for one grounder that found nothing on the first walk.
const slotAttempts = 8

// drawIntent walks to an intent of one of kinds and grounds it for user
// on env, drawing up to slotAttempts walks; where kinds start with a
// write, the first half allow only writes. It returns the rejection
// reason and an example when none grounds.
func (g *generator) drawIntent(r *rand.Rand, env sim.Environment, user, opener string, kinds []sim.IntentKind, taskUses map[string]bool) (*sim.Intent, sim.Grounding, string, string) {
	ground := func(in *sim.Intent) (sim.Grounding, bool) {
		return in.Ground(sim.GroundContext{Env: env, UserID: user, Rand: r,
			Used:       func(id string) bool { return g.used[id] },
			UsedInTask: func(id string) bool { return taskUses[id] },
			WantTraits: g.wantTraits()})
	}
	spread := !slices.ContainsFunc(kinds, func(k sim.IntentKind) bool { return k != sim.IntentForbidden && k != sim.IntentTransfer })
	switch {
	case g.quota != nil && spread:
		for _, in := range g.byKeptCount(opener, kinds) {
			if gr, ok := ground(in); ok {
				return in, gr, "", ""
			}
		}
	case g.opts.SpreadIntents && spread && len(kinds) == 1:
		for _, in := range g.leastKept(opener, kinds[0]) {
			if gr, ok := ground(in); ok {
				return in, gr, "", ""
			}
		}
	}
	var in *sim.Intent
	for attempt := 0; attempt < slotAttempts; attempt++ {
		allowed := kinds
		if attempt < slotAttempts/2 && kinds[0] == sim.IntentWrite {
			allowed = kinds[:1] // a write while the user has one to make
		}
		var fellBack, ok bool
		in, fellBack, ok = g.walker.walk(r, opener, allowed)
		if fellBack {
			g.out.WalkFallbacks++
		}
		if !ok && len(allowed) < len(kinds) {
			continue // no write intent at all: the reads are tried next
		}
		if !ok {
			return nil, sim.Grounding{}, RejectNoGrounding, fmt.Sprintf("no intent of kinds %v is reachable", kinds)
		}
		if gr, ok := ground(in); ok {
			return in, gr, "", ""
		}
	}
	return nil, sim.Grounding{}, RejectNoGrounding, fmt.Sprintf("%s last tried: %d walks found nothing to ground", in.Name, slotAttempts)
}

// leastKept returns the catalog's intents of kind that the kept tasks
// hold least often, in catalog order: those following opener, or every
// one of kind when none does (as walk falls back).
func (g *generator) leastKept(opener string, kind sim.IntentKind) []*sim.Intent {
	byCount := g.byKeptCount(opener, []sim.IntentKind{kind}) // stable: catalog order among equals
	end := 0
	for end < len(byCount) && g.keptIntents[byCount[end].Name] == g.keptIntents[byCount[0].Name] {
		end++
	}
	return byCount[:end]
}

// runGrounding checks gr's forbidden writes against the policy, then runs
// its gold calls on env, each write checked first, appending them and
// their results. It returns the rejection reason and an example, or "".
func (g *generator) runGrounding(env sim.Environment, user string, in *sim.Intent, gr sim.Grounding, actions *[]emobench.Action, results *[]string) (string, string) {
	for _, f := range gr.Forbidden {
		if g.cat.CheckPolicy(env, user, f) == nil {
			return RejectForbiddenAllowed, fmt.Sprintf("intent %s: forbidden %s %s passes the policy", in.Name, f.Name, canonicalJSON(f.Arguments))
		}
	}
	for i, a := range gr.Actions {
		if g.writes[a.Name] {
			if err := g.cat.CheckPolicy(env, user, a); err != nil {
				return RejectGoldWritePolicy, fmt.Sprintf("intent %s: %s %s: %v", in.Name, a.Name, canonicalJSON(a.Arguments), err)
			}
		}
		res, err := env.Call(a.Name, a.Arguments)
		if err != nil {
			return RejectGoldToolError, fmt.Sprintf("intent %s: gold call %d (%s %s): %v", in.Name, i, a.Name, canonicalJSON(a.Arguments), err)
		}
		*actions, *results = append(*actions, a), append(*results, res)
	}
	return "", ""
}

// candidate builds one candidate with r and keeps it if it passes every
// check; it returns only errors that stop the generation.
func (g *generator) candidate(ctx context.Context, r *rand.Rand) error {
	pos := len(g.out.Tasks)
	kind := g.positionKind()
	k := pickWeighted(r, g.opts.Intents, g.opts.IntentsDist)
	if kind == KindMixed {
		k = max(k, 2) // a write, then the refusal or transfer
	}
	user := g.users[r.IntN(len(g.users))]
	if g.quota != nil {
		user = g.coverageUser(r, kind, user)
	}
	env := g.dom.NewEnvironment()
	opener, authFacts := g.cat.Authenticate(env, user, r)
	res, err := env.Call(opener.Name, opener.Arguments)
	if err != nil {
		g.reject(RejectGoldToolError, fmt.Sprintf("user %s: opener %s: %v", user, opener.Name, err))
		return nil
	}
	actions, results := []emobench.Action{opener}, []string{res}
	facts := maps.Clone(authFacts)
	if facts == nil {
		facts = map[string]string{}
	}
	var (
		requests            []emobench.Request
		outputs             = []string{}
		forbidden           []emobench.Action
		intents, sentences  []string
		slotFirst           []bool // a sentence's template starts with a slot
		families            [][]string
		uses                []string
		taskUses            = map[string]bool{}
		hasForbidden, wrote bool
		traits              []string
		advice              []emobench.Advice
	)
	for slot := 0; slot < k; slot++ {
		in, gr, reason, example := g.drawIntent(r, env, user, opener.Name, slotKinds(kind, slot, k, wrote), taskUses)
		if reason == "" {
			reason, example = g.runGrounding(env, user, in, gr, &actions, &results)
		}
		if reason != "" {
			g.reject(reason, fmt.Sprintf("user %s, intent %d of %d: %s", user, slot+1, k, example))
			return nil
		}
		if !mergeFacts(facts, gr.Facts) {
			g.reject(RejectFactConflict, fmt.Sprintf("intent %s: more than %d values for one fact key", in.Name, len(ordinals)+1))
			return nil
		}
		tmpl := in.Templates[r.IntN(len(in.Templates))]
		text, err := sim.RenderTemplate(tmpl, gr.Slots)
		if err != nil {
			return fmt.Errorf("domain %s: intent %s: %w", g.dom.Name(), in.Name, err)
		}
		for _, a := range gr.Advice {
			// Offline, PROCEDURE finds advice by its phrases alone: one
			// without any would reject every candidate as oracle_failed.
			if len(a.AnyOf) == 0 {
				return fmt.Errorf("domain %s: intent %s: advice %q has no any_of phrase, so its PROCEDURE check never passes offline", g.dom.Name(), in.Name, a.NLAssertion)
			}
		}
		sentences = append(sentences, text)
		slotFirst = append(slotFirst, strings.HasPrefix(strings.TrimSpace(tmpl), "{"))
		requests = append(requests, gr.Request)
		outputs = append(outputs, gr.Outputs...)
		forbidden = append(forbidden, gr.Forbidden...)
		intents = append(intents, in.Name)
		families = append(families, in.Families)
		uses = append(uses, gr.Uses...)
		traits = append(traits, gr.Traits...)
		advice = append(advice, gr.Advice...)
		for _, u := range gr.Uses {
			taskUses[u] = true
		}
		hasForbidden = hasForbidden || in.Kind == sim.IntentForbidden
		wrote = wrote || in.Kind == sim.IntentWrite
	}
	slices.Sort(traits)
	traits = slices.Compact(traits)
	if len(traits) > 0 && g.quota != nil {
		g.traitKinds[kind] = true
	}
	if len(traits) == 0 && g.wantTraits() && !g.traitsRelax {
		g.reject(RejectNoTrait, fmt.Sprintf("user %s, intents %v: no grounding gave a trait", user, intents))
		return nil
	}
	if err := factsReachable(actions, results, g.writes, facts, g.cat.ExemptArgs, g.enums); err != nil {
		g.reject(RejectFactsUnreachable, fmt.Sprintf("intents %v: %v", intents, err))
		return nil
	}
	dedupeKey := user + "\x00" + ActionSetKey(actions)
	if g.seen[dedupeKey] {
		g.reject(RejectDuplicate, fmt.Sprintf("user %s, intents %v", user, intents))
		return nil
	}
	if test, ok := g.leaks[ActionSetKey(actions)]; ok {
		g.reject(RejectLeakage, fmt.Sprintf("user %s, intents %v: the action set of %s", user, intents, test))
		g.out.Leaks = append(g.out.Leaks, Leak{TestTaskID: test, UserID: user, Intents: intents})
		return nil
	}
	fits := fittingFamilies(families)
	if g.quota != nil && fits != nil && len(fits) == 0 {
		fits = nil // balancePolicy reassigns the family, reporting the conflict
	}
	profile, ok := g.emotions.sample(r, fits)
	if !ok {
		g.reject(RejectNoEmotionFits, fmt.Sprintf("intents %v fit families %v", intents, fittingFamilies(families)))
		return nil
	}
	id := fmt.Sprintf("%s-%s-%03d", g.dom.Name(), g.opts.Split, pos)
	instruction := joinSentences(r, sentences, slotFirst)
	if g.opts.Paraphraser != nil {
		var keep []string
		for _, v := range facts {
			if v != "" && strings.Contains(instruction, v) && !slices.Contains(keep, v) {
				keep = append(keep, v)
			}
		}
		slices.Sort(keep)
		rewritten, err := g.opts.Paraphraser.Paraphrase(ctx, instruction, keep, sim.EpisodeSeed(g.opts.Seed, id, 0))
		if err != nil {
			return fmt.Errorf("task %s: %w", id, err)
		}
		if _, lost := lostFact(rewritten, keep); lost {
			f, _ := lostFact(rewritten, keep)
			g.reject(RejectParaphraseLostFact, fmt.Sprintf("%s: %q lost from %q", id, f, rewritten))
			return nil
		}
		instruction = rewritten
	}
	task := emobench.TaskSpec{
		ID: id, Domain: g.dom.Name(), Split: g.opts.Split, UserID: user,
		Instruction: instruction,
		Scenario:    emobench.Scenario{Facts: facts, Requests: requests},
		Emotion:     profile, Actions: actions, Outputs: outputs, Forbidden: forbidden,
		Intents:   intents,
		Traits:    traits,
		Advice:    advice,
		Generator: &emobench.GeneratorInfo{Name: GeneratorName, Version: GeneratorVersion, Seed: g.opts.Seed},
		// Its own variant (trial 1), so the text takes no draw of r.
		EmotionInstruction: sim.RenderEmotion(profile, sim.EpisodeSeed(g.opts.Seed, id, 1)),
	}
	if err := errors.Join(task.Validate(), sim.CheckRewardBasis(&task), sim.CheckOutputs(&task)); err != nil {
		return fmt.Errorf("domain %s: candidate %s: %w", g.dom.Name(), id, err)
	}
	writes := 0
	for _, a := range actions {
		if g.writes[a.Name] {
			writes++
		}
	}
	// The kind its intents give (sim.IntentAsks of task.Intents), as
	// SplitShares counts it.
	taskKind := sim.KindOf(sim.IntentAsks(g.cat, &task), g.quota != nil)
	if reason, example, err := g.validEpisodes(ctx, &task, taskKind == KindRefusal, hasForbidden); err != nil || reason != "" {
		if reason != "" {
			g.reject(reason, fmt.Sprintf("user %s, intents %v: %s", user, intents, example))
		}
		return err
	}
	g.seen[dedupeKey] = true
	for _, u := range uses {
		g.used[u] = true
	}
	for _, name := range intents {
		g.keptIntents[name]++
	}
	g.emotions.add(profile)
	g.out.Kinds[taskKind]++
	if len(traits) > 0 {
		g.traited++
	}
	g.traitsRelax = false
	g.keptFamilies = append(g.keptFamilies, fittingFamilies(families))
	g.keptKinds = append(g.keptKinds, taskKind)
	g.out.Writes = append(g.out.Writes, writes)
	g.out.Tasks = append(g.out.Tasks, task)
	return nil
}

// validEpisodes runs the episode checks: a refusal task's (unchanged)
// gold database equals the initial one; careless with the scripted user
// fails a task with a forbidden intent (refused, a refusal or a mixed
// task); the oracle with the scripted user passes with and without
// emotions. It returns the rejection reason and what happened, or "".
func (g *generator) validEpisodes(ctx context.Context, task *emobench.TaskSpec, unchanged, refused bool) (reason, example string, err error) {
	seed := sim.EpisodeSeed(g.opts.Seed, task.ID, 0)
	if unchanged {
		h, err := sim.GoldHash(g.dom, task)
		if err != nil {
			return RejectGoldToolError, err.Error(), nil
		}
		if h != g.initialHash {
			return RejectForbiddenChangesDB, "the gold actions change the database", nil
		}
	}
	episode := func(agent sim.Agent, withEmotions bool) (*emobench.Trajectory, error) {
		return sim.RunEpisode(ctx, sim.EpisodeConfig{Domain: g.dom, Task: task, Agent: agent, User: sim.ScriptedUser{}, WithEmotions: withEmotions, Seed: seed})
	}
	for _, withEmotions := range []bool{true, false} {
		traj, err := episode(sim.Oracle{}, withEmotions)
		if err != nil {
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			return RejectGoldToolError, err.Error(), nil
		}
		if !traj.Passed() {
			return RejectOracleFailed, fmt.Sprintf("the oracle (emotions %v) ended with %s: %s", withEmotions, traj.TerminationReason, failedChecks(traj)), nil
		}
	}
	if refused {
		traj, err := episode(sim.Careless{}, true)
		if err != nil {
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			return RejectGoldToolError, err.Error(), nil
		}
		if traj.Passed() {
			return RejectCarelessPassed, "careless made no forbidden write and passed", nil
		}
	}
	return "", "", nil
}

// failedChecks names the checks of a trajectory's reward breakdown that
// failed.
func failedChecks(traj *emobench.Trajectory) string {
	var info struct {
		Breakdown map[string]float64 `json:"reward_breakdown"`
	}
	_ = json.Unmarshal(traj.RewardInfo, &info)
	var failed []string
	for _, k := range slices.Sorted(maps.Keys(info.Breakdown)) {
		if info.Breakdown[k] == 0 {
			failed = append(failed, k)
		}
	}
	if len(failed) == 0 {
		return "no check failed"
	}
	return "failed " + strings.Join(failed, ", ")
}

// ordinals name a later intent's fact whose key an earlier intent took
// with another value: a second order is "second_order_id", which the
// scripted user matches before "order id".
var ordinals = []string{"second", "third", "fourth", "fifth", "sixth"}

// mergeFacts adds more to facts. A key already there with another value
// is added as "second_<key>" (then third, ...); false when the ordinals
// run out.
func mergeFacts(facts, more map[string]string) bool {
	for _, key := range slices.Sorted(maps.Keys(more)) {
		v := more[key]
		name := key
		for i := 0; ; i++ {
			old, taken := facts[name]
			if !taken || old == v {
				break
			}
			if i == len(ordinals) {
				return false
			}
			name = ordinals[i] + "_" + key
		}
		facts[name] = v
	}
	return true
}

// connectors join the sentences of a multi-intent instruction.
var connectors = []string{"After that, ", "Once that is done, ", "Also, ", "While you are at it, ", "And then "}

// startsWithFullName says whether s opens with two capitalised words
// ("Hana Xu, born …", "Dr. Kim"): a person's name a slot filled in, which
// keeps its capital after a connector; "Dropped calls" and "A storm" do
// not.
func startsWithFullName(s string) bool {
	words := strings.Fields(s)
	if len(words) < 2 {
		return false
	}
	for _, w := range words[:2] {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) || w == "A" || w == "I" {
			return false
		}
	}
	return true
}

// joinSentences joins an instruction's rendered templates: the first as
// it is, each later one after a connector drawn by r (none twice while one is
// left), its first letter
// lowercased unless it starts with "I", a name-like capital, or a slot's
// value that is a full name (slotFirst[i] and startsWithFullName:
// "{first_name} {last_name} will fly" keeps "Hana Xu").
func joinSentences(r *rand.Rand, sentences []string, slotFirst []bool) string {
	var b strings.Builder
	used := map[int]bool{}
	for i, s := range sentences {
		s = strings.TrimSpace(s)
		if i == 0 {
			b.WriteString(s)
			continue
		}
		// One draw per connector whatever it lands on, so the draws of
		// later candidates do not depend on the text; a connector used
		// already gives way to the next one not yet used.
		k := r.IntN(len(connectors))
		for n := 0; used[k] && n < len(connectors); n++ {
			k = (k + 1) % len(connectors)
		}
		used[k] = true
		c := connectors[k]
		if i >= len(slotFirst) || !slotFirst[i] || !startsWithFullName(s) {
			s = lowerFirst(s)
		}
		b.WriteString(" " + c + s)
	}
	return b.String()
}

func lowerFirst(s string) string {
	first, size := utf8.DecodeRuneInString(s)
	if first == utf8.RuneError || s == "I" || strings.HasPrefix(s, "I ") || strings.HasPrefix(s, "I'") {
		return s
	}
	for _, title := range []string{"Dr. ", "Mr. ", "Mrs. ", "Ms. "} {
		if strings.HasPrefix(s, title) {
			return s // a title before a name
		}
	}
	second, _ := utf8.DecodeRuneInString(s[size:])
	if unicode.IsUpper(second) { // an acronym or id
		return s
	}
	return string(unicode.ToLower(first)) + s[size:]
}
