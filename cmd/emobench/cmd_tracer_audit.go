package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
)

func tracerAuditCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "audit",
		Usage:  "check tasks on magnet-tau's four criteria (goal-oriented, a tool task with a preference, solvable, out-of-domain handed off) and one correct end state",
		Before: noArgs,
		Description: "Audits the tasks of a tasks file (--tasks-file: a JSON array of tasks, as a domain's tasks.json holds\n" +
			"them), a task set stored in --db (--task-set, as tracer generate stores it) or a domain's embedded\n" +
			"tasks (--domain). Deterministic rules run on every task: the\n" +
			"instruction states a goal and no procedure (no tool or argument names, step words or JSON); a\n" +
			"request the gold actions complete (or a forbidden or transfer request) plus a preference fact\n" +
			"beyond identity; the gold replays on a fresh database and the oracle with the scripted user passes\n" +
			"with and without emotions; a transfer is the gold's last call and its other writes are ones a request\n" +
			"asks for, and no gold call is a forbidden write; and one correct end state (single_end_state): every\n" +
			"write the user's words also allow (the catalog's Alternatives) that the policy allows reaches the gold's\n" +
			"end state, \"not checked\" for a domain whose catalog declares no alternatives (rules only).\n" +
			"With --judge an LLM also gives a verdict per criterion; without it the judge's checks are \"not\n" +
			"checked\", never passed. Offline unless --judge is given; nothing is stored (--db is only read, for\n" +
			"--task-set).\n\n" +
			"The output is a table per criterion and check (rules, judge) of the tasks checked, passed, failed\n" +
			"and not checked, then the failing tasks with the reason (json: one object with both; csv: the two\n" +
			"tables separated by a blank line). Exit status 1 when any task fails a check, or when a judge was\n" +
			"given and could not decide some task; 2 for a bad command line.\n\n" +
			"Example:\n" +
			"   emobench tracer audit --domain retail\n" +
			"   emobench tracer audit --tasks-file tasks.json --format json\n" +
			"   emobench --db runs.db tracer audit --task-set retail-test-s7\n" +
			"   OPENAI_API_KEY=... emobench tracer audit --tasks-file tasks.json --judge llm:gpt-4.1",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tasks-file", Usage: "a `FILE` of tasks (a JSON array, as tracer generate --out writes); each task is audited against its own domain"},
			&cli.StringFlag{Name: "task-set", Usage: "audit the task set `NAME` stored in --db (tracer generate without --out)"},
			&cli.StringFlag{Name: "domain", Usage: "audit the embedded tasks of this domain (" + strings.Join(all.Names(), ", ") + ")"},
			&cli.StringFlag{Name: "split", Usage: "audit only the tasks of this split: test or train (default both)"},
			&cli.StringFlag{Name: "judge", Usage: "llm:MODEL: an LLM also judges each criterion (temperature 0)"},
			&cli.StringFlag{Name: "judge-base-url", EnvVars: []string{"OPENAI_BASE_URL"}, Usage: "OpenAI-compatible endpoint of the --judge model"},
			&cli.StringFlag{Name: "judge-api-key-env", Value: sim.DefaultAPIKeyEnv, Usage: "environment variable holding the --judge model's API key"},
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "per-request LLM timeout of the judge"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv or markdown"},
		},
		Action: func(c *cli.Context) error { return tracerAudit(c, e) },
	}
}

func tracerAudit(c *cli.Context, e *env) error {
	format := c.String("format")
	if err := checkFormat(format, "table", "json", "csv", "markdown"); err != nil {
		return err
	}
	split := emobench.Split(c.String("split"))
	if split != "" && split != emobench.SplitTest && split != emobench.SplitTrain {
		return usagef("--split %q is not test or train", split)
	}
	judge, err := auditJudge(c)
	if err != nil {
		return err
	}
	groups, err := auditTasks(c, split)
	if err != nil {
		return err
	}
	var report tracer.AuditReport
	for _, g := range groups {
		r, err := tracer.Audit(c.Context, g.tasks, g.dom, judge)
		if err != nil {
			return err
		}
		for i := range r.Tasks {
			r.Tasks[i].Index = g.index[r.Tasks[i].Index]
		}
		report.Judge = r.Judge
		report.Tasks = append(report.Tasks, r.Tasks...)
	}
	if err := writeAudit(e.stdout, report, format); err != nil {
		return err
	}
	failed, undecided := 0, 0
	for _, t := range report.Tasks {
		if t.Failed() {
			failed++
		}
	}
	if judge != nil {
		for _, s := range report.Summary() {
			if s.Method == tracer.MethodJudge {
				undecided += s.NotChecked
			}
		}
	}
	switch {
	case failed > 0:
		fmt.Fprintf(e.stderr, "emobench: tracer audit: %d of %d tasks fail a check\n", failed, len(report.Tasks))
		return &reportedError{fmt.Errorf("%d tasks fail", failed)}
	case undecided > 0:
		fmt.Fprintf(e.stderr, "emobench: tracer audit: the judge could not decide %d checks (see the reasons with --format json)\n", undecided)
		return &reportedError{fmt.Errorf("%d judge checks not decided", undecided)}
	}
	return nil
}

// auditJudge builds the --judge model as run --judge does: temperature 0,
// its key read from --judge-api-key-env; nil without --judge.
func auditJudge(c *cli.Context) (tracer.Judge, error) {
	name := c.String("judge")
	if name == "" {
		if c.IsSet("judge-api-key-env") {
			return nil, usagef("--judge-api-key-env needs --judge")
		}
		return nil, nil
	}
	if d := c.Duration("timeout"); d <= 0 {
		return nil, usagef("--timeout %v: need a positive duration (the time limit of each LLM request)", d)
	}
	if err := workbench.CheckEndpoint("judge-base-url", c.String("judge-base-url")); err != nil {
		return nil, &usageError{err}
	}
	model, ok := strings.CutPrefix(name, "llm:")
	if !ok {
		return nil, usagef("--judge %q is not llm:MODEL", name)
	}
	role := emobench.LLMRole{BaseURL: c.String("judge-base-url"), APIKeyEnv: c.String("judge-api-key-env"), Temperature: new(float64)}
	client, err := sim.NewRoleClient("--judge", model, role, sim.LLMOptions{Getenv: os.Getenv, Timeout: c.Duration("timeout")})
	if err != nil {
		if emobench.ErrorCode(err) == emobench.EINVALID {
			return nil, &usageError{err}
		}
		return nil, err
	}
	return &tracer.LLMJudge{Client: client}, nil
}

// auditGroup is the tasks of one domain, with their positions in the
// tasks file (index[i] is task i's).
type auditGroup struct {
	dom   sim.Domain
	tasks []emobench.TaskSpec
	index []int
}

// auditTasks reads the tasks to audit, grouped by domain in order of first
// appearance: those of the tasks file (--tasks-file), of the task set stored in
// --db (--task-set), or the domain's embedded ones (--domain), keeping
// split's (all when "").
func auditTasks(c *cli.Context, split emobench.Split) ([]auditGroup, error) {
	path, set, domain := c.String("tasks-file"), c.String("task-set"), c.String("domain")
	var tasks []emobench.TaskSpec
	given := 0
	for _, v := range []string{path, set, domain} {
		if v != "" {
			given++
		}
	}
	switch {
	case given > 1:
		return nil, usagef("give one of --tasks-file, --task-set or --domain, not several (a tasks file or task set names each task's domain)")
	case set != "":
		if _, err := os.Stat(c.String("db")); err != nil {
			return nil, usagef("--task-set %s: no database at %s (store the task set with emobench tracer generate first)", set, c.String("db"))
		}
		store, err := openCurrent(c)
		if err != nil {
			return nil, err
		}
		defer store.Close()
		var missing *db.TaskSetNotFoundError
		if _, tasks, err = store.LoadTaskSet(c.Context, set); errors.As(err, &missing) {
			return nil, usagef("--task-set: %v in %s (tracer generate stores one)", err, c.String("db"))
		} else if err != nil {
			return nil, fmt.Errorf("tracer audit: %w", err)
		}
		path = "task set " + set // names the source in errors below
	case path != "":
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if tasks, err = sim.DecodeAuditTasks(data); err != nil {
			return nil, fmt.Errorf("tracer audit: %s: %w", path, err)
		}
	case domain != "":
		dom, err := all.Find(domain)
		if err != nil {
			return nil, &usageError{err}
		}
		tasks = dom.Tasks()
	default:
		return nil, usagef("give --tasks-file FILE, --task-set NAME or --domain D (%s)", strings.Join(all.Names(), ", "))
	}
	var groups []auditGroup
	at := map[string]int{}
	for i, t := range tasks {
		if split != "" && t.Split != split {
			continue
		}
		g, ok := at[t.Domain]
		if !ok {
			dom, err := all.Find(t.Domain)
			if err != nil {
				return nil, fmt.Errorf("tracer audit: %s: task %d (%s): %w", path, i, t.ID, err)
			}
			g = len(groups)
			at[t.Domain] = g
			groups = append(groups, auditGroup{dom: dom})
		}
		groups[g].tasks = append(groups[g].tasks, t)
		groups[g].index = append(groups[g].index, i)
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("tracer audit: no task to audit (split %q)", split)
	}
	return groups, nil
}

// writeAudit prints the per-criterion summary and the failing tasks.
func writeAudit(w io.Writer, r tracer.AuditReport, format string) error {
	summary := &table.Table{Columns: []string{"criterion", "check", "tasks", "checked", "passed", "failed", "not_checked"}}
	for _, s := range r.Summary() {
		summary.Rows = append(summary.Rows, []any{string(s.Criterion), s.Method, s.Tasks, s.Checked, s.Passed, s.Failed, s.NotChecked})
	}
	failures := &table.Table{Columns: []string{"index", "task", "criterion", "check", "reason"}}
	for _, f := range r.Failures() {
		failures.Rows = append(failures.Rows, []any{f.Index, f.TaskID, string(f.Criterion), f.Method, f.Reason})
	}
	if format == "json" {
		out := struct {
			Judge    string                    `json:"judge"`
			Tasks    int                       `json:"tasks"`
			Criteria []tracer.CriterionSummary `json:"criteria"`
			Failures []tracer.AuditFailure     `json:"failures"`
		}{r.Judge, len(r.Tasks), r.Summary(), r.Failures()}
		if out.Failures == nil {
			out.Failures = []tracer.AuditFailure{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if err := summary.Write(w, format); err != nil {
		return err
	}
	if len(failures.Rows) == 0 {
		if format == "csv" {
			return nil
		}
		_, err := fmt.Fprintf(w, "\nall %d tasks pass every check that ran\n", len(r.Tasks))
		return err
	}
	head := "\nfailing tasks:\n"
	if format == "csv" {
		head = "\n"
	}
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	return failures.Write(w, format)
}
