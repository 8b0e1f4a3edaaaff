package main

import (
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// collectSkips are run's flags tracer collect does not take: the domains and
// split are the tasks', and a collection is neither resumed, sharded nor
// tagged as a tuned agent's run. Its --tasks-file, --task-set, --tasks and
// --trials are run's (flagAliases reads the old --tasks FILE, --generated
// and --samples).
var collectSkips = []string{"domain", "split", "resume", "shard", "train-domains", "base-run"}

func tracerCollectCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "collect",
		Usage: "run agents on Tracer's tasks: a run with --trials trials per task, tagged with the task set",
		Description: "Runs every task of --tasks-file FILE (or of --task-set NAME, a task set in --db; --tasks IDS or N\n" +
			"picks some of them), --trials times under\n" +
			"each condition (both by default), as `run` does, with run's agent, user and per-role LLM flags. One\n" +
			"run per (domain, condition) is stored like any run, its config naming the tasks (task_set: the\n" +
			"file's absolute path or the task set's name; task_set_sha256: the sha256 of the file's bytes, or\n" +
			"of the set's tasks as one JSON array), and each trajectory with its user dependence. Filter them\n" +
			"next with `emobench tracer filter --run ID --selection NAME`. `emobench run --resume RUN` continues a collection\n" +
			"while its tasks file or task set is unchanged.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db tracer collect --tasks-file tasks.json --agent noisy:0.3 --user scripted --trials 2\n" +
			"   OPENAI_API_KEY=... emobench --db runs.db tracer collect --tasks-file train.json --agent llm:gpt-4.1 --user llm:gpt-4.1-mini --trials 4",
		Flags:  cliargs.Without(runCommand(e).Flags, collectSkips...),
		Before: noArgs,
		Action: func(c *cli.Context) error { return tracerCollect(c, e) },
	}
}

func tracerCollect(c *cli.Context, e *env) error {
	if err := workbench.CheckLLMTimeout(c.Duration("timeout")); err != nil {
		return err
	}
	src, err := workbench.ReadTaskSource(c.Context, c.String("db"), c.String("tasks-file"), c.String("task-set"))
	switch {
	case err != nil:
		return err
	case src == nil:
		return usagef("tracer collect needs --tasks-file FILE or --task-set NAME (a task set tracer generate stored)")
	}
	plans, err := workbench.PlanCollect(src, c.String("condition"), c.Int("concurrency"), runOptions(c))
	if err != nil {
		return err
	}
	store, err := e.startRuns(c, plans, nil, src, "emobench tracer collect")
	if err != nil {
		return err
	}
	defer store.Close()
	line, err := workbench.CollectedLine(c.Context, store, plans, c.Int("trials"))
	if err == nil {
		e.println(line)
	}
	return err
}
