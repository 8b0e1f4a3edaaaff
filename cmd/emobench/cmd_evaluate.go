package main

import (
	"fmt"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func evaluateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "evaluate",
		Usage:     "score transcripts from a file against a domain's tasks, as run scores an episode: the reward and every check",
		ArgsUsage: "FILE",
		Description: "FILE is a τ²-bench Results file, a bare list of simulations or a run directory; a τ-bench\n" +
			"result file (records with traj); or emobench's transcript JSON (show --format json, export\n" +
			"--format jsonl). Each record's tool calls are replayed on a fresh environment of the domain;\n" +
			"a replayed result that differs from the recorded one is counted and shown. The task is the\n" +
			"record's task id in --domain's --split, or --task for every record. Nothing is written\n" +
			"unless --store.\n\n" +
			"Example:\n" +
			"   emobench evaluate --domain airline transcript.json\n" +
			"   emobench --db runs.db evaluate --domain retail --format json --store results.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "domain", Usage: "domain whose tasks score the records (" + strings.Join(all.Names(), ", ") + ")"},
			&cli.StringFlag{Name: "split", Value: "test", Usage: "test or train: the split the records' task ids name"},
			&cli.StringFlag{Name: "task", Usage: "task `ID` to score every record against, whatever task it names"},
			formatFlag("table", workbench.EvaluationFormats...),
			&cli.StringFlag{Name: "preset", Value: sim.PresetEmobench, Usage: "protocol preset whose scoring applies (the reward of an abandoned episode): " + strings.Join(sim.PresetNames(), ", ")},
			&cli.BoolFlag{Name: "store", Usage: "write the scored trajectories to --db as a run (evaluated from FILE)"},
			&cli.StringFlag{Name: "judge", Usage: "llm:MODEL: an LLM judges the tasks' NL assertions (temperature 0); without it they are not checked"},
			modelBaseURLFlag("judge"),
			modelKeyEnvFlag("judge"),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("evaluate takes one FILE, got %d arguments", c.NArg())
			}
			judge, err := workbench.EvaluationJudge(c.String("judge"), c.String("judge-base-url"), c.String("judge-api-key-env"), llmOptions(c))
			if err != nil {
				return err
			}
			ev, err := workbench.EvaluateFile(c.Context, workbench.EvaluateRequest{
				Path: c.Args().First(), Domain: c.String("domain"), Split: emobench.Split(c.String("split")), Task: c.String("task"), Judge: judge, Preset: c.String("preset"),
			})
			if err != nil {
				return err
			}
			if err := workbench.WriteEvaluation(e.stdout, ev, c.String("format")); err != nil {
				return err
			}
			if !c.Bool("store") {
				return nil
			}
			return e.writeDB(c, func(store *db.DB) error {
				id, name, err := workbench.StoreEvaluation(c.Context, store, ev)
				if err == nil {
					fmt.Fprintf(e.stderr, "stored as run %d (%s): evaluated from %s\n", id, name, ev.Path)
				}
				return err
			})
		},
	}
}
