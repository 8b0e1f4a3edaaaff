package main

import (
	"errors"
	"strconv"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports"
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
			var id int64
			if c.NArg() == 1 {
				var err error
				if id, err = strconv.ParseInt(c.Args().First(), 10, 64); err != nil {
					return usagef("TRAJECTORY %q is not an id (a whole number); name it by --run, --task and --trial instead", c.Args().First())
				}
			}
			store, err := openCurrent(c)
			if err != nil {
				return err
			}
			defer store.Close()
			if byRun {
				if id, err = trajectoryByRun(c, store); err != nil {
					return err
				}
			}
			traj, err := store.FindTrajectory(c.Context, id)
			if err != nil {
				return err
			}
			run, err := store.FindRun(c.Context, traj.RunID)
			if err != nil {
				return err
			}
			lines := 3
			if c.Bool("full") {
				lines = 0
			}
			return reports.WriteTranscript(e.stdout, reports.Transcript{ID: traj.ID, Run: run, Trajectory: traj.Trajectory, SystemLines: lines})
		},
	}
}

// trajectoryByRun resolves --run, --task and --trial to a trajectory id;
// without --trial, the task's only trajectory.
func trajectoryByRun(c *cli.Context, store *db.DB) (int64, error) {
	runID, err := store.ResolveRun(c.Context, c.String("run"))
	if err != nil {
		return 0, err
	}
	trial := -1
	if c.IsSet("trial") {
		if trial = c.Int("trial"); trial < 0 {
			return 0, usagef("--trial %d: trials are numbered from 0", trial)
		}
	}
	id, err := store.FindTrajectoryID(c.Context, runID, c.String("task"), trial)
	if trial < 0 && errors.Is(err, emobench.ErrInvalid) {
		return 0, usagef("%v: give --trial N", err)
	}
	return id, err
}
