package table

import (
	"fmt"
	"math"
)

// NotEvaluatedText stands in for the pass^1 of a run with trajectories but
// no evaluated one: 0 would read as a measured failure.
const NotEvaluatedText = "not evaluated"

// RunRow is one run as the runs command lists it.
type RunRow struct {
	ID                                  int64
	Name, AgentModel, Domain, Condition string
	Tasks, MinTrials, MaxTrials         int // MinTrials and MaxTrials: fewest and most trials of a task
	Trajectories, Abandoned             int
	Pass1                               float64 // NaN for an empty run
	NotEvaluated                        bool    // trajectories, none of them evaluated
	PartialCredit                       bool    // some rewards give partial credit
	MeanReward                          float64 // pass^1 with partial credit
	Provenance                          string  // ingested, native, merged or unknown
}

// Runs lists runs. A run with trajectories but none evaluated shows
// pass_hat_1 as "not evaluated": as that cell in text, as null with
// pass_hat_1_note "not evaluated" in csv and json. mean_reward is given
// only for runs with partial-credit rewards: in text a column shown when
// one run has them, in csv and json a field always there, null for the
// other runs. The last column is the run's provenance kind.
func Runs(runs []RunRow, format string) *Table {
	split := Split(format)
	partial := false
	for _, r := range runs {
		partial = partial || r.PartialCredit
	}
	columns := []string{"id", "name", "model", "domain", "condition", "tasks", "trials_per_task", "trajectories", "pass_hat_1"}
	if split {
		columns = append(columns, "pass_hat_1_note")
	}
	if split || partial {
		columns = append(columns, "mean_reward")
	}
	t := &Table{Columns: append(columns, "abandoned", "provenance")}
	for _, r := range runs {
		var pass1, note any = r.Pass1, nil
		if r.NotEvaluated {
			pass1, note = math.NaN(), NotEvaluatedText
			if !split {
				pass1 = NotEvaluatedText
			}
		}
		row := []any{
			r.ID, r.Name, r.AgentModel, r.Domain, r.Condition,
			r.Tasks, TrialsPerTask(r.MinTrials, r.MaxTrials), r.Trajectories, pass1,
		}
		if split {
			row = append(row, note)
		}
		if split || partial {
			mean := math.NaN()
			if r.PartialCredit {
				mean = r.MeanReward
			}
			row = append(row, mean)
		}
		t.Rows = append(t.Rows, append(row, r.Abandoned, r.Provenance))
	}
	return t
}

// TrialsPerTask shows "4", or "2-4" when tasks have different trial counts.
func TrialsPerTask(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}
