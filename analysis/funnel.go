package analysis

import (
	"cmp"
	"slices"

	"github.com/emobench/emobench"
)

// FilterCriteria are Tracer's interaction-aware filter settings (`tracer
// filter`): which collected trajectories are worth training on.
type FilterCriteria struct {
	// MinReward is the least reward kept, compared with
	// emobench.PassTolerance's slack: reward ≥ MinReward − 1e-6 passes (1
	// keeps only full passes; a reward exactly MinReward is kept).
	MinReward float64 `json:"min_reward"`
	// KeepAbandoned keeps trajectories the user abandoned
	// (user_unsatisfied); false (the default) drops them.
	KeepAbandoned bool `json:"keep_abandoned"`
	// MaxUserDependence bounds user_turns_per_fact: a trajectory is within
	// it when its value is ≤ MaxUserDependence (equal is kept). nil is no
	// bound; under a bound, a trajectory whose dependence is unknown (an
	// imported task without a scenario) is dropped.
	MaxUserDependence *float64 `json:"max_user_dependence,omitempty"`
	// AllowTestTasks keeps trajectories of test-split tasks
	// (FunnelTrajectory.TestSplit); false (the default) drops them first,
	// so that no test task becomes training data.
	AllowTestTasks bool `json:"allow_test_tasks"`
}

// FunnelTrajectory is one collected trajectory as the filter sees it.
type FunnelTrajectory struct {
	ID      int64  // the trajectory's id, handed back in Kept
	Domain  string // the run's domain
	Family  string // the task's emotion family, "none" under the without-emotions condition
	TaskKey string // the task's id, for the generated count when no task set is known
	// Reward is the trajectory's reward; nil (or Evaluated false) never
	// passes.
	Reward    *float64
	Evaluated bool
	Abandoned bool // terminated user_unsatisfied
	// UserTurnsPerFact is the trajectory's user dependence; nil when
	// unknown.
	UserTurnsPerFact *float64
	// TestSplit is set when the trajectory's task is a test-split task (the
	// caller decides: the task, its run or its task set says test).
	TestSplit bool
}

// FunnelStage is how far a trajectory got through the filter.
type FunnelStage int

// Funnel stages, in order: a trajectory is dropped at the first it fails.
const (
	DroppedTest      FunnelStage = iota // a test-split task, without AllowTestTasks
	DroppedFailed                       // reward below MinReward, or not evaluated
	DroppedAbandoned                    // user_unsatisfied, without KeepAbandoned
	DroppedDependent                    // user dependence above the bound, or unknown under one
	StageKept                           // kept
)

// FilterStage returns the stage t reaches under c.
func FilterStage(t FunnelTrajectory, c FilterCriteria) FunnelStage {
	switch {
	case t.TestSplit && !c.AllowTestTasks:
		return DroppedTest
	case !t.Evaluated || t.Reward == nil || *t.Reward < c.MinReward-emobench.PassTolerance:
		return DroppedFailed
	case t.Abandoned && !c.KeepAbandoned:
		return DroppedAbandoned
	case c.MaxUserDependence != nil && (t.UserTurnsPerFact == nil || *t.UserTurnsPerFact > *c.MaxUserDependence):
		return DroppedDependent
	}
	return StageKept
}

// FunnelRow is the funnel of one (domain, emotion family), or of every
// trajectory (Domain and Family empty). Each count is at most the one
// before it, from Collected on; TestExcluded is taken from Collected
// before Passed (Passed ≤ Collected − TestExcluded).
type FunnelRow struct {
	Domain string `json:"domain"`
	Family string `json:"family"`
	// Generated counts the tasks behind the row: the caller's count (the
	// task set's tasks) when given, else the distinct tasks collected.
	Generated int `json:"generated"`
	Collected int `json:"collected"` // trajectories
	// TestExcluded counts the collected trajectories dropped first as
	// test-split tasks (none under AllowTestTasks).
	TestExcluded     int `json:"test_excluded"`
	Passed           int `json:"passed"`            // of the others, reward ≥ MinReward
	NotAbandoned     int `json:"not_abandoned"`     // of those, not dropped as abandoned
	WithinDependence int `json:"within_dependence"` // of those, within MaxUserDependence
	Kept             int `json:"kept"`              // kept: WithinDependence, as no later step drops
	// DependenceUnknown counts the collected trajectories whose user
	// dependence is unknown (imported tasks without a scenario).
	DependenceUnknown int `json:"dependence_unknown"`
}

// Funnel is the filter's funnel: one row per (domain, family), sorted by
// domain then family, and their total.
type Funnel struct {
	Rows  []FunnelRow `json:"rows"`
	Total FunnelRow   `json:"total"`
	// Kept are the ids of the kept trajectories, in input order.
	Kept []int64 `json:"-"`
}

// FunnelGroup names one row of a Funnel.
type FunnelGroup struct{ Domain, Family string }

// Generated are the funnel's generated counts when the caller knows them
// (the tasks of the task sets collected): per row, and in total (distinct
// tasks, which rows of several families or conditions share).
type Generated struct {
	Rows  map[FunnelGroup]int
	Total int
}

// CountFunnel runs every trajectory through FilterStage and counts, per
// (domain, family) and in total, how many reach each stage: generated →
// collected → (test-split excluded) → passed → not abandoned → within dependence → kept.
// generated, when not nil, gives the Generated counts (a row it lacks
// counts 0; a group it has without trajectories gets a row); nil counts
// the distinct task keys collected (the total's: distinct (domain, task)
// pairs). Empty input gives a Funnel with no rows and a zero total.
func CountFunnel(trajs []FunnelTrajectory, c FilterCriteria, generated *Generated) Funnel {
	rows := map[FunnelGroup]*FunnelRow{}
	tasks := map[FunnelGroup]map[string]bool{}
	all := map[FunnelGroup]bool{} // (domain, task key)
	var f Funnel
	for _, t := range trajs {
		g := FunnelGroup{t.Domain, t.Family}
		r := rows[g]
		if r == nil {
			r = &FunnelRow{Domain: t.Domain, Family: t.Family}
			rows[g], tasks[g] = r, map[string]bool{}
		}
		tasks[g][t.TaskKey] = true
		all[FunnelGroup{t.Domain, t.TaskKey}] = true
		if t.UserTurnsPerFact == nil {
			r.DependenceUnknown++
		}
		stage := FilterStage(t, c)
		r.Collected++
		if stage == DroppedTest {
			r.TestExcluded++
		}
		if stage > DroppedFailed {
			r.Passed++
		}
		if stage > DroppedAbandoned {
			r.NotAbandoned++
		}
		if stage > DroppedDependent {
			r.WithinDependence++
			r.Kept++
			f.Kept = append(f.Kept, t.ID)
		}
	}
	if generated != nil {
		for g, n := range generated.Rows {
			if rows[g] == nil {
				rows[g] = &FunnelRow{Domain: g.Domain, Family: g.Family}
			}
			rows[g].Generated = n
		}
		f.Total.Generated = generated.Total
	}
	for g, r := range rows {
		if generated == nil {
			r.Generated = len(tasks[g])
		}
		f.Rows = append(f.Rows, *r)
	}
	if generated == nil {
		f.Total.Generated = len(all)
	}
	slices.SortFunc(f.Rows, func(a, b FunnelRow) int {
		return cmp.Or(cmp.Compare(a.Domain, b.Domain), cmp.Compare(a.Family, b.Family))
	})
	for _, r := range f.Rows {
		f.Total.Collected += r.Collected
		f.Total.TestExcluded += r.TestExcluded
		f.Total.Passed += r.Passed
		f.Total.NotAbandoned += r.NotAbandoned
		f.Total.WithinDependence += r.WithinDependence
		f.Total.Kept += r.Kept
		f.Total.DependenceUnknown += r.DependenceUnknown
	}
	return f
}

// KeptFamilies returns the kept trajectories per emotion family (rows of
// every domain summed), sorted by family: the emotion distribution of the
// kept data.
func (f Funnel) KeptFamilies() []FamilyCount {
	by := map[string]int{}
	for _, r := range f.Rows {
		by[r.Family] += r.Kept
	}
	out := make([]FamilyCount, 0, len(by))
	for fam, n := range by {
		out = append(out, FamilyCount{Family: fam, Kept: n})
	}
	slices.SortFunc(out, func(a, b FamilyCount) int { return cmp.Compare(a.Family, b.Family) })
	return out
}

// FamilyCount is how many kept trajectories one emotion family has.
type FamilyCount struct {
	Family string `json:"family"`
	Kept   int    `json:"kept"`
}
