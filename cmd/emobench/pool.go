package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
	if apart := units.KeptApart(); len(apart) > 0 && e != nil {
		e.warn(fmt.Sprintf("--pool: runs %s have an unknown agent model or domain, so each is its own pool (set them with `emobench runs set RUN --model M`, or ingest with --model/--domain)", runIDList(apart)))
	}
	return units, names, nil
}

// runIDList is a cell naming runs: a JSON array, "3,5" in text.
type runIDList []int64

func (l runIDList) String() string {
	s := make([]string, len(l))
	for i, id := range l {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}

// unitColumns are the leading columns naming a row's unit: run_id and run
// per run; pooled, pool (agent / user / domain / condition) and run_ids.
func unitColumns(pooled bool) []string {
	if pooled {
		return []string{"pool", "run_ids"}
	}
	return []string{"run_id", "run"}
}

// unitCells are the cells of unitColumns for u.
func unitCells(u analysis.Unit, pooled bool, names map[int64]string) []any {
	if pooled {
		return []any{u.Key.Label(), runIDList(u.RunIDs)}
	}
	return []any{u.ID, names[u.ID]}
}

// unitLabel names a unit in a chart: the run's name ("name (run N)" when
// another run has the same name, "run N" when it has none), or the pool's
// key with its run ids. Charts key cells by it, so no two units share one.
func unitLabel(u analysis.Unit, names map[int64]string) string {
	if u.Pooled {
		return fmt.Sprintf("%s (runs %s)", u.Key.Label(), runIDList(u.RunIDs))
	}
	name := names[u.ID]
	if name == "" {
		return fmt.Sprintf("run %d", u.ID)
	}
	for id, other := range names {
		if other == name && id != u.ID {
			return fmt.Sprintf("%s (run %d)", name, u.ID)
		}
	}
	return name
}

// noteOverlaps says, on stderr, which tasks appear in more than one run of
// a pool: their trajectories in every run are trials of the task.
func noteOverlaps(e *env, overlaps []analysis.Overlap) {
	for i, o := range overlaps {
		if i == maxOverlapNotes {
			word := "tasks"
			if len(overlaps)-i == 1 {
				word = "task"
			}
			e.warn(fmt.Sprintf("and %d more %s in more than one pooled run", len(overlaps)-i, word))
			return
		}
		e.warn(o.String())
	}
}

// taskOverlaps are the overlaps of pooled task outcomes, tasks named by
// key.
func taskOverlaps(ctx context.Context, store *db.DB, units analysis.Units, tasks []analysis.TaskTrials) ([]analysis.Overlap, error) {
	if !pooledUnits(units) {
		return nil, nil
	}
	keys, err := store.TaskKeys(ctx)
	if err != nil {
		return nil, err
	}
	// Overlap by task row, as PoolTasks pools; name the task by its key.
	rt := make([]analysis.RunTask, len(tasks))
	for i, t := range tasks {
		rt[i] = analysis.RunTask{RunID: t.RunID, Task: strconv.FormatInt(t.TaskID, 10)}
	}
	overlaps := analysis.Overlaps(units, rt)
	for i, o := range overlaps {
		id, _ := strconv.ParseInt(o.Task, 10, 64)
		overlaps[i].Task = keys[id]
	}
	return overlaps, nil
}

// outcomeOverlaps are the overlaps of trajectories, tasks named by key.
func outcomeOverlaps(units analysis.Units, outcomes []db.TrajectoryOutcome) []analysis.Overlap {
	if !pooledUnits(units) {
		return nil
	}
	// Overlap by the task's content (its pair key), not its key alone: two
	// runs may hold different tasks under one key. Name the task by its key.
	rt := make([]analysis.RunTask, len(outcomes))
	keyOf := map[string]string{}
	for i, o := range outcomes {
		id := cmp.Or(o.PairKey, o.TaskKey)
		keyOf[id] = o.TaskKey
		rt[i] = analysis.RunTask{RunID: o.RunID, Task: id}
	}
	overlaps := analysis.Overlaps(units, rt)
	for i, o := range overlaps {
		overlaps[i].Task = keyOf[o.Task]
	}
	slices.SortStableFunc(overlaps, func(a, b analysis.Overlap) int {
		return cmp.Or(cmp.Compare(a.Unit.ID, b.Unit.ID), analysis.CompareTaskKeys(a.Task, b.Task))
	})
	return overlaps
}

func pooledUnits(u analysis.Units) bool {
	list := u.List()
	return len(list) > 0 && list[0].Pooled
}

// pooledTaskTrials loads per-run task outcomes (loadTaskTrialsFrom) and turns them
// into per-unit ones (analysis.PoolTasks), with each unit's min-trials n
// when conv needs it, and the overlaps of pooled runs.
func pooledTaskTrials(ctx context.Context, withoutInfra bool, store *db.DB, units analysis.Units, runIDs []int64, fields []string, conv analysis.Convention) ([]analysis.TaskTrials, map[int64]int, []analysis.Overlap, error) {
	in, runTrials, err := loadTaskTrialsFrom(ctx, withoutInfra, store, runIDs, fields, conv)
	if err != nil {
		return nil, nil, nil, err
	}
	overlaps, err := taskOverlaps(ctx, store, units, in)
	if err != nil {
		return nil, nil, nil, err
	}
	return analysis.PoolTasks(in, units), analysis.PoolRunTrials(runTrials, units), overlaps, nil
}

// unitName names a unit in a note: "run 3", or "pool M / U / D / C (runs 3,5)".
func unitName(u analysis.Unit) string {
	if u.Pooled {
		return fmt.Sprintf("pool %s (runs %s)", u.Key.Label(), runIDList(u.RunIDs))
	}
	return fmt.Sprintf("run %d", u.ID)
}

// unitNoun is "pool" for pooled units and "run" otherwise.
func unitNoun(u analysis.Units) string {
	if pooledUnits(u) {
		return "pool"
	}
	return "run"
}
