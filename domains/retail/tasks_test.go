package retail

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite tasks.json from BuildTasks")

func TestTasks_Golden(t *testing.T) {
	got, err := sim.EncodeTasks(BuildTasks(GenerateDB(Seed), TestTaskSeed, NumTestTasks, emobench.SplitTest))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("tasks.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, tasksJSON) {
		t.Fatalf("tasks.json is stale; run `go generate ./domains/retail` (-want +got):\n%s", cmp.Diff(string(tasksJSON), string(got)))
	}
}

func TestBuildTasks_Deterministic(t *testing.T) {
	a, _ := sim.EncodeTasks(BuildTasks(GenerateDB(3), 11, 60, emobench.SplitTrain))
	b, _ := sim.EncodeTasks(BuildTasks(GenerateDB(3), 11, 60, emobench.SplitTrain))
	if !bytes.Equal(a, b) {
		t.Fatal("BuildTasks gave different tasks for the same seeds")
	}
	c, _ := sim.EncodeTasks(BuildTasks(GenerateDB(3), 12, 60, emobench.SplitTrain))
	if bytes.Equal(a, c) {
		t.Fatal("BuildTasks gave the same tasks for different seeds")
	}
}

var factKey = regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)

// checkTasks checks specs as TestTasks_Replay documents, replaying on
// environments over copies of db.
func checkTasks(t *testing.T, db *DB, tasks []emobench.TaskSpec) {
	t.Helper()
	writes := map[string]bool{}
	for _, tool := range Tools() {
		writes[tool.Name] = tool.Writes
	}
	initial := hashOf(db)
	ids := map[string]bool{}
	for _, task := range tasks {
		if err := task.Validate(); err != nil {
			t.Errorf("%v", err)
			continue
		}
		if ids[task.ID] {
			t.Errorf("task %s: duplicate id", task.ID)
		}
		ids[task.ID] = true
		if task.Domain != Name || task.UserID == "" || db.Users[task.UserID] == nil {
			t.Errorf("task %s: domain %q, user %q", task.ID, task.Domain, task.UserID)
		}
		env := NewEnvironment(db.Clone())
		var called []string
		hasWrite := false
		for i, a := range task.Actions {
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Errorf("task %s: action %d %s%s: %v", task.ID, i, a.Name, a.Arguments, err)
			}
			called = append(called, a.Name)
			hasWrite = hasWrite || writes[a.Name]
		}
		if got := env.Hash(); hasWrite == (got == initial) {
			t.Errorf("task %s: has a write %v, but the final hash equals the initial one %v", task.ID, hasWrite, got == initial)
		}
		for _, r := range task.Scenario.Requests {
			for _, tool := range r.Tools {
				if !slices.Contains(called, tool) {
					t.Errorf("task %s: request %q names %s, which no gold action calls", task.ID, r.Text, tool)
				}
			}
		}
		// Every value the agent passes that is not found by a read must come
		// from a fact: identity, order ids and reasons.
		facts := map[string]bool{}
		for k, v := range task.Scenario.Facts {
			if !factKey.MatchString(k) || v == "" {
				t.Errorf("task %s: fact %q = %q: want a snake_case key and a value", task.ID, k, v)
			}
			facts[v] = true
		}
		for _, a := range task.Actions {
			var kw map[string]any
			_ = json.Unmarshal(a.Arguments, &kw)
			for _, k := range []string{"email", "first_name", "last_name", "order_id", "reason"} {
				if v, ok := kw[k].(string); ok && !facts[v] {
					t.Errorf("task %s: %s argument %s=%q is no fact", task.ID, a.Name, k, v)
				}
			}
		}
		for _, out := range task.Outputs {
			if strings.TrimSpace(out) == "" {
				t.Errorf("task %s: empty output", task.ID)
			}
		}
	}
}

// TestTasks_Replay checks every embedded task: it validates, has a unique
// id and a known user, its gold actions replay without a tool error on a
// fresh environment, the final hash differs from the initial one exactly
// when it has a write, each request's tools are called by the gold actions,
// and the identifying arguments come from the facts.
func TestTasks_Replay(t *testing.T) {
	tasks := New().Tasks()
	if got, want := len(tasks), NumTestTasks; got != want {
		t.Fatalf("tasks = %d, want %d", got, want)
	}
	for _, task := range tasks {
		if task.Split != emobench.SplitTest {
			t.Errorf("task %s: split %q, want test", task.ID, task.Split)
		}
	}
	checkTasks(t, InitialDB(), tasks)
}

// TestBuildTasks_Train checks a larger train set over another database,
// where orders must be reused.
func TestBuildTasks_Train(t *testing.T) {
	db := GenerateDB(99)
	tasks := BuildTasks(db, 5, 150, emobench.SplitTrain)
	if got, want := len(tasks), 150; got != want {
		t.Fatalf("tasks = %d, want %d", got, want)
	}
	if got, want := tasks[149].ID, "retail-train-149"; got != want {
		t.Errorf("last id = %q, want %q", got, want)
	}
	checkTasks(t, db, tasks)
}

func TestTasks_Coverage(t *testing.T) {
	want := map[string][]string{
		"enjoyment": {"peace", "relief", "pride", "excitement"},
		"sadness":   {"disappointment", "discouragement", "helplessness", "hopelessness", "sorrow"},
		"fear":      {"nervousness", "anxiety", "dread", "desperation"},
		"anger":     {"annoyance", "frustration", "exasperation", "argumentativeness", "bitterness"},
		"disgust":   {"dislike", "aversion", "distaste", "repugnance"},
	}
	leaves := map[[2]string]bool{}
	dims := map[string]bool{}
	var withOutputs int
	kinds := map[string]bool{}
	for _, task := range New().Tasks() {
		e := task.Emotion
		leaves[[2]string{e.Family, e.Leaf}] = true
		dims["politeness="+e.Politeness], dims["urgency="+e.Urgency], dims["trust="+e.Trust] = true, true, true
		if len(task.Outputs) > 0 {
			withOutputs++
		}
		kinds[task.Actions[len(task.Actions)-1].Name] = true
	}
	for family, ls := range want {
		for _, l := range ls {
			if !leaves[[2]string{family, l}] {
				t.Errorf("no task with %s/%s", family, l)
			}
		}
	}
	for _, d := range []string{"politeness=warm", "politeness=neutral", "politeness=cold", "urgency=low", "urgency=moderate",
		"urgency=high", "trust=trusting", "trust=cautious", "trust=skeptical"} {
		if !dims[d] {
			t.Errorf("no task with %s", d)
		}
	}
	if withOutputs < 5 {
		t.Errorf("tasks with outputs = %d, want >= 5", withOutputs)
	}
	for _, tool := range []string{ToolCancelOrder, ToolReturnItems, ToolExchangeItems, ToolModifyAddress, ToolModifyItems,
		ToolModifyPayment, ToolModifyUserAddress, ToolTransfer} {
		if !kinds[tool] {
			t.Errorf("no task ends with %s", tool)
		}
	}
}
