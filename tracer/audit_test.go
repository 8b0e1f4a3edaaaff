package tracer_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func findDomain(t testing.TB, name string) sim.Domain {
	t.Helper()
	dom, err := all.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return dom
}

func fixtureTasks(t *testing.T) []emobench.TaskSpec {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "audit", "tasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := sim.DecodeTasks(data)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// failedCriteria returns, per task id, the criteria it failed by method.
func failedCriteria(r tracer.AuditReport, method string) map[string][]tracer.Criterion {
	out := map[string][]tracer.Criterion{}
	for _, f := range r.Failures() {
		if f.Method == method {
			out[f.TaskID] = append(out[f.TaskID], f.Criterion)
		}
	}
	return out
}

// Each fixture task breaks one criterion (its id says which) and passes
// the others; audit-pass passes them all. testdata/audit/tasks.json holds
// retail-test-000 and four edits of it: an instruction naming tools and
// steps, a change of the order's address whose new address is left out of
// the facts (a cancellation without its reason fact would also let the
// other reason through, breaking single_end_state too), a gold cancel of
// an order that does not exist, and a request for a human agent whose
// gold also cancels.
func TestAudit_OneFailurePerCriterion(t *testing.T) {
	dom := findDomain(t, "retail")
	report, err := tracer.Audit(t.Context(), fixtureTasks(t), dom, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]tracer.Criterion{
		"audit-goal":     {tracer.CriterionGoalOriented},
		"audit-tooltask": {tracer.CriterionToolTask},
		"audit-solvable": {tracer.CriterionSolvable},
		"audit-handoff":  {tracer.CriterionHandoff},
	}
	got := failedCriteria(report, tracer.MethodRules)
	for id, criteria := range want {
		if !slices.Equal(got[id], criteria) {
			t.Errorf("%s failed %v, want %v", id, got[id], criteria)
		}
	}
	if len(got) != len(want) {
		t.Errorf("failing tasks %v, want only %v", got, want)
	}
	reasons := map[string]string{}
	for _, f := range report.Failures() {
		reasons[f.TaskID] = f.Reason
	}
	for id, part := range map[string]string{
		"audit-goal":     "names the tool find_user_id_by_name_zip",
		"audit-tooltask": "no preference fact beyond identity",
		"audit-solvable": "gold action 2 (cancel_pending_order) fails",
		"audit-handoff":  "also writes what no request asks for: action 2 (cancel_pending_order)",
	} {
		if !strings.Contains(reasons[id], part) {
			t.Errorf("%s: reason %q, want it to say %q", id, reasons[id], part)
		}
	}
	if !report.Failed() || report.Tasks[0].Failed() {
		t.Errorf("report failed %v, audit-pass failed %v; want true, false", report.Failed(), report.Tasks[0].Failed())
	}
	// Without a judge, its checks are not checked: never passed.
	for _, s := range report.Summary() {
		switch s.Method {
		case tracer.MethodJudge:
			if s.NotChecked != 5 || s.Checked != 0 {
				t.Errorf("%s judge: %+v, want all 5 not checked", s.Criterion, s)
			}
		case tracer.MethodRules:
			if s.Criterion == tracer.CriterionSingleEndState {
				continue // the fixture breaks none of its rules; endstate_test.go checks it
			}
			if s.Checked != 5 || s.Failed != 1 || s.Passed != 4 {
				t.Errorf("%s rules: %+v, want 5 checked, 4 passed, 1 failed", s.Criterion, s)
			}
		}
	}
}

// The goal-orientation rules, one instruction each.
func TestAudit_GoalOrientedRules(t *testing.T) {
	dom := findDomain(t, "retail")
	base := fixtureTasks(t)[0]
	for _, tt := range []struct {
		instruction string
		fail        string // part of the reason; "" passes
	}{
		{"I want to cancel order #R4246633 because I ordered it by mistake.", ""},
		{"Could you tell me what my order #R4246633 costs?", ""},
		{"Cancel order #R4246633.", "states no goal"},
		{"I want you to look up order #R4246633 and cancel it.", `"look up"`},
		{"I need order #R4246633 cancelled; then use the refund option.", `"then use the"`},
		{"I want to cancel it. Call the tool for it.", `"Call the tool"`},
		{"I want this: {\"order_id\": \"#R4246633\"}.", "order_id"},
		{"I want to cancel [\"#R4246633\"].", "holds JSON"},
		{"I want:\n1. cancel #R4246633\n2. refund it", "step words"},
		{"", "empty"},
		{"I want to calculate what I spent and think it over.", ""},
		{"I want to exchange the kettle and then use my gift card for the difference.", ""},
		{"I want it done. First, call the shop.", `"First, call"`},
	} {
		task := base
		task.Instruction = tt.instruction
		r, err := tracer.Audit(t.Context(), []emobench.TaskSpec{task}, dom, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := r.Tasks[0].Results[0]
		if res.Criterion != tracer.CriterionGoalOriented {
			t.Fatalf("first result is %s", res.Criterion)
		}
		switch {
		case tt.fail == "" && res.Status != emobench.CheckPassed:
			t.Errorf("%q: %s (%s), want passed", tt.instruction, res.Status, res.Reason)
		case tt.fail != "" && (res.Status != emobench.CheckFailed || !strings.Contains(res.Reason, tt.fail)):
			t.Errorf("%q: %s (%s), want failed saying %q", tt.instruction, res.Status, res.Reason, tt.fail)
		}
	}
}

// A forbidden write that the gold makes fails the hand-off; one named by
// its tool alone matches any call of it.
func TestAudit_ForbiddenInGold(t *testing.T) {
	dom := findDomain(t, "retail")
	task := fixtureTasks(t)[0]
	for _, tt := range []struct {
		forbidden string
		fail      bool
	}{
		{`{"order_id": "#R4246633"}`, true},
		{``, true},
		{`{"order_id": "#R9999999"}`, false},
	} {
		task.Forbidden = []emobench.Action{{Name: "cancel_pending_order", Arguments: []byte(tt.forbidden)}}
		r, err := tracer.Audit(t.Context(), []emobench.TaskSpec{task}, dom, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := r.Tasks[0].Results[3]
		if got := res.Status == emobench.CheckFailed; got != tt.fail || res.Criterion != tracer.CriterionHandoff {
			t.Errorf("forbidden %s: %s %s (%s), want failed %v", tt.forbidden, res.Criterion, res.Status, res.Reason, tt.fail)
		}
	}
}

// A task that carries out one request and hands another off passes the
// hand-off; one that calls a tool after the transfer fails it.
func TestAudit_TransferWithOtherRequests(t *testing.T) {
	dom := findDomain(t, "retail")
	task := fixtureTasks(t)[0]
	task.Scenario.Requests = append(task.Scenario.Requests, emobench.Request{Text: "Dispute a charge I do not recognise.", Tools: []string{"transfer_to_human_agents"}})
	transfer := emobench.Action{Name: "transfer_to_human_agents", Arguments: []byte(`{"summary":"a disputed charge"}`)}
	for _, tt := range []struct {
		actions []emobench.Action
		fail    string
	}{
		{append(slices.Clone(task.Actions), transfer), ""},
		{slices.Insert(slices.Clone(task.Actions), 2, transfer), "after the transfer"},
	} {
		task.Actions = tt.actions
		r, err := tracer.Audit(t.Context(), []emobench.TaskSpec{task}, dom, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := r.Tasks[0].Results[3]
		if got := res.Status == emobench.CheckFailed; got != (tt.fail != "") || !strings.Contains(res.Reason, tt.fail) {
			t.Errorf("gold %v: %s (%s), want failed %v saying %q", tt.actions, res.Status, res.Reason, tt.fail != "", tt.fail)
		}
	}
}

// The embedded retail and airline tasks pass every rule, as `tracer audit
// --domain` requires for exit 0. Under -short a sample is audited: every
// 8th task of each split (test and train alike), the first included.
func TestAudit_EmbeddedTasks(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"retail", "airline"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom := findDomain(t, name)
			tasks := dom.Tasks()
			if testing.Short() {
				tasks = everyNth(tasks, 8)
			}
			report, err := tracer.Audit(t.Context(), tasks, dom, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range report.Failures() {
				t.Errorf("%s (task %d): %s by %s: %s", f.TaskID, f.Index, f.Criterion, f.Method, f.Reason)
			}
			t.Logf("%s: %d tasks audited", name, len(tasks))
		})
	}
}

// everyNth returns tasks 0, n, 2n, … of tasks: a sample spread over the
// whole list (both splits, every intent mix), for -short.
func everyNth(tasks []emobench.TaskSpec, n int) []emobench.TaskSpec {
	var out []emobench.TaskSpec
	for i := 0; i < len(tasks); i += n {
		out = append(out, tasks[i])
	}
	return out
}
