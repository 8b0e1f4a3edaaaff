package main

import (
	"cmp"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/internal/cliargs"
	"github.com/emobench/emobench/reports/table"
	"github.com/emobench/emobench/workbench"
	"github.com/urfave/cli/v2"
)

func statsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "stats",
		Usage:       "statistics over the stored runs",
		Description: "Example:\n   emobench --db runs.db stats passk --by condition,emotion_family",
		Action:      cli.ShowSubcommandHelp, // markUsageErrors refuses an unknown subcommand
		Subcommands: []*cli.Command{
			passkCommand(e),
			statsEmotionsCommand(e),
			statsGapCommand(e),
			statsAbandonmentCommand(e),
			statsBalanceCommand(e),
			statsGeneralizationCommand(e),
		},
	}
}

// statsFlags are a stats command's flags: --run, its own flags, --format
// (table.Formats) and --pool, then, unless ciStyle is "", the bootstrap
// interval flags with --ci defaulting to ciStyle (intervalFlags).
func statsFlags(ciStyle string, own ...cli.Flag) []cli.Flag {
	flags := slices.Concat([]cli.Flag{runFlag()}, own, []cli.Flag{tableFormatFlag(), poolFlag()})
	if ciStyle != "" {
		flags = append(flags, intervalFlags(ciStyle)...)
	}
	return flags
}

// statsRequest reads the flags of a stats command or the report into a
// checked workbench.StatsRequest. A flag its command does not define reads
// as "" or nil: the request's default (the report's format is "table").
func statsRequest(c *cli.Context) (workbench.StatsRequest, error) {
	r := workbench.StatsRequest{DB: c.String("db"), Runs: c.StringSlice("run"), Pool: c.Bool("pool"), Format: cmp.Or(c.String("format"), "table"),
		By: c.StringSlice("by"), Ks: c.IntSlice("k"), // Ks: nil where --k is one k (gap) or none
		Convention: c.String("convention"), CI: c.String("ci")}
	if hasFlag(c, "resamples") { // an explicit --resamples 0 is refused, not read as none
		r.Bootstrap = &analysis.BootstrapOptions{Resamples: c.Int("resamples"), Level: c.Float64("level"), Seed: c.Uint64("seed"), Method: c.String("ci-method")}
	}
	return r, r.Check()
}

// statsAction is a stats command's action: it reads its request
// (statsRequest) and runs run with it.
func statsAction(e *env, run func(*cli.Context, *env, workbench.StatsRequest) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		r, err := statsRequest(c)
		if err != nil {
			return err
		}
		return run(c, e, r)
	}
}

// compute runs one workbench computation over r's selection
// (workbench.Compute) and prints its notes, also when it fails. When
// empty(result), it also prints the note that no selected run holds a
// trajectory, and bare is whether the caller had better print nothing
// more (StatsRequest.Bare); none is that note.
func compute[T any](c *cli.Context, e *env, r workbench.StatsRequest, run workbench.Computation[T], empty func(T) bool) (res T, s workbench.Selection, none string, err error) {
	res, s, notes, none, err := workbench.Compute(c.Context, r.DB, r.Runs, r.Pool, run, empty)
	e.warnAll(notes)
	if none != "" {
		e.warn(none)
	}
	return res, s, none, err
}

// hasFlag reports whether c's command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}

func passkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "passk",
		Usage: "pass^k (all k trials pass) and pass@k (at least one passes) per run and group",
		Description: "pass^k = mean over tasks of C(c,k)/C(n,k); pass@k = mean over tasks of 1 − C(n−c,k)/C(n,k),\n" +
			"with n a task's trials and c its passes (a trial passes when its reward is within 1 ± 1e-6).\n" +
			"Conventions: per-task (τ²-bench; default) uses each task's own n and leaves out tasks with n < k;\n" +
			"min-trials (τ-bench v1) uses the run's number of distinct trials as n for every task, with a\n" +
			"note naming the n when a run's trial numbers look sparse (e.g. a trial equal to the task id).\n" +
			"A run, pool or group with no evaluated trajectory (no reward information) is \"not evaluated\":\n" +
			"its pass^k and pass@k read so in text, and are null with note \"not evaluated\" in csv and json, never 0.\n" +
			"Group fields: " + strings.Join(emobench.GroupFields, ", ") + ".\n" +
			"Rows are per run; --pool pools the runs sharing agent model, user model, domain and condition\n" +
			"(every trajectory of a task in them is one trial of it) and names their run_ids.\n\n" +
			"Example:\n" +
			"   emobench --db runs.db stats passk --by condition\n" +
			"   emobench --db runs.db stats passk --k 1 --pool\n" +
			"   emobench --db runs.db stats passk --run 3 --by emotion_family --k 1,2,4 --format markdown\n" +
			"   emobench --db runs.db stats passk --ci brackets   # bootstrap CIs over tasks",
		Before: noArgs,
		Flags: statsFlags("none",
			&cli.StringSliceFlag{Name: "by", Usage: "group fields, comma-separated or repeated (always grouped by run)"},
			&cli.IntSliceFlag{Name: "k", Usage: "k values to report (default: 1 up to the most trials)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
			cliargs.Choice("infra-errors", "fail", "τ²-bench infrastructure_error and context_window_exceeded trajectories: fail (count them as failures) or exclude (as τ²-bench's own metrics do)",
				string(workbench.InfraErrorsFail), string(workbench.InfraErrorsExclude)),
			&cli.BoolFlag{Name: "strict", Usage: "beside each pass^k, strict pass^k: a trial passes only when every check its reward_info records passed, in its reward_basis or not"},
		),
		Action: statsAction(e, runPassK),
	}
}

func runPassK(c *cli.Context, e *env, r workbench.StatsRequest) error {
	// Its heap is O(tasks) and the process short: collect 4x less often.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	stats := workbench.PassKStats{Fields: r.Fields, Options: analysis.PassKOptions{Convention: r.Conv, Ks: r.Ks},
		InfraErrors: workbench.InfraErrors(c.String("infra-errors")), Intervals: r.Style != table.NoInterval, Bootstrap: r.Boot}
	if c.Bool("strict") && r.Style != table.NoInterval {
		return usagef("--strict gives no intervals: leave out --ci")
	}
	t, _, none, err := compute(c, e, r, stats.Table(r, c.Bool("strict")), workbench.NoRows)
	if err != nil || r.Bare(none) {
		return err
	}
	if len(t.Rows) == 0 && none == "" {
		fmt.Fprintln(e.stderr, "no rows: no run matched, or no task has at least k trials (see `emobench runs` for trials per task)")
	}
	return r.Write(e.stdout, t)
}

func statsEmotionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "emotions",
		Usage: "with- vs without-emotions pass^k, paired by task, per family, leaf and dimension",
		Description: "Pairs each task's with-emotions and without-emotions trajectories (same agent model, user\n" +
			"model and domain; a task is its content without the emotion instruction) within a pair of runs\n" +
			"that belong together: the two runs one `run` (or `tracer collect`) command started, two runs\n" +
			"ingested from files whose names differ only in the condition words (…-with-emotions.json,\n" +
			"…-without-emotions.json), or two runs named with --pair WITH:WITHOUT; with --pool, a pool with a\n" +
			"pool. Other runs are not compared: rows with dimension \"unpaired\" and a note say which and why.\n" +
			"Reports Δpass^k = pass^k(with) − pass^k(without) with a paired bootstrap CI over tasks and, at\n" +
			"k = 1, the exact McNemar test on trial-matched pairs with Holm's correction across a dimension's\n" +
			"values (p is empty when no (task, trial) pair matches). pairs counts tasks; mcnemar_b counts\n" +
			"(task, trial) pairs that passed only with emotions, mcnemar_c only without. With several trials\n" +
			"per task those pairs are not independent: cite the bootstrap CI.\n\n" +
			"Example:\n   emobench --db runs.db stats emotions\n   emobench --db runs.db stats emotions --pool\n" +
			"   emobench --db runs.db stats emotions --pair 5:7 --pair 6:8\n" +
			"   emobench --db runs.db stats emotions --k 1,2 --format latex --ci brackets",
		Before: noArgs,
		Flags: statsFlags("pm",
			&cli.IntSliceFlag{Name: "k", Usage: "k values (default 1)"},
			pairFlag(),
		),
		Action: statsAction(e, func(c *cli.Context, e *env, r workbench.StatsRequest) error {
			res, _, _, err := compute(c, e, r, workbench.EmotionsStats{Ks: r.Ks, Bootstrap: r.Boot, Pairs: c.StringSlice("pair")}.Compute, nil)
			if err != nil {
				return err
			}
			return r.Write(e.stdout, table.Emotions(res, r.Format, r.Style))
		}),
	}
}

func statsGapCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "gap",
		Usage: "the pass^k gap: pass^1 − pass^k and pass^k / pass^1 per run (and group)",
		Description: "Average success hides inconsistency: the gap compares pass^1 with pass^k at the largest k\n" +
			"(or --k). Under per-task, pass^k averages only tasks with at least k trials; the tasks_1 and\n" +
			"tasks_k columns say how many tasks each side used.\n\n" +
			"Example:\n   emobench --db runs.db stats gap\n   emobench --db runs.db stats gap --by emotion_family --k 3 --format latex",
		Before: noArgs,
		Flags: statsFlags("",
			&cli.StringSliceFlag{Name: "by", Usage: "group fields besides the run (e.g. emotion_family)"},
			&cli.IntFlag{Name: "k", Usage: "the k to compare with k = 1 (default: the largest k)"},
			&cli.StringFlag{Name: "convention", Value: string(analysis.PerTask), Usage: "per-task or min-trials"},
		),
		Action: statsAction(e, func(c *cli.Context, e *env, r workbench.StatsRequest) error {
			if k := c.Int("k"); c.IsSet("k") && k < 2 {
				return usagef("--k %d: compare with k of at least 2", k)
			}
			gap := workbench.GapStats{Fields: r.Fields, Options: analysis.PassKOptions{Convention: r.Conv}, K: c.Int("k")} // --k is 0 when not set
			rows, s, _, err := compute(c, e, r, gap.Compute, nil)
			if err != nil {
				return err
			}
			return r.Write(e.stdout, table.Gap(rows, s.TableUnits(), r.Fields, r.Format))
		}),
	}
}

func statsAbandonmentCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "abandonment",
		Usage: "rate of user_unsatisfied endings (###UNSATISFIED###) per family, leaf, dimension, domain and agent",
		Description: "Each row: one run's (or, with --pool, one pool's) trajectories, abandoned ones, the rate with a\n" +
			"Wilson interval, and the mean user turn at which users abandoned (the turn of their\n" +
			"###UNSATISFIED### message). Without --by, each dimension is reported in turn.\n\n" +
			"Example:\n   emobench --db runs.db stats abandonment\n   emobench --db runs.db stats abandonment --by emotion_family,agent_model --format latex",
		Before: noArgs,
		Flags: statsFlags("",
			&cli.StringSliceFlag{Name: "by", Usage: "report by these fields jointly (default: each of " + strings.Join(workbench.AbandonmentDimensions, ", ") + " in turn)"},
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
		),
		Action: statsAction(e, func(c *cli.Context, e *env, r workbench.StatsRequest) error {
			rates, s, _, err := compute(c, e, r, workbench.AbandonmentStats{Fields: r.Fields}.Compute, nil)
			if err != nil {
				return err
			}
			return r.Write(e.stdout, table.Abandonment(rates, s.TableUnits(), r.Style))
		}),
	}
}

func statsBalanceCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "balance",
		Usage: "tool calls vs follow-up questions: success by tool-call share, a logistic fit, correlations",
		Description: "Per trajectory, share = tool calls / (tool calls + follow-ups), where a follow-up is an agent\n" +
			"message to the user that asks for information or confirmation: a sentence ending in '?' or\n" +
			"holding a request cue ('could you', 'please provide', 'let me know', ...), closing courtesies\n" +
			"such as 'anything else?' excepted. Parts: bins (success rate by share, Wilson CIs),\n" +
			"regression (logit P(pass) = b0 + b1·share + b2·share², Wald CIs; a middle balance wins when\n" +
			"b2 < 0 and the vertex −b1/2b2 lies in (0, 1), with an intersection-union Wald p-value of\n" +
			"b1 > 0 and b1 + 2·b2 < 0: \"not significant\" when p ≥ 0.05), correlation (share vs turns and vs\n" +
			"abandonment).\n\n" +
			"Example:\n   emobench --db runs.db stats balance\n   emobench --db runs.db stats balance --part regression --format latex",
		Before: noArgs,
		Flags: statsFlags("",
			cliargs.Choice("part", "all", "", "bins", "regression", "correlation", "all"),
			&cli.IntFlag{Name: "bins", Value: 5, Usage: "equal-width share bins on [0, 1]"},
			&cli.StringFlag{Name: "ci", Value: "pm", Usage: "pm, brackets or none"},
		),
		Action: statsAction(e, runBalance),
	}
}

func runBalance(c *cli.Context, e *env, r workbench.StatsRequest) error {
	part := c.String("part")
	if part == "all" && table.Split(r.Format) {
		part = "bins"
		e.warn("csv and json hold one table: showing --part bins (choose another with --part)")
	}
	if bins := c.Int("bins"); bins < 1 {
		return usagef("--bins %d: need at least 1", bins)
	}
	data, s, none, err := compute(c, e, r, workbench.BalanceStats{}.Compute, func(m map[int64]analysis.BalanceSample) bool { return len(m) == 0 })
	if err != nil || r.Bare(none) {
		return err
	}
	return r.Write(e.stdout, table.Balance(s.TableUnits(), data, part, c.Int("bins"), r.Format, r.Style)...)
}

func statsGeneralizationCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "generalization",
		Usage: "tuned vs base model Δpass^1 per domain, in-domain and out-of-domain, and a domain × model matrix",
		Description: "A tuned run is one tagged with its train domains and base run (emobench runs tag, or run\n" +
			"--train-domains/--base-run). Runs of the same tuned model on several domains are compared with\n" +
			"their base runs domain by domain; each domain is in-domain when the model was trained on it.\n" +
			"The mean in-domain and out-of-domain Δ come with bootstrap CIs. Δ, tuned_pass_1 and base_pass_1\n" +
			"are over the tasks both runs share (paired_tasks; a note counts the tasks left out of each);\n" +
			"a domain with 0 paired tasks gets an unpaired Δ without an interval (and a note).\n" +
			"With --pool, tuned runs pool only with tuned runs of the same train domains and base; untagged\n" +
			"runs are not tuned and pool apart.\n" +
			"--part matrix shows pass^1 of every model on every domain.\n\n" +
			"Example:\n   emobench --db runs.db runs tag 7 --train-domains retail --base-run 3\n" +
			"   emobench --db runs.db stats generalization\n   emobench --db runs.db stats generalization --part matrix",
		Before: noArgs,
		Flags: statsFlags("pm",
			cliargs.Choice("part", "deltas", "", "deltas", "matrix"),
		),
		Action: statsAction(e, runGeneralization),
	}
}

func runGeneralization(c *cli.Context, e *env, r workbench.StatsRequest) error {
	if c.String("part") == "matrix" {
		m, _, _, err := compute(c, e, r, workbench.MatrixStats{}.Compute, nil)
		if err != nil {
			return err
		}
		return r.Write(e.stdout, table.PassMatrix(m, r.Format))
	}
	models, _, _, err := compute(c, e, r, workbench.GeneralizationStats{Bootstrap: r.Boot}.Compute, nil)
	if err != nil {
		return err
	}
	return r.Write(e.stdout, table.Generalization(models, r.Format, r.Style))
}
