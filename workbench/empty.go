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
