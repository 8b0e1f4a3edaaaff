// Package domaintest is the conformance suite every domain runs, in the
// style of testing/fstest.TestFS: a domain's <name>_test.go calls
//
//	func TestDomain(t *testing.T) { domaintest.Run(t, New()) }
//
// once, and keeps only the tests particular to it (its tools' results and
// errors, its policy predicates, its data). Run checks what every domain
// shares, each as a subtest: the tools' schemas and texts, tools under bad
// arguments, the intent catalog and its grounders, the embedded tasks, the
// oracle and the careless agent on them, the copy-on-write fork against a
// deep copy, determinism, Tracer's audit, and that the task files are what
// the generator writes. Under -short it samples the tasks and users it
// runs (deterministically) and leaves out the slowest checks.
//
// Only _test.go files import this package (it imports tracer).
package domaintest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// Run runs the conformance suite on dom (see the package doc). Checks
// that need a declaration (sim.TaskSetDomain: the fork against the deep
// copy, the files' freshness) skip, saying so, for a domain not declared
// with sim.NewDomain; checks of the catalog skip for a domain without
// one (sim.CatalogDomain).
func Run(t *testing.T, dom sim.Domain) {
	t.Helper()
	s := newSuite(t, dom)
	t.Run("ToolSchemas", s.toolSchemas)
	t.Run("ToolTexts", s.toolTexts)
	t.Run("BadArguments", s.badArguments)
	t.Run("Catalog", s.catalog)
	t.Run("Intents", s.intents)
	t.Run("IntentEpisodes", s.intentEpisodes)
	t.Run("Tasks", s.tasks)
	t.Run("Oracle", s.oracle)
	t.Run("Careless", s.careless)
	t.Run("ForkEqualsDeepCopy", s.forkEqualsDeepCopy)
	t.Run("Determinism", s.determinism)
	t.Run("Audit", s.audit)
	t.Run("TaskFilesFresh", s.taskFilesFresh)
}

// suite holds what the checks share: the domain, its tasks decoded once
// and its tools' schemas.
type suite struct {
	dom     sim.Domain
	cat     *sim.Catalog // nil: no catalog
	tools   []sim.ToolSchema
	writes  map[string]bool
	all     []emobench.TaskSpec // every split, decoded once
	taskErr error               // the embedded files do not decode

	groundOnce sync.Once
	grounded   [][]grounded // by intent (groundings)
}

func newSuite(t *testing.T, dom sim.Domain) *suite {
	t.Helper()
	s := &suite{dom: dom, writes: map[string]bool{}}
	s.tools = dom.NewEnvironment().Tools()
	for _, tl := range s.tools {
		s.writes[tl.Name] = tl.Writes
	}
	if cd, ok := dom.(sim.CatalogDomain); ok {
		s.cat = cd.Catalog()
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				s.taskErr = fmt.Errorf("%v", r)
			}
		}()
		s.all = dom.Tasks()
	}()
	return s
}

// needCatalog skips t for a domain without an intent catalog.
func (s *suite) needCatalog(t *testing.T) {
	t.Helper()
	if s.cat == nil {
		t.Skipf("domain %s declares no intent catalog (sim.CatalogDomain)", s.dom.Name())
	}
}

// needTasks fails t when the embedded tasks do not decode and skips it
// when there are none.
func (s *suite) needTasks(t *testing.T) {
	t.Helper()
	if s.taskErr != nil {
		t.Fatalf("the embedded tasks do not decode: %v", s.taskErr)
	}
	if len(s.all) == 0 {
		t.Skipf("domain %s embeds no tasks", s.dom.Name())
	}
}

// needDeclared returns dom as a sim.TaskSetDomain, or skips t.
func (s *suite) needDeclared(t *testing.T) sim.TaskSetDomain {
	t.Helper()
	td, ok := s.dom.(sim.TaskSetDomain)
	if !ok {
		t.Skipf("domain %s is not declared with sim.NewDomain (no sim.TaskSetDomain): this check needs its declaration", s.dom.Name())
	}
	return td
}

// split returns the tasks of one split, in file order.
func (s *suite) split(sp emobench.Split) []emobench.TaskSpec {
	var out []emobench.TaskSpec
	for _, task := range s.all {
		if task.Split == sp {
			out = append(out, task)
		}
	}
	return out
}

// sample returns every task in the full suite and, under -short, about n
// of them spread evenly over the file (every len/n-th, from the first),
// so that a sample holds tasks of every part of the split.
func sample[T any](items []T, n int) []T {
	if !testing.Short() {
		return items
	}
	return spread(items, n)
}

// spread returns about n of items spread evenly (every len/n-th, from the
// first), or all of them when there are no more than n.
func spread[T any](items []T, n int) []T {
	if len(items) <= n {
		return items
	}
	step := (len(items) + n - 1) / n
	var out []T
	for i := 0; i < len(items); i += step {
		out = append(out, items[i])
	}
	return out
}

// sampledTasks are the tasks the episode checks run: all of them, or
// under -short a sample of each split.
func (s *suite) sampledTasks() []*emobench.TaskSpec {
	var out []*emobench.TaskSpec
	for _, sp := range []emobench.Split{emobench.SplitTest, emobench.SplitTrain} {
		tasks := s.split(sp)
		idx := make([]int, len(tasks))
		for i := range idx {
			idx[i] = i
		}
		n := 10
		if sp == emobench.SplitTrain {
			n = 5
		}
		for _, i := range sample(idx, n) {
			out = append(out, &tasks[i])
		}
	}
	return out
}

// episode runs agent on task with the scripted user.
func (s *suite) episode(t *testing.T, task *emobench.TaskSpec, agent sim.Agent, withEmotions bool, seed uint64) *emobench.Trajectory {
	t.Helper()
	traj, err := sim.RunEpisode(context.Background(), sim.EpisodeConfig{
		Domain: s.dom, Task: task, Agent: agent, User: sim.ScriptedUser{}, WithEmotions: withEmotions, Seed: seed,
	})
	if err != nil {
		t.Fatalf("task %s (%T, emotions %v): %v", task.ID, agent, withEmotions, err)
	}
	return traj
}

// wantTermination is how the oracle ends task: with the transfer when its
// gold ends with the transfer tool, else with the user's stop.
func (s *suite) wantTermination(task *emobench.TaskSpec) emobench.TerminationReason {
	if n := len(task.Actions); n > 0 && task.Actions[n-1].Name == s.dom.TransferTool() {
		return emobench.TerminationTransfer
	}
	return emobench.TerminationUserStop
}

// lastMessage is the text of traj's last message, for a failure.
func lastMessage(traj *emobench.Trajectory) string {
	if len(traj.Messages) == 0 {
		return ""
	}
	return traj.Messages[len(traj.Messages)-1].Content
}

// call calls a tool on env, turning a panic into an error that says so.
func call(env sim.Environment, name string, args json.RawMessage) (res string, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			res, err, panicked = "", fmt.Errorf("panic: %v", r), true
		}
	}()
	res, err = env.Call(name, args)
	return res, err, false
}

// describe names a call for a failure.
func describe(name string, args json.RawMessage) string {
	a := string(args)
	if len(a) > 200 {
		a = a[:200] + "…"
	}
	return name + "(" + strings.TrimSpace(a) + ")"
}

// errText is err's text, "" for nil: what two calls must agree on.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// toolNamed returns the schema of the tool name.
func (s *suite) toolNamed(name string) (sim.ToolSchema, bool) {
	i := slices.IndexFunc(s.tools, func(tl sim.ToolSchema) bool { return tl.Name == name })
	if i < 0 {
		return sim.ToolSchema{}, false
	}
	return s.tools[i], true
}
