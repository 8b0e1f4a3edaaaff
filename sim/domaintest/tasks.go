package domaintest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// tasks checks the embedded tasks: they decode and validate, have unique
// ids and the domain's name, every gold action replays without a tool
// error and every request tool is called; the test split holds every
// emotion family and, for a catalog domain, tasks of every kind
// (tracer.TaskKind: write, read, refusal, transfer).
func (s *suite) tasks(t *testing.T) {
	s.needTasks(t)
	ids := map[string]bool{}
	for i := range s.all {
		task := &s.all[i]
		if err := task.Validate(); err != nil {
			t.Errorf("task %d: %v", i, err)
			continue
		}
		if ids[task.ID] {
			t.Errorf("task %s: two tasks have this id", task.ID)
		}
		ids[task.ID] = true
		if task.Domain != s.dom.Name() {
			t.Errorf("task %s: domain %q, want %q", task.ID, task.Domain, s.dom.Name())
		}
		env := s.dom.NewEnvironment()
		var called []string
		for j, a := range task.Actions {
			if _, err := env.Call(a.Name, a.Arguments); err != nil {
				t.Errorf("task %s: gold action %d %s: %v", task.ID, j, describe(a.Name, a.Arguments), err)
			}
			called = append(called, a.Name)
		}
		for _, r := range task.Scenario.Requests {
			for _, tool := range r.Tools {
				if !slices.Contains(called, tool) {
					t.Errorf("task %s: request %q names %s, which no gold action calls", task.ID, r.Text, tool)
				}
			}
		}
	}
	test := s.split(emobench.SplitTest)
	if len(test) == 0 {
		t.Fatal("no test task")
	}
	families := map[string]int{}
	for _, task := range test {
		families[task.Emotion.Family]++
	}
	for _, f := range emobench.Taxonomy.Families {
		if families[f.Name] == 0 {
			t.Errorf("the test split has no task of the emotion family %s", f.Name)
		}
	}
	if s.cat == nil {
		return
	}
	kinds := map[string]int{}
	for i := range test {
		kinds[sim.KindOf(sim.IntentAsks(s.cat, &test[i]), true)]++
	}
	for _, k := range []string{sim.KindWrite, sim.KindRead, sim.KindRefusal, sim.KindTransfer} {
		if kinds[k] == 0 {
			t.Errorf("the test split has no %s task (kinds %v)", k, kinds)
		}
	}
	t.Logf("%d tasks, %d test: kinds %v, families %v", len(s.all), len(test), kinds, families)
}

// oracle runs the oracle agent with the scripted user on every embedded
// task (under -short, a sample of each split), in both conditions: every
// episode passes, ending with the user's stop or, for a task whose gold
// ends with the transfer, with the transfer.
func (s *suite) oracle(t *testing.T) {
	s.needTasks(t)
	episodes := 0
	for _, task := range s.sampledTasks() {
		want := s.wantTermination(task)
		for _, withEmotions := range []bool{true, false} {
			episodes++
			traj := s.episode(t, task, sim.Oracle{}, withEmotions, 1)
			if !traj.Passed() || traj.TerminationReason != want {
				t.Errorf("task %s (emotions %v): oracle ends %s, passed %v; want %s and a pass\nreward_info: %s\nlast message: %q",
					task.ID, withEmotions, traj.TerminationReason, traj.Passed(), want, traj.RewardInfo, lastMessage(traj))
			}
		}
	}
	t.Logf("%d oracle episodes", episodes)
}

// careless runs the careless agent (which never refuses and never hands
// the user over) on every refusal and transfer task of the test split
// (under -short, a sample, with emotions only): it fails each, in both
// conditions.
func (s *suite) careless(t *testing.T) {
	s.needTasks(t)
	var tasks []*emobench.TaskSpec
	test := s.split(emobench.SplitTest)
	for i := range test {
		transfers := slices.ContainsFunc(test[i].Actions, func(a emobench.Action) bool { return a.Name == s.dom.TransferTool() })
		if len(test[i].Forbidden) > 0 || transfers {
			tasks = append(tasks, &test[i])
		}
	}
	if len(tasks) == 0 {
		t.Fatal("no refusal or transfer task in the test split")
	}
	tasks = sample(tasks, 4)
	conditions := []bool{true, false}
	if testing.Short() {
		conditions = conditions[:1]
	}
	for _, task := range tasks {
		for _, withEmotions := range conditions {
			if traj := s.episode(t, task, sim.Careless{}, withEmotions, 1); traj.Passed() {
				t.Errorf("task %s (forbidden %d, emotions %v): careless passed\nreward_info: %s", task.ID, len(task.Forbidden), withEmotions, traj.RewardInfo)
			}
		}
	}
	t.Logf("careless fails %d refusal and transfer tasks", len(tasks))
}

// calls returns the tool calls the fork and determinism checks make for
// task: its gold actions, then its forbidden writes, then three bad calls
// drawn with r (a tool given another call's arguments, or a gold call with
// one argument emptied) that exercise the tools' error paths.
func (s *suite) calls(task *emobench.TaskSpec, r *rand.Rand) []emobench.Action {
	calls := slices.Concat(task.Actions, task.Forbidden)
	if len(calls) == 0 {
		return nil
	}
	for range 3 {
		a := calls[r.IntN(len(calls))]
		if r.IntN(2) == 0 {
			calls = append(calls, emobench.Action{Name: s.tools[r.IntN(len(s.tools))].Name, Arguments: a.Arguments})
			continue
		}
		var args map[string]json.RawMessage
		if json.Unmarshal(a.Arguments, &args) != nil || len(args) == 0 {
			continue
		}
		keys := slices.Sorted(maps.Keys(args))
		args[keys[r.IntN(len(keys))]] = json.RawMessage(`""`)
		b, _ := json.Marshal(args)
		calls = append(calls, emobench.Action{Name: a.Name, Arguments: b})
	}
	return calls
}

// compareCalls makes calls on a and b and returns an error at the first
// call that panics or whose result, error or state hash after it
// differs (what names the first environment); nil when all agree.
func compareCalls(what, taskID string, a, b sim.Environment, calls []emobench.Action) error {
	return compareCallsHashing(what, taskID, a, b, calls, func(emobench.Action) bool { return true })
}

// compareCallsHashing is compareCalls comparing the state hashes only
// after the calls hashAfter accepts, and after the last call.
func compareCallsHashing(what, taskID string, a, b sim.Environment, calls []emobench.Action, hashAfter func(emobench.Action) bool) error {
	for i, c := range calls {
		ra, ea, pa := call(a, c.Name, c.Arguments)
		rb, eb, pb := call(b, c.Name, c.Arguments)
		if pa || pb {
			return fmt.Errorf("task %s, call %d %s: %v / %v", taskID, i, describe(c.Name, c.Arguments), ea, eb)
		}
		if ra != rb || errText(ea) != errText(eb) {
			return fmt.Errorf("task %s, call %d %s: %s gives %q, %v; the other %q, %v", taskID, i, describe(c.Name, c.Arguments), what, ra, ea, rb, eb)
		}
		if !hashAfter(c) && i < len(calls)-1 {
			continue
		}
		if ha, hb := a.Hash(), b.Hash(); ha != hb {
			return fmt.Errorf("task %s, after call %d %s: %s state hash %s, the other %s", taskID, i, describe(c.Name, c.Arguments), what, ha, hb)
		}
	}
	return nil
}

// forkEqualsDeepCopy makes, for every test task and every tenth train
// task (under -short, three test tasks and two train tasks), its gold
// actions, forbidden writes and some bad calls on an episode's
// copy-on-write fork and on a deep copy of the initial state
// (NewDeepEnvironment): after every call the results and errors are
// equal, and after every write and the last call the state hashes. (A
// deep copy has no snapshot, so its hash encodes every row: hashing it
// after every read too would cost a full encoding per call and find
// nothing more, since a read changes no state.) Afterwards the frozen initial state is unchanged
// (VerifyInitial): no tool changed a row it only read.
func (s *suite) forkEqualsDeepCopy(t *testing.T) {
	td := s.needDeclared(t)
	s.needTasks(t)
	r := rand.New(rand.NewPCG(22, 1))
	writes := map[string]bool{}
	for _, tool := range s.dom.NewEnvironment().Tools() {
		writes[tool.Name] = tool.Writes
	}
	isWrite := func(a emobench.Action) bool { return writes[a.Name] }
	var tasks []*emobench.TaskSpec
	for _, sp := range []emobench.Split{emobench.SplitTest, emobench.SplitTrain} {
		split := s.split(sp)
		n := len(split)
		switch {
		case testing.Short() && sp == emobench.SplitTest:
			n = 3
		case testing.Short():
			n = 2
		case sp == emobench.SplitTrain:
			n = (len(split) + 9) / 10
		}
		for _, task := range spread(split, n) {
			tasks = append(tasks, &task)
		}
	}
	n := 0
	for _, task := range tasks {
		calls := s.calls(task, r)
		if err := compareCallsHashing("the fork", task.ID, td.NewEnvironment(), td.NewDeepEnvironment(), calls, isWrite); err != nil {
			t.Fatal(err)
		}
		n += len(calls)
	}
	if err := td.VerifyInitial(); err != nil {
		t.Fatalf("after %d calls, the frozen initial state changed (a tool changed a row it took with Get, not Edit): %v", n, err)
	}
	t.Logf("%d calls compared", n)
}

// determinism makes the same calls on two environments (the gold,
// forbidden and bad calls of 20 tasks spread over the files, in the full
// suite too: a nondeterministic tool shows on any): equal results and
// hashes; and runs the oracle twice on two tasks: equal trajectories.
func (s *suite) determinism(t *testing.T) {
	s.needTasks(t)
	r := rand.New(rand.NewPCG(22, 2))
	var tasks []*emobench.TaskSpec
	for i := range s.all {
		tasks = append(tasks, &s.all[i])
	}
	tasks = spread(tasks, 20)
	for _, task := range tasks {
		if err := compareCalls("one environment", task.ID, s.dom.NewEnvironment(), s.dom.NewEnvironment(), s.calls(task, r)); err != nil {
			t.Fatal(err)
		}
	}
	for _, task := range tasks[:min(2, len(tasks))] {
		a, _ := json.Marshal(s.episode(t, task, sim.Oracle{}, true, 7))
		b, _ := json.Marshal(s.episode(t, task, sim.Oracle{}, true, 7))
		if !bytes.Equal(a, b) {
			t.Errorf("task %s: two oracle episodes with seed 7 differ", task.ID)
		}
	}
	if s.cat != nil {
		if a, b := s.cat.Users(s.dom.NewEnvironment()), s.cat.Users(s.dom.NewEnvironment()); !slices.Equal(a, b) {
			t.Error("the catalog's Users differ between two environments")
		}
	}
}

// audit runs Tracer's audit by its rules (tracer.Audit without a judge)
// on the test split (under -short, a sample): no task fails a criterion;
// and for a catalog domain, the whole test split meets the shares of a
// split that measures the policy (tracer.SplitShares).
func (s *suite) audit(t *testing.T) {
	s.needTasks(t)
	test := s.split(emobench.SplitTest)
	if s.cat != nil {
		if v := tracer.SplitShares(s.cat, test).Violations(); len(v) > 0 {
			t.Errorf("the test split (%d tasks) misses the shares of tracer.GenerateOptions.MeasurePolicy:\n  %s", len(test), strings.Join(v, "\n  "))
		}
	}
	report, err := tracer.Audit(context.Background(), sample(test, 10), s.dom, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range report.Failures() {
		t.Errorf("%s (task %d): %s by %s: %s", f.TaskID, f.Index, f.Criterion, f.Method, f.Reason)
	}
	t.Logf("%d test tasks audited", len(report.Tasks))
}

// taskFilesFresh generates the domain's task files again from its
// declaration (tracer.GenerateTaskSets, what `go generate` runs) and
// compares them with the embedded ones byte for byte. It is slow (every
// task of both splits): the full suite only.
func (s *suite) taskFilesFresh(t *testing.T) {
	td := s.needDeclared(t)
	s.needCatalog(t)
	if testing.Short() {
		t.Skip("generates every task of both splits: full suite only")
	}
	sets := td.TaskSets()
	test, train, err := tracer.GenerateTaskSets(context.Background(), s.dom)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		set sim.TaskSet
		g   *tracer.Generated
	}{{sets.Test, test}, {sets.Train, train}} {
		if f.g == nil {
			continue
		}
		got, err := sim.EncodeTasks(f.g.Tasks)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.set.Data) {
			t.Errorf("%s is stale: the generator writes %d bytes (%s), the embedded file has %d: run go generate in the domain's directory",
				f.set.File, len(got), f.g.Figures(), len(f.set.Data))
		}
	}
}
