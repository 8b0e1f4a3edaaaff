package main

import (
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
			ref, err := workbench.NewTrajectoryRef(c.Args().Slice(), given(c, "run", c.String), given(c, "task", c.String), given(c, "trial", c.Int))
			if err != nil {
				return err
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
