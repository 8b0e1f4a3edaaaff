package workbench

import (
	"context"
	"fmt"
	"strings"

	"github.com/emobench/emobench/db"
)

// NoTrajectoriesNote is the note a statistic gives instead of an empty
// table when no run of s holds a trajectory: it names the runs ("run 1
// (name) holds no trajectories: there is nothing to compute"), or says
// the database holds no run. It is "" when some run of s holds a
// trajectory (an empty table then has another cause, such as too few
// trials for k). Errors are the database's.
func NoTrajectoriesNote(ctx context.Context, store *db.DB, s Selection) (string, error) {
	runs, err := store.ListRunSummaries(ctx)
	if err != nil {
		return "", err
	}
	var empty []string
	for _, r := range runs {
		if _, ok := s.Units.Of(r.ID); !ok {
			continue
		}
		if r.Trajectories > 0 {
			return "", nil
		}
		empty = append(empty, fmt.Sprintf("run %d (%s)", r.ID, r.Name))
	}
	switch len(empty) {
	case 0:
		return "no runs to compute over: the database holds none (add some with `emobench ingest` or `emobench run`)", nil
	case 1:
		return empty[0] + " holds no trajectories: there is nothing to compute", nil
	}
	return strings.Join(empty, ", ") + " hold no trajectories: there is nothing to compute", nil
}

// Computation is one computation of a stats command or the report over
// a selection of units: an XStats's Compute, ReportOptions.Build. It
// returns its result and notes on the data.
type Computation[T any] func(context.Context, *db.DB, Selection) (T, []string, error)

// Compute opens the database at path read-only (OpenRuns), selects the
// runs refs name (all when none), per run or, with pool, per pool
// (Select), and runs run over the selection. When empty is not nil and
// reports the result empty, none is NoTrajectoriesNote's note ("" when a
// run holds trajectories). The notes come back also when run fails; the
// database is closed when Compute returns.
func Compute[T any](ctx context.Context, path string, refs []string, pool bool, run Computation[T], empty func(T) bool) (res T, s Selection, notes []string, none string, err error) {
	store, runIDs, err := OpenRuns(ctx, path, refs)
	if err != nil {
		return res, s, nil, "", err
	}
	defer store.Close()
	if s, err = Select(ctx, store, runIDs, pool); err != nil {
		return res, s, nil, "", err
	}
	res, notes, err = run(ctx, store, s)
	if err == nil && empty != nil && empty(res) {
		none, err = NoTrajectoriesNote(ctx, store, s)
	}
	return res, s, notes, none, err
}
