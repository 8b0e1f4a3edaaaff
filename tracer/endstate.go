package tracer

import (
	"fmt"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// singleEndState is CriterionSingleEndState's rule. For every gold write
// of t (the i-th gold call) it replays t.Actions[:i] on a fresh
// environment, asks the catalog's Alternatives(env, t.UserID,
// t.Scenario.Facts, gold) for the writes the user's words allow, and
// keeps an alternative that differs from the gold call, that
// CheckPolicy allows on that state and that runs without a tool error.
// It then replays the rest of the gold (t.Actions[i+1:]) after the
// alternative, skipping calls that now fail, and compares the end
// state's hash with the gold's: an alternative that reaches another end
// state fails the task, named by its tool and arguments. A domain that is
// no sim.CatalogDomain, or whose catalog has Alternatives nil, is not
// checked; so is a task whose gold does not replay (CriterionSolvable
// fails it).
func (a *auditor) singleEndState(t *emobench.TaskSpec) (emobench.CheckStatus, string) {
	catDom, ok := a.dom.(sim.CatalogDomain)
	if !ok {
		return emobench.CheckNotChecked, fmt.Sprintf("domain %s declares no intent catalog, so no alternatives", a.dom.Name())
	}
	if a.catalog == nil {
		a.catalog = catDom.Catalog()
	}
	cat := a.catalog
	if cat == nil || cat.Alternatives == nil {
		return emobench.CheckNotChecked, fmt.Sprintf("domain %s's catalog declares no Alternatives", a.dom.Name())
	}
	goldHash, err := sim.GoldHash(a.dom, t)
	if err != nil {
		return emobench.CheckNotChecked, fmt.Sprintf("the gold does not replay: %v", err)
	}
	writes, checked := 0, 0
	for i, gold := range t.Actions {
		if !a.writes[gold.Name] {
			continue
		}
		writes++
		before, err := a.replay(t.Actions[:i])
		if err != nil {
			return emobench.CheckNotChecked, fmt.Sprintf("the gold does not replay: %v", err)
		}
		for _, alt := range cat.Alternatives(before, t.UserID, t.Scenario.Facts, gold) {
			if alt.Name == gold.Name && canonicalJSON(alt.Arguments) == canonicalJSON(gold.Arguments) {
				continue
			}
			// A fresh copy per alternative: neither Alternatives nor
			// CheckPolicy may change env, but the call does.
			env, _ := a.replay(t.Actions[:i])
			if cat.CheckPolicy(env, t.UserID, alt) != nil {
				continue
			}
			if _, err := env.Call(alt.Name, alt.Arguments); err != nil {
				continue
			}
			checked++
			for _, later := range t.Actions[i+1:] {
				_, _ = env.Call(later.Name, later.Arguments) // a later call the alternative broke is skipped
			}
			if env.Hash() != goldHash {
				return emobench.CheckFailed, fmt.Sprintf("gold write %d (%s %s) has an allowed alternative %s %s that reaches another end state",
					i, gold.Name, canonicalJSON(gold.Arguments), alt.Name, canonicalJSON(alt.Arguments))
			}
		}
	}
	switch {
	case writes == 0:
		return emobench.CheckPassed, "no gold write: the end state is the initial one"
	case checked == 0:
		return emobench.CheckPassed, fmt.Sprintf("%s, no allowed alternative", plural(writes, "gold write"))
	}
	return emobench.CheckPassed, fmt.Sprintf("%s; %s, all reaching the gold end state", plural(writes, "gold write"), plural(checked, "allowed alternative"))
}

// replay runs actions on a fresh environment; a failing call is the
// error, naming the call.
func (a *auditor) replay(actions []emobench.Action) (sim.Environment, error) {
	env := a.dom.NewEnvironment()
	for i, act := range actions {
		if _, err := env.Call(act.Name, act.Arguments); err != nil {
			return nil, fmt.Errorf("gold action %d (%s) fails: %s", i, act.Name, strings.TrimSpace(err.Error()))
		}
	}
	return env, nil
}

// AuditSingleEndState runs CriterionSingleEndState's rule alone on every
// task of tasks in dom: Audit's report with that one result per task,
// for checks (CI's of every embedded split) that need not replay the
// oracle. It changes nothing and cannot fail.
func AuditSingleEndState(tasks []emobench.TaskSpec, dom sim.Domain) AuditReport {
	report := AuditReport{Tasks: make([]TaskAudit, 0, len(tasks))}
	a := newAuditor(dom)
	for i := range tasks {
		status, reason := a.singleEndState(&tasks[i])
		report.Tasks = append(report.Tasks, TaskAudit{Index: i, TaskID: tasks[i].ID, Domain: tasks[i].Domain,
			Results: []AuditResult{{Criterion: CriterionSingleEndState, Method: MethodRules, Status: status, Reason: reason}}})
	}
	return report
}

// plural is "1 gold write", "2 gold writes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
