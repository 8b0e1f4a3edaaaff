package workbench

import (
	"context"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/tracer"
)

// storeDependence stores the user dependence (tracer.Dependence) of a
// trajectory run runID has just stored, so that SQL users can query it
// right after `run`. A task without a scenario stores nothing (NULL:
// unknown). It is a transaction of its own after the trajectory's: a crash
// between the two leaves NULL, which `tracer filter` computes then.
func storeDependence(ctx context.Context, store *db.DB, runID int64, traj *emobench.Trajectory) error {
	d, ok, err := tracer.Dependence(traj)
	if err != nil || !ok {
		return err
	}
	return store.SetRunTrajectoryDependence(ctx, runID, traj.Task.Domain, traj.Task.Key, traj.Trial, d.Record())
}
