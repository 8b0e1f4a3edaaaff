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
// report only renders.
type Input struct {
	Title       string
	GeneratedAt time.Time
	Runs        []RunSummary // table (d); also names runs in the charts by RunID
	// PassKByRun holds pass^k rows with no group fields, all k per run: chart (a).
	PassKByRun []analysis.PassKRow
	// FamilyPass1 holds k = 1 rows grouped by [emotion_family]: chart (b).
	FamilyPass1 []analysis.PassKRow
	// ConditionPass1 holds k = 1 rows grouped by
	// [agent_model, domain, condition]: chart (c), which pairs with- and
	// without-emotions for each model+domain that has both.
	ConditionPass1 []analysis.PassKRow
}
