package main

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/sim"
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
			cliargs.Choice("split", "", "audit only the tasks of this split: test or train (default both)", "test", "train"),
			&cli.StringFlag{Name: "judge", Usage: "llm:MODEL: an LLM also judges each criterion (temperature 0)"},
			modelBaseURLFlag("judge"),
			modelKeyEnvFlag("judge"),
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "per-request LLM timeout of the judge"},
			formatFlag("table", "table", "json", "csv", "markdown"),
		},
		Action: func(c *cli.Context) error { return tracerAudit(c, e) },
	}
}

func tracerAudit(c *cli.Context, e *env) error {
	if c.String("judge") == "" && c.IsSet("judge-api-key-env") {
		return usagef("--judge-api-key-env needs --judge")
	}
	switch given := slices.DeleteFunc([]string{c.String("tasks-file"), c.String("task-set"), c.String("domain")}, func(v string) bool { return v == "" }); len(given) {
	case 0:
		return usagef("give --tasks-file FILE, --task-set NAME or --domain D (%s)", strings.Join(all.Names(), ", "))
	case 2, 3:
		return usagef("give one of --tasks-file, --task-set or --domain, not several (a tasks file or task set names each task's domain)")
	}
	report, err := workbench.Audit(c.Context, workbench.AuditRequest{DB: c.String("db"),
		TasksFile: c.String("tasks-file"), TaskSet: c.String("task-set"), Domain: c.String("domain"), Split: emobench.Split(c.String("split")),
		Judge: c.String("judge"), JudgeLLM: modelRole(c, "judge"), LLM: sim.LLMOptions{Getenv: os.Getenv, Timeout: c.Duration("timeout")}})
	if err != nil {
		return err
	}
	if err := report.Write(e.stdout, c.String("format")); err != nil {
		return err
	}
	return workbench.AuditFailures(report) // exit 1
}
