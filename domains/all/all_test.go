package all_test

import (
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// Each domain must be big enough to be a benchmark: τ-bench's smallest
// domain (airline) has 50 test tasks and 13 tools.
const (
	minTestTasks = 40
	minTools     = 12
)

func TestFind_ErrUnknown(t *testing.T) {
	if _, err := all.Find("nosuch"); err == nil {
		t.Fatal(`Find("nosuch") returned no error`)
	}
	if got, want := all.Names(), []string{"airline", "retail", "telecom", "telehealth"}; !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
}

func TestDomains_Size(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(testTasks(dom)); got < minTestTasks {
			t.Errorf("%s: %d test tasks, want at least %d", name, got, minTestTasks)
		}
		if got := len(dom.NewEnvironment().Tools()); got < minTools {
			t.Errorf("%s: %d tools, want at least %d", name, got, minTools)
		}
		t.Logf("%s: %d test tasks, %d tools", name, len(testTasks(dom)), len(dom.NewEnvironment().Tools()))
	}
}

func testTasks(dom sim.Domain) []*emobench.TaskSpec {
	tasks := dom.Tasks()
	var out []*emobench.TaskSpec
	for i := range tasks {
		if tasks[i].Split == emobench.SplitTest {
			out = append(out, &tasks[i])
		}
	}
	return out
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// TestTasks_DistinctContentHashes: no two embedded tasks of a domain share
// a content hash, so no two share a tasks row and get pooled as one task
// (the hash leaves out Forbidden, NLAssertions and RewardBasis; see
// emobench.TaskSpec).
func TestTasks_DistinctContentHashes(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		dom, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, spec := range allTasks(dom) {
			task := spec.Task()
			sum, err := task.ContentSHA256()
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[sum]; ok {
				t.Errorf("%s: tasks %s and %s share content hash %s", name, other, spec.ID, sum)
			}
			seen[sum] = spec.ID
		}
	}
}
