// Package reports renders analysis results as one self-contained HTML file
// (go-echarts charts with the echarts library embedded, no network fetch).
package reports

import (
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
)

// RunSummary is one row of the report's runs table.
type RunSummary struct {
	Run          emobench.Run
	Tasks        int
	Trajectories int
	Pass1        float64 // pass^1 under the per-task convention; NaN when no task
	Abandoned    int     // trajectories ended by user_unsatisfied
}

// Input is everything the HTML report shows. The caller computes it; the
// report only renders. Nil slices are fine: the part they feed shows a note.
type Input struct {
	Title       string       // page title; DefaultTitle when empty
	GeneratedAt time.Time    // shown in UTC; not shown when zero
	Runs        []RunSummary // table (d), in this order; also names runs in the charts by RunID
	// PassKByRun holds pass^k rows with no group fields, all k per run: chart (a).
	PassKByRun []analysis.PassKRow
	// FamilyPass1 holds k = 1 rows grouped by [emotion_family]: chart (b).
	// Rows with another k are ignored.
	FamilyPass1 []analysis.PassKRow
	// ConditionPass1 holds k = 1 rows grouped by
	// [agent_model, domain, condition]: chart (c), which pairs with- and
	// without-emotions for each model+domain that has both. Rows with
	// another k, another condition, or fewer than 3 group values are ignored.
	ConditionPass1 []analysis.PassKRow
}
