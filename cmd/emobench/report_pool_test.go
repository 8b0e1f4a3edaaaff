package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/reports"
	"github.com/emobench/emobench/workbench"
)

// overlapRecord is one τ-bench record of overlappingRunsDB: a task of
// family fam (none when empty), trial trial, passing or not, with tools
// tool calls, asks follow-up questions, and a user who gives up when quit.
func overlapRecord(task, trial int, fam string, pass bool, tools, asks int, quit bool) map[string]any {
	reward := 0.0
	if pass {
		reward = 1
	}
	taskInfo := map[string]any{"user_id": fmt.Sprintf("user_%d", task), "instruction": fmt.Sprintf("task %d", task), "actions": []any{}, "outputs": []any{}}
	if fam != "" {
		taskInfo["emotion_family"] = fam
		taskInfo["dimension_politeness"] = []string{"warm", "cold"}[task%2]
	}
	traj := []any{map[string]any{"role": "user", "content": "Hi, I need help."}}
	for i := 0; i < tools; i++ {
		traj = append(traj,
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": "c1", "type": "function", "function": map[string]any{"name": "get_order", "arguments": `{"id":"1"}`}}}},
			map[string]any{"role": "tool", "content": "{}", "name": "get_order", "tool_call_id": "c1"})
	}
	for i := 0; i < asks; i++ {
		traj = append(traj, map[string]any{"role": "assistant", "content": "Could you give me your email?"},
			map[string]any{"role": "user", "content": "It is a@b.c"})
	}
	end := "Thanks. ###STOP###"
	if quit {
		end = "This is useless. ###UNSATISFIED###"
	}
	traj = append(traj, map[string]any{"role": "assistant", "content": "Done."}, map[string]any{"role": "user", "content": end})
	return map[string]any{"task_id": task, "reward": reward, "trial": trial, "traj": traj,
		"info": map[string]any{"task": taskInfo, "reward_info": map[string]any{"reward": reward, "info": map[string]any{}}}}
}

// overlappingRunsDB writes and ingests four runs with 2 trials per task:
// m on retail with emotions over tasks 0–5 (run 1) and 3–8 (run 2, so
// tasks 3–5 are in both), m on retail without emotions over tasks 0–8
// (run 3), and n on airline with emotions over tasks 0–3 (run 4). Task 8
// has no emotion profile. Outcomes follow fixed arithmetic rules.
func overlappingRunsDB(t *testing.T) string {
	t.Helper()
	return overlappingRunsDBOf(t, false)
}

// overlappingRunsDBOf is overlappingRunsDB, with, when unevaluated is set,
// a fifth run: v on airline with emotions over tasks 0–3 whose records
// have no reward information (not evaluated).
func overlappingRunsDBOf(t *testing.T, unevaluated bool) string {
	t.Helper()
	dir := t.TempDir()
	families := []string{"anger", "fear", "sadness"}
	type run struct {
		file, model, domain string
		tasks               []int
	}
	runs := []run{
		{"m-retail-with-emotions-a.json", "m", "retail", []int{0, 1, 2, 3, 4, 5}},
		{"m-retail-with-emotions-b.json", "m", "retail", []int{3, 4, 5, 6, 7, 8}},
		{"m-retail-without-emotions.json", "m", "retail", []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{"n-airline-with-emotions.json", "n", "airline", []int{0, 1, 2, 3}},
	}
	if unevaluated {
		runs = append(runs, run{"v-airline-with-emotions.json", "v", "airline", []int{0, 1, 2, 3}})
	}
	dbPath := filepath.Join(dir, "overlap.db")
	for i, r := range runs {
		var recs []any
		for _, task := range r.tasks {
			fam := families[task%3]
			if task == 8 {
				fam = ""
			}
			for trial := 0; trial < 2; trial++ {
				h := (7*i + 3*task + 5*trial) % 11
				rec := overlapRecord(task, trial, fam, h%3 != 0, h%4, (h/2)%3, h == 4)
				if r.model == "v" {
					delete(rec["info"].(map[string]any), "reward_info")
				}
				recs = append(recs, rec)
			}
		}
		data, err := json.Marshal(recs)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, r.file)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		mustRun(t, "--db", dbPath, "ingest", "--model", r.model, "--user-model", "u", "--domain", r.domain, path)
	}
	return dbPath
}

// commandJSON runs a caption's "emobench stats …" command on dbPath with
// --format json.
func commandJSON(t *testing.T, dbPath, command string) []map[string]any {
	t.Helper()
	args, ok := strings.CutPrefix(command, "emobench stats ")
	if !ok {
		t.Fatalf("caption command %q is not an emobench stats command", command)
	}
	return jsonObjects(t, append([]string{"--db", dbPath, "stats"}, strings.Fields(args)...)...)
}

// unitIDOf is the RunID charts give a row's unit: run_id, or the first of
// run_ids.
func unitIDOf(t *testing.T, row map[string]any) int64 {
	t.Helper()
	if id, ok := row["run_id"].(float64); ok {
		return int64(id)
	}
	return runIDsOf(t, row, "run_ids")[0]
}

// sameNum compares a chart value with a JSON number (NaN with null).
func sameNum(t *testing.T, what string, chart float64, row map[string]any, key string) {
	t.Helper()
	got := num(t, row, key)
	if math.IsNaN(chart) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(chart-got) > statsTol) {
		t.Errorf("%s: chart %v, %s = %v", what, chart, key, got)
	}
}

func sameCount(t *testing.T, what string, chart int, rows, want int) {
	t.Helper()
	if chart != want {
		t.Fatalf("%s: chart has %d %s, command JSON %d: they differ", what, chart, plural(rows, "item", "items"), want)
	}
}

// Every chart of the report names the stats command whose JSON holds
// exactly its numbers, per run and with --pool, over overlapping runs, and
// over the same with a run that is not evaluated (its numbers null in the
// commands' JSON, NaN in the charts, and named in the captions).
func TestReport_ChartsEqualTheirStatsCommands(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("bootstraps every chart twice; skipped under -short")
	}
	for _, unevaluated := range []bool{false, true} {
		t.Run(fmt.Sprintf("unevaluated=%v", unevaluated), func(t *testing.T) {
			chartsEqualTheirStatsCommands(t, unevaluated)
		})
	}
}

func chartsEqualTheirStatsCommands(t *testing.T, unevaluated bool) {
	dbPath := overlappingRunsDBOf(t, unevaluated)
	store := openTestStore(t, dbPath)
	boot := workbench.DefaultBootstrap
	boot.Resamples = 200 // the report's flags reach its captions' commands
	extra := 0           // units the unevaluated run adds
	if unevaluated {
		extra = 1
	}
	for _, pool := range []bool{false, true} {
		t.Run(fmt.Sprintf("pool=%v", pool), func(t *testing.T) {
			var pairs []string // per run: the runs were ingested apart, so named
			if !pool {
				pairs = []string{"1:3", "2:3"}
			}
			rep, err := buildReport(t.Context(), store, boot, pool, pairs...)
			in, overlaps := rep.Input, rep.Overlaps
			if err != nil {
				t.Fatal(err)
			}
			if pool != (len(overlaps) == 3) {
				t.Errorf("overlaps %v: want tasks 3, 4, 5 when pooled, none per run", overlaps)
			}
			var page bytes.Buffer
			if err := reports.Render(&page, in); err != nil {
				t.Fatal(err)
			}
			commands := []string{in.PassKCommand, in.FamilyCommand, in.ConditionCommand, in.Gaps.Command,
				in.FamilyHeatmap.Command, in.Abandonment.Command, in.Generalization.Command}
			for _, d := range in.Deltas {
				commands = append(commands, d.Command)
			}
			for _, b := range in.Balance {
				commands = append(commands, b.Command)
			}
			for _, c := range commands {
				if c == "" || !strings.Contains(page.String(), "Numbers: "+c+".") {
					t.Errorf("no caption names %q", c)
				}
				if strings.Contains(c, "--pool") != pool {
					t.Errorf("%q: --pool should be there exactly when the report pools", c)
				}
			}
			if want := "emobench stats passk --ci pm --resamples 200"; pool == false && in.PassKCommand != want {
				t.Errorf("chart (a) command %q, want %q", in.PassKCommand, want)
			}

			// (a) pass^k curves with their bands.
			rows := commandJSON(t, dbPath, in.PassK.Command)
			notEvaluated := 0
			for _, r := range rows {
				if r["note"] == "not evaluated" {
					notEvaluated++
					if !math.IsNaN(num(t, r, "pass_hat_k")) {
						t.Errorf("(a) row %v: not evaluated but has a value", r)
					}
				}
			}
			if want := 2 * extra; notEvaluated != want { // k = 1, 2 of run v
				t.Errorf("(a): %d rows not evaluated, want %d", notEvaluated, want)
			}
			vLabel := "v-airline-with-emotions"
			if pool {
				vLabel = "v / u / airline / with-emotions (runs 5)"
			}
			for _, c := range []string{in.PassK.Caption, in.Gaps.Caption, in.Generalization.Caption} {
				if named := strings.Contains(c, "so not drawn: "+vLabel) || strings.Contains(c, "so not drawn: v on airline"); named != unevaluated {
					t.Errorf("caption %q: names the unevaluated run %v, want %v", c, named, unevaluated)
				}
			}
			i := 0
			for _, c := range in.PassK.Curves {
				for _, p := range c.Points {
					if i >= len(rows) {
						t.Fatalf("chart (a) has more points than %s prints", in.PassK.Command)
					}
					r := rows[i]
					what := fmt.Sprintf("(a) %s k=%d", c.Run, p.K)
					if unitIDOf(t, r) != c.RunID || int(num(t, r, "k")) != p.K || int(num(t, r, "tasks")) != p.Tasks {
						t.Errorf("%s: row %v", what, r)
					}
					sameNum(t, what, p.Value, r, "pass_hat_k")
					sameNum(t, what, p.CI.Lo, r, "pass_hat_k_lo")
					sameNum(t, what, p.CI.Hi, r, "pass_hat_k_hi")
					i++
				}
			}
			sameCount(t, "(a)", i, i, len(rows))

			// The gap bars.
			rows = commandJSON(t, dbPath, in.Gaps.Command)
			sameCount(t, "gap", len(in.Gaps.Bars), len(in.Gaps.Bars), len(rows))
			for i, b := range in.Gaps.Bars {
				sameNum(t, "gap "+b.Run, b.Pass1, rows[i], "pass_1")
				sameNum(t, "gap "+b.Run, b.PassK, rows[i], "pass_k")
				sameNum(t, "gap "+b.Run, float64(b.K), rows[i], "k")
			}

			// (b) pass^1 per family, and the heatmap of the same rows.
			rows = commandJSON(t, dbPath, in.FamilyCommand)
			sameCount(t, "(b)", len(in.FamilyPass1), len(in.FamilyPass1), len(rows))
			cells := 0
			for i, r := range in.FamilyPass1 {
				what := fmt.Sprintf("(b) run %d %q", r.RunID, r.Group[0])
				if unitIDOf(t, rows[i]) != r.RunID || rows[i]["emotion_family"] != r.Group[0] {
					t.Errorf("%s: row %v", what, rows[i])
				}
				sameNum(t, what, r.PassHatK, rows[i], "pass_hat_k")
				if r.Group[0] == "" {
					continue // the heatmap leaves out tasks with no profile
				}
				h := in.FamilyHeatmap
				row := indexOf(h.Rows, in.UnitLabels[r.RunID], runLabelOf(in, r.RunID))
				col := indexOf(h.Cols, r.Group[0], "")
				if row < 0 || col < 0 {
					t.Errorf("heatmap has no cell for %s", what)
					continue
				}
				sameNum(t, "heatmap "+what, h.Values[row][col], rows[i], "pass_hat_k")
				if !math.IsNaN(num(t, rows[i], "pass_hat_k")) {
					cells++ // a cell that is not evaluated is blank
				}
			}
			filled := 0
			for _, vs := range in.FamilyHeatmap.Values {
				for _, v := range vs {
					if !math.IsNaN(v) {
						filled++
					}
				}
			}
			sameCount(t, "heatmap", filled, filled, cells)

			// (c) with vs without, and the Δ charts.
			rows = commandJSON(t, dbPath, in.ConditionCommand)
			all := rowsWhere(rows, "dimension", "all")
			sameCount(t, "(c)", len(in.ConditionPairs), len(in.ConditionPairs), len(all))
			for i, p := range in.ConditionPairs {
				sameNum(t, "(c) "+p.Label, p.With, all[i], "with")
				sameNum(t, "(c) "+p.Label, p.Without, all[i], "without")
				sameNum(t, "(c) "+p.Label, float64(p.Pairs), all[i], "pairs")
			}
			if want := map[bool]int{false: 2, true: 1}[pool]; len(in.ConditionPairs) != want {
				t.Errorf("(c) has %d pairs: want runs 1 vs 3 and 2 vs 3 per run, one pool pair pooled", len(in.ConditionPairs))
			}
			for _, d := range in.Deltas {
				dim := rowsWhere(commandJSON(t, dbPath, d.Command), "dimension", d.Group)
				sameCount(t, "Δ "+d.Group, len(d.Bars), len(d.Bars), len(dim))
				for i, b := range d.Bars {
					sameNum(t, "Δ "+b.Label, b.Delta, dim[i], "delta")
					sameNum(t, "Δ "+b.Label, b.CI.Lo, dim[i], "delta_lo")
					sameNum(t, "Δ "+b.Label, b.CI.Hi, dim[i], "delta_hi")
					sameNum(t, "Δ "+b.Label, b.P, dim[i], "p_holm")
				}
			}

			// Abandonment.
			rows = commandJSON(t, dbPath, in.Abandonment.Command)
			sameCount(t, "abandonment", len(in.Abandonment.Bars), len(in.Abandonment.Bars), len(rows))
			for i, b := range in.Abandonment.Bars {
				sameNum(t, "abandonment "+b.Label, b.Rate, rows[i], "rate")
				sameNum(t, "abandonment "+b.Label, b.CI.Lo, rows[i], "rate_lo")
				sameNum(t, "abandonment "+b.Label, float64(b.N), rows[i], "trajectories")
			}

			// Balance, one chart per unit.
			fits := 0
			if len(in.Balance) != map[bool]int{false: 4, true: 3}[pool]+extra {
				t.Errorf("%d balance charts, want one per run (4) or pool (3), +%d", len(in.Balance), extra)
			}
			for _, b := range in.Balance {
				rows = commandJSON(t, dbPath, b.Command)
				sameCount(t, b.Title, len(b.Bins), len(b.Bins), len(rows))
				for i, bin := range b.Bins {
					sameNum(t, b.Title, bin.Rate, rows[i], "success_rate")
					sameNum(t, b.Title, bin.CI.Hi, rows[i], "success_rate_hi")
					sameNum(t, b.Title, float64(bin.N), rows[i], "trajectories")
				}
				if len(b.Fit) == 0 {
					continue
				}
				// The fitted line is the logistic curve of the regression
				// part's coefficients.
				_, fitCmd, ok := strings.Cut(b.Caption, " Fit: ")
				if !ok {
					t.Errorf("%s: a fitted line but no caption command for it: %q", b.Title, b.Caption)
					continue
				}
				coef := map[string]float64{}
				for _, r := range commandJSON(t, dbPath, strings.TrimSuffix(fitCmd, ".")) {
					coef[r["term"].(string)] = num(t, r, "coefficient")
				}
				for _, p := range b.Fit {
					want := 1 / (1 + math.Exp(-(coef["intercept"] + coef["share"]*p.X + coef["share^2"]*p.X*p.X)))
					if math.Abs(p.Y-want) > 1e-9 {
						t.Errorf("%s: fit at %v = %v, the regression's coefficients give %v", b.Title, p.X, p.Y, want)
					}
				}
				fits++
			}

			if fits == 0 {
				t.Error("no balance chart has a fitted line: the data should give one")
			}

			// The generalization matrix.
			rows = commandJSON(t, dbPath, in.Generalization.Command)
			g := in.Generalization
			sameCount(t, "matrix", len(g.Rows), len(g.Rows), len(rows))
			for i, d := range g.Rows {
				if rows[i]["domain"] != d {
					t.Errorf("matrix row %d: %v, want domain %s", i, rows[i], d)
				}
				for j, c := range g.Cols {
					sameNum(t, "matrix "+d+" "+c, g.Values[i][j], rows[i], c)
				}
			}
		})
	}
}

// runLabelOf is the run's name, as charts label a run that is not pooled.
func runLabelOf(in reports.Input, id int64) string {
	for _, r := range in.Runs {
		if r.Run.ID == id {
			return r.Run.Name
		}
	}
	return ""
}

// indexOf is the index of the first non-empty of names in list; -1 when
// absent.
func indexOf(list []string, names ...string) int {
	for _, n := range names {
		if n == "" {
			continue
		}
		for i, v := range list {
			if v == n {
				return i
			}
		}
	}
	return -1
}

// buildReport is the report's data (titled "t") over every run of store,
// per run or pooled, as the report command builds it.
func buildReport(ctx context.Context, store *db.DB, boot analysis.BootstrapOptions, pool bool, pairs ...string) (workbench.Report, error) {
	s, err := workbench.Select(ctx, store, nil, pool)
	if err != nil {
		return workbench.Report{}, err
	}
	rep, _, err := workbench.ReportOptions{Title: "t", Bootstrap: boot, Pairs: pairs}.Build(ctx, store, s)
	return rep, err
}
