package workbench

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/sim"
)

// PlanCollect plans Tracer's collection (tracer collect): run's plans
// (PlanRuns) over src's tasks, one run per (domain, condition) for every
// domain src holds, at src's split, each recording src (Record) so that
// a resume and the funnel find its tasks. A run without opts.Name is
// named collect-BASE, BASE the tasks file's or task set's name without
// directory and extension. Tasks of two splits are an error naming one
// task of each: a collection is of one split. PlanRuns' errors are
// returned as they are.
func PlanCollect(src *TaskSource, condition string, concurrency int, opts sim.RunOptions) ([]sim.PlannedRun, error) {
	first := src.Tasks[0]
	for _, t := range src.Tasks {
		if t.Split != first.Split {
			return nil, fmt.Errorf("%s: task %s is a %s task, task %s a %s one: collect one split at a time", src.Name, first.ID, first.Split, t.ID, t.Split)
		}
	}
	opts.Split = first.Split
	if opts.Name == "" {
		base := filepath.Base(src.Name)
		opts.Name = "collect-" + strings.TrimSuffix(base, filepath.Ext(base))
	}
	plans, err := PlanRuns(PlanRequest{Domains: src.Domains(), Condition: condition, Concurrency: concurrency, Options: opts, Tasks: src.Tasks})
	if err != nil {
		return nil, err
	}
	src.Record(plans)
	return plans, nil
}

// CollectedRuns returns the ids of the runs plans were stored as (by
// name), and the number of distinct (domain, task) pairs they ran: a task
// filter (RunOptions.Tasks) may have picked some of the source's. A run
// not stored is an error.
func CollectedRuns(ctx context.Context, store *db.DB, plans []sim.PlannedRun) (ids []int64, tasks int, err error) {
	ran := map[string]bool{}
	for _, p := range plans {
		for _, id := range p.Spec.Tasks {
			ran[p.Spec.Domain+"/"+id] = true
		}
		id, err := store.ResolveRun(ctx, p.Run.Name)
		if err != nil {
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	return ids, len(ran), nil
}

// CollectedLine is the line tracer collect ends with: how many tasks and
// trials plans collected (CollectedRuns) and the tracer filter command
// that keeps their trajectories, naming each run.
func CollectedLine(ctx context.Context, store *db.DB, plans []sim.PlannedRun, trials int) (string, error) {
	ids, tasks, err := CollectedRuns(ctx, store, plans)
	if err != nil {
		return "", err
	}
	var refs []string
	for _, id := range ids {
		refs = append(refs, fmt.Sprintf("--run %d", id))
	}
	return fmt.Sprintf("collected %d tasks × %d trials; filter them with: emobench tracer filter %s --selection NAME", tasks, trials, strings.Join(refs, " ")), nil
}
