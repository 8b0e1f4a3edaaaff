package tracer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"slices"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/sim"
)

// TaskSetSHA256 is the hex sha256 of tasks as one JSON array (encoding/json
// of the specs): what `tracer collect --task-set NAME` records as the
// task set's sha256 in the runs' config (RunSpec.TaskSetSHA256).
func TaskSetSHA256(tasks []emobench.TaskSpec) string {
	b, err := json.Marshal(tasks)
	if err != nil {
		panic("tracer: TaskSpec does not encode: " + err.Error()) // plain fields: unreachable
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// CollectedTasks returns the tasks a collection run of spec ran, when they
// can still be found unchanged: the task set spec.TaskSet names in store
// (its tasks' TaskSetSHA256 equal to spec's), or the tasks file at that
// path (its bytes' sha256 equal). It returns false when spec names no
// task set, or when the set or file is gone or changed; errors are
// store's, or a file that matches but does not decode.
func CollectedTasks(ctx context.Context, store *db.DB, spec emobench.RunSpec) ([]emobench.TaskSpec, bool, error) {
	if spec.TaskSet == "" || spec.TaskSetSHA256 == "" {
		return nil, false, nil
	}
	_, tasks, err := store.LoadTaskSet(ctx, spec.TaskSet)
	switch {
	case err == nil && TaskSetSHA256(tasks) == spec.TaskSetSHA256:
		return tasks, true, nil
	case err != nil && !errors.Is(err, db.ErrNotFound):
		return nil, false, err
	}
	data, err := os.ReadFile(spec.TaskSet)
	if err != nil {
		return nil, false, nil // moved or removed: unknown
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != spec.TaskSetSHA256 {
		return nil, false, nil
	}
	tasks, err = sim.DecodeTasks(data)
	if err != nil {
		return nil, false, err
	}
	return tasks, true, nil
}

// generatedCounts counts, per funnel row (domain, family), the tasks of
// the task sets runIDs' runs collected (CollectedTasks; those the run's
// config lists when it lists some): a run under the
// without-emotions condition adds its tasks to family "none", another to
// each task's family; a task is counted once per row, and once in the
// total. It returns nil when
// some run's tasks are not known (an imported run, a task set gone): the
// funnel then counts the distinct tasks collected.
func generatedCounts(ctx context.Context, store *db.DB, runIDs []int64) (*analysis.Generated, error) {
	runs, err := store.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	want := map[int64]bool{}
	for _, id := range runIDs {
		want[id] = true
	}
	seen := map[analysis.FunnelGroup]map[string]bool{}
	distinct := map[[2]string]bool{} // (domain, task id)
	for _, r := range runs {
		if !want[r.ID] {
			continue
		}
		if r.SourceFormat != emobench.SourceNative {
			return nil, nil
		}
		spec, err := emobench.DecodeRunSpec(r.Config)
		if err != nil {
			return nil, nil
		}
		tasks, ok, err := CollectedTasks(ctx, store, spec)
		if err != nil || !ok {
			return nil, err
		}
		for _, t := range tasks {
			if t.Domain != r.Domain || (len(spec.Tasks) > 0 && !slices.Contains(spec.Tasks, t.ID)) {
				continue // another domain's, or not picked (collect --tasks IDS)
			}
			g := analysis.FunnelGroup{Domain: r.Domain, Family: FunnelFamily(string(r.Condition), t.Emotion.Family)}
			if seen[g] == nil {
				seen[g] = map[string]bool{}
			}
			seen[g][t.ID] = true
			distinct[[2]string{t.Domain, t.ID}] = true
		}
	}
	if len(seen) == 0 {
		return nil, nil
	}
	counts := &analysis.Generated{Rows: map[analysis.FunnelGroup]int{}, Total: len(distinct)}
	for g, ids := range seen {
		counts.Rows[g] = len(ids)
	}
	return counts, nil
}
