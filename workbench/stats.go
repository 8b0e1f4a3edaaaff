package workbench

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
)

// Each XStats type below is what one `emobench stats` command computes:
// its options, and a Compute method over a selection that returns the
// result and the notes in the order the command prints them, also when it
// fails part way (those gathered before the error).

// InfraErrors says what stats passk does with τ²-bench trajectories that
// ended in infrastructure_error or context_window_exceeded.
type InfraErrors string

const (
	// InfraErrorsFail counts them as failures (the default).
	InfraErrorsFail InfraErrors = "fail"
	// InfraErrorsExclude leaves them out of every denominator, as
	// τ²-bench's own metrics do.
	InfraErrorsExclude InfraErrors = "exclude"
)

// Check returns an EREQUEST error of setting infra-errors unless i is
// InfraErrorsFail or InfraErrorsExclude.
func (i InfraErrors) Check() error {
	if i != InfraErrorsFail && i != InfraErrorsExclude {
		return settingf("infra-errors", "%q is not one of fail, exclude", string(i))
	}
	return nil
}

// PassKStats is stats passk: pass^k and pass@k per unit and group.
type PassKStats struct {
	Fields      []string              // group fields besides the unit (emobench.GroupFields)
	Options     analysis.PassKOptions // convention and k values; RunTrials is set by Compute
	InfraErrors InfraErrors           // "" is InfraErrorsFail
	// Intervals, when set, adds bootstrap intervals over tasks with
	// Bootstrap (analysis.PassKIntervals).
	Intervals bool
	Bootstrap analysis.BootstrapOptions
}

// Compute gives the pass^k and pass@k rows per unit of s and group of
// Fields. Its notes are, in order: how many trajectories ended in a
// τ²-bench infrastructure error, the runs with trajectories that ended in
// error (RunErrorNotes), the runs pooling kept apart, the runs whose
// min-trials n is in doubt, the overlaps of pooled runs and, per run, each
// asked-for run that has no row. No rows at all gives no note: the caller
// says so. Errors are the database's or analysis.PassK's.
func (p PassKStats) Compute(ctx context.Context, store *db.DB, s Selection) ([]analysis.PassKRow, []string, error) {
	infra := p.InfraErrors
	if infra == "" {
		infra = InfraErrorsFail
	}
	var notes []string
	if n, err := store.CountInfraErrors(ctx, s.RunIDs); err == nil && n > 0 {
		verb := "counted as failures"
		if infra == InfraErrorsExclude {
			verb = "left out of every denominator"
		}
		notes = append(notes, fmt.Sprintf("%s in a τ²-bench infrastructure_error or context_window_exceeded: %s (--infra-errors %s)",
			plural(n, "trajectory ended", "trajectories ended"), verb, infra))
	}
	errNotes, err := RunErrorNotes(ctx, store, s.RunIDs)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, errNotes...)
	notes = append(notes, s.KeptApartNotes()...)
	suspect, err := SuspectTrialNotes(ctx, store, s, p.Options.Convention)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, suspect...)
	set, err := LoadTaskTrials(ctx, store, s, p.Fields, p.Options.Convention, infra == InfraErrorsExclude)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, OverlapNotes(set.Overlaps)...)
	opts := p.Options
	opts.RunTrials = set.RunTrials
	rows, err := analysis.PassK(set.Tasks, opts)
	if err != nil {
		return nil, notes, err
	}
	if len(rows) > 0 && !s.Units.Pooled() {
		notes = append(notes, runsWithoutRows(s, rows)...)
	}
	if p.Intervals {
		analysis.PassKIntervals(rows, set.Tasks, set.RunTrials, p.Bootstrap)
	}
	return rows, notes, nil
}

// RunErrorNotes says, for each run of runIDs (every run when empty) that
// holds trajectories that ended in error (db.ListRunErrors: the LLM
// endpoint or the harness failed, not the agent), how many, that they
// count as failures, and for a native run how to run them again: "run 3
// (r): 8 trajectories ended in an infrastructure error (the LLM endpoint or
// the harness failed, termination error): counted as failures; run them
// again with `emobench run --resume 3`".
func RunErrorNotes(ctx context.Context, store *db.DB, runIDs []int64) ([]string, error) {
	runs, err := store.ListRunErrors(ctx)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, r := range runs {
		if len(runIDs) > 0 && !slices.Contains(runIDs, r.RunID) {
			continue
		}
		var note string
		if r.Provenance == db.ProvenanceNative {
			note = fmt.Sprintf("run %d (%s): %s in an infrastructure error (the LLM endpoint or the harness failed, termination error): counted as failures; run them again with `emobench run --resume %d`",
				r.RunID, r.Name, plural(r.Errors, "trajectory ended", "trajectories ended"), r.RunID)
		} else {
			// Another harness's error records: its endpoint, its harness or
			// the agent's reply (τ²-bench's agent_error) failed; which, the
			// source's own termination reason says.
			note = fmt.Sprintf("run %d (%s): %s in error (termination error in the source: its endpoint, its harness or the agent's reply failed): counted as failures",
				r.RunID, r.Name, plural(r.Errors, "trajectory ended", "trajectories ended"))
		}
		notes = append(notes, note)
	}
	return notes, nil
}

// keptApartAndErrorNotes are the notes every stats command starts with:
// the runs pooling kept apart, then each run of s with trajectories that
// ended in an infrastructure error (RunErrorNotes), so that no output
// shows an endpoint's failures as the agent's without saying so. A
// database error reading the latter is itself a note.
func (s Selection) keptApartAndErrorNotes(ctx context.Context, store *db.DB) []string {
	notes := s.KeptApartNotes()
	errNotes, err := RunErrorNotes(ctx, store, s.RunIDs)
	if err != nil {
		return append(notes, fmt.Sprintf("could not count the runs' error trajectories: %v", err))
	}
	return append(notes, errNotes...)
}

// runsWithoutRows names each run asked for in s that has no row: it holds
// no trajectory, or no task with k trials.
func runsWithoutRows(s Selection, rows []analysis.PassKRow) []string {
	if len(s.RunIDs) == 0 {
		return nil // every run: none was asked for by name
	}
	has := map[int64]bool{}
	for _, r := range rows {
		has[r.RunID] = true
	}
	var notes []string
	for _, id := range s.RunIDs {
		if !has[id] {
			notes = append(notes, fmt.Sprintf("run %d (%s) has no row: it holds no trajectory, or no task with k trials (see `emobench runs`)", id, s.Names[id]))
		}
	}
	return notes
}

// GapStats is stats gap: pass^1 against pass^k per unit and group.
type GapStats struct {
	Fields  []string              // group fields besides the unit
	Options analysis.PassKOptions // convention and k values; K > 0 sets Ks to {1, K}
	K       int                   // the k compared with k = 1 (at least 2); 0 is the largest
}

// Compute gives the gap rows per unit of s and group of Fields
// (analysis.Gaps). Its notes are, in order: the runs whose min-trials n is
// in doubt, the runs pooling kept apart, the overlaps of pooled runs and
// the gap's own. Errors are the database's or analysis.PassK's.
func (g GapStats) Compute(ctx context.Context, store *db.DB, s Selection) ([]analysis.GapRow, []string, error) {
	notes, err := SuspectTrialNotes(ctx, store, s, g.Options.Convention)
	if err != nil {
		return nil, notes, err
	}
	errNotes, err := RunErrorNotes(ctx, store, s.RunIDs)
	if err != nil {
		return nil, notes, err
	}
	notes = append(append(notes, errNotes...), s.KeptApartNotes()...)
	opts := g.Options
	if g.K > 0 {
		opts.Ks = []int{1, g.K}
	}
	rows, set, err := ComputePassK(ctx, store, s, g.Fields, opts)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, OverlapNotes(set.Overlaps)...)
	res := analysis.Gaps(rows, g.K, s.Units, s.Names)
	return res.Rows, append(notes, res.Notes...), nil
}

// AbandonmentDimensions are the fields stats abandonment reports by, each
// in turn, unless told otherwise.
var AbandonmentDimensions = append(slices.Clone(emobench.EmotionDimensions), "domain", "agent_model")

// AbandonmentStats is stats abandonment: the rate of user_unsatisfied
// endings per unit and group.
type AbandonmentStats struct {
	// Fields, when set, are grouped by jointly; when empty, each of
	// AbandonmentDimensions is in turn.
	Fields []string
}

// Compute gives, per unit of s and per field set, the rate of
// user_unsatisfied endings (analysis.AbandonmentByUnit). Its notes are the
// runs pooling kept apart, then the overlaps of pooled runs by task
// content. Errors are the database's.
func (a AbandonmentStats) Compute(ctx context.Context, store *db.DB, s Selection) ([]analysis.UnitAbandonment, []string, error) {
	dims := [][]string{}
	if len(a.Fields) > 0 {
		dims = append(dims, a.Fields)
	} else {
		// Each row is one run's (or pool's): one condition.
		for _, d := range AbandonmentDimensions {
			dims = append(dims, []string{d})
		}
	}
	outcomes, notes, err := LoadOutcomes(ctx, store, s)
	notes = append(s.keptApartAndErrorNotes(ctx, store), notes...)
	if err != nil {
		return nil, notes, err
	}
	return analysis.AbandonmentByUnit(AbandonmentTrajectories(outcomes), s.Units, dims), notes, nil
}

// BalanceStats is stats balance: tool calls against follow-up questions.
type BalanceStats struct{}

// Compute gives each unit's tool-call/follow-up sample of s, by unit ID
// (LoadBalance). Its notes are as AbandonmentStats'. Errors are the
// database's.
func (BalanceStats) Compute(ctx context.Context, store *db.DB, s Selection) (map[int64]analysis.BalanceSample, []string, error) {
	outcomes, notes, err := LoadOutcomes(ctx, store, s)
	notes = append(s.keptApartAndErrorNotes(ctx, store), notes...)
	if err != nil {
		return nil, notes, err
	}
	balance, err := LoadBalance(ctx, store, outcomes, s.Units)
	return balance, notes, err
}

// EmotionsStats is stats emotions: with- against without-emotions pass^k,
// paired by task.
type EmotionsStats struct {
	Ks        []int // k values; empty is k = 1
	Bootstrap analysis.BootstrapOptions
	// Pairs are pairs of runs to compare besides those that belong
	// together, each "A:B" (Selection.Pairing).
	Pairs []string
}

// Compute gives Δpass^k per unit pair of s (analysis.EmotionsWithNotes),
// and the units left unpaired. Its notes are the runs pooling kept apart,
// the overlaps of pooled runs, then the comparison's own. Errors are
// Selection.Pairing's and the database's.
func (em EmotionsStats) Compute(ctx context.Context, store *db.DB, s Selection) (analysis.EmotionsResult, []string, error) {
	pairing, err := s.Pairing(ctx, store, em.Pairs)
	if err != nil {
		return analysis.EmotionsResult{}, nil, err
	}
	outcomes, notes, err := LoadOutcomes(ctx, store, s)
	notes = append(s.keptApartAndErrorNotes(ctx, store), notes...)
	if err != nil {
		return analysis.EmotionsResult{}, notes, err
	}
	res := analysis.EmotionsWithNotes(ConditionTrials(outcomes), s.Units, pairing, em.Ks, em.Bootstrap)
	return res, append(notes, res.Notes...), nil
}

// pass1 computes the per-task pass^1 rows of s and the task outcomes
// behind them, noting the runs pooling kept apart and the overlaps.
func pass1(ctx context.Context, store *db.DB, s Selection) ([]analysis.PassKRow, TaskSet, []string, error) {
	notes := s.keptApartAndErrorNotes(ctx, store)
	rows, set, err := ComputePassK(ctx, store, s, nil, analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}})
	if err != nil {
		return nil, TaskSet{}, notes, err
	}
	return rows, set, append(notes, OverlapNotes(set.Overlaps)...), nil
}

// MatrixStats is stats generalization --part matrix.
type MatrixStats struct{}

// Compute gives pass^1 of every model on every domain of s
// (analysis.PooledMatrix). Its notes are the runs pooling kept apart and
// the overlaps of pooled runs. Errors are the database's or the matrix's.
func (MatrixStats) Compute(ctx context.Context, store *db.DB, s Selection) (analysis.PassMatrix, []string, error) {
	rows, _, notes, err := pass1(ctx, store, s)
	if err != nil {
		return analysis.PassMatrix{}, notes, err
	}
	m, err := analysis.PooledMatrix(rows, s.Units)
	return m, notes, err
}

// NoTunedRunsNote is GeneralizationStats' note when no run is tagged as
// tuned (or none of the tagged is selected).
const NoTunedRunsNote = "no tuned runs: tag them with emobench runs tag RUN --train-domains D --base-run RUN"

// GeneralizationStats is stats generalization: tuned against base pass^1.
type GeneralizationStats struct {
	Bootstrap analysis.BootstrapOptions // of the paired Δ and the in- and out-of-domain means
}

// Compute gives, per tuned model of s and domain, tuned against base
// pass^1, in-domain and out-of-domain (analysis.GeneralizationByModel over
// the run tags). Pooled, runs pool only with runs of the same tags
// (TaggedUnits). Its notes are the runs pooling kept apart, the overlaps
// of pooled runs, NoTunedRunsNote when no model results, then the
// comparison's own. Errors are the database's or the comparison's.
func (g GeneralizationStats) Compute(ctx context.Context, store *db.DB, s Selection) ([]analysis.ModelGeneralization, []string, error) {
	tags, err := store.ListRunTags(ctx)
	if err != nil {
		return nil, nil, err
	}
	s.Units = TaggedUnits(s, tags)
	_, set, notes, err := pass1(ctx, store, s)
	if err != nil {
		return nil, notes, err
	}
	models, more, err := analysis.GeneralizationByModel(TunedRuns(tags), s.Units, set.Tasks, g.Bootstrap)
	if err != nil {
		return nil, notes, err
	}
	if len(models) == 0 {
		notes = append(notes, NoTunedRunsNote)
	}
	return models, append(notes, more...), nil
}

// TaggedUnits is s's units with, when s is pooled, each pool split by the
// runs' tags: tuned runs pool only with tuned runs of the same train
// domains and base (the base run's pool key), and untagged runs (not
// tuned) only with untagged ones. Unpooled, it is s.Units.
func TaggedUnits(s Selection, tags []db.RunTags) analysis.Units {
	if !s.Units.Pooled() {
		return s.Units
	}
	keys := map[int64]analysis.PoolKey{}
	for _, u := range s.Units.List() {
		for _, id := range u.RunIDs {
			keys[id] = u.Key
		}
	}
	tagOf := map[int64]string{}
	for _, t := range tags {
		if t.TrainDomains == nil && t.BaseRunID == 0 {
			continue
		}
		base := fmt.Sprintf("run %d", t.BaseRunID)
		if bu, ok := s.Units.Of(t.BaseRunID); ok && bu.Key.Poolable() {
			base = fmt.Sprintf("%q", bu.Key)
		}
		train := slices.Sorted(slices.Values(t.TrainDomains))
		tagOf[t.RunID] = fmt.Sprintf("train %q, base %s", train, base)
	}
	return analysis.NewUnitsTagged(keys, tagOf, true)
}

// plural is "1 task" or "3 tasks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// ParseGroupFields reads a --by value: group fields separated by commas
// (emobench.GroupFields), "run" left out (rows are always per unit). ""
// is none. An unknown field is an error naming it and the fields.
func ParseGroupFields(by string) ([]string, error) {
	if by == "" {
		return nil, nil
	}
	var fields []string
	for _, f := range strings.Split(by, ",") {
		f = strings.TrimSpace(f)
		if f == "run" {
			continue // always grouped by run
		}
		if !slices.Contains(emobench.GroupFields, f) {
			return nil, settingf("by", "%q: no field %q (fields: %s)", by, f, strings.Join(emobench.GroupFields, ", "))
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// MaxResamples is the most bootstrap resamples a command takes: each
// statistic keeps them all (8 bytes each), so 10^6 is 8 MB per interval,
// where 2^63 − 1 would exhaust memory.
const MaxResamples = 1_000_000

// CheckBootstrap checks bootstrap options as the commands' flags give
// them: a method of percentile or bca, 100 to MaxResamples resamples and a
// level in (0, 1). The error is an EREQUEST error naming the setting
// (ci-method, resamples, level).
func CheckBootstrap(o analysis.BootstrapOptions) error {
	if o.Method != analysis.MethodPercentile && o.Method != analysis.MethodBCa {
		return settingf("ci-method", "%q is not one of percentile, bca", o.Method)
	}
	if o.Resamples < 100 {
		return settingf("resamples", "%d: use at least 100", o.Resamples)
	}
	if o.Resamples > MaxResamples {
		return settingf("resamples", "%d is too large: at most %d (each statistic keeps every resample in memory)", o.Resamples, MaxResamples)
	}
	if !(o.Level > 0 && o.Level < 1) { // false for NaN too
		return settingf("level", "%v is not in (0, 1)", o.Level)
	}
	return nil
}
