package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/emobench/emobench/analysis"
)

// Issue 8, item 3: what is suspicious is said, not computed silently.

// stats balance gives middle_wins with its p-value: one verdict in the text
// formats ("not significant" when p ≥ 0.05), middle_wins_p in json and csv.
func TestStatsBalance_MiddleWinsP(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "balance.json")
	var shares []float64
	var passed []bool
	for _, b := range balanceTrajectories {
		if b.calls+b.followUps > 0 {
			shares = append(shares, float64(b.calls)/float64(b.calls+b.followUps))
			passed = append(passed, b.passed)
		}
	}
	// The p-value itself is checked by hand in analysis
	// (TestBalanceRegression_MiddleWinsP); here the command must carry it.
	fit, err := analysis.BalanceRegression(shares, passed)
	if err != nil {
		t.Fatal(err)
	}
	if fit.MiddleWinsP < 0.05 {
		t.Fatalf("balance.json: p = %v, want a fit that is not significant", fit.MiddleWinsP)
	}

	rows := jsonObjects(t, "--db", dbPath, "stats", "balance", "--part", "regression")
	if len(rows) != 3 {
		t.Fatalf("rows = %v, want 3 terms", rows)
	}
	if got, want := rows[2]["middle_wins"], fit.Interior; got != want {
		t.Errorf("middle_wins = %v, want %v", got, want)
	}
	checkNums(t, "share^2", rows[2], map[string]float64{"middle_wins_p": fit.MiddleWinsP})
	checkNums(t, "share", rows[1], map[string]float64{"middle_wins_p": math.NaN()})

	want := fmt.Sprintf("not significant (p = %.4f)", fit.MiddleWinsP)
	for _, format := range []string{"table", "markdown"} {
		out := mustRun(t, "--db", dbPath, "stats", "balance", "--part", "regression", "--format", format)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if last := lines[len(lines)-1]; !strings.HasSuffix(strings.TrimSuffix(last, " |"), want) {
			t.Errorf("--format %s: share^2 row %q, want it to end in %q", format, last, want)
		}
	}
	csv := mustRun(t, "--db", dbPath, "stats", "balance", "--part", "regression", "--format", "csv")
	if head := strings.SplitN(csv, "\n", 2)[0]; !strings.HasSuffix(head, ",middle_wins,middle_wins_p") {
		t.Errorf("csv header %q, want it to end in middle_wins,middle_wins_p", head)
	}
}

func TestMiddleWinsText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		p    float64
		want string
	}{
		{0.0123, "yes (p = 0.0123)"},
		{0.05, "not significant (p = 0.0500)"},
		{0.9370, "not significant (p = 0.9370)"},
	} {
		if got := (analysis.BalanceFit{MiddleWinsP: tt.p}).Verdict(); got != tt.want {
			t.Errorf("p %v: %q, want %q", tt.p, got, tt.want)
		}
	}
}

// A tuned run and its base run that share no task give an unpaired Δ over
// different tasks: it is printed without an interval, and a note says why.
func TestStatsGeneralization_NoPairedTasks(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "gen.db")
	ingestInto(t, dbPath, []string{"--model", "tuned_m", "--domain", "retail"}, "gen-tuned-retail.json")
	// The same rewards as gen-base-retail.json, on other instructions.
	ingestInto(t, dbPath, []string{"--model", "base_m", "--domain", "retail"}, "gen-base-retail-other-tasks.json")
	mustRun(t, "--db", dbPath, "runs", "tag", "gen-tuned-retail", "--train-domains", "retail", "--base", "gen-base-retail-other-tasks")

	// tuned passes 2, 1 of 2 → 3/4; base 1, 0 of 2 → 1/4; unpaired Δ 1/2.
	rows := jsonObjects(t, "--db", dbPath, "stats", "generalization", "--resamples", "200")
	if len(rows) != 3 {
		t.Fatalf("rows = %v, want retail, in-domain mean, out-of-domain mean", rows)
	}
	nan := math.NaN()
	checkNums(t, "retail", rows[0], map[string]float64{"tuned_pass_1": 0.75, "base_pass_1": 0.25, "delta": 0.5, "delta_lo": nan, "delta_hi": nan, "paired_tasks": 0})
	checkNums(t, "in-domain mean", rows[1], map[string]float64{"delta": 0.5, "delta_lo": nan, "delta_hi": nan})

	r := runCLI(t, "", "--db", dbPath, "stats", "generalization", "--resamples", "200")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got, want := r.stderr, "note: tuned_m on retail: 0 paired tasks (the tuned and base runs share no task), so its Δ compares different tasks and has no interval, nor has the in-domain mean\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
	if strings.Contains(r.stdout, "±") || !strings.Contains(r.stdout, "0.5000") {
		t.Errorf("want Δ 0.5000 without an interval:\n%s", r.stdout)
	}
}

// --convention min-trials on a run whose trial numbers are sparse warns,
// naming the run and the n it used; a run numbered 0..n−1 gets no warning.
func TestStatsPassK_MinTrialsSparseWarns(t *testing.T) {
	t.Parallel()
	// trial-is-task-id.json: tasks 0..3, one trial each, trial = task id,
	// rewards 1, 0, 1, 1. gap.json: 3 tasks × trials 0, 1, 2.
	dbPath := ingestStats(t, nil, "trial-is-task-id.json", "gap.json")
	const note = "note: run 1 (trial-is-task-id): trial numbers look sparse: 4 distinct values from 0 to 3, and tasks have 1 trial; --convention min-trials used n = 4 for every task (--convention per-task uses each task's own trials)\n"
	for _, cmd := range [][]string{{"passk", "--k", "1"}, {"gap"}} {
		r := runCLI(t, "", append([]string{"--db", dbPath, "stats"}, append(cmd, "--convention", "min-trials", "--format", "json")...)...)
		if r.code != 0 {
			t.Fatalf("stats %v: exit %d: %s", cmd, r.code, r.stderr)
		}
		if !strings.HasPrefix(r.stderr, note) || strings.Contains(r.stderr, "run 2 (gap)") {
			t.Errorf("stats %v: stderr = %q, want it to start with %q and not name run 2", cmd, r.stderr, note)
		}
	}
	// n = 4 for every task: pass^1 = (1 + 0 + 1 + 1)/4 / 4 = 3/16.
	rows := jsonObjects(t, "--db", dbPath, "stats", "passk", "--run", "1", "--k", "1", "--convention", "min-trials")
	if len(rows) != 1 {
		t.Fatalf("rows = %v, want one", rows)
	}
	checkNums(t, "min-trials", rows[0], map[string]float64{"pass_hat_k": 3.0 / 16})
	// The default convention says nothing.
	if r := runCLI(t, "", "--db", dbPath, "stats", "passk"); r.code != 0 || strings.Contains(r.stderr, "sparse") {
		t.Errorf("per-task: exit %d, stderr %q: want no warning", r.code, r.stderr)
	}
}

// The real file of one error record whose trial (10) equals its task id.
func TestStatsPassK_MinTrialsSparseRealRun(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "real.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "taubench", "retail-single-error-record.json"))
	r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--convention", "min-trials")
	if got, want := r.stderr, "note: run 1 (retail-single-error-record): 1 trajectory ended in error (termination error in the source: its endpoint, its harness or the agent's reply failed): counted as failures\n"+
		"note: run 1 (retail-single-error-record): trial numbers look sparse: 1 distinct value from 10 to 10, and tasks have 1 trial; --convention min-trials used n = 1 for every task (--convention per-task uses each task's own trials)\n"; r.code != 0 || got != want {
		t.Errorf("exit %d, stderr %q, want %q", r.code, got, want)
	}
}

// runsDB ingests partial.json, unevaluated.json and gap.json (runs 1, 2, 3).
//
//	partial.json: task 0 rewards 1.0, 0.5; task 1 rewards 0.25, −1
//	  (abandoned) and 1.0 without reward information (not evaluated).
//	unevaluated.json: two tasks, each one reward 1.0 without reward
//	  information: nothing is evaluated.
//	gap.json: 3 tasks × 3 trials, rewards 0 or 1.
func runsDB(t *testing.T) string {
	t.Helper()
	return ingestStats(t, nil, "partial.json", "unevaluated.json", "gap.json")
}

// A run with no evaluated trajectory shows pass^1 as "not evaluated", not
// 0.0000, in every format of runs.
func TestRuns_NotEvaluated(t *testing.T) {
	t.Parallel()
	dbPath := runsDB(t)
	rows := jsonObjects(t, "--db", dbPath, "runs")
	if len(rows) != 3 {
		t.Fatalf("rows = %v, want 3 runs", rows)
	}
	if got := rows[1]["pass_hat_1_note"]; got != "not evaluated" {
		t.Errorf("unevaluated: pass_hat_1_note = %v, want \"not evaluated\"", got)
	}
	checkNums(t, "unevaluated", rows[1], map[string]float64{"pass_hat_1": math.NaN()})
	for _, i := range []int{0, 2} {
		if got := rows[i]["pass_hat_1_note"]; got != nil {
			t.Errorf("run %d: pass_hat_1_note = %v, want null", i+1, got)
		}
	}
	// partial: pass^1 = mean(1/2, 0/3); gap: (3 + 2 + 1)/9.
	checkNums(t, "partial", rows[0], map[string]float64{"pass_hat_1": 0.25})
	checkNums(t, "gap", rows[2], map[string]float64{"pass_hat_1": 2.0 / 3})

	table := mustRun(t, "--db", dbPath, "runs")
	if !regexp.MustCompile(`(?m)^2 +unevaluated +.* not evaluated +0 +ingested$`).MatchString(table) {
		t.Errorf("table: want run 2's pass_hat_1 as \"not evaluated\":\n%s", table)
	}
	csv := mustRun(t, "--db", dbPath, "runs", "--format", "csv")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if got, want := lines[0], "id,name,model,domain,condition,tasks,trials_per_task,trajectories,pass_hat_1,pass_hat_1_note,mean_reward,abandoned,provenance"; got != want {
		t.Errorf("csv header %q, want %q", got, want)
	}
	if got, want := lines[2], "2,unevaluated,unknown,unknown,none,2,1,2,,not evaluated,,0,ingested"; got != want {
		t.Errorf("csv run 2 %q, want %q", got, want)
	}
}

// Runs with partial-credit rewards get mean_reward beside pass^1: the mean
// over tasks of the mean credit, an unevaluated trajectory and a negative
// reward counting 0.
func TestRuns_MeanReward(t *testing.T) {
	t.Parallel()
	dbPath := runsDB(t)
	rows := jsonObjects(t, "--db", dbPath, "runs")
	// partial: task 0 (1 + 0.5)/2 = 3/4; task 1 (0.25 + 0 + 0)/3 = 1/12;
	// mean 5/12.
	checkNums(t, "partial", rows[0], map[string]float64{"mean_reward": 5.0 / 12})
	// No partial credit: null.
	checkNums(t, "unevaluated", rows[1], map[string]float64{"mean_reward": math.NaN()})
	checkNums(t, "gap", rows[2], map[string]float64{"mean_reward": math.NaN()})

	table := mustRun(t, "--db", dbPath, "runs")
	if head := strings.SplitN(table, "\n", 2)[0]; !regexp.MustCompile(`pass_hat_1 +mean_reward +abandoned +provenance$`).MatchString(head) {
		t.Errorf("table header %q: want mean_reward after pass_hat_1", head)
	}
	if !regexp.MustCompile(`(?m)^1 +partial +.* 0\.2500 +0\.4167 +1 +ingested$`).MatchString(table) {
		t.Errorf("table: want run 1 with pass_hat_1 0.2500 and mean_reward 0.4167:\n%s", table)
	}
	// Without a partial-credit run the table has no such column.
	plain := ingestStats(t, nil, "gap.json")
	if out := mustRun(t, "--db", plain, "runs"); strings.Contains(out, "mean_reward") {
		t.Errorf("no partial credit: want no mean_reward column:\n%s", out)
	}
	// The ingest note says where the mean reward is, and does not count an
	// unevaluated reward of 1.0 as partial credit.
	r := runCLI(t, "", "--db", filepath.Join(t.TempDir(), "n.db"), "ingest", filepath.Join("testdata", "stats", "partial.json"), filepath.Join("testdata", "stats", "unevaluated.json"))
	if want := "note: testdata/stats/partial.json: 2 of 5 rewards are partial (neither 0 nor 1): a trajectory passes only with reward 1 ± 1e-6; `emobench runs` shows their mean_reward\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("ingest stderr %q, want it to hold %q", r.stderr, want)
	}
	if strings.Contains(r.stderr, "unevaluated.json: 2 of 2 rewards are partial") {
		t.Errorf("ingest stderr %q: unevaluated rewards counted as partial credit", r.stderr)
	}
}

// The report's runs table shows the same as runs.
func TestReport_RunsNotEvaluatedAndMeanReward(t *testing.T) {
	t.Parallel()
	dbPath := runsDB(t)
	out := filepath.Join(t.TempDir(), "report.html")
	mustRun(t, "--db", dbPath, "report", "--out", out, "--resamples", "200")
	html, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	for _, want := range []string{
		`<th class="num">pass^1</th><th class="num">Mean reward</th>`,
		// run 1: pass^1 0.250, mean reward 5/12.
		`<td class="num">0.250</td><td class="num">0.417</td>`,
		// run 2: not evaluated; no partial credit.
		`<td class="num">not evaluated</td><td class="num">–</td>`,
		`<td class="num">0.667</td><td class="num">–</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report: no %q", want)
		}
	}
}
