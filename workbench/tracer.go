package workbench

import (
	"context"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/sim"
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

// taskSetDomain is a domain whose tasks are a given list (a Tracer tasks
// file) instead of its own.
type taskSetDomain struct {
	sim.Domain
	tasks []emobench.TaskSpec
}

func (d taskSetDomain) Tasks() []emobench.TaskSpec { return d.tasks }

// withTasks returns dom offering those of tasks of its name; nil tasks
// leave dom as it is.
func withTasks(dom sim.Domain, tasks []emobench.TaskSpec) sim.Domain {
	if tasks == nil {
		return dom
	}
	var own []emobench.TaskSpec
	for _, t := range tasks {
		if t.Domain == dom.Name() {
			own = append(own, t)
		}
	}
	return taskSetDomain{Domain: dom, tasks: own}
}
