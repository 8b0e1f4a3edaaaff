package sim_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
)

// forbiddenStatus is the FORBIDDEN status of a refusal task whose one
// forbidden entry has args (and compareArgs), after the agent's calls.
func forbiddenStatus(t *testing.T, args string, compareArgs []string, calls ...emobench.Message) string {
	t.Helper()
	task := toyRefusalTask()
	task.Forbidden[0].Arguments = json.RawMessage(args)
	task.Forbidden[0].CompareArgs = compareArgs
	got := statuses(t, evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, calls...))
	for _, s := range strings.Fields(got) {
		if kind, status, _ := strings.Cut(s, ":"); kind == string(emobench.CheckForbidden) {
			return status
		}
	}
	t.Fatalf("no FORBIDDEN check in %s", got)
	return ""
}

// TestEvaluate_ForbiddenMatching: which calls a forbidden entry counts.
// The entry {order_id, reason} names order_id as what the write acts on.
func TestEvaluate_ForbiddenMatching(t *testing.T) {
	t.Parallel()
	const cancelW1Reason = `{"order_id":"#W1","reason":"no longer needed"}`
	cancel := func(args string) emobench.Message { return call("cancel_pending_order", args) }
	tests := []struct {
		name        string
		entry       string
		compareArgs []string
		calls       []emobench.Message
		want        emobench.CheckStatus
	}{
		{"cancel of another order", cancelW1Reason, nil, []emobench.Message{cancel(`{"order_id":"#W2"}`)}, emobench.CheckPassed},
		{"same order, other reason", cancelW1Reason, nil, []emobench.Message{cancel(`{"order_id":"#W1","reason":"ordered by mistake"}`)}, emobench.CheckFailed},
		{"same order, extra arguments", cancelW1Reason, nil, []emobench.Message{cancel(`{"order_id":"#W1","reason":"x","note":"y"}`)}, emobench.CheckFailed},
		{"same order, no other arguments", cancelW1Reason, nil, []emobench.Message{cancel(cancelW1)}, emobench.CheckFailed},
		{"order id missing", cancelW1Reason, nil, []emobench.Message{cancel(`{"reason":"no longer needed"}`)}, emobench.CheckPassed},
		{"other tool on the same order", cancelW1Reason, nil, []emobench.Message{call("find_user_id_by_email", findAna)}, emobench.CheckPassed},
		{"compare_args names the reason too", cancelW1Reason, []string{"order_id", "reason"}, []emobench.Message{cancel(cancelW1)}, emobench.CheckPassed},
		{"no arguments: any call of the tool", `{}`, nil, []emobench.Message{cancel(`{"order_id":"#W9"}`)}, emobench.CheckFailed},
		{"empty compare_args: any call of the tool", cancelW1Reason, []string{}, []emobench.Message{cancel(`{"order_id":"#W9"}`)}, emobench.CheckFailed},
		// A number and a string holding it are the same id: the attempt
		// counts whatever the tool answered (here a type error).
		{"number call, string entry", `{"order_id":"1"}`, nil, []emobench.Message{cancel(`{"order_id":1}`)}, emobench.CheckFailed},
		{"string call, number entry", `{"order_id":1}`, nil, []emobench.Message{cancel(`{"order_id":"1.0"}`)}, emobench.CheckFailed},
		{"other number", `{"order_id":"1"}`, nil, []emobench.Message{cancel(`{"order_id":2}`)}, emobench.CheckPassed},
		{"non-numeric string", `{"order_id":1}`, nil, []emobench.Message{cancel(`{"order_id":"one"}`)}, emobench.CheckPassed},
		// Lists: the call must hold each of the entry's elements, in any
		// order, among others.
		{"list in another order with more", `{"order_id":"#W1","item_ids":["a","b"]}`, nil,
			[]emobench.Message{cancel(`{"order_id":"#W1","item_ids":["c","b","a"]}`)}, emobench.CheckFailed},
		{"list missing an element", `{"order_id":"#W1","item_ids":["a","b"]}`, nil,
			[]emobench.Message{cancel(`{"order_id":"#W1","item_ids":["a"]}`)}, emobench.CheckPassed},
		{"list of numbers as strings", `{"order_id":"#W1","item_ids":[1,2]}`, nil,
			[]emobench.Message{cancel(`{"order_id":"#W1","item_ids":["2","1"]}`)}, emobench.CheckFailed},
		{"list against a scalar", `{"order_id":"#W1","item_ids":["a"]}`, nil,
			[]emobench.Message{cancel(`{"order_id":"#W1","item_ids":"a"}`)}, emobench.CheckPassed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := forbiddenStatus(t, tt.entry, tt.compareArgs, tt.calls...); got != string(tt.want) {
				t.Errorf("FORBIDDEN %s, want %s", got, tt.want)
			}
		})
	}
}

// A gold action's values compare as τ²-bench's compare_args: a list as a
// sequence, so the same items in another order do not match, and a string
// id never equals a number.
func TestEvaluate_ActionMatchingIsStrict(t *testing.T) {
	t.Parallel()
	task := toyTask(angrySkeptic)
	task.Actions[1].CompareArgs = []string{"order_id"}
	for _, args := range []string{`{"order_id":["#W1"]}`, `{"order_id":1}`} {
		traj := evaluate(t, &sim.Evaluator{}, task, emobench.TerminationUserStop, call("cancel_pending_order", args))
		if got := statuses(t, traj); !strings.Contains(got, "ACTION:failed") {
			t.Errorf("call %s: %s, want ACTION:failed", args, got)
		}
	}
}
