package workbench

import (
	"context"
	"fmt"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// AuditRequest is what tracer audit checks: the tasks of exactly one of
// TasksFile, TaskSet (stored in the database at DB) and Domain (its
// embedded tasks; the caller checks that one is given), those of Split
// ("" for both), by the rules and, when
// Judge is llm:MODEL, by that model too ("": the rules only).
type AuditRequest struct {
	DB                         string
	TasksFile, TaskSet, Domain string
	Split                      emobench.Split
	Judge                      string
	JudgeLLM                   emobench.LLMRole // the judge's endpoint and key variable; its temperature is 0, as run --judge's
	LLM                        sim.LLMOptions   // the judge's request timeout (CheckLLMTimeout) and environment
}

// Audit reads r's tasks and audits them (tracer.AuditTasks) against
// their registered domains. A bad judge setting is an EREQUEST error;
// see auditTasksOf for the sources' errors. The report's failures are not errors: AuditFailures
// says them.
func Audit(ctx context.Context, r AuditRequest) (tracer.AuditReport, error) {
	var judge tracer.Judge
	if r.Judge != "" {
		if err := CheckLLMTimeout(r.LLM.Timeout); err != nil {
			return tracer.AuditReport{}, err
		}
		role := r.JudgeLLM
		role.Temperature = new(float64)
		client, err := RoleClient("judge", r.Judge, role, r.LLM)
		if err != nil {
			return tracer.AuditReport{}, err
		}
		judge = &tracer.LLMJudge{Client: client}
	}
	source, tasks, err := auditTasksOf(ctx, r.DB, r.TasksFile, r.TaskSet, r.Domain)
	if err != nil {
		return tracer.AuditReport{}, err
	}
	report, err := tracer.AuditTasks(ctx, source, tasks, r.Split, all.Find, judge)
	if err != nil {
		return report, fmt.Errorf("tracer audit: %w", err)
	}
	return report, nil
}

// AuditFailures is the error of an audit whose tasks do not all pass (a
// task failed a check, or the judge could not decide a check), nil when
// they do: its message counts them.
func AuditFailures(report tracer.AuditReport) error {
	if n := report.FailedTasks(); n > 0 {
		return fmt.Errorf("tracer audit: %d of %d tasks fail a check", n, len(report.Tasks))
	}
	if n := report.Undecided(); n > 0 {
		return fmt.Errorf("tracer audit: the judge could not decide %d checks (the json format gives the reasons)", n)
	}
	return nil
}
