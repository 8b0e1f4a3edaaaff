package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/redact"
	"github.com/emobench/emobench/sim"
	"github.com/schollz/progressbar/v3"
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
			"OPENAI_API_KEY), oracle, noisy:RATE. Users: llm:MODEL, scripted. The built-in oracle, noisy\n" +
			"and scripted simulators need no model and no network: they are simulators for offline runs,\n" +
			"tests and demos, not models of real agents or users.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db run --domain retail --agent noisy:0.3 --user scripted --trials 3\n" +
			"   OPENAI_API_KEY=... emobench --db runs.db run --domain retail,airline --agent llm:gpt-4.1 --user llm:gpt-4.1-mini\n" +
			"   emobench --db runs.db run --resume 3",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "domain", Usage: "domains, comma-separated (" + strings.Join(all.Names(), ", ") + ")"},
			&cli.StringFlag{Name: "agent", Usage: "llm:MODEL, oracle or noisy:RATE"},
			&cli.StringFlag{Name: "user", Value: "scripted", Usage: "llm:MODEL or scripted"},
			&cli.StringFlag{Name: "condition", Value: "both", Usage: "with-emotions, without-emotions or both"},
			&cli.IntFlag{Name: "trials", Value: 1, Usage: "trials per task"},
			&cli.StringFlag{Name: "tasks", Usage: "task ids (comma-separated) or a number N (the first N); default all"},
			&cli.StringFlag{Name: "split", Value: "test", Usage: "test or train"},
			&cli.IntFlag{Name: "concurrency", Value: 4, Usage: "episodes in flight"},
			&cli.Uint64Flag{Name: "seed", Value: 0, Usage: "run seed; episode seeds derive from it"},
			&cli.IntFlag{Name: "max-steps", Value: sim.DefaultMaxSteps, Usage: "agent steps per episode"},
			&cli.IntFlag{Name: "max-errors", Value: sim.DefaultMaxErrors, Usage: "consecutive tool errors that end an episode"},
			&cli.StringFlag{Name: "name", Usage: "run name (default AGENT-DOMAIN-CONDITION)"},
			&cli.StringFlag{Name: "resume", Usage: "run id or name to complete"},
			&cli.StringFlag{Name: "shard", Usage: "I/N: run only shard I (0-based) of N of the (task, trial) pairs; merge the shards' files later"},
			&cli.StringSliceFlag{Name: "train-domains", Usage: "for a tuned agent: the domains it was trained on (see stats generalization)"},
			&cli.StringFlag{Name: "base-run", Usage: "for a tuned agent: run id or name of its base model"},
			&cli.StringFlag{Name: "base-url", EnvVars: []string{"OPENAI_BASE_URL"}, Usage: "OpenAI-compatible endpoint for llm: agents and users"},
			&cli.Float64Flag{Name: "temperature", Value: -1, DefaultText: "the server's", Usage: "sampling temperature for LLMs"},
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "per-request LLM timeout"},
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

// runSettings is what a native run records in runs.config, so --resume can
// rebuild it. It holds no secret: API keys never reach the db.
type runSettings struct {
	Domain      string   `json:"domain"`
	Condition   string   `json:"condition"`
	Agent       string   `json:"agent"`
	User        string   `json:"user"`
	Trials      int      `json:"trials"`
	Tasks       []string `json:"tasks"`
	Split       string   `json:"split"`
	Seed        uint64   `json:"seed"`
	MaxSteps    int      `json:"max_steps"`
	MaxErrors   int      `json:"max_errors"`
	BaseURL     string   `json:"base_url,omitempty"`
	Shard       string   `json:"shard,omitempty"` // "I/N": this run holds the pairs of shard I of N
	Temperature *float64 `json:"temperature,omitempty"`
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
var settingFlags = []string{"domain", "agent", "user", "condition", "trials", "tasks", "split", "seed", "max-steps", "max-errors", "name", "temperature", "shard"}

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
	runs := make([]emobench.Run, len(plans))
	for i, p := range plans {
		runs[i] = p.run()
		if name := c.String("name"); name != "" && len(plans) == 1 {
			runs[i].Name = name
		} else if name != "" {
			runs[i].Name = fmt.Sprintf("%s-%s-%s", name, p.Domain, p.Condition)
		}
		if err := checkNameForm(runs[i].Name); err != nil {
			return err
		}
		// A second run of one name would make --run NAME ambiguous.
		if ids, err := store.RunsNamed(c.Context, runs[i].Name); err != nil {
			return err
		} else if len(ids) > 0 {
			return usagef("run %d is already called %q: continue it with --resume %d, or give --name for a new run",
				ids[len(ids)-1], runs[i].Name, ids[len(ids)-1])
		}
	}
	for i, p := range plans {
		run := runs[i]
		id, err := store.CreateRun(c.Context, run)
		if err != nil {
			return err
		}
		if err := tagFromFlags(c, store, id); err != nil {
			return err
		}
		if err := executeRun(c, e, store, id, run.Name, p); err != nil {
			var stopped *interruptedError
			if errors.As(err, &stopped) && i < len(plans)-1 {
				return fmt.Errorf("%v; %d more runs (other domains or conditions) were not started", err, len(plans)-1-i)
			}
			return err
		}
	}
	return nil
}

// planRuns turns the flags into one run per (domain, condition).
func planRuns(c *cli.Context) ([]runSettings, error) {
	domains := uniqueInOrder(splitList(c.StringSlice("domain"))) // retail,retail is one run
	if err := checkBaseURL(c.String("base-url")); err != nil {
		return nil, err
	}
	if len(domains) == 0 {
		return nil, usagef("run needs --domain (one of %s) or --resume RUN", strings.Join(all.Names(), ", "))
	}
	if c.String("agent") == "" {
		return nil, usagef("run needs --agent (llm:MODEL, oracle or noisy:RATE)")
	}
	conditions, err := parseConditions(c.String("condition"))
	if err != nil {
		return nil, err
	}
	if c.Int("trials") < 1 {
		return nil, usagef("--trials %d: need at least 1", c.Int("trials"))
	}
	for _, f := range []string{"max-steps", "max-errors", "concurrency"} {
		if c.Int(f) < 1 {
			return nil, usagef("--%s %d: need at least 1", f, c.Int(f))
		}
	}
	if s := c.String("split"); s != "test" && s != "train" {
		return nil, usagef("--split %q is not test or train", s)
	}
	var plans []runSettings
	found := map[string]bool{}
	for _, d := range domains {
		dom, err := all.Find(d)
		if err != nil {
			return nil, &usageError{err}
		}
		tasks, err := selectTasks(dom, emobench.Split(c.String("split")), c.String("tasks"))
		if err != nil {
			return nil, err
		}
		for _, id := range tasks {
			found[id] = true
		}
		if len(tasks) == 0 {
			continue // --tasks names only other domains' tasks
		}
		for _, cond := range conditions {
			p := runSettings{
				Domain: d, Condition: string(cond), Agent: c.String("agent"), User: c.String("user"),
				Trials: c.Int("trials"), Tasks: tasks, Split: c.String("split"), Seed: c.Uint64("seed"),
				MaxSteps: c.Int("max-steps"), MaxErrors: c.Int("max-errors"), BaseURL: c.String("base-url"),
				Shard: c.String("shard"),
			}
			if _, _, err := parseShard(p.Shard); err != nil {
				return nil, err
			}
			if t := c.Float64("temperature"); t >= 0 {
				p.Temperature = &t
			}
			if _, _, err := buildParticipants(c, p); err != nil {
				return nil, err
			}
			plans = append(plans, p)
		}
	}
	if _, err := strconv.Atoi(c.String("tasks")); err != nil && c.String("tasks") != "" {
		for _, id := range splitList([]string{c.String("tasks")}) {
			if !found[id] {
				return nil, usagef("--tasks: no %s task %q in domains %s", c.String("split"), id, strings.Join(domains, ", "))
			}
		}
	}
	return plans, nil
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

func parseConditions(s string) ([]emobench.Condition, error) {
	switch s {
	case "both":
		return []emobench.Condition{emobench.ConditionWithEmotions, emobench.ConditionWithoutEmotions}, nil
	case string(emobench.ConditionWithEmotions), string(emobench.ConditionWithoutEmotions):
		return []emobench.Condition{emobench.Condition(s)}, nil
	}
	return nil, usagef("--condition %q is not one of with-emotions, without-emotions, both", s)
}

// selectTasks returns the ids of the split's tasks chosen by spec: all, the
// first N, or a comma-separated list of ids.
func selectTasks(dom sim.Domain, split emobench.Split, spec string) ([]string, error) {
	var ids []string
	for _, t := range dom.Tasks() {
		if t.Split == split {
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return nil, usagef("domain %s has no %s tasks", dom.Name(), split)
	}
	if spec == "" {
		return ids, nil
	}
	if n, err := strconv.Atoi(spec); err == nil {
		if n < 1 {
			return nil, usagef("--tasks %d: need at least 1", n)
		}
		return ids[:min(n, len(ids))], nil
	}
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	var chosen []string
	for _, id := range splitList([]string{spec}) {
		if known[id] {
			chosen = append(chosen, id)
		}
	}
	return chosen, nil // ids of other domains are for those domains
}

func (p runSettings) run() emobench.Run {
	config, _ := json.Marshal(p)
	agentModel, agentStrategy := participantDescription(p.Agent, "tool-calling")
	userModel, userStrategy := participantDescription(p.User, "llm")
	return emobench.Run{
		Name: fmt.Sprintf("%s-%s-%s", p.Agent, p.Domain, p.Condition), SourceFormat: "native",
		AgentModel: agentModel, AgentStrategy: agentStrategy, UserModel: userModel, UserStrategy: userStrategy,
		Domain: p.Domain, Condition: emobench.Condition(p.Condition), CreatedAt: time.Now().UTC(), Config: config,
	}
}

// participantDescription splits "llm:gpt-4.1" into model and strategy; a
// built-in simulator is its own model.
func participantDescription(spec, llmStrategy string) (model, strategy string) {
	if m, ok := strings.CutPrefix(spec, "llm:"); ok {
		return m, llmStrategy
	}
	name, _, _ := strings.Cut(spec, ":")
	return spec, name
}

// buildParticipants makes the agent and user simulator a run asks for.
func buildParticipants(c *cli.Context, p runSettings) (sim.Agent, sim.UserSimulator, error) {
	agent, err := buildAgent(c, p)
	if err != nil {
		return nil, nil, err
	}
	var user sim.UserSimulator
	switch {
	case p.User == "scripted":
		user = sim.ScriptedUser{}
	case strings.HasPrefix(p.User, "llm:"):
		client, err := llmClient(c, p, strings.TrimPrefix(p.User, "llm:"))
		if err != nil {
			return nil, nil, err
		}
		user = sim.NewLLMUser(client)
	default:
		return nil, nil, usagef("--user %q is not llm:MODEL or scripted", p.User)
	}
	return agent, user, nil
}

func buildAgent(c *cli.Context, p runSettings) (sim.Agent, error) {
	switch {
	case p.Agent == "oracle":
		return sim.Oracle{}, nil
	case strings.HasPrefix(p.Agent, "noisy:"):
		rate, err := strconv.ParseFloat(strings.TrimPrefix(p.Agent, "noisy:"), 64)
		if err != nil || rate < 0 || rate > 1 {
			return nil, usagef("--agent %q: the noise rate must be a number in [0, 1]", p.Agent)
		}
		return sim.Noisy{Rate: rate}, nil
	case strings.HasPrefix(p.Agent, "llm:"):
		client, err := llmClient(c, p, strings.TrimPrefix(p.Agent, "llm:"))
		if err != nil {
			return nil, err
		}
		return sim.NewLLMAgent(client), nil
	}
	return nil, usagef("--agent %q is not llm:MODEL, oracle or noisy:RATE", p.Agent)
}

// llmClient configures an OpenAI-compatible client from flags and the
// environment (the only place that reads OPENAI_API_KEY).
func llmClient(c *cli.Context, p runSettings, model string) (*sim.LLMClient, error) {
	if model == "" {
		return nil, usagef("llm: needs a model name, e.g. llm:gpt-4.1")
	}
	if isOpenAI(p.BaseURL) && strings.TrimSpace(os.Getenv("OPENAI_API_KEY")) == "" {
		// Every episode would fail after its retries: say so before the first.
		return nil, usagef("llm:%s talks to %s, which needs OPENAI_API_KEY; set it, or give --base-url (or OPENAI_BASE_URL) for a local server such as vLLM or Ollama",
			model, sim.DefaultLLMBaseURL)
	}
	cfg := sim.LLMConfig{
		BaseURL: p.BaseURL, APIKey: os.Getenv("OPENAI_API_KEY"), Model: model,
		Temperature: p.Temperature, Timeout: c.Duration("timeout"),
	}
	if p.Seed != 0 {
		seed := int64(p.Seed)
		cfg.Seed = &seed
	}
	if path := c.String("price-file"); path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if cfg.Prices, err = sim.LoadPriceTable(f); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return sim.NewLLMClient(cfg)
}

// resumeRun runs the (task, trial) pairs run id is missing, with its
// recorded settings.
func resumeRun(c *cli.Context, e *env, store *db.DB, id int64) error {
	run, err := store.FindRun(c.Context, id)
	if err != nil {
		return err
	}
	if run.SourceFormat != "native" {
		return usagef("run %d (%s) was ingested from a file, not run by emobench: nothing to resume", id, run.Name)
	}
	var p runSettings
	if err := json.Unmarshal(run.Config, &p); err != nil {
		return fmt.Errorf("run %d: config: %w", id, err)
	}
	if err := checkBaseURL(c.String("base-url")); err != nil {
		return err
	}
	if c.IsSet("base-url") { // the endpoint may move between sessions
		p.BaseURL = c.String("base-url")
	}
	return executeRun(c, e, store, id, run.Name, p)
}

// lockRun records this process as the one running run id, so that a
// second `run --resume` of it is refused at once; the returned function
// removes the record. A record left by a process that no longer runs (on
// this host) is taken over with a note.
func lockRun(c *cli.Context, e *env, store *db.DB, id int64) (func(), error) {
	host, _ := os.Hostname()
	command := "emobench run"
	if ref := c.String("resume"); ref != "" {
		command += " --resume " + ref
	}
	me := db.RunHolder{PID: os.Getpid(), Host: host, Command: command, Started: time.Now().Truncate(time.Second)}
	stale, err := store.LockRun(c.Context, id, me, func(h db.RunHolder) bool {
		return h.Host != host || processAlive(h.PID) // another machine's process cannot be checked
	})
	if err != nil {
		return nil, err
	}
	if stale != nil {
		e.warn(fmt.Sprintf("run %d was held by process %d (%s), which is no longer running: taking it over", id, stale.PID, stale.Command))
	}
	return func() { store.UnlockRun(context.WithoutCancel(c.Context), id, me) }, nil
}

// processAlive reports whether a process with this pid exists on this host.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// executeRun runs the pairs of run id that are not stored yet, committing
// each trajectory as it finishes.
func executeRun(c *cli.Context, e *env, store *db.DB, id int64, name string, p runSettings) error {
	dom, err := all.Find(p.Domain)
	if err != nil {
		return err
	}
	agent, user, err := buildParticipants(c, p)
	if err != nil {
		return err
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
	jobs, err := missingJobs(dom, p, have)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "run %d (%s): %d episodes to run (%d already stored)\n", id, name, len(jobs), len(have))
	if len(jobs) == 0 {
		return nil
	}
	progress := newRunProgress(e.stderr, len(jobs))
	cfg := sim.RunnerConfig{
		Domain: dom, Agent: agent, User: user, Seed: p.Seed,
		WithEmotions: p.Condition == string(emobench.ConditionWithEmotions),
		Concurrency:  max(1, c.Int("concurrency")), MaxSteps: p.MaxSteps, MaxErrors: p.MaxErrors,
	}
	start := time.Now()
	err = sim.RunJobs(c.Context, cfg, jobs, func(ctx context.Context, traj *emobench.Trajectory) error {
		// Commits even when the run is being interrupted (the episode is
		// done), unless it is still waiting for another writer.
		if err := store.AppendTrajectory(ctx, id, traj); err != nil {
			return err
		}
		progress.add(traj)
		if n := cfg.Concurrency + failFastErrors; progress.errors >= n && progress.errors == progress.done {
			return fmt.Errorf("stopped: the first %d episodes all ended in error (first: %s); check the endpoint, model name and key, then continue with --resume %d",
				progress.done, progress.firstError, id)
		}
		return nil
	})
	progress.finish()
	if errors.Is(err, context.Canceled) {
		return &interruptedError{fmt.Sprintf("interrupted: %d episodes of run %d stored; continue with --resume %d", progress.done, id, id)}
	}
	if err != nil {
		return fmt.Errorf("run %d: %w", id, err)
	}
	elapsed := time.Since(start).Seconds()
	fmt.Fprintf(e.stdout, "run %d (%s): %d episodes in %.1fs; pass rate %.3f, %d abandoned (user_unsatisfied), %d errors\n",
		id, name, progress.done, elapsed, progress.passRate(), progress.abandoned, progress.errors)
	if progress.errors > 0 {
		return fmt.Errorf("run %d: %d of %d episodes ended in error (first: %s); fix the cause and retry them with --resume %d",
			id, progress.errors, progress.done, progress.firstError, id)
	}
	return nil
}

// failFastErrors is how many episodes beyond those in flight may end in
// error, with none finishing well, before a run stops: a dead endpoint or
// a wrong key fails every episode.
const failFastErrors = 4

// interruptedError is a run stopped by Ctrl-C.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }

func missingJobs(dom sim.Domain, p runSettings, have map[db.Pair]bool) ([]sim.Job, error) {
	byID := map[string]*emobench.TaskSpec{}
	tasks := dom.Tasks()
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	shard, shards, err := parseShard(p.Shard)
	if err != nil {
		return nil, err
	}
	var jobs []sim.Job
	for trial := 0; trial < p.Trials; trial++ {
		for _, id := range p.Tasks {
			task, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("domain %s has no task %q any more", p.Domain, id)
			}
			if !have[db.Pair{TaskKey: id, Trial: trial}] && inShard(id, trial, shard, shards) {
				jobs = append(jobs, sim.Job{Task: task, Trial: trial})
			}
		}
	}
	return jobs, nil
}

// runProgress counts finished episodes and shows a bar with ETA and the
// pass rate so far when stderr is a terminal.
type runProgress struct {
	bar        *progressbar.ProgressBar
	done       int
	passed     int
	abandoned  int
	errors     int
	firstError string
}

func newRunProgress(stderr io.Writer, total int) *runProgress {
	p := &runProgress{}
	if isTerminal(stderr) && total > 0 {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("episodes"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
		)
	}
	return p
}

func (p *runProgress) add(traj *emobench.Trajectory) {
	p.done++
	if traj.Passed() {
		p.passed++
	}
	switch traj.TerminationReason {
	case emobench.TerminationUserUnsatisfied:
		p.abandoned++
	case emobench.TerminationError:
		if p.errors == 0 {
			p.firstError = traj.Error
		}
		p.errors++
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("episodes (pass %.2f)", p.passRate()))
		p.bar.Add(1)
	}
}

func (p *runProgress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

func (p *runProgress) passRate() float64 {
	if p.done == 0 {
		return 0
	}
	return float64(p.passed) / float64(p.done)
}

// parseShard reads "I/N" (0 ≤ I < N); "" is the whole run (shard 0 of 1).
func parseShard(s string) (shard, shards int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	i, n, ok := strings.Cut(s, "/")
	shard, err1 := strconv.Atoi(i)
	shards, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || shards < 1 || shard < 0 || shard >= shards {
		return 0, 0, usagef("--shard %q: want I/N with 0 <= I < N, e.g. 0/4", s)
	}
	return shard, shards, nil
}

// inShard assigns each (task, trial) pair to one shard by a hash, so the
// split does not depend on the order or the number of tasks chosen.
func inShard(taskID string, trial, shard, shards int) bool {
	return sim.EpisodeSeed(0, taskID, trial)%uint64(shards) == uint64(shard)
}

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

// isOpenAI reports whether base (empty for the default) is OpenAI's API,
// which needs a key.
func isOpenAI(base string) bool {
	u, err := url.Parse(strings.TrimSpace(base))
	return base == "" || err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}
