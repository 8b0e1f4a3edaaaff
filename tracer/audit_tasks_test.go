package tracer_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// AuditTasks groups tasks of two domains, audits each against its own
// and gives each result the task's position in the list given.
func TestAuditTasks_Groups(t *testing.T) {
	t.Parallel()
	retail, airline := findDomain(t, "retail").Tasks(), findDomain(t, "airline").Tasks()
	tasks := []emobench.TaskSpec{retail[0], airline[0], retail[1], airline[1]}
	tasks[2].Split = emobench.SplitTrain // kept by "", dropped by test
	r, err := tracer.AuditTasks(t.Context(), "list", tasks, "", all.Find, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ta := range r.Tasks {
		got = append(got, fmt.Sprintf("%s@%d", ta.TaskID, ta.Index))
	}
	// Grouped by domain in order of first appearance: retail's, then airline's.
	if want := retail[0].ID + "@0," + retail[1].ID + "@2," + airline[0].ID + "@1," + airline[1].ID + "@3"; strings.Join(got, ",") != want {
		t.Fatalf("audited %s, want %s", strings.Join(got, ","), want)
	}
	if n := r.FailedTasks(); n != 0 {
		t.Fatalf("%d embedded tasks fail: %v", n, r.Failures())
	}
	test, err := tracer.AuditTasks(t.Context(), "list", tasks, emobench.SplitTest, all.Find, nil)
	if err != nil || len(test.Tasks) != 3 {
		t.Fatalf("split test: %d tasks (%v), want 3", len(test.Tasks), err)
	}
}

func TestAuditTasks_Err(t *testing.T) {
	t.Parallel()
	task := findDomain(t, "retail").Tasks()[0]
	other := task
	other.Domain = "nowhere"
	noDomain := func(name string) (sim.Domain, error) { return nil, errors.New("no domain " + name) }
	for _, c := range []struct {
		tasks []emobench.TaskSpec
		split emobench.Split
		find  func(string) (sim.Domain, error)
		want  string
	}{
		{[]emobench.TaskSpec{task, other}, "", noDomain, "tasks.json: task 0 (" + task.ID + "): no domain retail"},
		{[]emobench.TaskSpec{task}, emobench.SplitTrain, all.Find, `tasks.json: no task to audit (split "train")`},
		{nil, "", all.Find, "no task to audit"},
	} {
		if _, err := tracer.AuditTasks(t.Context(), "tasks.json", c.tasks, c.split, c.find, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v, want %q", err, c.want)
		}
	}
}

// Write prints the summary and the failures in each format; Undecided
// counts the judge's not-checked results only when a judge ran.
func TestAuditReport_Write(t *testing.T) {
	r := tracer.AuditReport{Tasks: []tracer.TaskAudit{
		{Index: 0, TaskID: "a", Results: []tracer.AuditResult{{Criterion: tracer.CriterionSolvable, Method: tracer.MethodRules, Status: emobench.CheckPassed}}},
		{Index: 1, TaskID: "b", Results: []tracer.AuditResult{
			{Criterion: tracer.CriterionSolvable, Method: tracer.MethodRules, Status: emobench.CheckFailed, Reason: "gold fails"},
			{Criterion: tracer.CriterionGoalOriented, Method: tracer.MethodJudge, Status: emobench.CheckNotChecked, Reason: "timeout"},
		}},
	}}
	if got, want := r.FailedTasks(), 1; got != want {
		t.Fatalf("failed tasks %d, want %d", got, want)
	}
	if got := r.Undecided(); got != 0 {
		t.Fatalf("undecided %d without a judge, want 0", got)
	}
	r.Judge = "m"
	if got, want := r.Undecided(), 1; got != want {
		t.Fatalf("undecided %d with a judge, want %d", got, want)
	}
	var text, csv, js bytes.Buffer
	for _, w := range []struct {
		b      *bytes.Buffer
		format string
	}{{&text, "table"}, {&csv, "csv"}, {&js, "json"}} {
		if err := r.Write(w.b, w.format); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(text.String(), "failing tasks:") || !strings.Contains(text.String(), "gold fails") {
		t.Errorf("table:\n%s", text.String())
	}
	if !strings.Contains(csv.String(), "\n\nindex,task,criterion,check,reason\n1,b,solvable,rules,gold fails\n") {
		t.Errorf("csv:\n%s", csv.String())
	}
	var out struct {
		Judge    string
		Tasks    int
		Failures []tracer.AuditFailure
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil || out.Judge != "m" || out.Tasks != 2 || len(out.Failures) != 1 || out.Failures[0].TaskID != "b" {
		t.Fatalf("json %s (%v)", js.String(), err)
	}
	var pass bytes.Buffer
	if err := (tracer.AuditReport{Tasks: r.Tasks[:1]}).Write(&pass, "table"); err != nil || !strings.Contains(pass.String(), "all 1 tasks pass every check that ran") {
		t.Fatalf("all pass: %q (%v)", pass.String(), err)
	}
}
