package tracer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/sim"
)

// AuditTasks audits tasks of any domains: those of split (all when "")
// grouped by domain in order of first appearance, each group Audit-ed
// against find(domain) with judge. A TaskAudit's Index is the task's
// position in tasks. source names where the tasks came from (a file, a
// task set) in errors: a domain find does not know (naming the task by
// index and id), and no task of split. ctx's error ends it.
func AuditTasks(ctx context.Context, source string, tasks []emobench.TaskSpec, split emobench.Split, find func(name string) (sim.Domain, error), judge Judge) (AuditReport, error) {
	type group struct {
		dom   sim.Domain
		tasks []emobench.TaskSpec
		index []int
	}
	var groups []*group
	at := map[string]*group{}
	for i, t := range tasks {
		if split != "" && t.Split != split {
			continue
		}
		g := at[t.Domain]
		if g == nil {
			dom, err := find(t.Domain)
			if err != nil {
				return AuditReport{}, fmt.Errorf("%s: task %d (%s): %w", source, i, t.ID, err)
			}
			g = &group{dom: dom}
			at[t.Domain] = g
			groups = append(groups, g)
		}
		g.tasks = append(g.tasks, t)
		g.index = append(g.index, i)
	}
	if len(groups) == 0 {
		return AuditReport{}, fmt.Errorf("%s: no task to audit (split %q)", source, split)
	}
	var report AuditReport
	for _, g := range groups {
		r, err := Audit(ctx, g.tasks, g.dom, judge)
		if err != nil {
			return report, err
		}
		for i := range r.Tasks {
			r.Tasks[i].Index = g.index[r.Tasks[i].Index]
		}
		report.Judge = r.Judge
		report.Tasks = append(report.Tasks, r.Tasks...)
	}
	return report, nil
}

// FailedTasks is the number of tasks that fail some check.
func (r AuditReport) FailedTasks() int {
	n := 0
	for _, t := range r.Tasks {
		if t.Failed() {
			n++
		}
	}
	return n
}

// Undecided is the number of judge checks a judge ran and could not
// decide (its errors and missing verdicts); 0 when no judge ran.
func (r AuditReport) Undecided() int {
	if r.Judge == "" {
		return 0
	}
	n := 0
	for _, s := range r.Summary() {
		if s.Method == MethodJudge {
			n += s.NotChecked
		}
	}
	return n
}

// Tables returns the report as two tables: the summary, one row per
// criterion and check (Summary), and the failing checks (Failures).
func (r AuditReport) Tables() (summary, failures *table.Table) {
	summary = &table.Table{Columns: []string{"criterion", "check", "tasks", "checked", "passed", "failed", "not_checked"}}
	for _, s := range r.Summary() {
		summary.Rows = append(summary.Rows, []any{string(s.Criterion), s.Method, s.Tasks, s.Checked, s.Passed, s.Failed, s.NotChecked})
	}
	failures = &table.Table{Columns: []string{"index", "task", "criterion", "check", "reason"}}
	for _, f := range r.Failures() {
		failures.Rows = append(failures.Rows, []any{f.Index, f.TaskID, string(f.Criterion), f.Method, f.Reason})
	}
	return summary, failures
}

// Write writes the report in format: json, one object with the judge,
// the task count, the summary and the failures; csv, the two tables
// (Tables) separated by a blank line; table or markdown, the summary,
// then "failing tasks:" and their table, or a line saying every task
// passes. An unknown format is table.Write's error; others are w's.
func (r AuditReport) Write(w io.Writer, format string) error {
	if format == "json" {
		out := struct {
			Judge    string             `json:"judge"`
			Tasks    int                `json:"tasks"`
			Criteria []CriterionSummary `json:"criteria"`
			Failures []AuditFailure     `json:"failures"`
		}{r.Judge, len(r.Tasks), r.Summary(), r.Failures()}
		if out.Failures == nil {
			out.Failures = []AuditFailure{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	summary, failures := r.Tables()
	if err := summary.Write(w, format); err != nil {
		return err
	}
	head := "\nfailing tasks:\n"
	switch {
	case len(failures.Rows) == 0 && format == "csv":
		return nil
	case len(failures.Rows) == 0:
		_, err := fmt.Fprintf(w, "\nall %d tasks pass every check that ran\n", len(r.Tasks))
		return err
	case format == "csv":
		head = "\n"
	}
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	return failures.Write(w, format)
}
