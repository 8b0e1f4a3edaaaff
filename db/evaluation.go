package db

import "context"

// RunTask keys a (run, task) pair by the ids TaskTrials gives.
type RunTask struct{ RunID, TaskID int64 }

// ListUnevaluated returns, per (run, task) of ListTaskTrials (or, with
// withoutInfraErrors, of ListTaskTrialsWithoutInfraErrors), how many of
// its trajectories have no reward information (evaluated = 0). Pairs with
// none are not in the map.
func (db *DB) ListUnevaluated(ctx context.Context, withoutInfraErrors bool) (map[RunTask]int, error) {
	out := map[RunTask]int{}
	if withoutInfraErrors {
		rows, err := db.queries.ListUnevaluatedTasksWithoutInfraErrors(ctx)
		for _, r := range rows {
			out[RunTask{r.RunID, r.TaskID}] = int(r.Unevaluated)
		}
		return out, err
	}
	rows, err := db.queries.ListUnevaluatedTasks(ctx)
	for _, r := range rows {
		out[RunTask{r.RunID, r.TaskID}] = int(r.Unevaluated)
	}
	return out, err
}
