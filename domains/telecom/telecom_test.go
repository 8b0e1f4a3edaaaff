package telecom

import (
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func TestDomain(t *testing.T) {
	d := New()
	if got, want := d.Name(), "telecom"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	if p := strings.Join(strings.Fields(d.Policy()), " "); !strings.Contains(p, "next billing cycle") || !strings.Contains(p, "The tools do not check this policy") {
		t.Errorf("Policy does not state the plan change rule and that the tools do not check it")
	}
	env := d.NewEnvironment()
	var names []string
	writes := 0
	for _, s := range env.Tools() {
		names = append(names, s.Name)
		if s.Writes {
			writes++
		}
	}
	if len(names) < 12 || writes < 5 {
		t.Errorf("%d tools, %d writes: want at least 12 and 5", len(names), writes)
	}
	if !slices.Contains(names, d.TransferTool()) {
		t.Errorf("TransferTool %q is not among the tools %v", d.TransferTool(), names)
	}
	if _, err := env.Call("no_such_tool", nil); err == nil {
		t.Errorf("Call of an unknown tool: no error")
	}
}

// TestDomain_NewEnvironment checks that episodes do not share state.
func TestDomain_NewEnvironment(t *testing.T) {
	d := New()
	a, b := d.NewEnvironment(), d.NewEnvironment()
	initial := a.Hash()
	var task emobench.TaskSpec // the first task with a write
	writes := map[string]bool{}
	for _, tl := range Tools() {
		writes[tl.Name] = tl.Writes
	}
	for _, tk := range d.Tasks() {
		if slices.ContainsFunc(tk.Actions, func(a emobench.Action) bool { return writes[a.Name] }) {
			task = tk
			break
		}
	}
	for _, act := range task.Actions {
		if _, err := a.Call(act.Name, act.Arguments); err != nil {
			t.Fatal(err)
		}
	}
	if a.Hash() == initial {
		t.Fatalf("task %s did not change the state", task.ID)
	}
	if got := b.Hash(); got != initial {
		t.Fatalf("another environment's state changed")
	}
	if got := d.NewEnvironment().Hash(); got != initial {
		t.Fatalf("a new environment does not start from the initial state")
	}
}

// TestGenerateDB_HashDeterministic: the same seed gives the same
// environment hash, another seed another one, and the episode's
// copy-on-write database hashes as a deep copy does.
func TestGenerateDB_HashDeterministic(t *testing.T) {
	h := func(db *DB) string { return sim.NewStateEnv(db, Tools()).Hash() }
	a, b, c := h(GenerateDB(Seed)), h(GenerateDB(Seed)), h(GenerateDB(Seed+1))
	if a != b {
		t.Fatalf("GenerateDB(Seed) twice: hashes %s and %s", a, b)
	}
	if a == c {
		t.Fatalf("GenerateDB(Seed) and GenerateDB(Seed+1) hash alike")
	}
	if got := New().NewEnvironment().Hash(); got != a {
		t.Fatalf("episode hash %s, want the generated database's %s", got, a)
	}
	if got := h(InitialDB()); got != a {
		t.Fatalf("InitialDB hash %s, want %s", got, a)
	}
}

// TestEpisodeClone_CopyOnWrite replays test tasks on an episode's
// copy-on-write database and on a deep copy, call by call: results and
// hashes agree, and the shared snapshot never changes.
func TestEpisodeClone_CopyOnWrite(t *testing.T) {
	snapHash := sim.NewStateEnv(initialDB().Clone(), Tools()).Hash()
	// A deep copy hashes every customer: the test tasks, and every
	// fifth train task (none in -short).
	for i, task := range New().Tasks() {
		if i >= NumTestTasks && (testing.Short() || i%5 != 0) {
			continue
		}
		cow, deep := New().NewEnvironment(), NewEnvironment(InitialDB())
		for i, a := range task.Actions {
			r1, e1 := cow.Call(a.Name, a.Arguments)
			r2, e2 := deep.Call(a.Name, a.Arguments)
			if r1 != r2 || (e1 == nil) != (e2 == nil) {
				t.Fatalf("task %s action %d: copy on write %q %v, deep copy %q %v", task.ID, i, r1, e1, r2, e2)
			}
		}
		if cow.Hash() != deep.Hash() {
			t.Fatalf("task %s: hashes differ", task.ID)
		}
	}
	if got := sim.NewStateEnv(initialDB().Clone(), Tools()).Hash(); got != snapHash {
		t.Fatal("the snapshot changed")
	}
}
