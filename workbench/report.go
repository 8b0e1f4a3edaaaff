package workbench

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/internal/atomicfile"
	"github.com/emobench/emobench/reports"
	"github.com/emobench/emobench/reports/table"
)

// DefaultBootstrap is the bootstrap of the stats commands' defaults
// (2000 resamples over tasks, level 0.95, seed 1, percentile), which the
// report uses unless its flags say otherwise: figures and tables agree.
var DefaultBootstrap = analysis.BootstrapOptions{Resamples: 2000, Level: 0.95, Seed: 1, Method: analysis.MethodPercentile}

// ReportOptions is how the report is made.
type ReportOptions struct {
	Title     string
	Bootstrap analysis.BootstrapOptions // every interval's, also in the captions' commands
	// Now is the clock for the report's generation time; nil is time.Now.
	Now func() time.Time
	// Pairs are the pairs of runs its with- vs without-emotions charts
	// compare besides those that belong together, as EmotionsStats.Pairs.
	Pairs []string
}

// Report is what ReportOptions.Build gathers.
type Report struct {
	Input reports.Input
	// Overlaps are the tasks of a pool found in more than one of its runs
	// (nil unless pooled).
	Overlaps []analysis.Overlap
}

// Build gathers everything the report shows for the runs of s, per run or
// per pool (s.Pool). Every chart's numbers come from the functions of the
// stats command its caption names (reports.CommandLine). Its notes are the
// runs pooling kept apart, then the overlaps. Errors are the database's or
// the statistics'.
func (opts ReportOptions) Build(ctx context.Context, store *db.DB, s Selection) (Report, []string, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	boot := opts.Bootstrap
	d := reports.Data{Title: opts.Title, GeneratedAt: now().UTC(), Bootstrap: boot, Pooled: s.Pool}
	summaries, err := store.ListRunSummaries(ctx)
	if err != nil {
		return Report{}, nil, err
	}
	rewards, err := store.ListRunRewards(ctx)
	if err != nil {
		return Report{}, nil, err
	}
	keep := map[int64]bool{}
	for _, id := range s.RunIDs {
		keep[id] = true
	}
	for _, sum := range summaries {
		if len(keep) > 0 && !keep[sum.ID] {
			continue
		}
		d.Runs = append(d.Runs, ReportRun(sum, rewards[sum.ID]))
	}
	notes := s.keptApartAndErrorNotes(ctx, store)
	ids := make([]int64, len(d.Runs))
	for i, r := range d.Runs {
		ids[i] = r.Run.ID
	}
	notes = append(notes, RewardRangeNotes(ids, rewards)...)
	d.Units = map[int64]string{}
	for _, u := range s.Units.List() {
		d.Units[u.ID] = u.Label(s.Names)
	}
	cmd := reports.CommandLine{RunIDs: s.RunIDs, Pool: s.Pool, Boot: boot, Default: DefaultBootstrap}
	all := analysis.PassKOptions{Convention: analysis.PerTask}
	first := analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}}
	var set TaskSet
	if d.PassK, set, err = ComputePassK(ctx, store, s, nil, all); err != nil {
		return Report{}, notes, err
	}
	notes = append(notes, OverlapNotes(set.Overlaps)...)
	// The intervals of stats passk --ci pm, from the same tasks and function.
	analysis.PassKIntervals(d.PassK, set.Tasks, nil, boot)
	for _, r := range d.PassK {
		d.PassKCI = append(d.PassKCI, r.HatCI)
	}
	d.Commands.PassK = cmd.Stats("passk", true, "--ci", "pm")
	if d.FamilyPass1, _, err = ComputePassK(ctx, store, s, []string{"emotion_family"}, first); err != nil {
		return Report{}, notes, err
	}
	d.Commands.Family = cmd.Stats("passk", false, "--by", "emotion_family", "--k", "1")
	if d.Strict, _, err = (PassKStats{Options: all}).ComputeStrict(ctx, store, s); err != nil {
		return Report{}, notes, err
	}
	d.Commands.Strict = cmd.Stats("passk", false, "--strict")
	if err := addPaperSections(ctx, store, s, &d, boot, cmd, opts.Pairs); err != nil {
		return Report{}, notes, err
	}
	if err := addTracerSection(ctx, store, &d); err != nil {
		return Report{}, notes, err
	}
	return Report{Input: reports.Build(d), Overlaps: set.Overlaps}, notes, nil
}

// addPaperSections loads and computes, for s per unit, what the report's
// CI-bearing sections show, each with the functions of the stats command
// (cmd) that prints its numbers, into d; pairs are EmotionsStats.Pairs.
func addPaperSections(ctx context.Context, store *db.DB, s Selection, d *reports.Data, boot analysis.BootstrapOptions, cmd reports.CommandLine, pairs []string) error {
	units := s.Units
	d.Gaps = analysis.GapAtMaxK(d.PassK)
	d.Commands.Gap = cmd.Stats("gap", false)

	outcomes, err := store.ListTrajectoryOutcomes(ctx, s.RunIDs)
	if err != nil {
		return err
	}
	pairing, err := s.Pairing(ctx, store, pairs)
	if err != nil {
		return err
	}
	emotions := analysis.EmotionsWithNotes(ConditionTrials(outcomes), units, pairing, []int{1}, boot)
	d.Emotions = emotions.Rows
	for _, u := range emotions.Unpaired {
		d.EmotionsUnpaired = append(d.EmotionsUnpaired, u.Note())
	}
	args := []string{"--k", "1"}
	for _, p := range pairing.Named {
		args = append(args, "--pair", fmt.Sprintf("%d:%d", p[0], p[1]))
	}
	d.Commands.Emotions = cmd.Stats("emotions", true, args...)

	for _, a := range analysis.AbandonmentByUnit(AbandonmentTrajectories(outcomes), units, [][]string{{"emotion_family"}}) {
		d.Abandonment = append(d.Abandonment, reports.UnitRates{Unit: a.Unit.ID, Rates: a.Rates})
	}
	d.Commands.Abandonment = cmd.Stats("abandonment", false, "--by", "emotion_family")

	balance, err := LoadBalance(ctx, store, outcomes, units)
	if err != nil {
		return err
	}
	for _, u := range units.List() {
		b, ok := balance[u.ID]
		if !ok {
			continue
		}
		ub := reports.UnitBalance{
			Unit:       u.ID,
			Bins:       b.Bins(5),
			Evaluated:  slices.Contains(b.Evaluated, true),
			Command:    cmd.ForUnit(u).Stats("balance", false, "--part", "bins", "--bins", "5"),
			FitCommand: cmd.ForUnit(u).Stats("balance", false, "--part", "regression"),
		}
		if ub.Evaluated {
			if fit, err := b.Regression(); err != nil {
				ub.FitErr = err
			} else {
				ub.Fit, ub.MiddleWins = &fit, fit.Verdict()
			}
		}
		d.Balance = append(d.Balance, ub)
	}

	var first []analysis.PassKRow
	for _, r := range d.PassK {
		if r.K == 1 {
			first = append(first, r)
		}
	}
	if d.Matrix, err = analysis.PooledMatrix(first, units); err != nil {
		return err
	}
	d.Commands.Generalization = cmd.Stats("generalization", false, "--part", "matrix")

	d.Commands.Published = `emobench sql "SELECT domain, model, pass_hat_k FROM published_results WHERE k = 1 ORDER BY domain, model"`
	published, err := store.ListPublished(ctx)
	if err != nil {
		return err
	}
	for _, p := range published {
		d.Published = append(d.Published, reports.PublishedResult{
			Domain: p.Domain, Model: p.Model, Modality: p.Modality, SourceFile: p.SourceFile, K: p.K, PassHatK: p.PassHatK,
		})
	}
	return nil
}

// RunRow is run s, with its rewards rw, as the runs command and the report
// list it; provenance is "ingested", "native", "merged", "unknown" or ""
// ("evaluated" for an ingested run that evaluate --store wrote)
// (the report shows none). Pass1 is NaN when the run has no pass^1.
func RunRow(s db.RunSummary, rw db.RunRewards, provenance string) table.RunRow {
	if s.SourceFormat == SourceEvaluated && provenance == db.ProvenanceIngested {
		provenance = "evaluated" // stored as ingested (the schema's kinds); its config says from what
	}
	pass1 := math.NaN()
	if s.Pass1.Valid {
		pass1 = s.Pass1.Float64
	}
	return table.RunRow{
		ID: s.ID, Name: s.Name, AgentModel: s.AgentModel, Domain: s.Domain, Condition: string(s.Condition),
		Tasks: s.Tasks, MinTrials: s.MinTrials, MaxTrials: s.MaxTrials, Trajectories: s.Trajectories, Abandoned: s.Abandoned,
		Pass1: pass1, NotEvaluated: s.Trajectories > 0 && rw.Evaluated == 0,
		PartialCredit: rw.Partial > 0, MeanReward: rw.MeanReward, Provenance: provenance,
		UserModel: s.UserModel, UserStrategy: s.UserStrategy,
	}
}

// ListRuns is the runs command's table: a row per stored run (RunRow,
// with its provenance), in id order, and the notes on them (episodes in
// error, RunErrorNotes; rewards out of range, RewardRangeNotes).
func ListRuns(ctx context.Context, store *db.DB) ([]table.RunRow, []string, error) {
	runs, err := store.ListRunSummaries(ctx)
	if err != nil {
		return nil, nil, err
	}
	rewards, err := store.ListRunRewards(ctx)
	if err != nil {
		return nil, nil, err
	}
	provenance, err := store.ListProvenance(ctx)
	if err != nil {
		return nil, nil, err
	}
	kind := map[int64]string{}
	for _, p := range provenance {
		kind[p.RunID] = p.Kind
	}
	rows, ids := make([]table.RunRow, len(runs)), make([]int64, len(runs))
	for i, r := range runs {
		rows[i], ids[i] = RunRow(r, rewards[r.ID], kind[r.ID]), r.ID
	}
	notes, err := RunErrorNotes(ctx, store, nil)
	if err != nil {
		return nil, nil, err
	}
	return rows, append(notes, RewardRangeNotes(ids, rewards)...), nil
}

// RewardRangeNotes are notes on the runs (of ids, in order) whose
// evaluated rewards include some outside [−1, 1]: their mean_reward is no
// rate, and such a reward never passes, so pass^k is not affected.
func RewardRangeNotes(ids []int64, rewards map[int64]db.RunRewards) []string {
	var notes []string
	for _, id := range ids {
		if n := rewards[id].OutOfRange; n > 0 {
			notes = append(notes, fmt.Sprintf("run %d: %d evaluated rewards are outside [-1, 1], so its mean_reward (%s) is not a rate; such a reward never passes (pass^k is unaffected); see them with "+
				"`emobench sql 'SELECT task_key, trial, reward FROM trajectory_outcomes WHERE run_id = %d AND evaluated AND abs(reward) > 1'`",
				id, n, strconv.FormatFloat(rewards[id].MeanReward, 'g', 4, 64), id))
		}
	}
	return notes
}

// ReportRun is one row of the report's runs table, shown as the runs
// command shows it (RunRow).
func ReportRun(s db.RunSummary, rw db.RunRewards) reports.RunSummary {
	row := RunRow(s, rw, "")
	return reports.RunSummary{
		Run: emobench.Run{
			ID: s.ID, Name: s.Name, SourceFormat: s.SourceFormat,
			AgentModel: s.AgentModel, UserModel: s.UserModel,
			Domain: s.Domain, Condition: s.Condition,
		},
		Tasks: s.Tasks, Trajectories: s.Trajectories, Pass1: row.Pass1, Abandoned: s.Abandoned,
		NotEvaluated: row.NotEvaluated, PartialCredit: row.PartialCredit, MeanReward: rw.MeanReward,
	}
}

// WriteReport renders in to path (mode 0644), into memory first and then
// through a temporary file renamed into place (atomicfile), so a failed
// render or write leaves no half-written file behind, and a path that is
// not a regular file (a device, a named pipe) is never replaced
// (*atomicfile.NotRegularError). Errors name the step.
func WriteReport(ctx context.Context, path string, in reports.Input) error {
	var buf bytes.Buffer
	if err := reports.Render(&buf, in); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return atomicfile.WriteFile(ctx, path, buf.Bytes())
}
