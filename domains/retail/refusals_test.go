package retail

import (
	"regexp"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// preAccepts matches instruction text that accepts a refusal in advance.
var preAccepts = regexp.MustCompile(`(?i)\baccept\b|if the agent|cannot be done|can't be done|that's fine|if not`)

// TestRefusals checks the embedded refusal tasks (the last fifth): each
// has forbidden writes its gold does not make, its gold only reads, its
// instruction does not accept a refusal in advance, and the forbidden
// writes are what the tools make of them: refused by the order's status
// for a cancel of a delivered order or a return of a pending one, and
// accepted, changing the database, for the others.
func TestRefusals(t *testing.T) {
	db := InitialDB()
	tasks, forbidden := buildTasks(db, TestTaskSeed, NumTestTasks, emobench.SplitTest)
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	refusals := tasks[NumTestTasks-NumTestTasks/5:]
	if got, want := len(forbidden), len(refusals); got != want {
		t.Fatalf("tasks with forbidden writes = %d, want %d (the refusals)", got, want)
	}
	live, byStatus := 0, 0
	tools := map[string]int{}
	for _, task := range refusals {
		fs := forbidden[task.ID]
		if len(fs) == 0 {
			t.Errorf("task %s: no forbidden write", task.ID)
		}
		for _, a := range task.Actions {
			if writes[a.Name] {
				t.Errorf("task %s: gold action %s writes", task.ID, a.Name)
			}
		}
		if m := preAccepts.FindString(task.Instruction); m != "" {
			t.Errorf("task %s: instruction %q accepts a refusal in advance (%q)", task.ID, task.Instruction, m)
		}
		for _, f := range fs {
			tools[f.Name]++
			env := NewEnvironment(db.Clone())
			for _, a := range task.Actions {
				if _, err := env.Call(a.Name, a.Arguments); err != nil {
					t.Fatalf("task %s: gold %s: %v", task.ID, a.Name, err)
				}
			}
			before := env.Hash()
			_, err := env.Call(f.Name, f.Arguments)
			switch {
			case err == nil && env.Hash() != before:
				live++
			case err != nil && strings.Contains(err.Error(), "only ") && strings.Contains(err.Error(), " orders can be "):
				byStatus++
				if env.Hash() != before {
					t.Errorf("task %s: refused %s changed the state", task.ID, f.Name)
				}
			default:
				t.Errorf("task %s: forbidden %s%s: error %v, state changed %v: want a status refusal or a write", task.ID, f.Name, f.Arguments, err, env.Hash() != before)
			}
		}
	}
	if got, want := byStatus, 4; got != want {
		t.Errorf("forbidden writes refused by the order's status = %d, want %d", got, want)
	}
	if got, want := live, 6; got != want {
		t.Errorf("forbidden writes the tools make = %d, want %d", got, want)
	}
	for _, name := range []string{ToolCancelOrder, ToolReturnItems, ToolExchangeItems} {
		if tools[name] == 0 {
			t.Errorf("no refusal task forbids %s", name)
		}
	}
}
