package db

import "context"

// RunTask keys a (run, task) pair by the ids TaskTrials gives.
type RunTask struct{ RunID, TaskID int64 }

// ListUnevaluated returns, per (run, task) of ListTaskTrials (or, with
// withoutInfraErrors, of ListTaskTrialsWithoutInfraErrors), how many of
// its trajectories have no reward information (evaluated = 0). Pairs with
// none are not in the map. TaskTrials.Unevaluated gives the same counts
// with the listing.
func (db *DB) ListUnevaluated(ctx context.Context, withoutInfraErrors bool) (map[RunTask]int, error) {
	rows, err := db.queries.ListUnevaluatedTasks(ctx, boolInt(withoutInfraErrors))
	out := make(map[RunTask]int, len(rows))
	for _, r := range rows {
		out[RunTask{r.RunID, r.TaskID}] = int(r.Unevaluated)
	}
	return out, err
}
