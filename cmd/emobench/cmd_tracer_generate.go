package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/internal/atomicfile"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/workbench"
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
			modelBaseURLFlag("paraphrase"),
			modelKeyEnvFlag("paraphrase"),
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
	out, name := c.String("out"), c.String("task-set")
	if out != "" && (c.IsSet("task-set") || c.Bool("replace")) {
		return usagef("--task-set and --replace name a task set in --db: drop them with --out")
	}
	if err := cliargs.CheckOutFiles(c.Bool("force"), atomicfile.Target, "out", out); err != nil {
		return err
	}
	opts, dom, err := generateOptions(c)
	if err != nil {
		return err
	}
	if name == "" {
		name = fmt.Sprintf("%s-%s-s%d", dom.Name(), opts.Split, opts.Seed)
	}
	if out == "" && !c.Bool("replace") {
		if set, err := workbench.StoredTaskSet(c.Context, c.String("db"), name); err != nil || set != nil {
			return cmp.Or(err, usagef("task set %q already exists in %s (%d %s tasks, stored %s): --replace replaces it, or --task-set names another",
				name, c.String("db"), set.Tasks, set.Domain, set.CreatedAt.UTC().Format("2006-01-02 15:04")))
		}
	}
	if !e.quiet {
		opts.Progress = workbench.GenerateProgress(e.terminal, e.warn, opts.N)
	}
	err = workbench.GenerateTasks(c.Context, dom, opts, workbench.GenerateTarget{Out: out, Name: name, Replace: c.Bool("replace"), DBPath: c.String("db"),
		Open:  func(ctx context.Context) (*db.DB, error) { return e.openWrite(ctx, c.String("db")) },
		Print: e.println, Summary: e.stdout})
	if out == "" && errors.Is(err, emobench.ErrConflict) {
		return usagef("%v: --replace replaces it", err)
	}
	return err
}

// generateOptions reads the flags into workbench.GenerateSettings, which
// parses them into tracer's options and finds the domain.
func generateOptions(c *cli.Context) (tracer.GenerateOptions, sim.CatalogDomain, error) {
	if !c.IsSet("n") {
		return tracer.GenerateOptions{}, nil, usagef("tracer generate needs --n N, at least 1 (the tasks to generate)")
	}
	return workbench.GenerateSettings{
		Domain: c.String("domain"), N: c.Int("n"), Seed: c.Uint64("seed"), Split: emobench.Split(c.String("split")),
		WalkSteps: c.String("walk-steps"), WalkStepsDist: given(c, "walk-steps-dist", c.String), Intents: c.String("intents"), IntentsDist: given(c, "intents-dist", c.String),
		Forbidden: c.Float64("forbidden"), Transfer: c.Float64("transfer"), Read: c.Float64("read"), Emotions: c.String("emotions"), Exclude: c.String("exclude"),
		Paraphrase:    c.String("paraphrase"),
		ParaphraseLLM: modelRole(c, "paraphrase"),
		LLM:           sim.LLMOptions{Getenv: os.Getenv, Timeout: c.Duration("timeout")},
	}.Options()
}
