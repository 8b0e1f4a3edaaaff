package tracer

import (
	"context"
	"errors"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// testSplit tells which stored trajectories are of test-split tasks, the
// tasks no training data may hold. A trajectory is test-split when:
//   - its task is stored as a test task (tasks.split), or is one of the
//     embedded test tasks by domain and id (a task's content hash includes
//     its id, so this covers every copy of it, and an edited one too);
//   - its run's config says split test (a native run or collection);
//   - its run collected a stored task set of split test.
type testSplit struct {
	keys map[[2]string]bool // (domain, task id) of the embedded test tasks
	runs map[int64]bool     // runs whose config or task set says test
}

// newTestSplit indexes the embedded test tasks tests (tasks of another
// split are ignored) and reads the configs of runIDs' runs.
func newTestSplit(ctx context.Context, store *db.DB, tests []emobench.TaskSpec, runIDs []int64) (*testSplit, error) {
	s := &testSplit{keys: map[[2]string]bool{}, runs: map[int64]bool{}}
	for _, t := range tests {
		if t.Split == emobench.SplitTest {
			s.keys[[2]string{t.Domain, t.ID}] = true
		}
	}
	runs, err := store.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	want := map[int64]bool{}
	for _, id := range runIDs {
		want[id] = true
	}
	for _, r := range runs {
		if !want[r.ID] || r.SourceFormat != emobench.SourceNative {
			continue
		}
		spec, err := emobench.DecodeRunSpec(r.Config)
		if err != nil {
			continue // a config that does not decode says nothing of its split
		}
		if spec.Split == string(emobench.SplitTest) {
			s.runs[r.ID] = true
			continue
		}
		if spec.TaskSet != "" {
			set, err := store.FindTaskSet(ctx, spec.TaskSet)
			switch {
			case err == nil && set.Split == emobench.SplitTest:
				s.runs[r.ID] = true
			case err != nil && !errors.Is(err, db.ErrNotFound):
				return nil, err
			}
		}
	}
	return s, nil
}

// test reports whether trajectory r is of a test-split task.
func (s *testSplit) test(r db.FilterTrajectory) bool {
	return r.TaskSplit == string(emobench.SplitTest) || s.runs[r.RunID] || s.keys[[2]string{r.Domain, r.TaskKey}]
}
