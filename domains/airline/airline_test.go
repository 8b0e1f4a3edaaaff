package airline

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// testDomain is New(), made once for the package's tests.
var testDomain = sync.OnceValue(New)

// initialState returns a copy-on-write fork of the initial database, as
// an episode gets it: change it through Edit and Put only.
func initialState() *DB {
	db, _ := sim.StateOf[DB](testDomain().NewEnvironment())
	return db
}

func newEnv(db *DB) *sim.StateEnv[DB] { return sim.NewStateEnv(db, Tools()) }

// get returns the row id of t, nil when there is none.
func get[V any](t *sim.Table[V], id string) *V {
	v, _ := t.Get(id)
	return v
}

// edit returns the row id of t for changing.
func edit[V any](t *sim.Table[V], id string) *V {
	v, _ := t.Edit(id)
	return v
}

// cloneDB returns a deep copy of db through its JSON encoding.
func cloneDB(tb testing.TB, db *DB) *DB {
	tb.Helper()
	b, err := json.Marshal(db)
	if err != nil {
		tb.Fatal(err)
	}
	var out DB
	if err := json.Unmarshal(b, &out); err != nil {
		tb.Fatal(err)
	}
	return &out
}

func TestNew(t *testing.T) {
	d := New()
	if got, want := d.Name(), "airline"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
	for _, rule := range []string{"2024-05-15 15:00", "explicit **yes**", "one travel certificate", "basic economy", "24 hours", "$40", "$100 per passenger", "$50 per passenger", "transfer_to_human_agents"} {
		if !strings.Contains(d.Policy(), rule) {
			t.Errorf("policy does not mention %q", rule)
		}
	}
	env := d.NewEnvironment()
	if !slices.ContainsFunc(env.Tools(), func(s sim.ToolSchema) bool { return s.Name == d.TransferTool() }) {
		t.Errorf("TransferTool() = %q is not a tool", d.TransferTool())
	}
	tasks := d.Tasks()
	if got, want := len(tasks), NumTestTasks+NumTrainTasks; got != want {
		t.Fatalf("len(Tasks()) = %d, want %d", got, want)
	}
	if tasks[0].Split != emobench.SplitTest || tasks[len(tasks)-1].Split != emobench.SplitTrain {
		t.Errorf("Tasks() splits %s ... %s, want the test tasks, then the train tasks", tasks[0].Split, tasks[len(tasks)-1].Split)
	}
	tasks[0].ID = "changed"
	if d.Tasks()[0].ID == "changed" {
		t.Error("Tasks() returns the domain's own slice")
	}
}

func TestNewEnvironment_Independent(t *testing.T) {
	d := New()
	a, b := d.NewEnvironment(), d.NewEnvironment()
	initial := b.Hash()
	tasks := d.Tasks()
	writes := writeSet()
	task := tasks[slices.IndexFunc(tasks, func(t emobench.TaskSpec) bool {
		return slices.ContainsFunc(t.Actions, func(a emobench.Action) bool { return writes[a.Name] })
	})]
	for _, act := range task.Actions {
		if _, err := a.Call(act.Name, act.Arguments); err != nil {
			t.Fatalf("task %s: %s: %v", task.ID, act.Name, err)
		}
	}
	if a.Hash() == initial {
		t.Fatalf("task %s did not change its environment", task.ID)
	}
	if got := b.Hash(); got != initial {
		t.Error("a write in one environment changed another")
	}
	if got := d.NewEnvironment().Hash(); got != initial {
		t.Error("a write in one environment changed later environments")
	}
	if _, err := a.Call("no_such_tool", json.RawMessage(`{}`)); err == nil {
		t.Error("an unknown tool succeeded")
	}
}

// BenchmarkNewEnvironment measures what each episode pays up front: a fresh
// copy of the database, and a state hash.
func BenchmarkNewEnvironment(b *testing.B) {
	d := New()
	b.Run("clone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = d.NewEnvironment()
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "envs/s")
	})
	b.Run("clone+hash", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = d.NewEnvironment().Hash()
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "envs/s")
	})
}
