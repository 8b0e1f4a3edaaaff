package analysis

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// DomainDelta is the change in pass^1 on one domain from a base run to the
// run tuned from it.
type DomainDelta struct {
	Domain   string
	InDomain bool // the domain is one of the tuned run's train domains
	// TunedPass1 and BasePass1 are each run's pass^1 = mean_t c_t/n_t over
	// the tasks Delta is over: the PairedTasks shared tasks when the runs
	// share any (so Delta = TunedPass1 − BasePass1), otherwise all of the
	// run's usable tasks on the domain; NaN when it has none.
	TunedPass1, BasePass1 float64
	TunedTasks, BaseTasks int // usable tasks (n_t ≥ 1, c_t ≤ n_t)
	// TunedLeftOut and BaseLeftOut are, when Paired, the usable tasks of
	// each run the other lacks: left out of both pass^1 and Delta (0 when
	// unpaired: every task counts).
	TunedLeftOut, BaseLeftOut int
	// TunedNotEvaluated and BaseNotEvaluated are set when no trial of that
	// side was evaluated (NotEvaluated): the side then has no usable task,
	// so its pass^1 and Delta are NaN, never 0.
	TunedNotEvaluated, BaseNotEvaluated bool
	// Paired is set when the runs share tasks (by TaskID); Delta is then the
	// mean over the PairedTasks shared tasks of c_t/n_t(tuned) − c_t/n_t(base).
	Paired      bool
	PairedTasks int
	// Delta is tuned − base pass^1: paired as above, otherwise
	// TunedPass1 − BasePass1. NaN when either run has no usable task.
	Delta float64
	// CI is Delta's stratified bootstrap percentile interval; Lo and Hi
	// NaN when Delta is NaN or the runs share no task (Paired false): an
	// unpaired Δ compares different tasks, so the task difference is
	// mixed up with tuning and no interval can speak for the tuning alone.
	CI CI
}

// DeltaSummary is the mean Δpass^1 over a set of domains.
type DeltaSummary struct {
	Domains int     // domains with a finite Delta
	Mean    float64 // unweighted mean of their Deltas; NaN when Domains = 0
	// Unpaired counts those domains whose runs share no task (their
	// Delta has no interval).
	Unpaired int
	// CI is Mean's stratified bootstrap percentile interval; Lo and Hi NaN
	// when Domains = 0 or Unpaired > 0.
	CI CI
}

// GeneralizationResult compares a tuned run with its base run.
type GeneralizationResult struct {
	Domains     []DomainDelta // sorted by domain
	InDomain    DeltaSummary  // over the train domains
	OutOfDomain DeltaSummary  // over the other domains
	Resamples   int           // bootstrap resamples drawn
	Seed        uint64        // the resampler's seed
}

// Generalization measures how tuning on trainDomains transfers: for every
// domain in tuned or base (each maps a domain to one run's tasks there), it
// reports Δpass^1 = pass^1(tuned) − pass^1(base), with
// pass^1 = mean_t c_t/n_t (Yao et al. 2024, τ-bench), paired by TaskID when
// the runs share tasks and unpaired otherwise (each pass^1 it reports is
// over the same tasks as Δ: the shared ones when paired), and marks it in-domain when
// the domain is in trainDomains. It then averages the finite Deltas of the
// in-domain and of the out-of-domain domains, each domain weighing equally.
//
// Intervals are percentile bootstrap intervals (Efron & Tibshirani 1993,
// ch. 13) from opts.Resamples replicates at opts.Level, stratified by
// domain: each replicate resamples, with replacement, every domain's
// shared tasks, and recomputes every Delta and both means. An unpaired
// domain (no shared task) gets no interval, nor does a mean over it: its
// Δ compares different tasks. Domains are held fixed, so the intervals show
// task-sampling uncertainty only, not which domains were chosen; trials
// within a task are not resampled. The resampler is
// rand.New(rand.NewPCG(opts.Seed, 0)) from math/rand/v2, drawn domain by
// domain in sorted order, so the same seed and input give the same
// intervals. opts.Method is ignored: the stratified intervals are always
// percentile, and their CI.Method says so.
//
// Tasks with n_t < 1 or c_t > n_t are skipped; duplicate TaskIDs within a
// run's domain are merged by summing trials and passes. RunID and Group
// are ignored. Empty input gives an empty result with NaN means.
//
// Generalization panics on the opts that make BootstrapTasks panic
// (Resamples < 0, Level outside (0, 1), an unknown Method).
func Generalization(tuned, base map[string][]TaskTrials, trainDomains []string, opts BootstrapOptions) GeneralizationResult {
	opts = opts.normalized()
	res := GeneralizationResult{Resamples: opts.Resamples, Seed: opts.Seed}

	var names []string
	for d := range tuned {
		names = append(names, d)
	}
	for d := range base {
		if _, ok := tuned[d]; !ok {
			names = append(names, d)
		}
	}
	slices.Sort(names)

	doms := make([]domainSample, len(names))
	for i, d := range names {
		doms[i] = newDomainSample(taskRates(tuned[d]), taskRates(base[d]))
		dd := DomainDelta{
			Domain:            d,
			InDomain:          slices.Contains(trainDomains, d),
			TunedNotEvaluated: NotEvaluated(tuned[d]),
			BaseNotEvaluated:  NotEvaluated(base[d]),
			TunedPass1:        meanMap(doms[i].tunedAll, nil),
			BasePass1:         meanMap(doms[i].baseAll, nil),
			TunedTasks:        len(doms[i].tunedAll),
			BaseTasks:         len(doms[i].baseAll),
			Paired:            doms[i].paired != nil,
			PairedTasks:       len(doms[i].paired),
		}
		if dd.Paired { // both sides over the shared tasks, as Delta is
			dd.TunedPass1 = meanMap(doms[i].tunedAll, doms[i].baseAll)
			dd.BasePass1 = meanMap(doms[i].baseAll, doms[i].tunedAll)
			dd.TunedLeftOut, dd.BaseLeftOut = dd.TunedTasks-dd.PairedTasks, dd.BaseTasks-dd.PairedTasks
		}
		dd.Delta = doms[i].delta(nil)
		res.Domains = append(res.Domains, dd)
	}

	// Point estimates of the two means.
	summarize := func(in bool, deltas func(i int) float64) (int, float64) {
		n, s := 0, 0.0
		for i, dd := range res.Domains {
			if dd.InDomain != in || math.IsNaN(dd.Delta) {
				continue
			}
			n++
			s += deltas(i)
		}
		if n == 0 {
			return 0, math.NaN()
		}
		return n, s / float64(n)
	}
	point := func(i int) float64 { return res.Domains[i].Delta }
	res.InDomain.Domains, res.InDomain.Mean = summarize(true, point)
	res.OutOfDomain.Domains, res.OutOfDomain.Mean = summarize(false, point)
	for _, dd := range res.Domains {
		if math.IsNaN(dd.Delta) || dd.Paired {
			continue
		}
		if dd.InDomain {
			res.InDomain.Unpaired++
		} else {
			res.OutOfDomain.Unpaired++
		}
	}

	// Bootstrap, consuming the generator in domain order.
	rng := rand.New(rand.NewPCG(opts.Seed, 0))
	perDomain := make([][]float64, len(names))
	var inReps, outReps []float64
	boot := make([]float64, len(names))
	for range opts.Resamples {
		for i := range doms {
			boot[i] = math.NaN()
			if !math.IsNaN(res.Domains[i].Delta) && res.Domains[i].Paired {
				boot[i] = doms[i].delta(rng)
				perDomain[i] = append(perDomain[i], boot[i])
			}
		}
		replicate := func(i int) float64 { return boot[i] }
		if _, m := summarize(true, replicate); !math.IsNaN(m) && res.InDomain.Unpaired == 0 {
			inReps = append(inReps, m)
		}
		if _, m := summarize(false, replicate); !math.IsNaN(m) && res.OutOfDomain.Unpaired == 0 {
			outReps = append(outReps, m)
		}
	}
	for i := range res.Domains {
		res.Domains[i].CI = percentileInterval(perDomain[i], opts.Level)
	}
	res.InDomain.CI = percentileInterval(inReps, opts.Level)
	res.OutOfDomain.CI = percentileInterval(outReps, opts.Level)
	return res
}

// taskRates merges a run's tasks on one domain by TaskID and returns each
// usable task's pass rate c_t/n_t, with the ids in the order tasks first
// lists them (listings give tasks by content key, the same order in every
// database that holds them; row ids are not: they follow the order rows
// were stored in).
func taskRates(tasks []TaskTrials) rates {
	type tally struct{ trials, passes int }
	byID := map[int64]tally{}
	var order []int64
	if NotEvaluated(tasks) {
		tasks = nil // a side with nothing evaluated has no usable task
	}
	for _, t := range tasks {
		if t.Trials < 1 || t.Passes < 0 || t.Passes > t.Trials {
			continue
		}
		c, seen := byID[t.TaskID]
		if !seen {
			order = append(order, t.TaskID)
		}
		c.trials += t.Trials
		c.passes += t.Passes
		byID[t.TaskID] = c
	}
	r := rates{byID: make(map[int64]float64, len(byID)), order: order}
	for id, c := range byID {
		r.byID[id] = float64(c.passes) / float64(c.trials)
	}
	return r
}

// rates are per-task pass rates by TaskID, and the ids in listing order.
type rates struct {
	byID  map[int64]float64
	order []int64
}

// meanMap is the mean of m's values, over the ids within holds too when
// within is not nil; NaN when there are none.
func meanMap(m, within map[int64]float64) float64 {
	n, s := 0, 0.0
	for id, v := range m {
		if _, ok := within[id]; ok || within == nil {
			n++
			s += v
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// domainSample holds one domain's per-task pass rates in a fixed order
// (the listing's, see taskRates), so resampling is reproducible.
type domainSample struct {
	tunedAll, baseAll map[int64]float64
	paired            []float64 // tuned − base per shared task; nil when unpaired
	tuned, base       []float64 // per-task rates of each run, in listing order
}

func newDomainSample(tuned, base rates) domainSample {
	s := domainSample{tunedAll: tuned.byID, baseAll: base.byID}
	for _, id := range tuned.order {
		s.tuned = append(s.tuned, tuned.byID[id])
		if b, ok := base.byID[id]; ok {
			s.paired = append(s.paired, tuned.byID[id]-b)
		}
	}
	for _, id := range base.order {
		s.base = append(s.base, base.byID[id])
	}
	return s
}

// delta returns the domain's Δpass^1: of the data when rng is nil, of a
// bootstrap resample otherwise. NaN when either run has no usable task.
func (s domainSample) delta(rng *rand.Rand) float64 {
	if s.paired != nil {
		return resampleMean(s.paired, rng)
	}
	if len(s.tuned) == 0 || len(s.base) == 0 {
		return math.NaN()
	}
	return resampleMean(s.tuned, rng) - resampleMean(s.base, rng)
}

// resampleMean is the mean of xs (rng nil) or of len(xs) draws from xs with
// replacement.
func resampleMean(xs []float64, rng *rand.Rand) float64 {
	s := 0.0
	for i := range xs {
		j := i
		if rng != nil {
			j = rng.IntN(len(xs))
		}
		s += xs[j]
	}
	return s / float64(len(xs))
}

// percentileInterval is the bootstrap percentile interval: the
// (1−level)/2 and (1+level)/2 empirical quantiles (gonum stat.Empirical) of
// the replicates, as bootstrapItems computes them. NaN when there are none.
func percentileInterval(reps []float64, level float64) CI {
	ci := CI{Lo: math.NaN(), Hi: math.NaN(), Level: level, Method: MethodPercentile}
	if len(reps) == 0 {
		return ci
	}
	s := slices.Clone(reps)
	slices.Sort(s)
	ci.Lo = stat.Quantile((1-level)/2, stat.Empirical, s, nil)
	ci.Hi = stat.Quantile((1+level)/2, stat.Empirical, s, nil)
	return ci
}

// TunedRun is a run tagged as a tuned model: its domain, the domains it
// was trained on, and its base model's run.
type TunedRun struct {
	RunID, BaseRunID int64
	Domain           string
	TrainDomains     []string
}

// ModelGeneralization is Generalization for one tuned model: the tuned
// runs of one agent model, user model and condition against their base
// runs, domain by domain.
type ModelGeneralization struct {
	// Name is the agent model, or "agent / user / condition" when the agent
	// model has tuned runs of several user models or conditions.
	Name        string
	Tuned, Base map[string]Unit // domain → the unit on that side
	Result      GeneralizationResult
}

// GeneralizationByModel groups tagged (tuned runs of tasks' units, sorted
// by "agent / user / condition") into tuned models and runs Generalization
// for each over tasks (TaskTrials pooled by unit, see PoolTasks). Runs
// without train domains or a base run, and runs u does not hold, are
// skipped. Its notes say why a Δ has no interval. Several tuned or base
// units of one model on one domain are an error naming them: runs are
// never combined silently. It panics as Generalization does on bad opts.
func GeneralizationByModel(tagged []TunedRun, u Units, tasks []TaskTrials, opts BootstrapOptions) ([]ModelGeneralization, []string, error) {
	byUnit := map[int64][]TaskTrials{}
	for _, t := range tasks {
		byUnit[t.RunID] = append(byUnit[t.RunID], t)
	}
	type tunedModel struct {
		agent       string
		tuned, base map[string]int64 // domain → unit ID
		train       map[string]bool
	}
	models := map[string]*tunedModel{}
	for _, t := range tagged {
		if t.TrainDomains == nil || t.BaseRunID == 0 {
			continue
		}
		tu, ok := u.Of(t.RunID)
		bu, baseOK := u.Of(t.BaseRunID)
		if !ok || !baseOK {
			continue // not selected
		}
		model := KnownLabel(tu.Key.AgentModel, tu.Key.UserModel, tu.Key.Condition)
		m := models[model]
		if m == nil {
			m = &tunedModel{agent: tu.Key.AgentModel, tuned: map[string]int64{}, base: map[string]int64{}, train: map[string]bool{}}
			models[model] = m
		}
		for _, side := range []struct {
			name string
			id   int64
			at   map[string]int64
		}{{"tuned", tu.ID, m.tuned}, {"base", bu.ID, m.base}} {
			if prev, seen := side.at[t.Domain]; seen && prev != side.id {
				fix := "pool them with --pool, or tag only one"
				if u.Pooled() { // pools of one key with other tags
					fix = "tag them alike (the same train domains and base), or tag only one"
				}
				return nil, nil, fmt.Errorf("stats generalization: %s has several %s %s on domain %s (%s and %s): %s",
					model, side.name, u.Noun()+"s", t.Domain, u.ByID(prev).Name(), u.ByID(side.id).Name(), fix)
			}
			side.at[t.Domain] = side.id
		}
		for _, d := range t.TrainDomains {
			m.train[d] = true
		}
	}
	agents := map[string]int{}
	for _, m := range models {
		agents[m.agent]++
	}
	var out []ModelGeneralization
	var notes []string
	for _, key := range slices.Sorted(maps.Keys(models)) {
		m := models[key]
		g := ModelGeneralization{Name: m.agent, Tuned: map[string]Unit{}, Base: map[string]Unit{}}
		if agents[m.agent] > 1 {
			g.Name = key
		}
		tuned, base := map[string][]TaskTrials{}, map[string][]TaskTrials{}
		for d, id := range m.tuned {
			tuned[d], g.Tuned[d] = byUnit[id], u.ByID(id)
		}
		for d, id := range m.base {
			base[d], g.Base[d] = byUnit[id], u.ByID(id)
		}
		g.Result = Generalization(tuned, base, slices.Sorted(maps.Keys(m.train)), opts)
		for _, d := range g.Result.Domains {
			scope := "out-of-domain"
			if d.InDomain {
				scope = "in-domain"
			}
			if !d.Paired && !math.IsNaN(d.Delta) {
				notes = append(notes, fmt.Sprintf("%s on %s: 0 paired tasks (the tuned and base runs share no task), so its Δ compares different tasks and has no interval, nor has the %s mean", g.Name, d.Domain, scope))
			}
			if d.Paired && (d.TunedLeftOut > 0 || d.BaseLeftOut > 0) {
				notes = append(notes, fmt.Sprintf("%s on %s: tuned_pass_1, base_pass_1 and Δ are over the %d paired tasks; left out, as the other side lacks them: %d of the tuned %s's %d tasks and %d of the base %s's %d",
					g.Name, d.Domain, d.PairedTasks, d.TunedLeftOut, u.Noun(), d.TunedTasks, d.BaseLeftOut, u.Noun(), d.BaseTasks))
			}
		}
		out = append(out, g)
	}
	return out, notes, nil
}
