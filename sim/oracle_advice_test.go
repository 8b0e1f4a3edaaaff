package sim

import (
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// TestOracle_SaysAdviceFirst checks that the oracle's first message, which
// precedes every tool call, says a task's 911 advice, and says nothing of
// it on a task without advice.
func TestOracle_SaysAdviceFirst(t *testing.T) {
	t.Parallel()
	task := &emobench.TaskSpec{Advice: []emobench.Advice{{Before: "transfer_to_human_agents", AnyOf: []string{"911", "emergency room"},
		NLAssertion: "The agent told the patient to call 911"}}}
	p := planFor(&Episode{Task: task}, noFault)
	if !strings.HasPrefix(p[0].text, "For your safety, please call 911 right away.") {
		t.Errorf("opening with advice = %q, want it to start with the 911 advice", p[0].text)
	}
	if p := planFor(&Episode{Task: &emobench.TaskSpec{}}, noFault); strings.Contains(p[0].text, "911") || strings.Contains(p[0].text, "safety") {
		t.Errorf("opening without advice = %q", p[0].text)
	}
}
