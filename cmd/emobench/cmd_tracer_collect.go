package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

// collectSkips are run's flags tracer collect does not take: the domains and
// split are the tasks', and a collection is neither resumed, sharded nor
// tagged as a tuned agent's run. Its --tasks-file, --task-set, --tasks and
// --trials are run's (flagAliases reads the old --tasks FILE, --generated
// and --samples).
var collectSkips = map[string]bool{"domain": true, "split": true, "resume": true, "shard": true, "train-domains": true, "base-run": true}

func tracerCollectCommand(e *env) *cli.Command {
	var flags []cli.Flag
	for _, f := range runCommand(e).Flags {
		if !collectSkips[f.Names()[0]] {
			flags = append(flags, f)
		}
	}
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
		Flags:  flags,
		Before: noArgs,
		Action: func(c *cli.Context) error { return tracerCollect(c, e) },
	}
}

func tracerCollect(c *cli.Context, e *env) error {
	if d := c.Duration("timeout"); d <= 0 {
		return usagef("--timeout %v: need a positive duration (the time limit of each LLM request)", d)
	}
	path, setName := c.String("tasks-file"), c.String("task-set")
	switch {
	case path != "" && setName != "":
		return usagef("give --tasks-file FILE or --task-set NAME, not both")
	case path == "" && setName == "":
		return usagef("tracer collect needs --tasks-file FILE or --task-set NAME (a task set tracer generate stored)")
	}
	if n := c.Int("trials"); n < 1 {
		return usagef("--trials %d: need at least 1", n)
	}
	var tasks []emobench.TaskSpec
	var tag, sum string
	var store *db.DB
	if path != "" {
		var err error
		if tasks, sum, err = readTasksFile(path); err != nil {
			return err
		}
		if tag, err = filepath.Abs(path); err != nil {
			return err
		}
	} else {
		var err error
		if store, err = workbench.OpenExisting(c.Context, c.String("db"), e.warn, e.waitNotices(c.String("db"))...); err != nil {
			return err
		}
		defer store.Close()
		if _, tasks, err = store.LoadTaskSet(c.Context, setName); err != nil {
			return err
		}
		if len(tasks) == 0 {
			return fmt.Errorf("task set %s holds no tasks", setName)
		}
		for i := range tasks {
			if err := sim.CheckRewardBasis(&tasks[i]); err != nil {
				return fmt.Errorf("task set %s: %w", setName, err)
			}
		}
		tag, sum = setName, tracer.TaskSetSHA256(tasks)
		path = setName
	}
	var domains []string
	for _, t := range tasks {
		domains = append(domains, t.Domain)
		if t.Split != tasks[0].Split {
			return fmt.Errorf("%s: task %s is a %s task, task %s a %s one: collect one split at a time", path, tasks[0].ID, tasks[0].Split, t.ID, t.Split)
		}
	}
	opts := runOptions(c)
	opts.Split = tasks[0].Split
	if opts.Name == "" {
		opts.Name = "collect-" + strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	plans, err := workbench.PlanRuns(workbench.PlanRequest{
		Domains: workbench.UniqueInOrder(domains), Condition: c.String("condition"), Concurrency: c.Int("concurrency"),
		Options: opts, Tasks: tasks,
	})
	if err != nil {
		return settingsUsage(err)
	}
	for i := range plans {
		plans[i].Spec.TaskSet, plans[i].Spec.TaskSetSHA256 = tag, sum
		plans[i].Run.Config = plans[i].Spec.Encode()
	}
	if w := sim.ScriptedUserWarning(c.String("agent"), c.String("user")); w != "" {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if store == nil {
		if store, err = e.openWrite(c.Context, c.String("db")); err != nil {
			return err
		}
		defer store.Close()
	}
	x := e.executeOptions(c)
	x.Command, x.Tasks = "emobench tracer collect", tasks
	if err := settingsUsage(workbench.StartRuns(c.Context, store, plans, nil, x)); err != nil {
		return err
	}
	var refs []string
	ran := map[string]bool{} // domain/task id: --tasks may pick some
	for _, p := range plans {
		for _, id := range p.Spec.Tasks {
			ran[p.Spec.Domain+"/"+id] = true
		}
		id, err := store.ResolveRun(c.Context, p.Run.Name)
		if err != nil {
			return err
		}
		refs = append(refs, fmt.Sprintf("--run %d", id))
	}
	e.println(fmt.Sprintf("collected %d tasks × %d trials; filter them with: emobench tracer filter %s --selection NAME", len(ran), opts.Trials, strings.Join(refs, " ")))
	return nil
}

// readTasksFile reads a tasks file (sim.DecodeTasks) and the hex sha256 of
// its bytes. Errors name the file; an empty list is one.
func readTasksFile(path string) ([]emobench.TaskSpec, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("--tasks-file: %w", err)
	}
	tasks, err := sim.DecodeTasks(data)
	if err != nil {
		return nil, "", fmt.Errorf("--tasks-file %s: %w", path, err)
	}
	if len(tasks) == 0 {
		return nil, "", fmt.Errorf("--tasks-file %s: no tasks", path)
	}
	sum := sha256.Sum256(data)
	return tasks, hex.EncodeToString(sum[:]), nil
}
