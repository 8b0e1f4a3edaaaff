package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/reports"
	"github.com/emobench/emobench/workbench"
	"github.com/google/go-cmp/cmp"
)

// notEvaluatedDB ingests two τ-bench runs on retail, both with emotions,
// two trials of tasks 0 (family anger) and 1 (fear): run 1 of model a with
// reward information (task 0 passes once, task 1 twice: pass^1 = (1/2 +
// 1)/2 = 0.75, pass^2 = (0 + 1)/2 = 0.5, pass@2 = 1), and run 2 of model b
// whose records have none (reward 1.0 everywhere, so a 0 would be as wrong
// as a 1).
func notEvaluatedDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "noteval.db")
	families := []string{"anger", "fear"}
	for _, r := range []struct {
		file, model string
		evaluated   bool
	}{{"a-retail.json", "a", true}, {"b-retail.json", "b", false}} {
		var recs []any
		for task := 0; task < 2; task++ {
			for trial := 0; trial < 2; trial++ {
				rec := overlapRecord(task, trial, families[task], task == 1 || trial == 0, 1, 1, false)
				if !r.evaluated {
					rec["reward"] = 1.0
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
		mustRun(t, "--db", dbPath, "ingest", "--model", r.model, "--user-model", "u", "--domain", "retail", "--condition", "with-emotions", path)
	}
	return dbPath
}

// TestNotEvaluated_StatsPassK: a run with no evaluated trajectory has
// pass^k and pass@k null with note "not evaluated" in JSON and CSV, and
// "not evaluated" in the table, never 0; the evaluated run keeps its
// numbers. (Before issue 8 item 3 the unevaluated run printed 0.0000.)
func TestNotEvaluated_StatsPassK(t *testing.T) {
	t.Parallel()
	dbPath := notEvaluatedDB(t)
	for _, ci := range []string{"none", "pm"} {
		rows := jsonObjects(t, "--db", dbPath, "stats", "passk", "--ci", ci)
		if len(rows) != 4 {
			t.Fatalf("--ci %s: %d rows, want k = 1, 2 of runs 1 and 2: %v", ci, len(rows), rows)
		}
		checkNums(t, "run 1 k=1", rows[0], map[string]float64{"run_id": 1, "k": 1, "pass_hat_k": 0.75, "pass_at_k": 0.75, "tasks": 2, "trajectories": 4})
		checkNums(t, "run 1 k=2", rows[1], map[string]float64{"run_id": 1, "k": 2, "pass_hat_k": 0.5, "pass_at_k": 1, "tasks": 2, "trajectories": 4})
		for _, row := range rows[:2] {
			if row["note"] != nil {
				t.Errorf("--ci %s: evaluated row note = %v, want null", ci, row["note"])
			}
		}
		for i, row := range rows[2:] {
			checkNums(t, "run 2", row, map[string]float64{"run_id": 2, "k": float64(i + 1), "tasks": 2, "trajectories": 4})
			keys := []string{"pass_hat_k", "pass_at_k"}
			if ci != "none" {
				keys = append(keys, "pass_hat_k_lo", "pass_hat_k_hi", "pass_at_k_lo", "pass_at_k_hi")
			}
			for _, k := range keys {
				if v, ok := row[k]; !ok || v != nil {
					t.Errorf("--ci %s: run 2 k=%d %s = %v (present %v), want null", ci, i+1, k, v, ok)
				}
			}
			if row["note"] != "not evaluated" {
				t.Errorf("--ci %s: run 2 note = %v, want \"not evaluated\"", ci, row["note"])
			}
		}
	}

	out := mustRun(t, "--db", dbPath, "stats", "passk")
	want := "run_id  run       k  pass_hat_k     pass_at_k      tasks  trajectories  convention\n" +
		"1       a-retail  1  0.7500         0.7500         2      4             per-task\n" +
		"1       a-retail  2  0.5000         1.0000         2      4             per-task\n" +
		"2       b-retail  1  not evaluated  not evaluated  2      4             per-task\n" +
		"2       b-retail  2  not evaluated  not evaluated  2      4             per-task\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("stats passk table (-want +got):\n%s", diff)
	}
	csv := mustRun(t, "--db", dbPath, "stats", "passk", "--k", "1", "--format", "csv")
	if want := "run_id,run,k,pass_hat_k,pass_at_k,tasks,trajectories,convention,note\n" +
		"1,a-retail,1,0.75,0.75,2,4,per-task,\n" +
		"2,b-retail,1,,,2,4,per-task,not evaluated\n"; csv != want {
		t.Errorf("stats passk csv:\n%s\nwant:\n%s", csv, want)
	}
	// A group of an evaluated run follows the same rule: by family, run 2's
	// anger and fear are not evaluated.
	byFamily := jsonObjects(t, "--db", dbPath, "stats", "passk", "--k", "1", "--by", "emotion_family")
	if len(byFamily) != 4 {
		t.Fatalf("by family: %v", byFamily)
	}
	checkNums(t, "run 1 anger", byFamily[0], map[string]float64{"pass_hat_k": 0.5})
	checkNums(t, "run 1 fear", byFamily[1], map[string]float64{"pass_hat_k": 1})
	for _, row := range byFamily[2:] {
		if row["pass_hat_k"] != nil || row["note"] != "not evaluated" {
			t.Errorf("run 2 %v: pass_hat_k %v note %v, want null, \"not evaluated\"", row["emotion_family"], row["pass_hat_k"], row["note"])
		}
	}
}

// TestNotEvaluated_GeneralizationMatrixAndGap: the matrix cell of a run
// with no evaluated trajectory is null with the row's note naming its
// column, "not evaluated" in the table; stats gap gives it null values.
func TestNotEvaluated_GeneralizationMatrixAndGap(t *testing.T) {
	t.Parallel()
	dbPath := notEvaluatedDB(t)
	rows := jsonObjects(t, "--db", dbPath, "stats", "generalization", "--part", "matrix")
	want := []map[string]any{{"domain": "retail", "a": 0.75, "b": nil, "run_ids": []any{1.0, 2.0}, "note": "not evaluated: b"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("matrix json (-want +got):\n%s", diff)
	}
	out := mustRun(t, "--db", dbPath, "stats", "generalization", "--part", "matrix")
	if want := "domain  a       b              run_ids\nretail  0.7500  not evaluated  1,2\n"; out != want {
		t.Errorf("matrix table:\n%s\nwant:\n%s", out, want)
	}
	gaps := jsonObjects(t, "--db", dbPath, "stats", "gap")
	if len(gaps) != 2 {
		t.Fatalf("gap rows %v", gaps)
	}
	checkNums(t, "gap run 1", gaps[0], map[string]float64{"k": 2, "pass_1": 0.75, "pass_k": 0.5, "gap": 0.25})
	for _, k := range []string{"pass_1", "pass_k", "gap", "ratio"} {
		if gaps[1][k] != nil {
			t.Errorf("gap run 2 %s = %v, want null", k, gaps[1][k])
		}
	}
	if gaps[1]["note"] != "not evaluated" {
		t.Errorf("gap run 2 note = %v", gaps[1]["note"])
	}
}

// TestNotEvaluated_Report: the report plots nothing for the run with no
// evaluated trajectory (NaN points, bars and cells, which the chart JSON
// gives as gaps) and its captions name it; before, every chart drew 0.
func TestNotEvaluated_Report(t *testing.T) {
	t.Parallel()
	dbPath := notEvaluatedDB(t)
	store := openTestStore(t, dbPath)
	boot := workbench.DefaultBootstrap
	boot.Resamples = 200
	rep, err := buildReport(t.Context(), store, boot, false)
	in := rep.Input
	if err != nil {
		t.Fatal(err)
	}
	if len(in.PassK.Curves) != 2 {
		t.Fatalf("chart (a) curves %+v", in.PassK.Curves)
	}
	if p := in.PassK.Curves[0].Points; len(p) != 2 || math.Abs(p[0].Value-0.75) > statsTol || math.Abs(p[1].Value-0.5) > statsTol {
		t.Errorf("chart (a) run 1 points %+v, want 0.75, 0.5", p)
	}
	for _, p := range in.PassK.Curves[1].Points {
		if !math.IsNaN(p.Value) || !math.IsNaN(p.CI.Lo) || !math.IsNaN(p.CI.Hi) {
			t.Errorf("chart (a) run 2 k=%d: %v [%v, %v], want no value", p.K, p.Value, p.CI.Lo, p.CI.Hi)
		}
	}
	for _, r := range in.FamilyPass1 {
		if r.RunID == 2 && !math.IsNaN(r.PassHatK) {
			t.Errorf("chart (b) run 2 %v: %v, want NaN (not evaluated)", r.Group, r.PassHatK)
		}
	}
	g := in.Generalization
	if len(g.Rows) != 1 || !slicesEqual(g.Cols, []string{"a", "b"}) || math.Abs(g.Values[0][0]-0.75) > statsTol || !math.IsNaN(g.Values[0][1]) {
		t.Errorf("generalization heatmap rows %v cols %v values %v, want retail: 0.75, blank", g.Rows, g.Cols, g.Values)
	}
	h := in.FamilyHeatmap
	if row := indexOf(h.Rows, "b-retail"); row < 0 || !math.IsNaN(h.Values[row][0]) || !math.IsNaN(h.Values[row][1]) {
		t.Errorf("family heatmap %v %v: want run b-retail blank", h.Rows, h.Values)
	}
	var page bytes.Buffer
	if err := reports.Render(&page, in); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	note := "Not evaluated (no trajectory has reward information), so not drawn: "
	for _, want := range []string{
		note + "b-retail.",                        // (a) and the gap chart
		note + "b-retail: anger, b-retail: fear.", // (b) and the family heatmap
		note + "b on retail.",                     // the generalization matrix
		`<td class="text">b-retail</td>`,          // the runs table still lists it
		`<td class="num">not evaluated</td>`,      // with pass^1 "not evaluated"
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(html, "0.00 n=2") {
		t.Error("a heatmap cell reads 0.00 for the run that is not evaluated")
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestNotEvaluated_RealVoiceRun: the τ²-bench voice run of realruns (no
// reward_info) is not evaluated in stats passk and in the matrix.
func TestNotEvaluated_RealVoiceRun(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dir := filepath.Join(realRuns, "tau2", "v1x-dir-layout-voice")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not found (%v)", dir, err)
	}
	dbPath := filepath.Join(t.TempDir(), "voice.db")
	mustRun(t, "--db", dbPath, "ingest", dir)
	rows := jsonObjects(t, "--db", dbPath, "stats", "passk", "--k", "1")
	if len(rows) != 1 || rows[0]["pass_hat_k"] != nil || rows[0]["note"] != "not evaluated" {
		t.Errorf("stats passk of the voice run: %v, want pass_hat_k null, note \"not evaluated\"", rows)
	}
	matrix := jsonObjects(t, "--db", dbPath, "stats", "generalization", "--part", "matrix")
	if len(matrix) != 1 {
		t.Fatalf("matrix %v", matrix)
	}
	for k, v := range matrix[0] {
		if k != "domain" && k != "run_ids" && k != "note" && v != nil {
			t.Errorf("matrix cell %s = %v, want null", k, v)
		}
	}
	if note, _ := matrix[0]["note"].(string); !strings.HasPrefix(note, "not evaluated: ") {
		t.Errorf("matrix note %v", matrix[0]["note"])
	}
}

// TestNotEvaluated_StatsEmotions: against a without-emotions run of model a
// with no evaluated trajectory, the with-emotions side keeps its pass^1,
// and the without side, the delta and p are null with the note naming the
// side ("not evaluated" in the table), never a measured Δ against 0; the
// report's chart (c) caption names the pair.
func TestNotEvaluated_StatsEmotions(t *testing.T) {
	t.Parallel()
	dbPath := notEvaluatedDB(t)
	var recs []any
	for task := 0; task < 2; task++ {
		for trial := 0; trial < 2; trial++ {
			rec := overlapRecord(task, trial, []string{"anger", "fear"}[task], false, 1, 1, false)
			delete(rec["info"].(map[string]any), "reward_info")
			recs = append(recs, rec)
		}
	}
	data, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a-retail-without.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", "--model", "a", "--user-model", "u", "--domain", "retail", "--condition", "without-emotions", path)
	// Runs 1 and 3 come from separate commands: they pair when named.
	rows := jsonObjects(t, "--db", dbPath, "stats", "emotions", "--k", "1", "--pair", "1:3")
	all := rowsWhere(rows, "dimension", "all")
	if len(all) != 1 {
		t.Fatalf("all rows %v, want run 1 vs run 3", all)
	}
	checkNums(t, "all", all[0], map[string]float64{"pairs": 2, "with": 0.75})
	for _, k := range []string{"without", "delta", "delta_lo", "delta_hi", "p", "p_holm"} {
		if v, ok := all[0][k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
	if all[0]["note"] != "not evaluated: without emotions" {
		t.Errorf("note = %v", all[0]["note"])
	}
	out := mustRun(t, "--db", dbPath, "stats", "emotions", "--k", "1", "--ci", "none", "--pair", "1:3")
	if line := strings.Split(out, "\n")[1]; !strings.Contains(line, "0.7500  not evaluated  not evaluated") {
		t.Errorf("table row %q: want with 0.7500, without and delta not evaluated", line)
	}
	store := openTestStore(t, dbPath)
	rep, err := buildReport(t.Context(), store, workbench.DefaultBootstrap, false, "1:3")
	in := rep.Input
	if err != nil {
		t.Fatal(err)
	}
	if len(in.ConditionPairs) != 1 || !math.IsNaN(in.ConditionPairs[0].Without) || math.Abs(in.ConditionPairs[0].With-0.75) > statsTol {
		t.Errorf("chart (c) %+v, want with 0.75 and no without bar", in.ConditionPairs)
	}
	var page bytes.Buffer
	if err := reports.Render(&page, in); err != nil {
		t.Fatal(err)
	}
	if want := "so not drawn: a / u / retail (runs 1 vs 3) (without emotions)."; !strings.Contains(page.String(), want) {
		t.Errorf("report lacks %q", want)
	}
}

// TestNotEvaluated_StatsBalance: run 2's share bin (every trajectory at
// share 1/2) has a null success rate with note "not evaluated", and its
// share-vs-success correlation is null with the same note; run 1's bin
// keeps 3 passes of 4.
func TestNotEvaluated_StatsBalance(t *testing.T) {
	t.Parallel()
	dbPath := notEvaluatedDB(t)
	var filled []map[string]any
	for _, r := range jsonObjects(t, "--db", dbPath, "stats", "balance", "--part", "bins") {
		if num(t, r, "trajectories") > 0 {
			filled = append(filled, r)
		}
	}
	if len(filled) != 2 {
		t.Fatalf("bins with trajectories: %v", filled)
	}
	checkNums(t, "run 1 bin", filled[0], map[string]float64{"run_id": 1, "trajectories": 4, "passed": 3, "success_rate": 0.75})
	if filled[0]["note"] != nil {
		t.Errorf("run 1 bin note %v", filled[0]["note"])
	}
	if r := filled[1]; num(t, r, "run_id") != 2 || r["success_rate"] != nil || r["success_rate_lo"] != nil || r["note"] != "not evaluated" {
		t.Errorf("run 2 bin %v: want success_rate null, note \"not evaluated\"", r)
	}
	corr := jsonObjects(t, "--db", dbPath, "stats", "balance", "--part", "correlation")
	last := corr[len(corr)-1]
	if last["quantity"] != "share vs success (point-biserial)" || num(t, last, "run_id") != 2 || last["note"] != "not evaluated" || last["pearson_r"] != nil {
		t.Errorf("run 2 share vs success: %v", last)
	}
}
