package workbench

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
)

// MaxOverlapNotes caps the overlap notes given one by one; past it, one
// note counts the rest (analysis.OverlapNotes).
const MaxOverlapNotes = 10

// Selection is the runs a command reads, as analysis units.
type Selection struct {
	// RunIDs are the runs asked for (--run); empty means every run.
	RunIDs []int64
	// Units holds one unit per selected run, or per pool when pooled.
	Units analysis.Units
	// Names are the names of every stored run, by run id.
	Names map[int64]string
	// Pool is whether runs were asked to be pooled (--pool).
	Pool bool
	// Groups are the selected runs' pair groups, Sources where they came
	// from (PairGroups).
	Groups  map[int64]string
	Sources map[int64]analysis.Source
}

// Select returns the analysis units of runIDs (of every run when empty):
// one per run, or one per pool when pool is set, with run names by id. It
// reads the runs table, not the summaries, which count every trajectory.
// Errors are the database's.
func Select(ctx context.Context, store *db.DB, runIDs []int64, pool bool) (Selection, error) {
	runs, err := store.ListRuns(ctx)
	if err != nil {
		return Selection{}, err
	}
	keep := map[int64]bool{}
	for _, id := range runIDs {
		keep[id] = true
	}
	keys := map[int64]analysis.PoolKey{}
	names := map[int64]string{}
	for _, r := range runs {
		names[r.ID] = r.Name
		if len(keep) == 0 || keep[r.ID] {
			keys[r.ID] = analysis.PoolKey{AgentModel: r.AgentModel, UserModel: r.UserModel, Domain: r.Domain, Condition: string(r.Condition)}
		}
	}
	groups, sources := PairGroups(runs)
	return Selection{RunIDs: runIDs, Units: analysis.NewUnits(keys, pool), Names: names, Pool: pool, Groups: groups, Sources: sources}, nil
}

// PairGroups gives each run that has one its pair group
// (analysis.Pairing.Groups), and says where each run came from
// (analysis.Pairing.Sources). A native run's group is the command that
// started it (emobench.RunSpec.Pair, kept by merge). An ingested run's is
// its file's ingest.PairName when the file's stored path is absolute: the
// files of a pair lie in one folder and are named alike but for the
// condition words. Nothing pairs across folders, nor a run read from
// stdin or stored with a relative path, whose folder is unknown.
func PairGroups(runs []emobench.Run) (map[int64]string, map[int64]analysis.Source) {
	groups := map[int64]string{}
	sources := map[int64]analysis.Source{}
	for _, r := range runs {
		if r.SourceFormat == emobench.SourceNative {
			sources[r.ID] = analysis.Source{}
			if spec, err := emobench.DecodeRunSpec(r.Config); err == nil && spec.Pair != "" {
				groups[r.ID] = "run:" + spec.Pair
			}
			continue
		}
		src := analysis.Source{Ingested: true, File: r.SourcePath}
		name := ingest.PairName(r.SourcePath)
		switch {
		case r.SourcePath == "":
			src.NoPair = "no source file was stored"
		case r.SourcePath == "stdin":
			src.NoPair = "it was read from stdin, which has no folder"
		case !filepath.IsAbs(r.SourcePath):
			src.NoPair = "its stored path is relative, so its folder is unknown"
		case name == "":
			src.NoPair = "its file name has no condition words (with-emotions, without-emotions, no-emotion, ...)"
		default:
			groups[r.ID] = "file:" + name
		}
		sources[r.ID] = src
	}
	return groups, sources
}

// Pairing is s's pairing of with- and without-emotions runs
// (analysis.Pairing): its pair groups and the pairs named in refs, each
// "A:B" (run ids or names, either order). A ref that is not two runs of
// s, one with and one without emotions of the same agent model, user
// model and domain, is an EREQUEST error naming it; so is any ref when s
// is pooled (pools pair with pools).
func (s Selection) Pairing(ctx context.Context, store *db.DB, refs []string) (analysis.Pairing, error) {
	p := analysis.Pairing{Groups: s.Groups, Sources: s.Sources}
	if len(refs) > 0 && s.Pool {
		return p, settingf("pair", "%s: with pool, pools pair with pools; leave out pair or pool", refs[0])
	}
	for _, ref := range refs {
		ids, err := resolvePair(ctx, store, ref)
		if err != nil {
			return p, err
		}
		pair, err := analysis.CheckNamedPair(s.Units, ids[0], ids[1])
		if err != nil {
			return p, settingf("pair", "%s: %v", ref, err)
		}
		p.Named = append(p.Named, pair)
	}
	return p, nil
}

// resolvePair resolves ref, "A:B", to the ids of runs A and B (ids or
// names). Run names may hold ":" themselves (noisy:0.3-retail-…), so every
// ":" is tried as the separator: the one at which both sides name a run
// is the pair; none is the first side's error, several is ambiguous.
func resolvePair(ctx context.Context, store *db.DB, ref string) ([2]int64, error) {
	var found [][2]int64
	var firstErr error
	for i, c := range ref {
		if c != ':' || i == 0 || i == len(ref)-1 {
			continue
		}
		a, errA := store.ResolveRun(ctx, ref[:i])
		b, errB := store.ResolveRun(ctx, ref[i+1:])
		if errA == nil && errB == nil {
			found = append(found, [2]int64{a, b})
		} else if firstErr == nil {
			firstErr = cmp.Or(errA, errB)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return [2]int64{}, settingf("pair", "%s: splits into two runs at more than one \":\"; give run ids (A:B)", ref)
	case firstErr != nil:
		return [2]int64{}, emobench.Settingf(emobench.ErrorCode(firstErr), "pair", "%s: %w", ref, firstErr)
	}
	return [2]int64{}, settingf("pair", "%q: give two runs as A:B (with-emotions run : without-emotions run; ids or names)", ref)
}

// KeptApartNotes is the note, when pooling, naming the runs pooling kept
// apart (analysis.Units.KeptApart); nil when there are none.
func (s Selection) KeptApartNotes() []string {
	apart := s.Units.KeptApart()
	if len(apart) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("--pool: runs %s have an unknown agent model or domain, so each is its own pool (set them with `emobench runs set RUN --model M`, or ingest with --model/--domain)", analysis.JoinIDs(apart))}
}

// OverlapNotes are the notes on tasks that appear in more than one run of
// a pool: their trajectories in every run are trials of the task.
func OverlapNotes(overlaps []analysis.Overlap) []string {
	return analysis.OverlapNotes(overlaps, MaxOverlapNotes)
}

// TaskSet is the task outcomes of a selection, per unit.
type TaskSet struct {
	// Tasks holds one entry per (unit, task), grouped by the fields asked.
	Tasks []analysis.TaskTrials
	// RunTrials is each unit's min-trials n, set only for MinTrials.
	RunTrials map[int64]int
	// Overlaps are the tasks of a pool found in more than one of its runs
	// (nil unless pooled).
	Overlaps []analysis.Overlap
}

// LoadTaskTrials loads the per-run task outcomes of s (through
// ListTaskTrials, or withoutInfra its listing without τ²-bench
// infrastructure errors), grouped by fields, and pools them into units
// (analysis.PoolTasks), with each unit's min-trials n when conv needs it
// (withoutInfra, each task's trajectories left out are counted in its
// Excluded, which lowers that task's n) and the overlaps of pooled runs.
// Errors are the database's.
func LoadTaskTrials(ctx context.Context, store *db.DB, s Selection, fields []string, conv analysis.Convention, withoutInfra bool) (TaskSet, error) {
	list := store.ListTaskTrials
	if withoutInfra {
		list = store.ListTaskTrialsWithoutInfraErrors
	}
	listed, err := list(ctx, s.RunIDs)
	if err != nil {
		return TaskSet{}, err
	}
	var runTrials map[int64]int
	if conv == analysis.MinTrials {
		if runTrials, err = store.CountRunTrials(ctx); err != nil {
			return TaskSet{}, err
		}
	}
	in := TaskTrials(listed, fields)
	if withoutInfra && conv == analysis.MinTrials {
		// Each task's min-trials n is the run's n less its left-out
		// trajectories (analysis.TaskTrials.Excluded).
		all, err := store.ListTaskTrials(ctx, s.RunIDs)
		if err != nil {
			return TaskSet{}, err
		}
		setExcluded(in, all)
	}
	var overlaps []analysis.Overlap
	if s.Units.Pooled() {
		keys, err := store.TaskKeys(ctx)
		if err != nil {
			return TaskSet{}, err
		}
		overlaps = analysis.TaskTrialOverlaps(s.Units, in, keys)
	}
	return TaskSet{Tasks: analysis.PoolTasks(in, s.Units), RunTrials: analysis.PoolRunTrials(runTrials, s.Units), Overlaps: overlaps}, nil
}

// setExcluded sets the Excluded count of each of in (listed without
// τ²-bench's non-evaluable trajectories) from all, the full listing: the
// trials of its (run, task) that the listing left out.
func setExcluded(in []analysis.TaskTrials, all []db.TaskTrials) {
	type key struct{ run, task int64 }
	trials := make(map[key]int, len(all))
	for _, t := range all {
		trials[key{t.RunID, t.TaskID}] += t.Trials
	}
	for i := range in {
		if n, ok := trials[key{in[i].RunID, in[i].TaskID}]; ok && n > in[i].Trials {
			in[i].Excluded = n - in[i].Trials
		}
	}
}

// TaskTrials are listed (run, task) counts as analysis takes them, each
// grouped by the values of fields (emobench.GroupFields names).
func TaskTrials(listed []db.TaskTrials, fields []string) []analysis.TaskTrials {
	in := make([]analysis.TaskTrials, len(listed))
	for i, t := range listed {
		group := make([]string, len(fields))
		for j, f := range fields {
			group[j] = t.Field(f)
		}
		in[i] = analysis.TaskTrials{RunID: t.RunID, TaskID: t.TaskID, Group: group, Trials: t.Trials, Passes: t.Passes,
			Unevaluated: t.Unevaluated}
	}
	return in
}

// ComputePassK loads the task outcomes of s (LoadTaskTrials, infrastructure
// errors counted as failures), pools them into units and computes pass^k
// rows grouped by unit and fields (analysis.PassK with opts, RunTrials
// set here). It also returns the pooled task outcomes and overlaps. Errors
// are the database's or analysis.PassK's.
func ComputePassK(ctx context.Context, store *db.DB, s Selection, fields []string, opts analysis.PassKOptions) ([]analysis.PassKRow, TaskSet, error) {
	set, err := LoadTaskTrials(ctx, store, s, fields, opts.Convention, false)
	if err != nil {
		return nil, TaskSet{}, err
	}
	opts.RunTrials = set.RunTrials
	rows, err := analysis.PassK(set.Tasks, opts)
	return rows, set, err
}

// SuspectTrialNotes are, under --convention min-trials, the notes on every
// run of s whose n, its number of distinct trial values, is in doubt
// (analysis.SuspectTrialNotes), naming the n used and the run; nil under
// any other convention. Errors are the database's.
func SuspectTrialNotes(ctx context.Context, store *db.DB, s Selection, conv analysis.Convention) ([]string, error) {
	if conv != analysis.MinTrials {
		return nil, nil
	}
	numbers, err := store.ListTrialNumbers(ctx)
	if err != nil {
		return nil, err
	}
	listed, err := store.ListTaskTrials(ctx, s.RunIDs)
	if err != nil {
		return nil, err
	}
	trialNumbers := make(map[int64]analysis.TrialNumbers, len(numbers))
	for id, n := range numbers {
		trialNumbers[id] = analysis.TrialNumbers{Distinct: n.Distinct, First: n.First, Last: n.Last}
	}
	return analysis.SuspectTrialNotes(trialNumbers, TaskTrials(listed, nil), s.Names), nil
}

// LoadOutcomes returns the trajectory outcomes of s's runs and the notes on
// tasks that pooled runs share, by task content (OutcomeOverlaps). Errors
// are the database's.
func LoadOutcomes(ctx context.Context, store *db.DB, s Selection) ([]db.TrajectoryOutcome, []string, error) {
	outcomes, err := store.ListTrajectoryOutcomes(ctx, s.RunIDs)
	if err != nil {
		return nil, nil, err
	}
	return outcomes, OverlapNotes(OutcomeOverlaps(s.Units, outcomes)), nil
}

// OutcomeOverlaps are the overlaps of trajectories by their task's content
// (its pair key), tasks named by key.
func OutcomeOverlaps(units analysis.Units, outcomes []db.TrajectoryOutcome) []analysis.Overlap {
	tasks := make([]analysis.NamedRunTask, len(outcomes))
	for i, o := range outcomes {
		tasks[i] = analysis.NamedRunTask{RunID: o.RunID, Task: cmp.Or(o.PairKey, o.TaskKey), Name: o.TaskKey}
	}
	return analysis.NamedOverlaps(units, tasks)
}

// AbandonmentTrajectories are outcomes as analysis.AbandonmentByUnit takes
// them: abandoned when the user ended it unsatisfied, at its user turn.
func AbandonmentTrajectories(outcomes []db.TrajectoryOutcome) []analysis.AbandonmentTrajectory {
	out := make([]analysis.AbandonmentTrajectory, len(outcomes))
	for i, o := range outcomes {
		out[i] = analysis.AbandonmentTrajectory{RunID: o.RunID, Fields: o.Fields,
			Abandoned: o.TerminationReason == emobench.TerminationUserUnsatisfied, Turn: o.UserTurns}
	}
	return out
}

// LoadBalance returns each unit's balance sample, by unit ID: the
// trajectories of outcomes with their follow-ups counted from the stored
// agent messages (analysis.FollowUps). Errors are the database's.
func LoadBalance(ctx context.Context, store *db.DB, outcomes []db.TrajectoryOutcome, units analysis.Units) (map[int64]analysis.BalanceSample, error) {
	followUps := analysis.FollowUps{}
	if err := store.ForEachAgentText(ctx, followUps.Add); err != nil {
		return nil, err
	}
	trajectories := make([]analysis.BalanceTrajectory, len(outcomes))
	for i, o := range outcomes {
		trajectories[i] = analysis.BalanceTrajectory{ID: o.ID, RunID: o.RunID, ToolCalls: o.ToolCalls, Turns: o.UserTurns + o.AgentTurns,
			Passed: o.Passed, Evaluated: o.Evaluated, Abandoned: o.TerminationReason == emobench.TerminationUserUnsatisfied}
	}
	return analysis.BalanceByUnit(trajectories, followUps, units), nil
}

// ConditionTrials are the outcomes of the with- and without-emotions
// conditions as analysis.CompareEmotions takes them; outcomes of any other
// condition are left out. Profiles share the outcomes' field maps (read
// only).
func ConditionTrials(outcomes []db.TrajectoryOutcome) []analysis.ConditionTrial {
	var out []analysis.ConditionTrial
	for _, o := range outcomes {
		cond := emobench.Condition(o.Fields["condition"])
		if cond != emobench.ConditionWithEmotions && cond != emobench.ConditionWithoutEmotions {
			continue
		}
		out = append(out, analysis.ConditionTrial{
			RunID:   o.RunID,
			PairKey: o.PairKey,
			Trial:   o.Trial,
			Passed:  o.Passed,
			// Unevaluated: no reward information, so its failure is not measured.
			Unevaluated: !o.Evaluated,
			Profile:     o.Fields, // holds every emobench.EmotionDimensions key
		})
	}
	return out
}

// TunedRuns are run tags as analysis.GeneralizationByModel takes them.
func TunedRuns(tags []db.RunTags) []analysis.TunedRun {
	tagged := make([]analysis.TunedRun, len(tags))
	for i, t := range tags {
		tagged[i] = analysis.TunedRun{RunID: t.RunID, BaseRunID: t.BaseRunID, Domain: t.Domain, TrainDomains: t.TrainDomains}
	}
	return tagged
}
