package workbench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// AuditRequest is what tracer audit checks: the tasks of exactly one of
// TasksFile, TaskSet (stored in the database at DB) and Domain (its
// embedded tasks), those of Split ("" for both), by the rules and, when
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
// their registered domains. Naming none or several task sources, and a
// bad judge setting, are EREQUEST errors; see auditTasksOf for the
// sources' errors. The report's failures are not errors: AuditFailures
// says them.
func Audit(ctx context.Context, r AuditRequest) (tracer.AuditReport, error) {
	given := slices.DeleteFunc([]string{r.TasksFile, r.TaskSet, r.Domain}, func(v string) bool { return v == "" })
	switch len(given) {
	case 0:
		return tracer.AuditReport{}, requestf("give --tasks-file FILE, --task-set NAME or --domain D (%s)", strings.Join(all.Names(), ", "))
	case 1:
	default:
		return tracer.AuditReport{}, requestf("give one of --tasks-file, --task-set or --domain, not several (a tasks file or task set names each task's domain)")
	}
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
		return fmt.Errorf("tracer audit: the judge could not decide %d checks (see the reasons with --format json)", n)
	}
	return nil
}
