package tracer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
)

// DependenceMetric names the user-dependence column --max-user-dependence
// bounds.
const DependenceMetric = "user_turns_per_fact"

// FilterRequest is what `tracer filter` asks for.
type FilterRequest struct {
	// Runs are the runs whose trajectories are filtered; nil means every
	// run.
	Runs     []int64
	Criteria analysis.FilterCriteria
	// TestTasks are the embedded test tasks of every domain
	// (workbench.EmbeddedTestTasks): a trajectory of one of them (by
	// domain and id) is test-split and dropped unless
	// Criteria.AllowTestTasks (see testSplit for the other signs).
	TestTasks []emobench.TaskSpec
	// Name names the stored selection; Replace replaces a stored one of
	// that name (otherwise a clash is an ECONFLICT error).
	Name    string
	Replace bool
	// DryRun computes the funnel and stores nothing: neither the selection
	// nor the dependence computed meanwhile.
	DryRun bool
	// Now stamps the selection; nil means time.Now.
	Now func() time.Time
}

// FilterCriteriaRecord is a selection's criteria JSON: the runs and the
// filter settings.
type FilterCriteriaRecord struct {
	Runs []int64 `json:"runs"`
	analysis.FilterCriteria
	// DependenceMetric names the column MaxUserDependence bounds.
	DependenceMetric string `json:"dependence_metric"`
	// GeneratedFromTaskSets is FilterResult's: the funnel's generated
	// counts are the tasks of the collected task sets (false in selections
	// stored before it was recorded).
	GeneratedFromTaskSets bool `json:"generated_from_task_sets"`
}

// FilterResult is what Filter did.
type FilterResult struct {
	Funnel   analysis.Funnel
	Criteria FilterCriteriaRecord
	// Backfilled counts the trajectories whose user dependence was NULL
	// and was computed now (stored with the selection unless DryRun).
	Backfilled int
	// SelectionID is the stored selection's id; 0 on a dry run.
	SelectionID int64
	// GeneratedFromTaskSets is set when the funnel's generated counts are
	// the tasks of the task sets the runs collected (every run names one
	// that is still there unchanged); otherwise they are the distinct
	// tasks collected. The criteria record stores it too.
	GeneratedFromTaskSets bool
	// TestKept counts the kept trajectories of test-split tasks (only under
	// Criteria.AllowTestTasks); Funnel.Total.TestExcluded those dropped.
	TestKept int
	// ImportedRuns are the runs, by id, of kept trajectories that were
	// imported from another harness (not emobench run): tracer export
	// skips them (SkipImported).
	ImportedRuns []int64
}

// FamilyNone is the funnel's emotion family for trajectories of the
// without-emotions condition, whose user played no emotion;
// FamilyUnlabelled is that of a task without an emotion family.
const (
	FamilyNone       = "none"
	FamilyUnlabelled = "unlabelled"
)

// FunnelFamily is the funnel row a trajectory of condition with a task of
// emotion family belongs to.
func FunnelFamily(condition, family string) string {
	switch {
	case condition == string(emobench.ConditionWithoutEmotions):
		return FamilyNone
	case family == "":
		return FamilyUnlabelled
	}
	return family
}

// Filter runs the interaction-aware filter over req.Runs' trajectories:
// it computes the user dependence of those whose is NULL and whose task
// has a scenario (imported tasks have none: their dependence stays
// unknown), marks the trajectories of test-split tasks (testSplit; the
// funnel drops them first unless Criteria.AllowTestTasks), counts the
// funnel (analysis.CountFunnel) and, unless DryRun,
// stores the kept trajectories as selection req.Name with its criteria,
// its counts and the computed dependence, in one transaction. Errors: a
// stored trajectory whose scenario or messages do not decode names it; a
// name clash is db's ECONFLICT error; a missing name is EINVALID.
func Filter(ctx context.Context, store *db.DB, req FilterRequest) (FilterResult, error) {
	if err := req.Validate(); err != nil {
		return FilterResult{}, emobench.Errorf(emobench.EINVALID, "tracer filter: %v", err)
	}
	rows, err := store.ListFilterTrajectories(ctx, req.Runs)
	if err != nil {
		return FilterResult{}, err
	}
	res := FilterResult{Criteria: FilterCriteriaRecord{Runs: req.Runs, FilterCriteria: req.Criteria, DependenceMetric: DependenceMetric}}
	if res.Criteria.Runs == nil {
		if res.Criteria.Runs, err = allRuns(ctx, store); err != nil {
			return FilterResult{}, err
		}
	}
	split, err := newTestSplit(ctx, store, req.TestTasks, res.Criteria.Runs)
	if err != nil {
		return FilterResult{}, err
	}
	testTraj := map[int64]bool{}
	computed := map[int64]db.Dependence{}
	importedRun := map[int64]int64{} // trajectory id → its imported run's id
	trajs := make([]analysis.FunnelTrajectory, len(rows))
	for i, r := range rows {
		if r.SourceFormat != emobench.SourceNative {
			importedRun[r.ID] = r.RunID
		}
		perFact := r.UserTurnsPerFact
		if perFact == nil && r.HasScenario {
			in, err := store.DependenceInput(ctx, r.ID)
			if err != nil {
				return FilterResult{}, err
			}
			d, ok, err := Dependence(in)
			if err != nil {
				return FilterResult{}, fmt.Errorf("trajectory %d: %w", r.ID, err)
			}
			if ok {
				computed[r.ID] = d.Record()
				perFact = &d.UserTurnsPerFact
			}
		}
		trajs[i] = analysis.FunnelTrajectory{
			ID: r.ID, Domain: r.Domain, Family: FunnelFamily(r.Condition, r.Family), TaskKey: r.TaskKey,
			Reward: r.Reward, Evaluated: r.Evaluated, Abandoned: r.TerminationReason == emobench.TerminationUserUnsatisfied,
			UserTurnsPerFact: perFact, TestSplit: split.test(r),
		}
		testTraj[r.ID] = trajs[i].TestSplit
	}
	res.Backfilled = len(computed)
	generated, err := generatedCounts(ctx, store, res.Criteria.Runs)
	if err != nil {
		return FilterResult{}, err
	}
	res.GeneratedFromTaskSets = generated != nil
	res.Criteria.GeneratedFromTaskSets = res.GeneratedFromTaskSets
	res.Funnel = analysis.CountFunnel(trajs, req.Criteria, generated)
	for _, id := range res.Funnel.Kept {
		if testTraj[id] {
			res.TestKept++
		}
		if run, ok := importedRun[id]; ok && !slices.Contains(res.ImportedRuns, run) {
			res.ImportedRuns = append(res.ImportedRuns, run)
		}
	}
	slices.Sort(res.ImportedRuns)
	if req.DryRun {
		return res, nil
	}
	criteria, err := json.Marshal(res.Criteria)
	if err != nil {
		return res, err
	}
	counts, err := json.Marshal(res.Funnel)
	if err != nil {
		return res, err
	}
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	sel := db.Selection{Name: req.Name, CreatedAt: now(), Criteria: criteria, Counts: counts, TrajectoryIDs: res.Funnel.Kept}
	res.SelectionID, err = store.CreateSelection(ctx, sel, computed, req.Replace)
	return res, err
}

// DecodeFunnel reads a selection's counts JSON (what Filter stores) back
// into its funnel; Kept stays nil. JSON of another shape is an EINVALID
// error naming the selection.
func DecodeFunnel(sel db.Selection) (analysis.Funnel, error) {
	var f analysis.Funnel
	if err := json.Unmarshal(sel.Counts, &f); err != nil {
		return f, emobench.Errorf(emobench.EINVALID, "selection %s: counts: %v", sel.Name, err)
	}
	return f, nil
}

// Record is d as the trajectories table stores it.
func (d UserDependence) Record() db.Dependence {
	return db.Dependence{
		UserTurnsPerFact: d.UserTurnsPerFact, QuestionsAlreadyAnswered: d.QuestionsAlreadyAnswered,
		QuestionsToolFindable: d.QuestionsToolFindable, FollowUpQuestions: d.FollowUpQuestions, ToolCallShare: d.ToolCallShare,
	}
}

// allRuns returns every stored run's id.
func allRuns(ctx context.Context, store *db.DB) ([]int64, error) {
	runs, err := store.ListRuns(ctx)
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids, err
}

// ImportedNote says which kept trajectories tracer export will skip: those
// of the runs in r.ImportedRuns, imported from another harness (their
// agent saw that harness's prompt and tools); "" when there are none.
func (r FilterResult) ImportedNote() string {
	if len(r.ImportedRuns) == 0 {
		return ""
	}
	ids := make([]string, len(r.ImportedRuns))
	for i, id := range r.ImportedRuns {
		ids[i] = strconv.FormatInt(id, 10)
	}
	what, it := "run "+ids[0]+" is", "it"
	if len(ids) > 1 {
		what, it = "runs "+strings.Join(ids, ", ")+" are", "them"
	}
	return fmt.Sprintf("%s imported, and trajectories of %s are kept: tracer export will skip them: their agent saw another harness's prompt and tools", what, it)
}

// Validate checks req: a finite Criteria.MinReward; a
// Criteria.MaxUserDependence, when set, finite and at least 0; a Name
// unless DryRun, and neither Name nor Replace with DryRun (a dry run
// stores nothing). The error is an *OptionError naming the field
// ("MinReward", "MaxUserDependence", "Name", "DryRun").
func (req FilterRequest) Validate() error {
	c := req.Criteria
	switch {
	case math.IsNaN(c.MinReward) || math.IsInf(c.MinReward, 0):
		return optionErrorf("MinReward", "least reward %v: need a finite number", c.MinReward)
	case c.MaxUserDependence != nil && !(*c.MaxUserDependence >= 0 && !math.IsInf(*c.MaxUserDependence, 0)):
		return optionErrorf("MaxUserDependence", "user dependence bound %v: need a finite bound of at least 0", *c.MaxUserDependence)
	case !req.DryRun && req.Name == "":
		return optionErrorf("Name", "a stored selection needs a name (or a dry run, which stores nothing)")
	case req.DryRun && (req.Name != "" || req.Replace):
		return optionErrorf("DryRun", "a dry run stores nothing: it takes no selection name and replaces nothing")
	}
	return nil
}
