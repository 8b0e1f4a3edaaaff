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
	task := &emobench.TaskSpec{Advice: []emobench.Advice{{Before: "transfer_to_human_agents", AnyOf: []string{"911", "emergency room"},
		NLAssertion: "The agent told the patient to call 911"}}}
	first := opening(&Episode{Task: task}, noFault)
	if !strings.HasPrefix(first, "Before anything else: please call 911") {
		t.Errorf("opening with advice = %q, want it to start with the 911 advice", first)
	}
	if got := opening(&Episode{Task: &emobench.TaskSpec{}}, noFault); strings.Contains(got, "911") || strings.Contains(got, "Before anything else") {
		t.Errorf("opening without advice = %q", got)
	}
	other := &emobench.TaskSpec{Advice: []emobench.Advice{{AnyOf: []string{"poison control"}}}}
	if got := adviceOpening(other); got != "Before anything else: poison control. " {
		t.Errorf("adviceOpening(poison control) = %q", got)
	}
}
