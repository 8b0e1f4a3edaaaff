package tracer_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// shopWithAlternatives gives the shop catalog Alternatives as a domain
// with flights would: a cancellation may be of any order of the user's
// the facts do not rule out (every order when the user names none, the
// named one otherwise); the policy then drops those not pending.
func shopWithAlternatives() shopDomain {
	return shopDomain{edit: func(c *sim.Catalog) {
		c.Alternatives = func(env sim.Environment, userID string, facts map[string]string, gold emobench.Action) []emobench.Action {
			if gold.Name != "cancel_pending_order" {
				return nil
			}
			args, _ := sim.CallArgs(gold)
			reason, _ := args["reason"].(string)
			var out []emobench.Action
			for _, id := range shopOf(env).Users[userID].Orders {
				if named := facts["order_id"]; named == "" || named == id {
					out = append(out, act("cancel_pending_order", map[string]string{"order_id": id, "reason": reason}))
				}
				if id == facts["order_id"] {
					// Another reason: the shop does not keep it, so the same end state.
					out = append(out, act("cancel_pending_order", map[string]string{"order_id": id, "reason": "ordered by mistake"}))
				}
			}
			return out
		}
	}}
}

// singleEndStateTask is a cancellation of ana's pending order #W1000;
// named says whether the user gives its id (ana also has #W1002 pending,
// and four orders that are not).
func singleEndStateTask(id string, named bool) emobench.TaskSpec {
	facts := map[string]string{"email": "ana@example.com", "reason": "no longer needed"}
	if named {
		facts["order_id"] = "#W1000"
	}
	return emobench.TaskSpec{
		ID: id, Domain: "shop", Split: emobench.SplitTest, UserID: "ana_100",
		Instruction: "I want to cancel my pending desk lamp order because I no longer need it.",
		Scenario:    emobench.Scenario{Facts: facts, Requests: []emobench.Request{{Text: "Cancel my order.", Tools: []string{"cancel_pending_order"}}}},
		Actions: []emobench.Action{
			act("find_user_id_by_email", map[string]string{"email": "ana@example.com"}),
			act("get_order_details", map[string]string{"order_id": "#W1000"}),
			act("cancel_pending_order", map[string]string{"order_id": "#W1000", "reason": "no longer needed"}),
		},
		Outputs: []string{"20.50"},
	}
}

func endStateResult(t *testing.T, r tracer.AuditReport, taskID string) tracer.AuditResult {
	t.Helper()
	for _, ta := range r.Tasks {
		if ta.TaskID != taskID {
			continue
		}
		for _, res := range ta.Results {
			if res.Criterion == tracer.CriterionSingleEndState {
				return res
			}
		}
	}
	t.Fatalf("no %s result for %s", tracer.CriterionSingleEndState, taskID)
	return tracer.AuditResult{}
}

// A user who does not say which of two pending orders to cancel has two
// valid end states; naming the order leaves one (another reason reaches
// the same state). The delivered orders the catalog also offers are
// dropped by the policy, and a read-only task has the initial state
// alone.
func TestAudit_SingleEndState(t *testing.T) {
	read := singleEndStateTask("read", true)
	read.Actions = read.Actions[:2]
	tasks := []emobench.TaskSpec{singleEndStateTask("two-orders", false), singleEndStateTask("named", true), read}
	report, err := tracer.Audit(t.Context(), tasks, shopWithAlternatives(), nil)
	if err != nil {
		t.Fatal(err)
	}
	two := endStateResult(t, report, "two-orders")
	if two.Status != emobench.CheckFailed || two.Method != tracer.MethodRules {
		t.Fatalf("two-orders: %+v, want failed by the rules", two)
	}
	want := `gold write 2 (cancel_pending_order {"order_id":"#W1000","reason":"no longer needed"}) has an allowed alternative cancel_pending_order {"order_id":"#W1002","reason":"no longer needed"} that reaches another end state`
	if two.Reason != want {
		t.Errorf("two-orders reason\n got %s\nwant %s", two.Reason, want)
	}
	if named := endStateResult(t, report, "named"); named.Status != emobench.CheckPassed || named.Reason != "1 gold write; 1 allowed alternative, all reaching the gold end state" {
		t.Errorf("named: %+v, want passed, its one alternative reaching the gold end state", named)
	}
	if r := endStateResult(t, report, "read"); r.Status != emobench.CheckPassed || !strings.Contains(r.Reason, "no gold write") {
		t.Errorf("read: %+v, want passed with no gold write", r)
	}
	for _, s := range report.Summary() {
		if s.Criterion == tracer.CriterionSingleEndState && s.Method == tracer.MethodJudge {
			t.Errorf("summary has a judge row for %s, a rules-only criterion", s.Criterion)
		}
		if s.Criterion == tracer.CriterionSingleEndState && (s.Failed != 1 || s.Passed != 2) {
			t.Errorf("summary %+v, want 1 failed and 2 passed", s)
		}
	}
}

// A catalog without Alternatives cannot be checked: not checked, never
// passed, with the reason.
func TestAudit_SingleEndStateWithoutAlternatives(t *testing.T) {
	report, err := tracer.Audit(t.Context(), []emobench.TaskSpec{singleEndStateTask("two-orders", false)}, shopDomain{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := endStateResult(t, report, "two-orders")
	if res.Status != emobench.CheckNotChecked || res.Reason != "domain shop's catalog declares no Alternatives" {
		t.Errorf("%+v, want not checked: no Alternatives", res)
	}
}
