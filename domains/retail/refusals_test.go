package retail

import (
	"regexp"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// preAccepts matches instruction text that accepts a refusal in advance.
var preAccepts = regexp.MustCompile(`(?i)\baccept\b|if the agent|cannot be done|can't be done|that's fine|if not`)

// TestRefusals checks the embedded refusal tasks (those with forbidden
// writes): their gold only reads, their instructions do not accept a
// refusal in advance, and the forbidden writes are what the tools make of
// them: refused, leaving the state as it was, when the store cannot carry
// them out (an order's status, an unaccepted reason, items already
// changed), and accepted, changing the database, for the others. Both
// occur, and cancels, returns, exchanges and item changes are forbidden.
func TestRefusals(t *testing.T) {
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	live, refused, refusals := 0, 0, 0
	tools := map[string]int{}
	for _, task := range New().Tasks() {
		if len(task.Forbidden) == 0 {
			continue
		}
		refusals++
		for _, a := range task.Actions {
			// A mixed task writes what the policy allows, never a
			// forbidden write.
			if writes[a.Name] && slices.ContainsFunc(task.Forbidden, func(f emobench.Action) bool { return sim.ForbiddenMatch(f, a) }) {
				t.Errorf("task %s: gold action %s is forbidden", task.ID, a.Name)
			}
		}
		if m := preAccepts.FindString(task.Instruction); m != "" {
			t.Errorf("task %s: instruction %q accepts a refusal in advance (%q)", task.ID, task.Instruction, m)
		}
		for _, f := range task.Forbidden {
			tools[f.Name]++
			env := replay(t)
			for _, a := range task.Actions {
				if _, err := env.Call(a.Name, a.Arguments); err != nil {
					t.Fatalf("task %s: gold %s: %v", task.ID, a.Name, err)
				}
			}
			before := env.Hash()
			_, err := env.Call(f.Name, f.Arguments)
			switch changed := env.Hash() != before; {
			case err == nil && changed:
				live++
			case err != nil && !changed:
				refused++
			default:
				t.Errorf("task %s: forbidden %s%s: error %v, state changed %v", task.ID, f.Name, f.Arguments, err, changed)
			}
		}
	}
	if refusals < NumTestTasks/10 {
		t.Errorf("refusal tasks = %d, want at least %d", refusals, NumTestTasks/10)
	}
	if live == 0 || refused == 0 {
		t.Errorf("forbidden writes the tools make = %d, refuse = %d: want both", live, refused)
	}
	for _, name := range []string{ToolCancelOrder, ToolReturnItems, ToolExchangeItems, ToolModifyItems} {
		if tools[name] == 0 {
			t.Errorf("no refusal task forbids %s", name)
		}
	}
}
