package tracer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// Issue 21's rules for a test split that measures the policy hold on
// every catalog domain's embedded test split: mixed tasks, tasks with a
// condition or something to find, every forbidden request type and
// transfer trigger twice, and each emotion family 20% ± 5 of every task
// kind (tracer.TestShares.Violations).
func TestEmbeddedTestSplits_Shares(t *testing.T) {
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			dom := catalogDomain(t, name)
			var test []emobench.TaskSpec
			for _, task := range dom.Tasks() {
				if task.Split == emobench.SplitTest {
					test = append(test, task)
				}
			}
			if v := tracer.SplitShares(dom.Catalog(), test).Violations(); len(v) > 0 {
				t.Errorf("%s test split (%d tasks), regenerate it with tracer.GenerateOptions.MeasurePolicy:\n  %s", name, len(test), strings.Join(v, "\n  "))
			}
		})
	}
}

// Every embedded task of every split has one correct end state
// (tracer audit's single_end_state by the rules). A domain whose catalog
// declares no Alternatives is skipped, saying so; -short audits the test
// splits only.
func TestEmbeddedSplits_SingleEndState(t *testing.T) {
	for _, name := range all.Names() {
		t.Run(name, func(t *testing.T) {
			dom := catalogDomain(t, name)
			if dom.Catalog().Alternatives == nil {
				t.Skipf("domain %s's catalog declares no Alternatives: its tasks' end states cannot be audited", name)
			}
			var tasks []emobench.TaskSpec
			for _, task := range dom.Tasks() {
				if task.Split == emobench.SplitTest || !testing.Short() {
					tasks = append(tasks, task)
				}
			}
			report := tracer.AuditSingleEndState(tasks, dom)
			var failed []string
			for _, f := range report.Failures() {
				failed = append(failed, fmt.Sprintf("%s: %s", f.TaskID, f.Reason))
			}
			if len(failed) > 0 {
				t.Errorf("%d of %d %s tasks have more than one valid end state:\n  %s", len(failed), len(tasks), name, strings.Join(failed, "\n  "))
			}
			for _, s := range report.Summary() {
				if s.Criterion == tracer.CriterionSingleEndState && s.NotChecked > 0 {
					t.Errorf("%d %s tasks not checked (their gold does not replay)", s.NotChecked, name)
				}
			}
		})
	}
}

func catalogDomain(t *testing.T, name string) sim.CatalogDomain {
	t.Helper()
	dom, ok := findDomain(t, name).(sim.CatalogDomain)
	if !ok || dom.Catalog() == nil {
		t.Skipf("domain %s has no intent catalog", name)
	}
	return dom
}
