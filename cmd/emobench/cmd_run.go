package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/redact"
	"github.com/emobench/emobench/sim"
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
			&cli.StringFlag{Name: "user-abandon", Value: string(sim.AbandonWithEmotions), Usage: "when the user may end with ###UNSATISFIED###: always, with-emotions (as τ-Emotion-Bench) or never"},
			&cli.StringFlag{Name: "condition", Value: "both", Usage: "with-emotions, without-emotions or both"},
			&cli.IntFlag{Name: "trials", Value: 1, Usage: "trials per task"},
			&cli.StringFlag{Name: "tasks", Usage: "task ids (comma-separated) or a number N (the first N); default all"},
			&cli.StringFlag{Name: "split", Value: "test", Usage: "test or train"},
			&cli.IntFlag{Name: "concurrency", Value: 4, Usage: "episodes in flight"},
			&cli.Uint64Flag{Name: "seed", Value: 0, Usage: "run seed; episode seeds derive from it"},
			&cli.IntFlag{Name: "max-steps", Value: sim.DefaultMaxSteps, Usage: "agent steps per episode: each message without tool calls and each tool call is one"},
			&cli.IntFlag{Name: "max-errors", Value: sim.DefaultMaxErrors, Usage: "consecutive tool errors that end an episode"},
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
			&cli.Float64Flag{Name: "agent-temperature", DefaultText: "0, as τ-bench", Usage: "sampling temperature of an llm: agent; negative: the server's default"},
			&cli.Float64Flag{Name: "user-temperature", DefaultText: "0, as τ²-bench", Usage: "sampling temperature of an llm: user; negative: the server's default"},
			&cli.StringFlag{Name: "parallel-tool-calls", Value: sim.ParallelToolCallsAllow, Usage: "allow: an llm: agent's several tool calls in one message all run, one step each; first: only the first runs and the others are dropped, as τ-bench does"},
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "per-request LLM timeout"},
			&cli.DurationFlag{Name: "episode-timeout", Value: sim.DefaultEpisodeTimeout, Usage: "wall-clock bound of one episode, LLM retries included; the episode then ends in error (negative: none)"},
			&cli.StringFlag{Name: "price-file", Usage: "JSON price table {model: {prompt_per_mtok, completion_per_mtok}} for costs"},
		},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			return runBenchmark(c, e)
		},
	}
}

// tagFromFlags records --train-domains and --base-run on a new run.
func tagFromFlags(c *cli.Context, store *db.DB, id int64) error {
	if !c.IsSet("train-domains") && !c.IsSet("base-run") {
		return nil
	}
	var base int64
	if ref := c.String("base-run"); ref != "" {
		var err error
		if base, err = store.ResolveRun(c.Context, ref); err != nil {
			return err
		}
	}
	return store.TagRun(c.Context, id, splitList(c.StringSlice("train-domains")), base)
}

// settingFlags are recorded with a run; --resume takes them from the run.
var settingFlags = []string{"domain", "agent", "user", "condition", "trials", "tasks", "split", "seed", "max-steps", "max-errors", "name", "temperature", "shard",
	"agent-base-url", "user-base-url", "agent-api-key-env", "user-api-key-env", "agent-temperature", "user-temperature", "parallel-tool-calls"}

func runBenchmark(c *cli.Context, e *env) error {
	if ref := c.String("resume"); ref != "" {
		for _, f := range settingFlags {
			if c.IsSet(f) {
				return usagef("--resume reuses the run's recorded settings: drop --%s", f)
			}
		}
		if _, err := os.Stat(c.String("db")); err != nil {
			return usagef("--resume %s: no database at %s", ref, c.String("db"))
		}
		store, err := e.openWrite(c.Context, c.String("db"))
		if err != nil {
			return err
		}
		defer store.Close()
		id, err := store.ResolveRun(c.Context, ref)
		if err != nil {
			return err
		}
		return resumeRun(c, e, store, id)
	}
	// Check every flag before the database is created.
	plans, err := planRuns(c)
	if err != nil {
		return err
	}
	store, err := e.openWrite(c.Context, c.String("db"))
	if err != nil {
		return err
	}
	defer store.Close()
	for _, p := range plans {
		if err := store.CheckNewRunName(c.Context, p.Run.Name); err != nil {
			return asUsage(err)
		}
	}
	for i, p := range plans {
		id, err := store.CreateRun(c.Context, p.Run)
		if err != nil {
			return err
		}
		if err := tagFromFlags(c, store, id); err != nil {
			return err
		}
		if err := executeRun(c, e, store, id, p.Run.Name, p.Spec); err != nil {
			var stopped *interruptedError
			if errors.As(err, &stopped) && i < len(plans)-1 {
				return fmt.Errorf("%v; %d more runs (other domains or conditions) were not started", err, len(plans)-1-i)
			}
			return err
		}
	}
	return nil
}

// planRuns turns the flags into sim.RunOptions and plans one run per
// (domain, condition).
func planRuns(c *cli.Context) ([]sim.PlannedRun, error) {
	names := uniqueInOrder(splitList(c.StringSlice("domain"))) // retail,retail is one run
	for _, f := range []string{"base-url", "agent-base-url", "user-base-url"} {
		if err := checkBaseURL(c.String(f)); err != nil {
			return nil, err
		}
	}
	if len(names) == 0 {
		return nil, usagef("run needs --domain (one of %s) or --resume RUN", strings.Join(all.Names(), ", "))
	}
	conditions, err := sim.ParseConditions(c.String("condition"))
	if err != nil {
		return nil, asUsage(err)
	}
	if c.Int("concurrency") < 1 {
		return nil, usagef("--concurrency %d: need at least 1", c.Int("concurrency"))
	}
	opts := sim.RunOptions{
		Conditions: conditions, Agent: c.String("agent"), User: c.String("user"), Trials: c.Int("trials"),
		Tasks: c.String("tasks"), Split: emobench.Split(c.String("split")), Seed: c.Uint64("seed"),
		MaxSteps: c.Int("max-steps"), MaxErrors: c.Int("max-errors"), BaseURL: c.String("base-url"),
		Shard: c.String("shard"), Name: c.String("name"), LLM: llmOptions(c),
		UserAbandon:       c.String("user-abandon"),
		AgentLLM:          emobench.LLMRole{BaseURL: c.String("agent-base-url"), APIKeyEnv: c.String("agent-api-key-env"), Temperature: floatFlag(c, "agent-temperature")},
		UserLLM:           emobench.LLMRole{BaseURL: c.String("user-base-url"), APIKeyEnv: c.String("user-api-key-env"), Temperature: floatFlag(c, "user-temperature")},
		ParallelToolCalls: c.String("parallel-tool-calls"), Temperature: floatFlag(c, "temperature"),
	}
	for _, name := range names {
		dom, err := all.Find(name)
		if err != nil {
			return nil, &usageError{err}
		}
		opts.Domains = append(opts.Domains, dom)
	}
	plans, err := sim.Plan(opts)
	return plans, asUsage(err)
}

// floatFlag is the flag's value when it was given, nil otherwise.
func floatFlag(c *cli.Context, name string) *float64 {
	if !c.IsSet(name) {
		return nil
	}
	v := c.Float64(name)
	return &v
}

// llmOptions reads the LLM settings that are not recorded with a run: the
// keys are read from the variables the run names (the only place that
// reads them).
func llmOptions(c *cli.Context) sim.LLMOptions {
	return sim.LLMOptions{Getenv: os.Getenv, Timeout: c.Duration("timeout"), PriceFile: c.String("price-file")}
}

// asUsage makes a library's EINVALID error a usage error (exit 2).
func asUsage(err error) error {
	if emobench.ErrorCode(err) == emobench.EINVALID {
		return &usageError{err}
	}
	return err
}

func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// resumeRun runs the (task, trial) pairs run id is missing, with its
// recorded settings.
func resumeRun(c *cli.Context, e *env, store *db.DB, id int64) error {
	run, err := store.FindRun(c.Context, id)
	if err != nil {
		return err
	}
	spec, err := sim.ResumeSpec(run)
	if err != nil {
		return asUsage(err)
	}
	if err := checkBaseURL(c.String("base-url")); err != nil {
		return err
	}
	if c.IsSet("base-url") { // the endpoint may move between sessions
		spec.BaseURL = c.String("base-url")
	}
	return executeRun(c, e, store, id, run.Name, spec)
}

// lockRun records this process as the one running run id, so that a
// second `run --resume` of it is refused at once; the returned function
// removes the record. A record left by a process that no longer runs (on
// this host) is taken over with a note.
func lockRun(c *cli.Context, e *env, store *db.DB, id int64) (func(), error) {
	command := "emobench run"
	if ref := c.String("resume"); ref != "" {
		command += " --resume " + ref
	}
	stale, unlock, err := store.LockRunHere(c.Context, id, command)
	if err != nil {
		return nil, err
	}
	if stale != nil {
		e.warn(fmt.Sprintf("run %d was held by process %d (%s), which is no longer running: taking it over", id, stale.PID, stale.Command))
	}
	return unlock, nil
}

// executeRun runs the pairs of run id that are not stored yet, committing
// each trajectory as it finishes.
func executeRun(c *cli.Context, e *env, store *db.DB, id int64, name string, spec emobench.RunSpec) error {
	dom, err := all.Find(spec.Domain)
	if err != nil {
		return err
	}
	agent, user, err := sim.NewParticipants(spec, llmOptions(c))
	if err != nil {
		return asUsage(err)
	}
	unlock, err := lockRun(c, e, store, id)
	if err != nil {
		return err
	}
	defer unlock()
	have, err := store.ListFinishedPairs(c.Context, id)
	if err != nil {
		return err
	}
	jobs, err := sim.MissingJobs(dom, spec, func(task string, trial int) bool { return have[db.Pair{TaskKey: task, Trial: trial}] })
	if err != nil {
		return asUsage(err)
	}
	fmt.Fprintf(e.stdout, "run %d (%s): %d episodes to run (%d already stored)\n", id, name, len(jobs), len(have))
	if len(jobs) == 0 {
		return nil
	}
	var bar *sim.Progress
	if isTerminal(e.stderr) {
		bar = sim.NewProgress(e.stderr, len(jobs))
	}
	start := time.Now()
	x := sim.Execution{Domain: dom, Spec: spec, Agent: agent, User: user, Concurrency: c.Int("concurrency"), OnEpisode: bar.Show,
		EpisodeTimeout: c.Duration("episode-timeout")}
	// The sink commits even when the run is being interrupted (the episode
	// is done), unless it is still waiting for another writer.
	tally, err := sim.Execute(c.Context, x, jobs, func(ctx context.Context, traj *emobench.Trajectory) error {
		ingest.RedactTrajectory(traj) // credentials a model or tool echoed, as ingest redacts a file's
		return store.AppendTrajectory(ctx, id, traj)
	})
	bar.Finish()
	var allFailed *sim.AllFailedError
	switch {
	case errors.Is(err, context.Canceled):
		return &interruptedError{fmt.Sprintf("interrupted: %d episodes of run %d stored; continue with --resume %d", tally.Done, id, id)}
	case errors.As(err, &allFailed):
		return fmt.Errorf("stopped: %v; check the endpoint, model name and key, then continue with --resume %d", err, id)
	case err != nil:
		return fmt.Errorf("run %d: %w", id, err)
	}
	fmt.Fprintf(e.stdout, "run %d (%s): %d episodes in %.1fs; pass rate %.3f, %d abandoned (user_unsatisfied), %d errors\n",
		id, name, tally.Done, time.Since(start).Seconds(), tally.PassRate(), tally.Abandoned, tally.Errors)
	if tally.Errors > 0 {
		return fmt.Errorf("run %d: %d of %d episodes ended in error (first: %s); fix the cause and retry them with --resume %d",
			id, tally.Errors, tally.Done, tally.FirstError, id)
	}
	return nil
}

// interruptedError is a run stopped by Ctrl-C.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }

// uniqueInOrder returns values without repeats, first occurrences kept.
func uniqueInOrder(values []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// checkBaseURL refuses an endpoint that carries a credential: the endpoint
// is stored with the run for --resume, and the key would be too.
func checkBaseURL(u string) error {
	if redact.Text(u) != u {
		return usagef("--base-url holds a credential (a password or a key parameter): give the endpoint alone and the key in OPENAI_API_KEY")
	}
	return nil
}
