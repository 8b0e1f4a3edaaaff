package workbench

import (
	"context"
	"fmt"
	"strconv"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
)

// Each Stats function below is what one `emobench stats` command computes.
// It returns its notes in the order the command prints them, also when it
// fails part way: those gathered before the error.

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

// PassKRequest is what stats passk computes.
type PassKRequest struct {
	Fields      []string              // group fields besides the unit (emobench.GroupFields)
	Options     analysis.PassKOptions // convention and k values; RunTrials is set by StatsPassK
	InfraErrors InfraErrors           // "" is InfraErrorsFail
	// Intervals, when set, adds bootstrap intervals over tasks with
	// Bootstrap (analysis.PassKIntervals).
	Intervals bool
	Bootstrap analysis.BootstrapOptions
}

// StatsPassK is stats passk: pass^k and pass@k rows per unit of s and
// group of req.Fields. Its notes are, in order: how many trajectories
// ended in an infrastructure error, the runs pooling kept apart, the runs
// whose min-trials n is in doubt, the overlaps of pooled runs and, per run,
// each asked-for run that has no row. No rows at all gives no note: the
// caller says so. Errors are the database's or analysis.PassK's.
func StatsPassK(ctx context.Context, store *db.DB, s Selection, req PassKRequest) ([]analysis.PassKRow, []string, error) {
	var notes []string
	if n, err := store.CountInfraErrors(ctx, s.RunIDs); err == nil && n > 0 {
		verb := "counted as failures"
		if req.InfraErrors == InfraErrorsExclude {
			verb = "left out of every denominator"
		}
		notes = append(notes, fmt.Sprintf("%s in a τ²-bench infrastructure_error or context_window_exceeded: %s (--infra-errors %s)",
			plural(n, "trajectory ended", "trajectories ended"), verb, string(orFail(req.InfraErrors))))
	}
	notes = append(notes, s.KeptApartNotes()...)
	suspect, err := SuspectTrialNotes(ctx, store, s, req.Options.Convention)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, suspect...)
	set, err := LoadTaskTrials(ctx, store, s, req.Fields, req.Options.Convention, req.InfraErrors == InfraErrorsExclude)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, OverlapNotes(set.Overlaps)...)
	opts := req.Options
	opts.RunTrials = set.RunTrials
	rows, err := analysis.PassK(set.Tasks, opts)
	if err != nil {
		return nil, notes, err
	}
	if len(rows) > 0 && !s.Units.Pooled() {
		notes = append(notes, runsWithoutRows(s, rows)...)
	}
	if req.Intervals {
		analysis.PassKIntervals(rows, set.Tasks, set.RunTrials, req.Bootstrap)
	}
	return rows, notes, nil
}

func orFail(i InfraErrors) InfraErrors {
	if i == "" {
		return InfraErrorsFail
	}
	return i
}

// runsWithoutRows names each run asked for in s that has no row: it holds
// no trajectory, or no task with k trials.
func runsWithoutRows(s Selection, rows []analysis.PassKRow) []string {
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

// StatsGap is stats gap: pass^1 against pass^k at k (0: the largest k)
// per unit of s and group of fields, under opts' convention and k values
// (analysis.Gaps). Its notes are, in order: the runs whose min-trials n is
// in doubt, the runs pooling kept apart, the overlaps of pooled runs and
// the gap's own. Errors are the database's or analysis.PassK's.
func StatsGap(ctx context.Context, store *db.DB, s Selection, fields []string, opts analysis.PassKOptions, k int) ([]analysis.GapRow, []string, error) {
	notes, err := SuspectTrialNotes(ctx, store, s, opts.Convention)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, s.KeptApartNotes()...)
	rows, set, err := ComputePassK(ctx, store, s, fields, opts)
	if err != nil {
		return nil, notes, err
	}
	notes = append(notes, OverlapNotes(set.Overlaps)...)
	res := analysis.Gaps(rows, k, s.Units, s.Names)
	return res.Rows, append(notes, res.Notes...), nil
}

// StatsAbandonment is stats abandonment: per unit of s and per field set
// of dims, the rate of user_unsatisfied endings (analysis.AbandonmentByUnit).
// Its notes are the runs pooling kept apart, then the overlaps of pooled
// runs by task content. Errors are the database's.
func StatsAbandonment(ctx context.Context, store *db.DB, s Selection, dims [][]string) ([]analysis.UnitAbandonment, []string, error) {
	outcomes, notes, err := LoadOutcomes(ctx, store, s)
	notes = append(s.KeptApartNotes(), notes...)
	if err != nil {
		return nil, notes, err
	}
	return analysis.AbandonmentByUnit(AbandonmentTrajectories(outcomes), s.Units, dims), notes, nil
}

// StatsBalance is stats balance: each unit's tool-call/follow-up sample,
// by unit ID (LoadBalance). Its notes are as StatsAbandonment's. Errors are
// the database's.
func StatsBalance(ctx context.Context, store *db.DB, s Selection) (map[int64]analysis.BalanceSample, []string, error) {
	outcomes, notes, err := LoadOutcomes(ctx, store, s)
	notes = append(s.KeptApartNotes(), notes...)
	if err != nil {
		return nil, notes, err
	}
	balance, err := LoadBalance(ctx, store, outcomes, s.Units)
	return balance, notes, err
}

// StatsEmotions is stats emotions: with- against without-emotions pass^k
// at ks, paired by task, per unit pair of s (analysis.EmotionsWithNotes).
// Its notes are the runs pooling kept apart, the overlaps of pooled runs,
// then the comparison's own. Errors are the database's.
func StatsEmotions(ctx context.Context, store *db.DB, s Selection, ks []int, opts analysis.BootstrapOptions) ([]analysis.EmotionDelta, []string, error) {
	outcomes, notes, err := LoadOutcomes(ctx, store, s)
	notes = append(s.KeptApartNotes(), notes...)
	if err != nil {
		return nil, notes, err
	}
	res := analysis.EmotionsWithNotes(ConditionTrials(outcomes), s.Units, ks, opts)
	return res.Rows, append(notes, res.Notes...), nil
}

// pass1 computes the per-task pass^1 rows of s and the task outcomes
// behind them, noting the runs pooling kept apart and the overlaps.
func pass1(ctx context.Context, store *db.DB, s Selection) ([]analysis.PassKRow, TaskSet, []string, error) {
	notes := s.KeptApartNotes()
	rows, set, err := ComputePassK(ctx, store, s, nil, analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}})
	if err != nil {
		return nil, TaskSet{}, notes, err
	}
	return rows, set, append(notes, OverlapNotes(set.Overlaps)...), nil
}

// StatsGeneralizationMatrix is stats generalization --part matrix: pass^1
// of every model on every domain (analysis.PooledMatrix). Its notes are
// the runs pooling kept apart and the overlaps of pooled runs. Errors are
// the database's or the matrix's.
func StatsGeneralizationMatrix(ctx context.Context, store *db.DB, s Selection) (analysis.PassMatrix, []string, error) {
	rows, _, notes, err := pass1(ctx, store, s)
	if err != nil {
		return analysis.PassMatrix{}, notes, err
	}
	m, err := analysis.PooledMatrix(rows, s.Units)
	return m, notes, err
}

// NoTunedRunsNote is StatsGeneralization's note when no run is tagged as
// tuned (or none of the tagged is selected).
const NoTunedRunsNote = "no tuned runs: tag them with emobench runs tag RUN --train-domains D --base-run RUN"

// StatsGeneralization is stats generalization: tuned against base pass^1
// per tuned model and domain, in-domain and out-of-domain, with bootstrap
// intervals by opts (analysis.GeneralizationByModel over the run tags).
// Its notes are the runs pooling kept apart, the overlaps of pooled runs,
// NoTunedRunsNote when no model results, then the comparison's own. Errors
// are the database's or the comparison's.
func StatsGeneralization(ctx context.Context, store *db.DB, s Selection, opts analysis.BootstrapOptions) ([]analysis.ModelGeneralization, []string, error) {
	_, set, notes, err := pass1(ctx, store, s)
	if err != nil {
		return nil, notes, err
	}
	tags, err := store.ListRunTags(ctx)
	if err != nil {
		return nil, notes, err
	}
	models, more, err := analysis.GeneralizationByModel(TunedRuns(tags), s.Units, set.Tasks, opts)
	if err != nil {
		return nil, notes, err
	}
	if len(models) == 0 {
		notes = append(notes, NoTunedRunsNote)
	}
	return models, append(notes, more...), nil
}

// plural is "1 task" or "3 tasks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
