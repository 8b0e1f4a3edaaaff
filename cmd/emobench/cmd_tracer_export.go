package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/internal/atomicfile"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/tracer/sft"
	"github.com/emobench/emobench/workbench"
)

func tracerExportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a selection's kept trajectories as validated SFT JSONL: openai, sharegpt or hermes",
		Description: "One record per line: the domain's policy as the system prompt, its tool schemas, and the\n" +
			"conversation with its tool calls and results. Formats:\n" +
			"   openai    {\"messages\", \"tools\"}, weight 1 on assistant messages (TRL SFTTrainer, ms-swift)\n" +
			"   sharegpt  LLaMA-Factory's ShareGPT layout: conversations with function_call and observation\n" +
			"             turns, system, tools as a JSON string\n" +
			"   hermes    {\"text\"}: the openai record as Qwen3's chat template renders it\n" +
			"Every record is validated first (role order, each tool call answered by its id, arguments\n" +
			"matching the tool's JSON schema); one that fails is not written, and is counted and named\n" +
			"(--strict: the export fails instead). Trajectories of imported runs (no native domain policy\n" +
			"and tools) and of unknown domains are skipped and counted.\n" +
			"Token counts are exact with --tokenizer (a Hugging Face tokenizer.json of the byte-level BPE\n" +
			"kind, such as Qwen3's), else " + sft.TokenRule + ".\n" +
			"The file is written under a temporary name and renamed when complete.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db tracer filter --run 3 --run 4 --selection kept\n" +
			"   emobench --db runs.db tracer export --selection kept --format openai --out train.jsonl --stats stats.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "selection", Usage: "the selection `NAME` tracer filter stored"},
			&cli.StringSliceFlag{Name: "run", Hidden: true}, // gone: named in its error
			cliargs.Choice("format", "", "openai, sharegpt or hermes (required)", "openai", "sharegpt", "hermes"),
			&cli.StringFlag{Name: "out", Usage: "output JSONL `FILE` (required)"},
			&cli.StringFlag{Name: "stats", Usage: "also write the stats as JSON to `FILE`"},
			&cli.StringFlag{Name: "tokenizer", Usage: "count tokens exactly with this Hugging Face tokenizer.json `FILE` (byte-level BPE, e.g. Qwen3's)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite existing --out and --stats files"},
			&cli.BoolFlag{Name: "strict", Usage: "fail on the first record that fails validation"},
		},
		Before: noArgs,
		Action: func(c *cli.Context) error { return runTracerExport(c, e) },
	}
}

func runTracerExport(c *cli.Context, e *env) error {
	format, out, statsPath, selection := c.String("format"), c.String("out"), c.String("stats"), c.String("selection")
	switch runs := c.StringSlice("run"); {
	case format == "":
		return usagef("tracer export needs --format (one of openai, sharegpt, hermes)")
	case out == "":
		return usagef("tracer export needs --out FILE")
	case len(runs) > 0:
		return usagef("tracer export --run is gone: it wrote failed and test-split trajectories too; filter first: emobench tracer filter --run %s --selection NAME, then tracer export --selection NAME", strings.Join(runs, " --run "))
	case selection == "":
		return usagef("tracer export needs --selection NAME (a selection tracer filter stored)")
	}
	if err := cliargs.CheckOutFiles(c.Bool("force"), atomicfile.Target, "out", out, "stats", statsPath); err != nil {
		return err
	}
	return e.readDB(c, func(store *db.DB) error {
		stats, err := workbench.ExportSelection(c.Context, store, out, statsPath, c.String("tokenizer"),
			tracer.ExportConfig{Selection: selection, Format: sft.Format(format), Strict: c.Bool("strict")}, e.warning)
		if err != nil {
			return err
		}
		if err := stats.WriteText(e.stdout); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote %s\n", out)
		if statsPath != "" {
			fmt.Fprintf(e.stdout, "wrote %s\n", statsPath)
		}
		return nil
	})
}
