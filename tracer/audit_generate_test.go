package tracer_test

import (
	"testing"

	"github.com/emobench/emobench/tracer"
)

// Tasks Tracer generates (over the test catalog shopDomain) are goal
// oriented, solvable and hand off what they must by the audit's rules. The
// test catalog's grounders give few preference facts, so failures of
// tool_task_with_preference are only logged.
func TestAudit_GeneratedTasks(t *testing.T) {
	g := generate(t, shopDomain{}, genOptions(40, 7))
	r, err := tracer.Audit(t.Context(), g.Tasks, shopDomain{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	preference := 0
	for _, f := range r.Failures() {
		if f.Criterion == tracer.CriterionToolTask {
			preference++
			continue
		}
		t.Errorf("%s: %s: %s (instruction %q)", f.TaskID, f.Criterion, f.Reason, g.Tasks[f.Index].Instruction)
	}
	t.Logf("%d of %d generated tasks have no preference fact beyond identity", preference, len(g.Tasks))
}
