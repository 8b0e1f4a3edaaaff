package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/emobench/emobench/analysis"
	"github.com/urfave/cli/v2"
)

func statsGapCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "gap",
		Usage: "the pass^k gap: pass^1 − pass^k and pass^k / pass^1 per run (and group)",
		Description: "Average success hides inconsistency: the gap compares pass^1 with pass^k at the largest k\n" +
			"(or --k). Under per-task, pass^k averages only tasks with at least k trials; the tasks_1 and\n" +
			"tasks_k columns say how many tasks each side used.\n\n" +
			"Example:\n   emobench --db runs.db stats gap\n   emobench --db runs.db stats gap --by emotion_family --k 3 --format latex",
		Before: noArgs,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "run", Usage: "run id or name (repeatable; default: all runs)"},
			&cli.StringSliceFlag{Name: "by", Usage: "group fields besides the run (e.g. emotion_family)"},
			&cli.IntFlag{Name: "k", Usage: "the k to compare with k = 1 (default: the largest k)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, json, csv, markdown or latex"},
			poolFlag(),
		},
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if err := checkFormat(format, formats...); err != nil {
				return err
			}
			fields, err := parseGroupFields(strings.Join(c.StringSlice("by"), ","))
			if err != nil {
				return err
			}
			conv, err := analysis.ParseConvention(c.String("convention"))
			if err != nil {
				return &usageError{err}
			}
			opts := analysis.PassKOptions{Convention: conv}
			if k := c.Int("k"); c.IsSet("k") {
				if k < 2 {
					return usagef("--k %d: compare with k of at least 2", k)
				}
				opts.Ks = []int{1, k}
			}
			store, runIDs, err := openRuns(c)
			if err != nil {
				return err
			}
			defer store.Close()
			if err := warnSuspectTrials(c.Context, e, store, runIDs, conv); err != nil {
				return err
			}
			units, names, err := loadUnits(c.Context, e, store, runIDs, c.Bool("pool"))
			if err != nil {
				return err
			}
			rows, _, overlaps, err := computePassK(c.Context, store, units, runIDs, fields, opts)
			if err != nil {
				return err
			}
			noteOverlaps(e, overlaps)
			gaps := analysis.GapAtMaxK(rows)
			if k := c.Int("k"); c.IsSet("k") {
				for i := range gaps {
					if gaps[i].K < k { // no task has k trials: no pass^k, not a gap of 0
						gaps[i].K, gaps[i].PassK, gaps[i].Diff, gaps[i].Ratio, gaps[i].TasksK = k, math.NaN(), math.NaN(), math.NaN(), 0
						e.warn(fmt.Sprintf("%s has no task with %d trials: pass^%d is unknown", unitName(units.ByID(gaps[i].RunID)), k, k))
					}
				}
			}
			gaps = withoutSingleTrial(e, gaps, units, names)
			return gapTable(gaps, units, names, fields, format).write(e.stdout, format)
		},
	}
}

// gapTable is one row per GapRow. A row that is not evaluated shows its
// values as "not evaluated" in the text formats; csv and json give them as
// null, with the note column "not evaluated" (null on other rows).
func gapTable(rows []analysis.GapRow, units analysis.Units, names map[int64]string, fields []string, format string) *table {
	pooled := pooledUnits(units)
	split := format == "csv" || format == "json"
	t := &table{columns: append(append(unitColumns(pooled), fields...),
		"k", "pass_1", "pass_k", "gap", "ratio", "tasks_1", "tasks_k", "convention")}
	if split {
		t.columns = append(t.columns, "note")
	}
	for _, r := range rows {
		row := unitCells(units.ByID(r.RunID), pooled, names)
		for _, g := range r.Group {
			row = append(row, g)
		}
		values := []any{r.Pass1, r.PassK, r.Diff, r.Ratio}
		var note any
		if r.NotEvaluated {
			note = analysis.NotEvaluatedText
			for i := range values {
				values[i] = math.NaN()
				if !split {
					values[i] = analysis.NotEvaluatedText
				}
			}
		}
		row = append(append(append(row, r.K), values...), r.Tasks1, r.TasksK, string(r.Convention))
		if split {
			row = append(row, note)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// withoutSingleTrial leaves out rows whose largest k is 1 (one trial per
// task: no gap to measure), naming their runs once on stderr.
func withoutSingleTrial(e *env, gaps []analysis.GapRow, units analysis.Units, names map[int64]string) []analysis.GapRow {
	var kept []analysis.GapRow
	var left []string
	seen := map[int64]bool{}
	for _, g := range gaps {
		if g.K >= 2 {
			kept = append(kept, g)
			continue
		}
		if !seen[g.RunID] {
			seen[g.RunID] = true
			if u := units.ByID(g.RunID); u.Pooled {
				left = append(left, unitLabel(u, names))
			} else {
				left = append(left, fmt.Sprintf("%d (%s)", g.RunID, names[g.RunID]))
			}
		}
	}
	if len(left) > 0 {
		e.warn(fmt.Sprintf("left out %s with one trial per task: a gap needs k >= 2 (run with --trials 2 or more): %s",
			plural(len(left), unitNoun(units), unitNoun(units)+"s"), strings.Join(left, ", ")))
	}
	return kept
}
