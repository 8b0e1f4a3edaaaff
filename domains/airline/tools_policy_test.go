package airline

import (
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// TestRefusals_Bite checks the embedded refusal tasks: the gold makes no
// forbidden write (a mixed task makes allowed ones), and each forbidden write, made after the gold, is
// accepted by the tools and changes the database, so an agent that makes
// it fails the task's database check.
func TestRefusals_Bite(t *testing.T) {
	tasks := testTasks(t)
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	n := 0
	for _, task := range tasks {
		fs := task.Forbidden
		if len(fs) == 0 {
			continue
		}
		n++
		env := sim.NewStateEnv(initialState(), Tools())
		for _, a := range task.Actions {
			// A mixed task writes what the policy allows, never a
			// forbidden write.
			if writes[a.Name] && slices.ContainsFunc(fs, func(f emobench.Action) bool { return sim.ForbiddenMatch(f, a) }) {
				t.Errorf("task %s: refusal gold makes the forbidden %s", task.ID, a.Name)
			}
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Fatalf("task %s: gold %s: %v", task.ID, a.Name, err)
			}
		}
		for _, f := range fs {
			before := env.Hash()
			if _, err := env.Call(f.Name, f.Arguments); err != nil || env.Hash() == before {
				t.Errorf("task %s: forbidden %s%s: error %v, state changed %v; want it made", task.ID, f.Name, f.Arguments, err, env.Hash() != before)
			}
		}
	}
	if n < 6 {
		t.Errorf("refusal tasks = %d, want at least 6", n)
	}
	t.Logf("%d refusal tasks of %d", n, len(tasks))
}
