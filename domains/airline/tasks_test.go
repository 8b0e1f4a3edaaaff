package airline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

func testTasks(t *testing.T) []emobench.TaskSpec {
	t.Helper()
	tasks, err := sim.DecodeTasks(tasksJSON)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// TestTasksJSON_UpToDate is the golden check: the embedded tasks.json is
// what BuildTasks writes today. Regenerate with `go generate ./domains/airline`.
func TestTasksJSON_UpToDate(t *testing.T) {
	want, err := sim.EncodeTasks(BuildTasks(GenerateDB(Seed), TestTaskSeed, NumTestTasks, emobench.SplitTest))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tasksJSON, want) {
		t.Fatalf("tasks.json is stale; run go generate ./domains/airline (-embedded +built):\n%s", cmp.Diff(string(tasksJSON), string(want)))
	}
}

var factKey = regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)

func TestTasks_Valid(t *testing.T) {
	tasks := testTasks(t)
	if got, want := len(tasks), NumTestTasks; got != want {
		t.Fatalf("len(tasks) = %d, want %d", got, want)
	}
	tools := map[string]sim.ToolSchema{}
	for _, tl := range Tools() {
		tools[tl.Name] = tl.ToolSchema
	}
	for i, task := range tasks {
		if err := task.Validate(); err != nil {
			t.Errorf("task %d: %v", i, err)
		}
		if got, want := task.ID, fmt.Sprintf("airline-test-%03d", i); got != want {
			t.Errorf("task %d: id %q, want %q", i, got, want)
		}
		if task.Domain != Name || task.Split != emobench.SplitTest {
			t.Errorf("task %s: domain %q split %q", task.ID, task.Domain, task.Split)
		}
		if _, ok := initialDB().Users[task.UserID]; !ok {
			t.Errorf("task %s: unknown user %q", task.ID, task.UserID)
		}
		if got := task.Scenario.Facts["user_id"]; got != task.UserID {
			t.Errorf("task %s: fact user_id = %q, want %q", task.ID, got, task.UserID)
		}
		for k, v := range task.Scenario.Facts {
			if !factKey.MatchString(k) || v == "" {
				t.Errorf("task %s: fact %q = %q: want a snake_case key and a value", task.ID, k, v)
			}
		}
		if !strings.Contains(task.Instruction, task.UserID) {
			t.Errorf("task %s: the instruction does not give the user id", task.ID)
		}
		var names []string
		for _, a := range task.Actions {
			if _, ok := tools[a.Name]; !ok {
				t.Errorf("task %s: action %s is not a tool", task.ID, a.Name)
			}
			names = append(names, a.Name)
		}
		if len(names) == 0 || names[0] != ToolGetUserDetails {
			t.Errorf("task %s: actions %v do not start by authenticating with get_user_details", task.ID, names)
		}
		// Each request is completed by tools the gold actions call, in order.
		next := 0
		for _, r := range task.Scenario.Requests {
			if r.Text == "" || len(r.Tools) == 0 {
				t.Errorf("task %s: request %+v needs text and tools", task.ID, r)
			}
			for _, name := range r.Tools {
				j := slices.Index(names[next:], name)
				if j < 0 {
					t.Errorf("task %s: request %q names %s, which no later gold action calls", task.ID, r.Text, name)
					continue
				}
				next += j
			}
		}
		// Every write in the gold actions completes some request.
		for _, a := range task.Actions {
			if tools[a.Name].Writes && !slices.ContainsFunc(task.Scenario.Requests, func(r emobench.Request) bool { return slices.Contains(r.Tools, a.Name) }) {
				t.Errorf("task %s: write %s completes no request", task.ID, a.Name)
			}
		}
	}
}

// TestTasks_Replay replays each task's gold actions on a fresh environment,
// as the oracle agent and the evaluator do.
func TestTasks_Replay(t *testing.T) {
	d := New()
	initial := d.NewEnvironment().Hash()
	writes := map[string]bool{}
	for _, tl := range d.NewEnvironment().Tools() {
		writes[tl.Name] = tl.Writes
	}
	for _, task := range d.Tasks() {
		env := d.NewEnvironment()
		wrote := false
		for i, a := range task.Actions {
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Errorf("task %s: action %d %s(%s): %v", task.ID, i, a.Name, a.Arguments, err)
			}
			wrote = wrote || writes[a.Name]
		}
		if changed := env.Hash() != initial; changed != wrote {
			t.Errorf("task %s: final state changed = %v, want %v", task.ID, changed, wrote)
		}
	}
}

// TestTasks_Grounded checks that every id, name, code and date a gold write
// passes reaches the agent: from the user's facts or from an earlier tool
// result. Enumerated arguments (reason, trip type) and the transfer summary
// are the agent's own words.
func TestTasks_Grounded(t *testing.T) {
	own := map[string]bool{"reason": true, "trip_type": true, "summary": true}
	d := New()
	writes := map[string]bool{}
	for _, tl := range d.NewEnvironment().Tools() {
		writes[tl.Name] = tl.Writes
	}
	for _, task := range d.Tasks() {
		var known strings.Builder
		for _, v := range task.Scenario.Facts {
			known.WriteString(v + "\n")
		}
		env := d.NewEnvironment()
		for _, a := range task.Actions {
			if writes[a.Name] {
				var kwargs map[string]any
				if err := json.Unmarshal(a.Arguments, &kwargs); err != nil {
					t.Fatal(err)
				}
				for _, s := range leafStrings(kwargs, own) {
					if !strings.Contains(known.String(), s) {
						t.Errorf("task %s: %s passes %q, which neither the facts nor an earlier result mention", task.ID, a.Name, s)
					}
				}
			}
			res, _ := env.Call(a.Name, a.Arguments)
			known.WriteString(res + "\n")
		}
	}
}

// leafStrings returns the string values in v, skipping keys in skip.
func leafStrings(v any, skip map[string]bool) []string {
	var out []string
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, e := range v {
			out = append(out, leafStrings(e, skip)...)
		}
	case map[string]any:
		for k, e := range v {
			if !skip[k] {
				out = append(out, leafStrings(e, skip)...)
			}
		}
	}
	return out
}

func TestTasks_Coverage(t *testing.T) {
	tasks := testTasks(t)
	seen := map[string]map[string]bool{}
	mark := func(dim, v string) {
		if seen[dim] == nil {
			seen[dim] = map[string]bool{}
		}
		seen[dim][v] = true
	}
	withOutputs := 0
	called := map[string]bool{}
	for _, task := range tasks {
		e := task.Emotion
		mark("family", e.Family)
		mark("leaf", e.Family+"/"+e.Leaf)
		mark("politeness", e.Politeness)
		mark("urgency", e.Urgency)
		mark("trust", e.Trust)
		if len(task.Outputs) > 0 {
			withOutputs++
		}
		for _, a := range task.Actions {
			called[a.Name] = true
		}
	}
	for _, f := range emobench.Taxonomy.Families {
		if !seen["family"][f.Name] {
			t.Errorf("no task of family %s", f.Name)
		}
		for _, l := range f.Leaves {
			if !seen["leaf"][f.Name+"/"+l] {
				t.Errorf("no task of leaf %s/%s", f.Name, l)
			}
		}
	}
	for dim, values := range emobench.Taxonomy.Dimensions {
		for _, v := range values {
			if !seen[dim][v] {
				t.Errorf("no task with %s %s", dim, v)
			}
		}
	}
	if withOutputs < 5 {
		t.Errorf("%d tasks have outputs, want at least 5", withOutputs)
	}
	for _, tl := range Tools() {
		if !called[tl.Name] && tl.Name != ToolListAllAirports {
			t.Errorf("no task calls %s", tl.Name)
		}
	}
}

func TestBuildTasks(t *testing.T) {
	db := GenerateDB(Seed)
	before := hashOf(db)
	a := BuildTasks(db, 11, 60, emobench.SplitTrain)
	if hashOf(db) != before {
		t.Fatal("BuildTasks changed the database")
	}
	b := BuildTasks(db, 11, 60, emobench.SplitTrain)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("BuildTasks is not deterministic (-first +second):\n%s", diff)
	}
	if got, want := len(a), 60; got != want {
		t.Fatalf("len = %d, want %d", got, want)
	}
	if got, want := a[59].ID, "airline-train-059"; got != want {
		t.Errorf("last id = %q, want %q", got, want)
	}
	for _, task := range a {
		if task.Split != emobench.SplitTrain {
			t.Errorf("task %s: split %q", task.ID, task.Split)
		}
	}
	if c := BuildTasks(db, 12, 60, emobench.SplitTrain); cmp.Equal(a, c) {
		t.Error("seeds 11 and 12 give the same tasks")
	}
	// A small database runs out of material and returns what it has.
	if testing.Short() {
		return // the exhaustive build takes most of the package's test time
	}
	if got := BuildTasks(db, 11, 100000, emobench.SplitTrain); len(got) < 100 || len(got) >= 100000 {
		t.Errorf("asking for 100000 tasks gave %d", len(got))
	}
}
