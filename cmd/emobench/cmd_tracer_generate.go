package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/internal/atomicfile"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
)

func tracerGenerateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "generate",
		Usage: "generate grounded, policy-valid tasks from a domain's intent catalog",
		Description: "Walks the domain's tool graph, grounds each walk in its database, runs the gold actions on a\n" +
			"copy and keeps a task only when it passes every check (replay, policy, facts reachable, oracle,\n" +
			"careless fails a forbidden request). The same seed gives byte-identical tasks. With --out the\n" +
			"tasks go to a JSON file that `run --tasks-file` reads; without it they are stored in --db as a\n" +
			"task set that `run --task-set` reads. For --split train, the domain's test tasks are excluded.\n\n" +
			"Example:\n" +
			"   emobench tracer generate --domain retail --n 200 --seed 7 --out retail-test.json\n" +
			"   emobench --db runs.db tracer generate --domain airline --n 500 --split train --intents-dist 3,2,1",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "domain", Usage: "domain (" + strings.Join(all.Names(), ", ") + ")"},
			&cli.IntFlag{Name: "n", Usage: "tasks to generate"},
			&cli.Uint64Flag{Name: "seed", Value: 7, Usage: "generator seed"},
			&cli.StringFlag{Name: "split", Value: "test", Usage: "test or train"},
			&cli.StringFlag{Name: "walk-steps", Value: "2,3,4", Usage: "walk lengths of one intent: the opener plus the intent's tool path"},
			&cli.StringFlag{Name: "walk-steps-dist", Usage: "weights of --walk-steps, comma-separated (default 1,2,4 for the default --walk-steps, else uniform)"},
			&cli.StringFlag{Name: "intents", Value: "1,2,3", Usage: "intents one task combines"},
			&cli.StringFlag{Name: "intents-dist", Usage: "weights of --intents, comma-separated (default 1,2,4 for the default --intents, else uniform)"},
			&cli.Float64Flag{Name: "forbidden", Value: tracer.DefaultForbiddenShare, Usage: "least share of tasks asking for a write the policy forbids (0: none)"},
			&cli.Float64Flag{Name: "transfer", Value: tracer.DefaultTransferShare, Usage: "least share of tasks that end with a transfer to a human (0: none)"},
			&cli.Float64Flag{Name: "read", Value: tracer.DefaultReadShare, Usage: "share of tasks that only ask for information; every other task holds a write (0: none)"},
			&cli.StringFlag{Name: "emotions", Usage: "emotion family weights, e.g. anger=2,fear=1 (default: balanced over all families)"},
			&cli.StringFlag{Name: "paraphrase", Usage: "llm:MODEL rewrites each instruction; a rewrite that loses a fact rejects the task"},
			&cli.StringFlag{Name: "paraphrase-base-url", EnvVars: []string{"OPENAI_BASE_URL"}, Usage: "OpenAI-compatible endpoint of the --paraphrase model"},
			&cli.StringFlag{Name: "paraphrase-api-key-env", Value: sim.DefaultAPIKeyEnv, Usage: "environment variable holding the --paraphrase model's API key"},
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "per-request LLM timeout of --paraphrase"},
			&cli.StringFlag{Name: "exclude", Usage: "JSON tasks FILE whose action sets no generated task may repeat"},
			&cli.StringFlag{Name: "out", Usage: "write the tasks to this JSON `FILE` instead of the database"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing --out file"},
			&cli.StringFlag{Name: "task-set", Usage: "task set `NAME` in --db (default DOMAIN-SPLIT-sSEED)"},
			&cli.BoolFlag{Name: "replace", Usage: "replace a stored task set of the same name"},
		},
		Before: noArgs,
		Action: func(c *cli.Context) error { return generateTasks(c, e) },
	}
}

func generateTasks(c *cli.Context, e *env) error {
	opts, domName, err := generateOptions(c)
	if err != nil {
		return err
	}
	found, err := all.Find(domName)
	if err != nil {
		return usagef("--domain: %v", err)
	}
	dom, ok := found.(sim.CatalogDomain)
	if !ok {
		return usagef("--domain %s has no intent catalog yet: Tracer cannot generate its tasks", domName)
	}
	if opts.Split == emobench.SplitTrain {
		for _, t := range dom.Tasks() {
			if t.Split == emobench.SplitTest {
				opts.Exclude = append(opts.Exclude, t)
			}
		}
	}
	name := c.String("task-set")
	if name == "" {
		name = fmt.Sprintf("%s-%s-s%d", domName, opts.Split, opts.Seed)
	}
	if c.String("out") == "" && !c.Bool("replace") {
		if err := refuseStoredTaskSet(c, name); err != nil {
			return err
		}
	}
	opts.Progress = e.generateProgress(opts.N)
	gen, err := tracer.Generate(c.Context, dom, opts)
	if gen != nil {
		printGenerated(e, gen)
	}
	if err != nil {
		return err
	}
	if out := c.String("out"); out != "" {
		b, err := sim.EncodeTasks(gen.Tasks)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(c.Context, out, b); err != nil {
			return err
		}
		e.println(fmt.Sprintf("wrote %d tasks to %s", len(gen.Tasks), out))
		return nil
	}
	store, err := e.openWrite(c.Context, c.String("db"))
	if err != nil {
		return err
	}
	defer store.Close()
	if _, err := tracer.StoreTaskSet(c.Context, store, name, domName, opts, gen, c.Bool("replace"), time.Now()); err != nil {
		if errors.Is(err, emobench.ErrConflict) {
			return usagef("%v: --replace replaces it", err)
		}
		return err
	}
	e.println(fmt.Sprintf("stored %d tasks as task set %s in %s (run them with: emobench run --task-set %s)", len(gen.Tasks), name, c.String("db"), name))
	return nil
}

// refuseStoredTaskSet refuses, before anything is generated, a task set
// name --db already holds (a usage error naming --replace and --task-set). A
// database that is not there yet, or not of the current schema (the store
// step migrates it), holds none that matters now: the store step still
// refuses a name stored meanwhile.
func refuseStoredTaskSet(c *cli.Context, name string) error {
	path := c.String("db")
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	store, err := openCurrent(c)
	if err != nil {
		return nil
	}
	defer store.Close()
	set, err := store.FindTaskSet(c.Context, name)
	var missing *db.TaskSetNotFoundError
	switch {
	case errors.As(err, &missing):
		return nil
	case err != nil:
		return err
	}
	return usagef("task set %q already exists in %s (%d %s tasks, stored %s): --replace replaces it, or --task-set names another",
		name, path, set.Tasks, set.Domain, set.CreatedAt.UTC().Format("2006-01-02 15:04"))
}

// generateOptions reads the flags; bad values are usage errors.
func generateOptions(c *cli.Context) (tracer.GenerateOptions, string, error) {
	var o tracer.GenerateOptions
	if c.String("out") != "" && (c.IsSet("task-set") || c.Bool("replace")) {
		return o, "", usagef("--task-set and --replace name a task set in --db: drop them with --out")
	}
	if err := checkGenerateOut(c.String("out"), c.Bool("force")); err != nil {
		return o, "", err
	}
	domain := c.String("domain")
	if domain == "" {
		return o, "", usagef("tracer generate needs --domain (one of %s)", strings.Join(all.Names(), ", "))
	}
	if o.N = c.Int("n"); o.N < 1 {
		return o, "", usagef("tracer generate needs --n N, at least 1 (the tasks to generate)")
	}
	o.Seed = c.Uint64("seed")
	switch s := emobench.Split(c.String("split")); s {
	case emobench.SplitTest, emobench.SplitTrain:
		o.Split = s
	default:
		return o, "", usagef("--split %q is not test or train", s)
	}
	var err error
	if o.WalkSteps, err = intList("walk-steps", c.String("walk-steps"), 2); err != nil {
		return o, "", err
	}
	if o.Intents, err = intList("intents", c.String("intents"), 1); err != nil {
		return o, "", err
	}
	if o.WalkStepsDist, err = weightList("walk-steps-dist", c.String("walk-steps-dist"), len(o.WalkSteps)); err != nil {
		return o, "", err
	}
	if o.IntentsDist, err = weightList("intents-dist", c.String("intents-dist"), len(o.Intents)); err != nil {
		return o, "", err
	}
	shares := []struct {
		flag string
		dst  *float64
	}{{"forbidden", &o.ForbiddenShare}, {"transfer", &o.TransferShare}, {"read", &o.ReadShare}}
	for _, s := range shares {
		v := c.Float64(s.flag)
		if v < 0 || v > 1 || v != v {
			return o, "", usagef("--%s %v: need a share between 0 and 1", s.flag, v)
		}
		*s.dst = v
		if v == 0 {
			*s.dst = -1 // none, not the default
		}
	}
	if max(o.ForbiddenShare, 0)+max(o.TransferShare, 0)+max(o.ReadShare, 0) > 1 {
		return o, "", usagef("--forbidden %v, --transfer %v and --read %v exceed 1", c.Float64("forbidden"), c.Float64("transfer"), c.Float64("read"))
	}
	if o.EmotionWeights, err = tracer.ParseEmotionWeights(c.String("emotions")); err != nil {
		return o, "", &usageError{err}
	}
	if p := c.String("paraphrase"); p != "" {
		model, ok := strings.CutPrefix(p, "llm:")
		if !ok || model == "" {
			return o, "", usagef("--paraphrase %q is not llm:MODEL", p)
		}
		keyEnv := c.String("paraphrase-api-key-env")
		if !keyEnvName.MatchString(keyEnv) {
			return o, "", usagef("--paraphrase-api-key-env takes the name of the environment variable holding the key, not the key (the value given is not shown)")
		}
		base := c.String("paraphrase-base-url")
		if err := checkEndpointFlag("paraphrase-base-url", base); err != nil {
			return o, "", err
		}
		client, err := sim.NewRoleClient("--paraphrase", model, emobench.LLMRole{BaseURL: base, APIKeyEnv: keyEnv}, sim.LLMOptions{Getenv: os.Getenv, Timeout: c.Duration("timeout")})
		if err != nil {
			return o, "", &usageError{err}
		}
		o.Paraphraser = &tracer.LLMParaphraser{Client: client}
	}
	if path := c.String("exclude"); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return o, "", usagef("--exclude: %v", err)
		}
		tasks, err := sim.DecodeTasks(b)
		if err != nil {
			return o, "", usagef("--exclude %s: %v", path, err)
		}
		o.Exclude = tasks
	}
	return o, domain, nil
}

var keyEnvName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkEndpointFlag refuses an endpoint carrying a credential, as run does.
func checkEndpointFlag(flag, u string) error {
	if u == "" {
		return nil
	}
	if err := workbench.CheckEndpoint(flag, u); err != nil {
		return &usageError{err}
	}
	return nil
}

// intList reads a comma-separated list of integers, each at least least.
func intList(flag, s string, least int) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || v < least || v > 50 {
			return nil, usagef("--%s %q: want comma-separated whole numbers from %d to 50, e.g. 2,3,4", flag, s, least)
		}
		out = append(out, v)
	}
	return out, nil
}

// weightList reads --X-dist: n non-negative weights, not all 0; "" is nil
// (uniform).
func weightList(flag, s string, n int) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	total := 0.0
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || v < 0 || v != v || v > 1e9 {
			return nil, usagef("--%s %q: want comma-separated non-negative weights, e.g. 1,2,1", flag, s)
		}
		out = append(out, v)
		total += v
	}
	if len(out) != n {
		return nil, usagef("--%s %q: %d weights for %d values", flag, s, len(out), n)
	}
	if total == 0 {
		return nil, usagef("--%s %q: every weight is 0", flag, s)
	}
	return out, nil
}

// printGenerated prints what Generate made: kept and rejected counts, the
// kind mix, writes per task and the leakage report.
func printGenerated(e *env, g *tracer.Generated) {
	rejected := 0
	for _, n := range g.Rejected {
		rejected += n
	}
	e.println(fmt.Sprintf("kept %d tasks of %d candidates; rejected %d", len(g.Tasks), g.Candidates, rejected))
	reasons := make([]string, 0, len(g.Rejected))
	for r := range g.Rejected {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	for _, r := range reasons {
		e.println(fmt.Sprintf("  rejected %-26s %d  (e.g. %s)", r, g.Rejected[r], g.Examples[r]))
	}
	if len(g.Tasks) > 0 {
		n := float64(len(g.Tasks))
		var mix []string
		for _, k := range []string{tracer.KindWrite, tracer.KindRead, tracer.KindRefusal, tracer.KindTransfer} {
			mix = append(mix, fmt.Sprintf("%s %d (%.0f%%)", k, g.Kinds[k], 100*float64(g.Kinds[k])/n))
		}
		e.println("kinds: " + strings.Join(mix, ", "))
		writes, multi := 0, 0
		for _, w := range g.Writes {
			writes += w
			if w >= 2 {
				multi++
			}
		}
		e.println(fmt.Sprintf("writes per task: %.2f on average; %d tasks (%.0f%%) with two or more", float64(writes)/n, multi, 100*float64(multi)/n))
	}
	if g.WalkFallbacks > 0 {
		e.println(fmt.Sprintf("walks at the nearest length (no intent of the drawn one): %d", g.WalkFallbacks))
	}
	e.println(fmt.Sprintf("leakage: %d train candidates refused for repeating a test task's action set", len(g.Leaks)))
	for i, l := range g.Leaks {
		if i == 10 {
			e.println(fmt.Sprintf("  ... and %d more", len(g.Leaks)-10))
			break
		}
		e.println(fmt.Sprintf("  %s: user %s, intents %s", l.TestTaskID, l.UserID, strings.Join(l.Intents, "+")))
	}
}

// generateProgress shows tracer generate's kept tasks and candidates: a
// progress bar on a terminal, else a note every 5 s on stderr (none with
// --quiet), so a large --n does not look like a hang.
func (e *env) generateProgress(n int) func(kept, candidates int) {
	if e.quiet {
		return nil
	}
	if w := e.terminal(); w != nil {
		bar := progressbar.NewOptions(n, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(), progressbar.OptionSetDescription("tasks kept"))
		return func(kept, candidates int) {
			bar.Describe(fmt.Sprintf("tasks kept (%d candidates)", candidates))
			bar.Set(kept)
		}
	}
	last := time.Now()
	return func(kept, candidates int) {
		if time.Since(last) >= 5*time.Second {
			last = time.Now()
			e.warn(fmt.Sprintf("tracer generate: kept %d of %d tasks after %d candidates", kept, n, candidates))
		}
	}
}

// checkGenerateOut refuses, before any task is generated, an --out that
// is a directory, lies in a directory that does not exist, exists without
// --force, or is not a regular file (a device, a named pipe: even with
// --force).
func checkGenerateOut(out string, force bool) error {
	if out == "" {
		return nil
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return usagef("--out %s is a directory", out)
	}
	if dir := filepath.Dir(out); !isDir(dir) {
		return usagef("--out %s: directory %s does not exist", out, dir)
	}
	exists, err := atomicfile.Target(out)
	if err != nil {
		return err // not a regular file: never replaced, even with --force
	}
	if exists && !force {
		return usagef("--out %s exists (use --force to overwrite it)", out)
	}
	return nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
