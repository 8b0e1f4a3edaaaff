package main

import (
	"strconv"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func showCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print one trajectory's transcript: messages, tool calls and results, termination, reward and its checks",
		ArgsUsage: "[TRAJECTORY]",
		Description: "TRAJECTORY is a trajectory id (trajectory_id in the sql view trajectory_outcomes); or name it\n" +
			"by --run (id or name), --task (the source's task id) and --trial (default: the task's only trial).\n" +
			"System messages (the policy) show their first lines unless --full.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db show 42\n" +
			"   emobench --db runs.db show --run qwen3-retail-with-emotions --task 7 --trial 2",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "run", Usage: "run `RUN` (id or name) of the trajectory"},
			&cli.StringFlag{Name: "task", Usage: "task `ID` as the source names it (with --run)"},
			&cli.IntFlag{Name: "trial", Usage: "trial `N` (with --run)", DefaultText: "the task's only trial"},
			&cli.BoolFlag{Name: "full", Usage: "print system messages whole"},
			cliargs.Choice("format", "text", "text, or json (the layout of export --format jsonl's lines, which evaluate reads)", "text", "json"),
		},
		Action: func(c *cli.Context) error {
			byRun := c.IsSet("run") || c.IsSet("task") || c.IsSet("trial")
			switch {
			case c.NArg() > 1:
				return usagef("show takes one TRAJECTORY id, got %d arguments", c.NArg())
			case c.NArg() == 1 && byRun:
				return usagef("show takes a TRAJECTORY id or --run/--task/--trial, not both")
			case c.NArg() == 0 && !(c.IsSet("run") && c.IsSet("task")):
				return usagef("show needs a TRAJECTORY id, or --run RUN --task ID [--trial N]")
			}
			ref := workbench.TrajectoryRef{ByRun: byRun, Run: c.String("run"), Task: c.String("task"), Trial: given(c, "trial", c.Int)}
			if c.NArg() == 1 {
				var err error
				if ref.ID, err = strconv.ParseInt(c.Args().First(), 10, 64); err != nil {
					return usagef("TRAJECTORY %q is not an id (a whole number); name it by --run, --task and --trial instead", c.Args().First())
				}
			}
			lines := 3
			if c.Bool("full") {
				lines = 0
			}
			return e.readDB(c, func(store *db.DB) error {
				t, err := workbench.Transcript(c.Context, store, ref, lines)
				if err != nil {
					return err
				}
				return workbench.WriteTranscriptAs(e.stdout, t, c.String("format"))
			})
		},
	}
}
