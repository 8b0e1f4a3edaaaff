package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
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
			"leaderboard results, and a table of runs. Intervals use the same bootstrap as the stats commands\n" +
			"(--resamples, --seed, --level, --ci-method). The echarts library is embedded: the file opens\n" +
			"offline and can be shared or printed.\n\n" +
			"Example:\n   emobench --db runs.db report --out report.html --run 1 --run 2",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "HTML `FILE` to write (required)"},
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringFlag{Name: "title", Value: "emobench report", Usage: "report title"},
		}, intervalFlags("pm")[1:]...), // the stats commands' bootstrap flags and defaults
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.String("out") == "" {
				return usagef("report needs --out FILE.html")
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
			in, err := reportInput(c.Context, store, runIDs, c.String("title"), boot)
			if err != nil {
				return err
			}
			if err := writeReport(c.String("out"), in); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote %s (%s)\n", c.String("out"), plural(len(in.Runs), "run", "runs"))
			return nil
		},
	}
}

// reportInput gathers everything the report shows for the given runs (all
// runs when runIDs is empty).
func reportInput(ctx context.Context, store *db.DB, runIDs []int64, title string, boot analysis.BootstrapOptions) (reports.Input, error) {
	in := reports.Input{Title: title, GeneratedAt: time.Now().UTC()}
	summaries, err := store.ListRunSummaries(ctx)
	if err != nil {
		return in, err
	}
	rewards, err := store.ListRunRewards(ctx)
	if err != nil {
		return in, err
	}
	keep := map[int64]bool{}
	for _, id := range runIDs {
		keep[id] = true
	}
	for _, s := range summaries {
		if len(keep) > 0 && !keep[s.ID] {
			continue
		}
		in.Runs = append(in.Runs, reportRun(s, rewards[s.ID]))
	}
	all := analysis.PassKOptions{Convention: analysis.PerTask}
	first := analysis.PassKOptions{Convention: analysis.PerTask, Ks: []int{1}}
	if in.PassKByRun, _, err = computePassK(ctx, store, runIDs, nil, all); err != nil {
		return in, err
	}
	if in.FamilyPass1, _, err = computePassK(ctx, store, runIDs, []string{"emotion_family"}, first); err != nil {
		return in, err
	}
	var names map[int64]string
	if in.ConditionPass1, names, err = computePassK(ctx, store, runIDs, []string{"agent_model", "domain", "condition"}, first); err != nil {
		return in, err
	}
	err = addPaperSections(ctx, store, runIDs, &in, names, boot)
	return in, err
}

// reportRun is one row of the report's runs table, shown as the runs
// command shows it (runsTable).
func reportRun(s db.RunSummary, rw db.RunRewards) reports.RunSummary {
	pass1 := math.NaN()
	if s.Pass1.Valid {
		pass1 = s.Pass1.Float64
	}
	return reports.RunSummary{
		Run: emobench.Run{
			ID: s.ID, Name: s.Name, SourceFormat: s.SourceFormat,
			AgentModel: s.AgentModel, UserModel: s.UserModel,
			Domain: s.Domain, Condition: s.Condition,
		},
		Tasks: s.Tasks, Trajectories: s.Trajectories, Pass1: pass1, Abandoned: s.Abandoned,
		NotEvaluated: notEvaluated(s, rw), PartialCredit: rw.Partial > 0, MeanReward: rw.MeanReward,
	}
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
