package airline

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

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

func trainTasks(t *testing.T) []emobench.TaskSpec {
	t.Helper()
	tasks, err := sim.DecodeTasks(trainTasksJSON)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

var factKey = regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)

func TestTasks_Valid(t *testing.T) {
	for _, split := range []struct {
		name  emobench.Split
		tasks []emobench.TaskSpec
		n     int
		seed  uint64
	}{{emobench.SplitTest, testTasks(t), NumTestTasks, TestTaskSeed}, {emobench.SplitTrain, trainTasks(t), NumTrainTasks, TrainTaskSeed}} {
		t.Run(string(split.name), func(t *testing.T) { checkTasks(t, split.tasks, split.name, split.n, split.seed) })
	}
}

// checkTasks checks one split of the embedded tasks.
func checkTasks(t *testing.T, tasks []emobench.TaskSpec, split emobench.Split, n int, seed uint64) {
	if got, want := len(tasks), n; got != want {
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
		if got, want := task.ID, fmt.Sprintf("airline-%s-%03d", split, i); got != want {
			t.Errorf("task %d: id %q, want %q", i, got, want)
		}
		if task.Domain != Name || task.Split != split {
			t.Errorf("task %s: domain %q split %q", task.ID, task.Domain, task.Split)
		}
		if g := task.Generator; g == nil || g.Name != "tracer" || g.Seed != seed || len(task.Intents) == 0 {
			t.Errorf("task %s: generator %+v, intents %v; want Tracer's with seed %d", task.ID, g, task.Intents, seed)
		}
		if _, ok := initialDB().Users.Get(task.UserID); !ok {
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
		// The user can identify itself: the user id is a fact, which the
		// LLM user simulator's prompt lists beside the instruction.
		if task.Instruction == "" || task.Scenario.Facts["user_id"] == "" {
			t.Errorf("task %s: no instruction or no user id among the facts", task.ID)
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
	for _, task := range replayed(t, d) {
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
	for _, task := range replayed(t, d) {
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

// TestTasks_Mix checks the shape Tracer was asked for: in each split at
// least 10% of tasks hold a forbidden intent and 5% end with a transfer;
// the test tasks that write average at least 1.5 gold writes, and at
// least 30% of them hold two or more.
func TestTasks_Mix(t *testing.T) {
	kinds := map[string]sim.IntentKind{}
	for _, in := range Catalog().Intents {
		kinds[in.Name] = in.Kind
	}
	writes := writeSet()
	for _, split := range []struct {
		name  emobench.Split
		tasks []emobench.TaskSpec
	}{{emobench.SplitTest, testTasks(t)}, {emobench.SplitTrain, trainTasks(t)}} {
		forbidden, transfer, total, multi, writing := 0, 0, 0, 0, 0
		for _, task := range split.tasks {
			if slices.ContainsFunc(task.Intents, func(name string) bool { return kinds[name] == sim.IntentForbidden }) {
				forbidden++
			}
			if n := len(task.Actions); n > 0 && task.Actions[n-1].Name == ToolTransfer {
				transfer++
			}
			w := 0
			for _, a := range task.Actions {
				if writes[a.Name] {
					w++
				}
			}
			total += w
			if w >= 2 {
				multi++
			}
			if w > 0 {
				writing++
			}
		}
		n := float64(len(split.tasks))
		t.Logf("%s: %d tasks, %.2f writes a task, %d with 2+, %d forbidden, %d transfer", split.name, len(split.tasks), float64(total)/n, multi, forbidden, transfer)
		if float64(forbidden) < 0.10*n || float64(transfer) < 0.05*n {
			t.Errorf("%s: %d forbidden and %d transfer tasks of %d, want at least 10%% and 5%%", split.name, forbidden, transfer, len(split.tasks))
		}
		// The test split's shares of refusals, transfers and reads
		// (tracer's MeasurePolicy) leave fewer tasks that write: the
		// writes are counted among those.
		if split.name == emobench.SplitTest && (float64(total) < 1.5*float64(writing) || float64(multi) < 0.30*float64(writing)) {
			t.Errorf("test: %d writes and %d tasks with two or more among %d tasks that write, want an average of 1.5 and 30%%", total, multi, writing)
		}
	}
}

// replayed are the tasks the replay tests run: the test split, and
// without -short every tenth train task (Tracer replayed each when it
// generated them; all 500 take most of the package's test time).
func replayed(t *testing.T, _ sim.Domain) []emobench.TaskSpec {
	tasks := testTasks(t)
	if testing.Short() {
		return tasks
	}
	for i, task := range trainTasks(t) {
		if i%10 == 0 {
			tasks = append(tasks, task)
		}
	}
	return tasks
}
