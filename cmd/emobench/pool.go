package main

import (
	"cmp"
	"context"
	"fmt"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/urfave/cli/v2"
)

// poolFlag is --pool, on every stats command and on report.
func poolFlag() cli.Flag {
	return &cli.BoolFlag{Name: "pool", Usage: "pool the runs that share agent model, user model, domain and condition: every trajectory of a task in them is one trial of it; without it, statistics are per run"}
}

// maxOverlapNotes caps the overlap notes printed one by one.
const maxOverlapNotes = 10

// loadUnits returns the analysis units of runIDs (of every run when
// empty): one per run, or one per pool when pool is set, with run names by
// id. Pooling notes on e (when not nil) the runs it keeps apart.
func loadUnits(ctx context.Context, e *env, store *db.DB, runIDs []int64, pool bool) (analysis.Units, map[int64]string, error) {
	runs, err := store.ListRuns(ctx) // not the summaries: they count every trajectory
	if err != nil {
		return analysis.Units{}, nil, err
	}
	keep := map[int64]bool{}
	for _, id := range runIDs {
		keep[id] = true
	}
	keys := map[int64]analysis.PoolKey{}
	names := map[int64]string{}
	for _, r := range runs {
		names[r.ID] = r.Name
		if len(keep) == 0 || keep[r.ID] {
			keys[r.ID] = analysis.PoolKey{AgentModel: r.AgentModel, UserModel: r.UserModel, Domain: r.Domain, Condition: string(r.Condition)}
		}
	}
	units := analysis.NewUnits(keys, pool)
	if e != nil {
		noteKeptApart(e, units)
	}
	return units, names, nil
}

// noteKeptApart says which runs pooling kept apart (analysis.Units.KeptApart).
func noteKeptApart(e *env, units analysis.Units) {
	if apart := units.KeptApart(); len(apart) > 0 {
		e.warn(fmt.Sprintf("--pool: runs %s have an unknown agent model or domain, so each is its own pool (set them with `emobench runs set RUN --model M`, or ingest with --model/--domain)", analysis.JoinIDs(apart)))
	}
}

// noteOverlaps says, on stderr, which tasks appear in more than one run of
// a pool: their trajectories in every run are trials of the task.
func noteOverlaps(e *env, overlaps []analysis.Overlap) {
	e.warnAll(analysis.OverlapNotes(overlaps, maxOverlapNotes))
}

// outcomeOverlaps are the overlaps of trajectories by their task's content
// (its pair key), tasks named by key.
func outcomeOverlaps(units analysis.Units, outcomes []db.TrajectoryOutcome) []analysis.Overlap {
	tasks := make([]analysis.NamedRunTask, len(outcomes))
	for i, o := range outcomes {
		tasks[i] = analysis.NamedRunTask{RunID: o.RunID, Task: cmp.Or(o.PairKey, o.TaskKey), Name: o.TaskKey}
	}
	return analysis.NamedOverlaps(units, tasks)
}

// pooledTaskTrials loads per-run task outcomes (loadTaskTrialsFrom) and turns them
// into per-unit ones (analysis.PoolTasks), with each unit's min-trials n
// when conv needs it, and the overlaps of pooled runs.
func pooledTaskTrials(ctx context.Context, withoutInfra bool, store *db.DB, units analysis.Units, runIDs []int64, fields []string, conv analysis.Convention) ([]analysis.TaskTrials, map[int64]int, []analysis.Overlap, error) {
	in, runTrials, err := loadTaskTrialsFrom(ctx, withoutInfra, store, runIDs, fields, conv)
	if err != nil {
		return nil, nil, nil, err
	}
	var overlaps []analysis.Overlap
	if units.Pooled() {
		keys, err := store.TaskKeys(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		overlaps = analysis.TaskTrialOverlaps(units, in, keys)
	}
	return analysis.PoolTasks(in, units), analysis.PoolRunTrials(runTrials, units), overlaps, nil
}
