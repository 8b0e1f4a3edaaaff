package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/reports"
	"github.com/emobench/emobench/workbench"
	"github.com/google/go-cmp/cmp"
)

// emotionPairs are the (with_run_ids, without_run_ids) of the "all" rows of
// stats emotions, and the notes of its "unpaired" rows, in order.
func emotionPairs(t *testing.T, rows []map[string]any) (pairs [][2][]int64, unpaired []string) {
	t.Helper()
	for _, r := range rowsWhere(rows, "dimension", "all") {
		pairs = append(pairs, [2][]int64{runIDsOf(t, r, "with_run_ids"), runIDsOf(t, r, "without_run_ids")})
	}
	for _, r := range rowsWhere(rows, "dimension", "unpaired") {
		note, _ := r["note"].(string)
		unpaired = append(unpaired, note)
	}
	return pairs, unpaired
}

// writeTauBench writes τ-bench records of tasks 0 and 1 at trial, each
// passing or not, to dir/name.
func writeTauBench(t *testing.T, dir, name string, trial int, pass bool) string {
	t.Helper()
	recs := []any{overlapRecord(0, trial, "anger", pass, 1, 0, false), overlapRecord(1, trial, "fear", pass, 1, 0, false)}
	data, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStatsEmotions_PairsOnlyRunsThatBelongTogether (issue #20 item 13):
// two `run` commands of one agent on one domain, each with both
// conditions (runs 1–2 and 3–4), an ingested pair of files (runs 5–6, one
// ingest each) and a lone file (run 7) give exactly three comparisons,
// 1 vs 2, 3 vs 4 and 5 vs 6, never 1 vs 4 or 3 vs 2; run 7 is named as
// unpaired with why; --pair adds a pair; merge keeps the pairs; the
// report compares the same pairs and names the unpaired run. Item 14:
// runs 5 and 6 share tasks but no (task, trial), so McNemar's p is null
// with a note.
func TestStatsEmotions_PairsOnlyRunsThatBelongTogether(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "pairs.db")
	for _, name := range []string{"first", "second"} {
		mustRun(t, "--db", dbPath, "--quiet", "run", "--domain", "retail", "--agent", "oracle", "--user", "scripted", "--tasks", "2", "--name", name)
	}
	// τ-Emotion-Bench's names; the with-emotions file's trial is 0, the
	// without-emotions file's 1: 1.00 vs 0.00 on 2 tasks, no matched trial.
	mustRun(t, "--db", dbPath, "ingest", "--user-model", "u", writeTauBench(t, dir, "m-retail-with-emotions.json", 0, true))
	mustRun(t, "--db", dbPath, "ingest", "--user-model", "u", writeTauBench(t, dir, "m-retail-without-emotions.json", 1, false))
	rerun := writeTauBench(t, dir, "m-retail-no-emotion-rerun.json", 0, false)
	mustRun(t, "--db", dbPath, "ingest", "--user-model", "u", rerun)

	want := [][2][]int64{{{5}, {6}}, {{1}, {2}}, {{3}, {4}}} // by group: m / u / retail, then oracle / scripted / retail
	lone := "run 7 (without-emotions, " + rerun + ") has no with-emotions run of its agent model, user model and domain from a file beside it (its name but for the condition words); pair it with --pair N:7 or use --pool"
	r := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--ci", "none", "--format", "json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	pairs, unpaired := emotionPairs(t, rows)
	if diff := cmp.Diff(want, pairs); diff != "" {
		t.Errorf("compared pairs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{lone}, unpaired); diff != "" {
		t.Errorf("unpaired rows (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.stderr, "note: "+lone+"\n") {
		t.Errorf("stderr lacks the unpaired note:\n%s", r.stderr)
	}

	// Item 14: runs 5 vs 6 pair 2 tasks but no (task, trial): p is null
	// (not 1) with a note; runs 1 vs 2 match trial 0 and agree: p = 1.
	all := rowsWhere(rows, "dimension", "all")
	checkNums(t, "5 vs 6", all[0], map[string]float64{"pairs": 2, "with": 1, "without": 0, "mcnemar_b": 0, "mcnemar_c": 0})
	for _, k := range []string{"p", "p_holm"} {
		if v, ok := all[0][k]; !ok || v != nil {
			t.Errorf("5 vs 6: %s = %v (present %v), want null", k, v, ok)
		}
	}
	if note := "no (task, trial) pair matches across the conditions (their trial numbers differ): McNemar's p is n/a, not 1"; all[0]["note"] != note {
		t.Errorf("5 vs 6: note = %v, want %q", all[0]["note"], note)
	}
	if !strings.Contains(r.stderr, "note: m / u / retail, runs 5 (with emotions) vs 6 (without): no (task, trial) pair matches") {
		t.Errorf("stderr lacks the no-matched-pair note:\n%s", r.stderr)
	}
	checkNums(t, "1 vs 2", all[1], map[string]float64{"pairs": 2, "p": 1})

	// The text table leaves p empty and lists the unpaired run.
	table := mustRun(t, "--db", dbPath, "--quiet", "stats", "emotions", "--ci", "none")
	if !strings.Contains(table, "unpaired") {
		t.Errorf("table lacks the unpaired row:\n%s", table)
	}

	// --pair names one more pair (names work as ids do); a pair of one
	// condition is refused with the pair named.
	named := jsonObjects(t, "--db", dbPath, "--quiet", "stats", "emotions", "--ci", "none", "--pair", "first-retail-with-emotions:4", "--pair", "5:7")
	pairs, unpaired = emotionPairs(t, named)
	if diff := cmp.Diff([][2][]int64{{{5}, {6}}, {{5}, {7}}, {{1}, {2}}, {{1}, {4}}, {{3}, {4}}}, pairs); diff != "" {
		t.Errorf("with --pair (-want +got):\n%s", diff)
	}
	if len(unpaired) != 0 {
		t.Errorf("with --pair 5:7, unpaired = %q, want none", unpaired)
	}
	bad := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--pair", "1:3")
	if want := "--pair 1:3: runs 1 (with-emotions) and 3 (with-emotions): a pair is one with-emotions and one without-emotions run"; bad.code != 2 || !strings.Contains(bad.stderr, want) {
		t.Errorf("--pair 1:3: exit %d, stderr %q; want exit 2 and %q", bad.code, bad.stderr, want)
	}
	if pooled := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--pool", "--pair", "1:2"); pooled.code != 2 || !strings.Contains(pooled.stderr, "--pair 1:2: with pool, pools pair with pools") {
		t.Errorf("--pool --pair: exit %d, stderr %q", pooled.code, pooled.stderr)
	}

	// --pool pairs a pool with a pool: oracle's runs 1, 3 with 2, 4, and
	// m's 5 with 6, 7.
	pooled, _ := emotionPairs(t, jsonObjects(t, "--db", dbPath, "--quiet", "stats", "emotions", "--pool", "--ci", "none"))
	if diff := cmp.Diff([][2][]int64{{{5}, {6, 7}}, {{1, 3}, {2, 4}}}, pooled); diff != "" {
		t.Errorf("--pool (-want +got):\n%s", diff)
	}

	// Merged into another file, the runs keep their pairs.
	merged := filepath.Join(dir, "merged.db")
	mustRun(t, "--db", merged, "--quiet", "merge", dbPath)
	pairs, unpaired = emotionPairs(t, jsonObjects(t, "--db", merged, "--quiet", "stats", "emotions", "--ci", "none"))
	if diff := cmp.Diff(want, pairs); diff != "" || len(unpaired) != 1 {
		t.Errorf("merged: pairs (-want +got):\n%s\nunpaired %q", diff, unpaired)
	}

	// The report compares the same pairs, names the unpaired run in chart
	// (c)'s caption and names the stats command.
	store := openTestStore(t, dbPath)
	rep, err := buildReport(t.Context(), store, workbench.DefaultBootstrap, false)
	if err != nil {
		t.Fatal(err)
	}
	in := rep.Input
	if len(in.ConditionPairs) != 3 || !cmp.Equal(in.ConditionUnpaired, []string{lone}) {
		t.Errorf("report: %d pairs of bars, unpaired %q; want 3 and run 7", len(in.ConditionPairs), in.ConditionUnpaired)
	}
	var page bytes.Buffer
	if err := reports.Render(&page, in); err != nil {
		t.Fatal(err)
	}
	if want := "Not compared: run 7 (without-emotions, " + rerun + ") has no with-emotions run"; !strings.Contains(page.String(), want) || !strings.Contains(page.String(), "Numbers: "+in.ConditionCommand+".") {
		t.Errorf("report page lacks %q or chart (c)'s command %q", want, in.ConditionCommand)
	}
	rep, err = buildReport(t.Context(), store, workbench.DefaultBootstrap, false, "5:7")
	if err != nil {
		t.Fatal(err)
	}
	if in := rep.Input; len(in.ConditionPairs) != 4 || len(in.ConditionUnpaired) != 0 || !strings.Contains(in.ConditionCommand, "--pair 5:7") {
		t.Errorf("report --pair 5:7: %d pairs of bars, unpaired %q, command %q", len(in.ConditionPairs), in.ConditionUnpaired, in.ConditionCommand)
	}
}

// TestStatsEmotions_FilesPairOnlyInOneFolder (#20 item 13): files of one
// name but for the condition words in different folders are different
// experiments: they pair with nothing, by one ingest each or by one
// ingest of all, and each note names its file and says why; a third file
// in a third folder makes no run "one of several".
func TestStatsEmotions_FilesPairOnlyInOneFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "folders.db")
	path := func(folder, cond string, trial int) string { // trials differ: one file's bytes are one run
		if err := os.MkdirAll(filepath.Join(dir, folder), 0o755); err != nil {
			t.Fatal(err)
		}
		return writeTauBench(t, filepath.Join(dir, folder), "qwen3-retail-"+cond+"-emotions.json", trial, cond == "with")
	}
	e1, e3 := path("e1", "with", 0), path("e3", "without", 0)
	mustRun(t, "--db", dbPath, "--quiet", "ingest", e1)
	mustRun(t, "--db", dbPath, "--quiet", "ingest", e3)
	beside := " run of its agent model, user model and domain from a file beside it (its name but for the condition words); pair it with "
	note1 := "run 1 (with-emotions, " + e1 + ") has no without-emotions" + beside + "--pair 1:N or use --pool"
	note2 := "run 2 (without-emotions, " + e3 + ") has no with-emotions" + beside + "--pair N:2 or use --pool"
	pairs, unpaired := emotionPairs(t, jsonObjects(t, "--db", dbPath, "--quiet", "stats", "emotions", "--ci", "none"))
	if diff := cmp.Diff([]string{note1, note2}, unpaired); len(pairs) != 0 || diff != "" {
		t.Errorf("two folders: pairs %v, unpaired (-want +got):\n%s", pairs, diff)
	}
	e2 := path("e2", "with", 1)
	mustRun(t, "--db", dbPath, "--quiet", "ingest", e2)
	note3 := "run 3 (with-emotions, " + e2 + ") has no without-emotions" + beside + "--pair 3:N or use --pool"
	pairs, unpaired = emotionPairs(t, jsonObjects(t, "--db", dbPath, "--quiet", "stats", "emotions", "--ci", "none"))
	if diff := cmp.Diff([]string{note1, note2, note3}, unpaired); len(pairs) != 0 || diff != "" {
		t.Errorf("three folders: pairs %v, unpaired (-want +got):\n%s", pairs, diff)
	}
	// Named, two of them pair.
	pairs, _ = emotionPairs(t, jsonObjects(t, "--db", dbPath, "--quiet", "stats", "emotions", "--ci", "none", "--pair", "3:2"))
	if diff := cmp.Diff([][2][]int64{{{3}, {2}}}, pairs); diff != "" {
		t.Errorf("--pair 3:2 (-want +got):\n%s", diff)
	}
}

// TestStatsEmotions_RealPairIngestedApart: τ-Emotion-Bench's real qwen3
// retail pair, ingested by two commands beside the telehealth pair and a
// file whose name gives no condition, is still compared: retail with
// retail, telehealth with telehealth, nothing else.
func TestStatsEmotions_RealPairIngestedApart(t *testing.T) {
	requireRealRuns(t)
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "real.db")
	for _, name := range []string{"qwen3-retail-with-emotions.json", "qwen3-telehealth-with-emotions.json", "qwen3-telehealth-without-emotions.json", "gpt-4.1-retail.json", "qwen3-retail-without-emotions.json"} {
		mustRun(t, "--db", dbPath, "--quiet", "ingest", filepath.Join(realRuns, name))
	}
	rows := jsonObjects(t, "--db", dbPath, "--quiet", "stats", "emotions", "--ci", "none")
	pairs, unpaired := emotionPairs(t, rows)
	if diff := cmp.Diff([][2][]int64{{{1}, {5}}, {{2}, {3}}}, pairs); diff != "" || len(unpaired) != 0 {
		t.Errorf("pairs (-want +got):\n%s\nunpaired %q", diff, unpaired)
	}
	checkNums(t, "retail", rowsWhere(rows, "dimension", "all")[0], map[string]float64{"pairs": 59})
}
