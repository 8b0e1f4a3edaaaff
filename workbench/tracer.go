package workbench

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports"
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

// addTracerSection puts the most recently stored Tracer selection (the
// latest created_at, then the highest id) into d, with the command that
// prints its funnel; none stored leaves d as it is. A selection whose
// counts or criteria do not decode is an error naming it.
func addTracerSection(ctx context.Context, store *db.DB, d *reports.Data) error {
	sels, err := store.ListSelections(ctx)
	if err != nil || len(sels) == 0 {
		return err
	}
	latest := sels[0]
	for _, s := range sels[1:] {
		if s.CreatedAt.After(latest.CreatedAt) || s.CreatedAt.Equal(latest.CreatedAt) && s.ID > latest.ID {
			latest = s
		}
	}
	f, err := tracer.DecodeFunnel(latest)
	if err != nil {
		return err
	}
	var criteria tracer.FilterCriteriaRecord
	if err := json.Unmarshal(latest.Criteria, &criteria); err != nil {
		return emobench.Errorf(emobench.EINVALID, "selection %s: criteria: %v", latest.Name, err)
	}
	d.Tracer = &reports.TracerSelection{Name: latest.Name, Funnel: f, Command: "emobench tracer funnel --selection " + shellWord(latest.Name),
		GeneratedFromTaskSets: criteria.GeneratedFromTaskSets}
	return nil
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9._/:=+-]+$`)

// shellWord is s as one word of a POSIX shell command line.
func shellWord(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// collectedTasks returns the tasks of run id's task set (a Tracer
// collection resumed), as tracer.CollectedTasks finds them; a set or file
// gone or changed since is an EREQUEST error naming it.
func collectedTasks(ctx context.Context, store *db.DB, id int64, spec emobench.RunSpec) ([]emobench.TaskSpec, error) {
	tasks, ok, err := tracer.CollectedTasks(ctx, store, spec)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, requestf("run %d collected the tasks of %s (sha256 %s), which is gone or has changed since: its missing episodes cannot be run", id, spec.TaskSet, spec.TaskSetSHA256)
	}
	return tasks, nil
}
