package all_test

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
)

// validityRun runs agent against the scripted user on every test task of
// dom in both conditions, with seed 1, and returns pass^1 (passed
// episodes over episodes) and the tasks that passed in some condition.
func validityRun(t *testing.T, dom sim.Domain, agent sim.Agent, tasks []*emobench.TaskSpec) (passRate float64, passed map[string]bool) {
	t.Helper()
	passed = map[string]bool{}
	n, ok := 0, 0
	for _, task := range tasks {
		for _, withEmotions := range []bool{true, false} {
			traj := scriptedEpisode(t, dom, task, agent, withEmotions, 1)
			n++
			if traj.Passed() {
				ok++
				passed[task.ID] = true
			}
		}
	}
	return float64(ok) / float64(n), passed
}

// TestNothing_FailsAlmostEverything: an agent that answers politely and
// never calls a tool must score pass^1 <= 0.05 in every domain (the
// design's validity figure).
func TestNothing_FailsAlmostEverything(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			rate, passed := validityRun(t, dom, sim.Nothing{}, testTasks(dom))
			t.Logf("%s: nothing pass^1 = %.3f, tasks passed %v", name, rate, keys(passed))
			if rate > 0.05 {
				t.Errorf("%s: nothing pass^1 = %.3f, want <= 0.05 (passed %v)", name, rate, keys(passed))
			}
		})
	}
}

// refusalTasks are the test tasks whose user asks for a write (by the
// request's wording, sim.RequestedWrite) that the gold calls never make,
// and whose gold calls neither write nor transfer: the policy says no, and
// the right outcome is an unchanged database.
func refusalTasks(dom sim.Domain) []*emobench.TaskSpec {
	tools := dom.NewEnvironment().Tools()
	writes := map[string]bool{}
	for _, tool := range tools {
		writes[tool.Name] = tool.Writes
	}
	var out []*emobench.TaskSpec
	for _, task := range testTasks(dom) {
		wrote := false
		for _, a := range task.Actions {
			wrote = wrote || writes[a.Name] || a.Name == dom.TransferTool()
		}
		asksWrite := false
		for _, r := range task.Scenario.Requests {
			named := false
			for _, tool := range r.Tools {
				named = named || writes[tool]
			}
			_, worded := sim.RequestedWrite(r.Text, tools)
			asksWrite = asksWrite || !named && worded
		}
		if !wrote && asksWrite {
			out = append(out, task)
		}
	}
	return out
}

// TestCareless_ActsOnRefusals: an agent that does what the user asks
// without checking the policy makes the write a refusal task's user asks
// for, on every refusal task, and fails at least 90% of the refusal tasks
// (the design's validity figure): the tools leave the policy to the agent
// (issue 10, scope 1). The refusal tasks are those with a forbidden list
// and those whose request's wording asks for a write the gold never makes
// (refusalTasks); a task counts as failed when no condition passed it.
// Under -short the refusal tasks are a sample of each kind (sampleTasks),
// and careless's pass^1 over the whole test split, only logged, is not
// computed.
func TestCareless_ActsOnRefusals(t *testing.T) {
	t.Parallel()
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			writes := writeTools(dom)
			rate := math.NaN() // not computed under -short
			if !testing.Short() {
				rate, _ = validityRun(t, dom, sim.Careless{}, testTasks(dom))
			}
			worded := refusalTasks(dom)
			refusals := sampleTasks(t, dom, unionByID(tasksByKind(dom, allTasks(dom))[kindForbidden], worded))
			if len(refusals) == 0 {
				t.Fatalf("%s: no refusal tasks", name)
			}
			refusalRate, passed := validityRun(t, dom, sim.Careless{}, refusals)
			failed := len(refusals) - len(passed)
			t.Logf("%s: careless fails %d/%d refusal tasks (pass^1 there %.3f, passed %v); pass^1 = %.3f over %d test tasks",
				name, failed, len(refusals), refusalRate, keys(passed), rate, len(testTasks(dom)))
			if share := float64(failed) / float64(len(refusals)); share < 0.90 {
				t.Errorf("%s: careless fails %d/%d = %.3f of the refusal tasks, want >= 0.90 (passed %v)",
					name, failed, len(refusals), share, keys(passed))
			}
			for _, task := range sampleTasks(t, dom, worded) {
				traj := scriptedEpisode(t, dom, task, sim.Careless{}, false, 1)
				wrote := false
				for _, m := range traj.Messages {
					for _, c := range m.ToolCalls {
						wrote = wrote || writes[c.Name]
					}
				}
				if !wrote {
					t.Errorf("task %s: careless made no write the user asked for", task.ID)
				}
			}
		})
	}
}

// unionByID returns the tasks of a and then those of b not in a, by id.
func unionByID(a, b []*emobench.TaskSpec) []*emobench.TaskSpec {
	seen := map[string]bool{}
	var out []*emobench.TaskSpec
	for _, task := range slices.Concat(a, b) {
		if !seen[task.ID] {
			seen[task.ID] = true
			out = append(out, task)
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}
