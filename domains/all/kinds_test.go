package all_test

import (
	"cmp"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// taskKind is what a task asks of the agent, read off its gold and
// forbidden lists alone, so that it holds for any task set (the embedded
// builders' or Tracer's).
type taskKind string

// Task kinds, from the most specific: a task with a forbidden list is
// forbidden whatever its gold calls; else one whose gold calls the
// transfer tool is transfer; else one whose gold makes a write is write;
// else read.
const (
	kindForbidden taskKind = "forbidden"
	kindTransfer  taskKind = "transfer"
	kindWrite     taskKind = "write"
	kindRead      taskKind = "read"
)

var taskKinds = []taskKind{kindForbidden, kindTransfer, kindWrite, kindRead}

// kindOf returns task's kind in dom; writes says which of dom's tools
// write (writeTools).
func kindOf(dom sim.Domain, writes map[string]bool, task *emobench.TaskSpec) taskKind {
	if len(task.Forbidden) > 0 {
		return kindForbidden
	}
	if slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return a.Name == dom.TransferTool() }) {
		return kindTransfer
	}
	if slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return writes[a.Name] }) {
		return kindWrite
	}
	return kindRead
}

// writeTools returns which of dom's tools write.
func writeTools(dom sim.Domain) map[string]bool {
	writes := map[string]bool{}
	for _, tool := range dom.NewEnvironment().Tools() {
		writes[tool.Name] = tool.Writes
	}
	return writes
}

// tasksByKind groups tasks by kind, each group sorted by task id.
func tasksByKind(dom sim.Domain, tasks []*emobench.TaskSpec) map[taskKind][]*emobench.TaskSpec {
	writes := writeTools(dom)
	out := map[taskKind][]*emobench.TaskSpec{}
	for _, task := range tasks {
		k := kindOf(dom, writes, task)
		out[k] = append(out[k], task)
	}
	for _, group := range out {
		slices.SortFunc(group, func(a, b *emobench.TaskSpec) int { return cmp.Compare(a.ID, b.ID) })
	}
	return out
}

// shortPerKind bounds the tasks per kind the validity tests run under
// -short; without -short they run every task.
const shortPerKind = 12

// sampleTasks returns tasks, or under -short at most shortPerKind tasks
// of each kind, spread evenly over the kind's tasks sorted by id: the same
// sample every time, and every kind the domain has.
func sampleTasks(t *testing.T, dom sim.Domain, tasks []*emobench.TaskSpec) []*emobench.TaskSpec {
	t.Helper()
	if !testing.Short() {
		return tasks
	}
	var out []*emobench.TaskSpec
	for _, kind := range taskKinds {
		out = append(out, spread(tasksByKind(dom, tasks)[kind], shortPerKind)...)
	}
	return out
}

// spread returns n elements of s at even strides (all of s when it has n
// or fewer).
func spread[T any](s []T, n int) []T {
	if len(s) <= n {
		return s
	}
	out := make([]T, n)
	for i := range out {
		out[i] = s[i*len(s)/n]
	}
	return out
}

// allTasks returns dom's tasks of every split.
func allTasks(dom sim.Domain) []*emobench.TaskSpec {
	tasks := dom.Tasks()
	out := make([]*emobench.TaskSpec, len(tasks))
	for i := range tasks {
		out[i] = &tasks[i]
	}
	return out
}

func TestKindOf(t *testing.T) {
	dom := fakeDomain{}
	writes := map[string]bool{"cancel": true, "transfer": true}
	tests := []struct {
		name string
		task emobench.TaskSpec
		want taskKind
	}{
		{"read", emobench.TaskSpec{Actions: []emobench.Action{{Name: "get"}}}, kindRead},
		{"no calls", emobench.TaskSpec{}, kindRead},
		{"write", emobench.TaskSpec{Actions: []emobench.Action{{Name: "get"}, {Name: "cancel"}}}, kindWrite},
		{"transfer over write", emobench.TaskSpec{Actions: []emobench.Action{{Name: "cancel"}, {Name: "transfer"}}}, kindTransfer},
		{"forbidden over transfer", emobench.TaskSpec{Actions: []emobench.Action{{Name: "transfer"}}, Forbidden: []emobench.Action{{Name: "cancel"}}}, kindForbidden},
	}
	for _, tt := range tests {
		if got := kindOf(dom, writes, &tt.task); got != tt.want {
			t.Errorf("%s: kind %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestSpread(t *testing.T) {
	if got, want := spread([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 4), []int{0, 2, 5, 7}; !slices.Equal(got, want) {
		t.Fatalf("spread = %v, want %v", got, want)
	}
	if got := spread([]int{1, 2}, 4); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("spread of a short slice = %v, want it whole", got)
	}
}

// fakeDomain is only asked for its transfer tool.
type fakeDomain struct{ sim.Domain }

func (fakeDomain) TransferTool() string { return "transfer" }
