package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports"
	"github.com/urfave/cli/v2"
)

func reportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "write a self-contained offline HTML report",
		Description: "Charts pass^k against k per run (with bootstrap bands), the pass^1 vs pass^k gap, pass^1 per\n" +
			"emotion family, with- vs without-emotions pass^1 per model and domain, Δpass^1 by family and\n" +
			"dimension, abandonment, the tool-call/follow-up balance, the generalization matrix, published\n" +
			"leaderboard results, and a table of runs. Statistics are per run, or with --pool per pool (runs\n" +
			"sharing agent model, user model, domain and condition); each caption names the emobench stats\n" +
			"command that prints its numbers. Intervals use the same bootstrap as the stats commands\n" +
			"(--resamples, --seed, --level, --ci-method). The echarts library is embedded: the file opens\n" +
			"offline and can be shared or printed.\n\n" +
			"An existing --out file is kept unless --force is given.\n\n" +
			"Example:\n   emobench --db runs.db report --out report.html --run 1 --run 2\n   emobench --db runs.db report --out pooled.html --pool",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "HTML `FILE` to write (required)"},
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringFlag{Name: "title", Value: "emobench report", Usage: "report title"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file"},
			poolFlag(),
		}, intervalFlags("pm")[1:]...), // the stats commands' bootstrap flags and defaults
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.String("out") == "" {
				return usagef("report needs --out FILE.html")
			}
			if err := refuseExistingReport(c.String("out"), c.Bool("force")); err != nil {
				return err
			}
			store, runIDs, err := openRuns(c)
			if err != nil {
				return err
			}
			defer store.Close()
			boot, err := bootstrapFlags(c)
			if err != nil {
				return err
			}
			in, overlaps, err := reportInput(c.Context, e, store, runIDs, c.String("title"), boot, c.Bool("pool"))
			if err != nil {
				return err
			}
			noteOverlaps(e, overlaps)
			if err := writeReport(c.String("out"), in); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote %s (%s)\n", c.String("out"), plural(len(in.Runs), "run", "runs"))
			return nil
		},
	}
}

// reportInput gathers everything the report shows for the given runs (all
// runs when runIDs is empty), per run or, with pool, per pool, and the
// overlaps of pooled runs. Every chart's numbers come from the functions of
// the stats command its caption names.
func reportInput(ctx context.Context, e *env, store *db.DB, runIDs []int64, title string, boot analysis.BootstrapOptions, pool bool) (reports.Input, []analysis.Overlap, error) {
	d := reports.Data{Title: title, GeneratedAt: time.Now().UTC(), Bootstrap: boot, Pooled: pool}
	summaries, err := store.ListRunSummaries(ctx)
	if err != nil {
		return reports.Input{}, nil, err
	}
	rewards, err := store.ListRunRewards(ctx)
	if err != nil {
		return reports.Input{}, nil, err
	}
	keep := map[int64]bool{}
	for _, id := range runIDs {
		keep[id] = true
	}
	for _, s := range summaries {
		if len(keep) > 0 && !keep[s.ID] {
			continue
		}
		d.Runs = append(d.Runs, reportRun(s, rewards[s.ID]))
	}
	units, names, err := loadUnits(ctx, e, store, runIDs, pool)
	if err != nil {
		return reports.Input{}, nil, err
	}
	d.Units = map[int64]string{}
	for _, u := range units.List() {
		d.Units[u.ID] = u.Label(names)
	}
	cmd := reports.CommandLine{RunIDs: runIDs, Pool: pool, Boot: boot, Default: defaultBootstrap}
	all := analysis.PassKOptions{Convention: analysis.PerTask}
	first := analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}}
	var overlaps []analysis.Overlap
	var tasks []analysis.TaskTrials
	if d.PassK, tasks, overlaps, err = computePassK(ctx, store, units, runIDs, nil, all); err != nil {
		return reports.Input{}, nil, err
	}
	// The intervals of stats passk --ci pm, from the same tasks and function.
	analysis.PassKIntervals(d.PassK, tasks, nil, boot)
	for _, r := range d.PassK {
		d.PassKCI = append(d.PassKCI, r.HatCI)
	}
	d.Commands.PassK = cmd.Stats("passk", true, "--ci", "pm")
	if d.FamilyPass1, _, _, err = computePassK(ctx, store, units, runIDs, []string{"emotion_family"}, first); err != nil {
		return reports.Input{}, nil, err
	}
	d.Commands.Family = cmd.Stats("passk", false, "--by", "emotion_family", "--k", "1")
	if err := addPaperSections(ctx, store, runIDs, units, &d, boot, cmd); err != nil {
		return reports.Input{}, nil, err
	}
	return reports.Build(d), overlaps, nil
}

// reportRun is one row of the report's runs table, shown as the runs
// command shows it (runRow).
func reportRun(s db.RunSummary, rw db.RunRewards) reports.RunSummary {
	row := runRow(s, rw, "")
	return reports.RunSummary{
		Run: emobench.Run{
			ID: s.ID, Name: s.Name, SourceFormat: s.SourceFormat,
			AgentModel: s.AgentModel, UserModel: s.UserModel,
			Domain: s.Domain, Condition: s.Condition,
		},
		Tasks: s.Tasks, Trajectories: s.Trajectories, Pass1: row.Pass1, Abandoned: s.Abandoned,
		NotEvaluated: row.NotEvaluated, PartialCredit: row.PartialCredit, MeanReward: rw.MeanReward,
	}
}

// refuseExistingReport keeps report from replacing a file at out unless
// force is set, as export and vacuum do; it is a usage error (exit 2).
func refuseExistingReport(out string, force bool) error {
	if force {
		return nil
	}
	if _, err := os.Lstat(out); err == nil {
		return usagef("--out %s exists: report does not replace it (add --force to replace it)", out)
	}
	return nil
}

// writeReport renders into memory first so a failed render leaves no
// half-written file behind.
func writeReport(path string, in reports.Input) error {
	var buf bytes.Buffer
	if err := reports.Render(&buf, in); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
