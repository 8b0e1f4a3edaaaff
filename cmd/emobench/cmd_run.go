package main

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func runCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "run the benchmark: agents against emotion-conditioned user simulators, stored as native runs",
		Description: "Runs every (task, trial) of the chosen domains and conditions. Each finished trajectory is\n" +
			"committed at once, so an interrupted run loses only episodes in flight; --resume RUN runs the\n" +
			"missing (task, trial) pairs with the run's recorded settings.\n\n" +
			"Agents: llm:MODEL (OpenAI-compatible Chat Completions; --base-url or OPENAI_BASE_URL, key in\n" +
			"OPENAI_API_KEY), oracle, noisy:RATE, and the validity agents nothing (never calls a tool) and\n" +
			"careless (acts without checking the policy). Users: llm:MODEL, scripted. The built-in oracle,\n" +
			"noisy, nothing, careless and scripted simulators need no model and no network: they are\n" +
			"simulators for offline runs, tests and demos, not models of real agents or users.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db run --domain retail --agent noisy:0.3 --user scripted --trials 3\n" +
			"   OPENAI_API_KEY=... emobench --db runs.db run --domain retail,airline --agent llm:gpt-4.1 --user llm:gpt-4.1-mini\n" +
			"   emobench --db runs.db run --resume 3",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "domain", Usage: "domains, comma-separated (" + strings.Join(all.Names(), ", ") + ")"},
			&cli.StringFlag{Name: "agent", Usage: "llm:MODEL, oracle, noisy:RATE, or the validity agents nothing and careless (simulators)"},
			&cli.StringFlag{Name: "user", Value: "scripted", Usage: "llm:MODEL or scripted (a rule-based simulator)"},
			&cli.StringFlag{Name: "user-strategy", Value: string(sim.UserStrategyLLM), Usage: "how an llm: user writes each message: llm (one call), react (a thought, then the message; only the message is sent), verify (a second call checks the draft follows the user's instructions; drafted again if not) or reflection (on a failed check, reflect and draft again); the scripted user has no strategy: it takes only llm, and runs.user_strategy records scripted"},
			&cli.StringFlag{Name: "preset", Value: sim.PresetEmobench, Usage: "protocol preset: " + strings.Join(sim.PresetNames(), ", ") + " (step limit and what counts as a step, error limit, parallel tool calls, who speaks first, temperatures, abandonment and its reward; see the README's table); a flag given explicitly overrides it"},
			&cli.StringFlag{Name: "user-abandon", DefaultText: "the preset's", Usage: "when the user may end with ###UNSATISFIED###: always (emobench: the conditions differ by the emotion alone), with-emotions (as τ-Emotion-Bench) or never (τ²-bench)"},
			&cli.StringFlag{Name: "condition", Value: "both", Usage: "with-emotions, without-emotions or both"},
			&cli.IntFlag{Name: "trials", Value: 1, Usage: "trials per task"},
			&cli.StringFlag{Name: "tasks", Usage: "task ids (comma-separated) or a number N (the first N); default all"},
			&cli.StringFlag{Name: "tasks-file", Usage: "run the tasks of this JSON `FILE` (tracer generate --out) instead of the domains' own; --domain defaults to its domains, --split to its split"},
			&cli.StringFlag{Name: "task-set", Usage: "run the tasks of the task set `NAME` stored in --db (tracer generate) instead of the domains' own"},
			&cli.StringFlag{Name: "split", Value: "test", Usage: "test or train"},
			&cli.IntFlag{Name: "concurrency", Value: 4, Usage: "episodes in flight"},
			&cli.Uint64Flag{Name: "seed", Value: 0, Usage: "run seed; episode seeds derive from it"},
			&cli.IntFlag{Name: "max-steps", DefaultText: "the preset's", Usage: "steps per episode, counted as the preset counts them (emobench, tau-emotion: each agent message without tool calls and each tool call; tau2: every message)"},
			&cli.IntFlag{Name: "max-errors", DefaultText: "the preset's", Usage: "tool errors that end an episode (emobench: in a row; tau2: in all; tau-emotion: none end it)"},
			&cli.StringFlag{Name: "name", Usage: "run name (default AGENT-DOMAIN-CONDITION)"},
			&cli.StringFlag{Name: "resume", Usage: "run id or name to complete"},
			&cli.StringFlag{Name: "shard", Usage: "I/N: run only shard I (0-based) of N of the (task, trial) pairs; merge the shards' files later"},
			&cli.StringSliceFlag{Name: "train-domains", Usage: "for a tuned agent: the domains it was trained on (see stats generalization)"},
			&cli.StringFlag{Name: "base-run", Usage: "for a tuned agent: run id or name of its base model"},
			&cli.StringFlag{Name: "base-url", EnvVars: []string{"OPENAI_BASE_URL"}, Usage: "OpenAI-compatible endpoint for llm: agents and users (unless --agent-base-url or --user-base-url)"},
			&cli.StringFlag{Name: "agent-base-url", Usage: "OpenAI-compatible endpoint of an llm: agent (default --base-url)"},
			&cli.StringFlag{Name: "user-base-url", Usage: "OpenAI-compatible endpoint of an llm: user (default --base-url)"},
			&cli.StringFlag{Name: "agent-api-key-env", Value: sim.DefaultAPIKeyEnv, Usage: "environment variable holding the llm: agent's API key (its name is recorded, never the key)"},
			&cli.StringFlag{Name: "user-api-key-env", Value: sim.DefaultAPIKeyEnv, Usage: "environment variable holding the llm: user's API key (its name is recorded, never the key)"},
			&cli.Float64Flag{Name: "temperature", DefaultText: "per role", Usage: "sampling temperature of both llm: roles, unless --agent-temperature or --user-temperature; negative: the server's default"},
			&cli.Float64Flag{Name: "agent-temperature", DefaultText: "the preset's", Usage: "sampling temperature of an llm: agent; negative: the server's default"},
			&cli.Float64Flag{Name: "user-temperature", DefaultText: "the preset's", Usage: "sampling temperature of an llm: user; negative: the server's default"},
			&cli.StringFlag{Name: "judge", Usage: "llm:MODEL: an LLM judges the tasks' NL assertions (temperature 0; recorded with the run); without it they are not checked"},
			&cli.StringFlag{Name: "judge-base-url", Usage: "OpenAI-compatible endpoint of the --judge model (default --base-url)"},
			&cli.StringFlag{Name: "judge-api-key-env", Value: sim.DefaultAPIKeyEnv, Usage: "environment variable holding the --judge model's API key (its name is recorded, never the key)"},
			&cli.StringFlag{Name: "parallel-tool-calls", DefaultText: "the preset's", Usage: "allow: an llm: agent's several tool calls in one message all run, one step each; first: only the first runs and the others are dropped, as τ-bench does"},
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "per-request LLM timeout"},
			&cli.IntFlag{Name: "max-consecutive-errors", Value: sim.DefaultMaxConsecutiveErrors, Usage: "stop the run when this many episodes in a row end in error (a dead endpoint); stored, resumable with --resume; 0: never"},
			&cli.DurationFlag{Name: "episode-timeout", Value: sim.DefaultEpisodeTimeout, Usage: "wall-clock bound of one episode, LLM retries included; the episode then ends in error (negative: none; 0 is refused; recorded with the run)"},
			&cli.StringFlag{Name: "price-file", Usage: "JSON price table {model: {prompt_per_mtok, completion_per_mtok}} for costs"},
		},
		Before: noArgs,
		Action: func(c *cli.Context) error { return runBenchmark(c, e) },
	}
}

func runBenchmark(c *cli.Context, e *env) error {
	// The LLM client reads 0 (and less) as its default: refuse it rather
	// than run with a timeout other than the one given.
	if err := workbench.CheckLLMTimeout(c.Duration("timeout")); err != nil {
		return err
	}
	if d := c.Duration("episode-timeout"); d == 0 {
		return usagef("--episode-timeout 0: need a positive duration, or a negative one for no limit")
	}
	if ref := c.String("resume"); ref != "" {
		return resumeRun(c, e, ref)
	}
	for _, f := range []string{"max-steps", "max-errors"} {
		if c.IsSet(f) && c.Int(f) < 1 { // unset, 0 means the preset's
			return usagef("--%s %d: need at least 1", f, c.Int(f))
		}
	}
	src, err := workbench.ReadTaskSource(c.Context, c.String("db"), c.String("tasks-file"), c.String("task-set"))
	if err != nil {
		return err
	}
	// Check every flag before the database is created.
	plans, err := planRuns(c, src)
	if err != nil {
		return err
	}
	tags := workbench.NewRunTags(given(c, "train-domains", c.StringSlice), given(c, "base-run", c.String))
	store, err := e.startRuns(c, plans, tags, src, "")
	if err == nil {
		store.Close()
	}
	return err
}

// startRuns opens --db for writing and starts plans (workbench.StartRuns)
// over src's tasks (src nil: the domains' own), after the scripted user's
// warning; command ("" for run's) names the process in the runs' lock.
// The store is returned open when the runs went well.
func (e *env) startRuns(c *cli.Context, plans []sim.PlannedRun, tags *workbench.RunTags, src *workbench.TaskSource, command string) (*db.DB, error) {
	if w := sim.ScriptedUserWarning(c.String("agent"), c.String("user")); w != "" {
		e.warning(w) // not a note: --quiet keeps it
	}
	store, err := e.openWrite(c.Context, c.String("db"))
	if err != nil {
		return nil, err
	}
	x := e.executeOptions(c)
	if src != nil {
		x.Tasks = src.Tasks
	}
	if command != "" {
		x.Command = command
	}
	if err := workbench.StartRuns(c.Context, store, plans, tags, x); err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

// planRuns turns the flags into sim.RunOptions and plans one run per
// (domain, condition), over src's tasks when src is not nil.
func planRuns(c *cli.Context, src *workbench.TaskSource) ([]sim.PlannedRun, error) {
	req := workbench.PlanRequest{
		Domains:   workbench.UniqueInOrder(workbench.SplitList(c.StringSlice("domain"))), // retail,retail is one run
		Condition: c.String("condition"), Concurrency: c.Int("concurrency"), Options: runOptions(c),
	}
	return workbench.PlanRunsOver(req, src, c.IsSet("domain"), c.IsSet("split"))
}

// runOptions copies run's flags (those tracer collect shares too) into
// sim.RunOptions.
func runOptions(c *cli.Context) sim.RunOptions {
	return sim.RunOptions{
		Agent: c.String("agent"), User: c.String("user"), Trials: c.Int("trials"),
		Tasks: c.String("tasks"), Split: emobench.Split(c.String("split")), Seed: c.Uint64("seed"),
		Preset: c.String("preset"), MaxSteps: c.Int("max-steps"), MaxErrors: c.Int("max-errors"), BaseURL: c.String("base-url"),
		Shard: c.String("shard"), Name: c.String("name"), LLM: llmOptions(c),
		UserAbandon: c.String("user-abandon"), UserStrategy: c.String("user-strategy"),
		AgentLLM:          emobench.LLMRole{BaseURL: c.String("agent-base-url"), APIKeyEnv: c.String("agent-api-key-env"), Temperature: given(c, "agent-temperature", c.Float64)},
		UserLLM:           emobench.LLMRole{BaseURL: c.String("user-base-url"), APIKeyEnv: c.String("user-api-key-env"), Temperature: given(c, "user-temperature", c.Float64)},
		ParallelToolCalls: c.String("parallel-tool-calls"), Temperature: given(c, "temperature", c.Float64),
		EpisodeTimeout: c.Duration("episode-timeout"),
		Judge:          c.String("judge"),
		JudgeLLM:       emobench.LLMRole{BaseURL: c.String("judge-base-url"), APIKeyEnv: c.String("judge-api-key-env")},
	}
}

// llmOptions reads the LLM settings that are not recorded with a run: the
// keys are read from the variables the run names (the only place that
// reads them).
func llmOptions(c *cli.Context) sim.LLMOptions {
	return sim.LLMOptions{Getenv: os.Getenv, Timeout: c.Duration("timeout"), PriceFile: c.String("price-file")}
}

// resumeRun runs the (task, trial) pairs that run ref (an id or a name)
// is missing, with its recorded settings.
func resumeRun(c *cli.Context, e *env, ref string) error {
	llm := workbench.ResumeLLM{Agent: resumeRole(c, "agent"), User: resumeRole(c, "user"), Judge: resumeRole(c, "judge")}
	for _, f := range c.LocalFlagNames() {
		switch {
		case slices.Contains(workbench.RecordedSettings, f):
			return usagef("--resume reuses the run's recorded settings: drop --%s", f)
		case f == "train-domains" || f == "base-run":
			return usagef("--resume does not tag a run: drop --%s, and tag it with emobench runs tag %s --%s ...", f, ref, f)
		}
	}
	if err := workbench.CheckResume(c.String("db"), ref, c.String("price-file")); err != nil {
		return err
	}
	llm.BaseURL = given(c, "base-url", c.String) // the endpoint may move between sessions
	return e.writeDB(c, func(store *db.DB) error { return workbench.ResumeRun(c.Context, store, ref, llm, e.executeOptions(c)) })
}

// resumeRole is what --ROLE-base-url and --ROLE-api-key-env give, "" where unset.
func resumeRole(c *cli.Context, role string) emobench.LLMRole {
	r := emobench.LLMRole{BaseURL: c.String(role + "-base-url")}
	if c.IsSet(role + "-api-key-env") {
		r.APIKeyEnv = c.String(role + "-api-key-env")
	}
	return r
}

// executeOptions is how the run and demo commands execute runs: the LLM
// settings, --concurrency, a progress bar on a terminal, lines on stdout
// and notes on stderr.
func (e *env) executeOptions(c *cli.Context) workbench.ExecuteOptions {
	command := "emobench run"
	if ref := c.String("resume"); ref != "" {
		command += " --resume " + ref
	}
	breaker := c.Int("max-consecutive-errors") // 0 (a command without the flag): the default
	if c.IsSet("max-consecutive-errors") && breaker <= 0 {
		breaker = -1 // never
	}
	return workbench.ExecuteOptions{
		LLM: llmOptions(c), Concurrency: c.Int("concurrency"), Command: command, EpisodeTimeout: c.Duration("episode-timeout"),
		Progress: e.terminal, Print: e.println, Note: e.warn, MaxConsecutiveErrors: breaker, SealKeyFile: workbench.DefaultSealKeyFile(),
	}
}
