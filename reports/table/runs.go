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
	UserModel, UserStrategy             string  // shown in json only
}

// Runs lists runs. A run with trajectories but none evaluated shows
// pass_hat_1 as "not evaluated": as that cell in text, as null with
// pass_hat_1_note "not evaluated" in csv and json. mean_reward is given
// only for runs with partial-credit rewards: in text a column shown when
// one run has them, in csv and json a field always there, null for the
// other runs. The last column is the run's provenance kind. json also
// gives each run's user_model and user_strategy.
//
// trials_per_task is "4", or "2-4" when the run's tasks have different
// trial counts, in every format but json. In json it is a number when
// every task has the same count and null when they differ, with
// min_trials and max_trials (numbers) always beside it, so that jq reads
// numbers: `.trials_per_task // "\(.min_trials)-\(.max_trials)"`.
func Runs(runs []RunRow, format string) *Table {
	split, asJSON := Split(format), format == "json"
	partial := false
	for _, r := range runs {
		partial = partial || r.PartialCredit
	}
	columns := []string{"id", "name", "model"}
	if asJSON {
		columns = append(columns, "user_model", "user_strategy")
	}
	columns = append(columns, "domain", "condition", "tasks", "trials_per_task")
	if asJSON {
		columns = append(columns, "min_trials", "max_trials")
	}
	columns = append(columns, "trajectories", "pass_hat_1")
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
		row := []any{r.ID, r.Name, r.AgentModel}
		if asJSON {
			row = append(row, r.UserModel, r.UserStrategy)
		}
		row = append(row, r.Domain, r.Condition, r.Tasks)
		if asJSON {
			var trials any // null: tasks differ, see min_trials and max_trials
			if r.MinTrials == r.MaxTrials {
				trials = r.MinTrials
			}
			row = append(row, trials, r.MinTrials, r.MaxTrials)
		} else {
			row = append(row, TrialsPerTask(r.MinTrials, r.MaxTrials))
		}
		row = append(row, r.Trajectories, pass1)
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
