package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench/reports/table"
	"github.com/google/go-cmp/cmp"
)

// The files in testdata/stats are small τ-bench result files written for
// these tests (3 tasks × 3 trials and the like), so every expected number
// below can be worked out by hand from them; each comment says how.

// statsTol is the tolerance for values computed by hand in these tests.
const statsTol = 1e-9

// ingestStats ingests files of testdata/stats into a new database and
// returns its path. Extra ingest flags come before the files.
func ingestStats(t *testing.T, flags []string, files ...string) string {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "stats.db")
	ingestInto(t, dbPath, flags, files...)
	return dbPath
}

func ingestInto(t *testing.T, dbPath string, flags []string, files ...string) {
	t.Helper()
	args := append([]string{"--db", dbPath, "ingest"}, flags...)
	for _, f := range files {
		args = append(args, filepath.Join("testdata", "stats", f))
	}
	mustRun(t, args...)
}

// jsonObjects runs a stats command with --format json and decodes its rows.
func jsonObjects(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	out := mustRun(t, append(args, "--format", "json")...)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%s: output is not a JSON array of objects: %v\n%s", strings.Join(args, " "), err, out)
	}
	return rows
}

// num is row[key] as a number; NaN for null or a missing key.
func num(t *testing.T, row map[string]any, key string) float64 {
	t.Helper()
	switch v := row[key].(type) {
	case float64:
		return v
	case nil:
		return math.NaN()
	default:
		t.Fatalf("%s = %v (%T), want a number", key, v, v)
		return 0
	}
}

// checkNums compares the numeric fields of row with want, NaN matching null.
func checkNums(t *testing.T, label string, row map[string]any, want map[string]float64) {
	t.Helper()
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range want {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		got, w := num(t, row, k), want[k]
		if math.IsNaN(w) != math.IsNaN(got) || (!math.IsNaN(w) && math.Abs(got-w) > statsTol) {
			t.Errorf("%s: %s = %v, want %v", label, k, got, w)
		}
	}
}

// wilsonByHand is the 95% Wilson score interval of x/n written out from
// Wilson (1927): centre (p + z²/2n)/(1 + z²/n), half-width
// z·sqrt(p(1−p)/n + z²/4n²)/(1 + z²/n), with z = Φ⁻¹(0.975), clamped to [0, 1].
func wilsonByHand(x, n int) (lo, hi float64) {
	const z = 1.959963985
	p, nf := float64(x)/float64(n), float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// pearsonByHand is Σ(x−x̄)(y−ȳ) / sqrt(Σ(x−x̄)² Σ(y−ȳ)²).
func pearsonByHand(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// gap.json: 3 tasks × 3 trials. Task 0 (anger) passes 3 of 3, task 1
// (anger) 2 of 3, task 2 (fear) 1 of 3.
func TestStatsGap_HandComputed(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "gap.json")

	t.Run("OK", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "gap")
		if len(rows) != 1 {
			t.Fatalf("rows = %v, want one row for the one run", rows)
		}
		// pass^1 = (3/3 + 2/3 + 1/3)/3 = 2/3; pass^3 = (1 + 0 + 0)/3 = 1/3;
		// gap = 2/3 − 1/3 = 1/3; ratio = (1/3)/(2/3) = 1/2.
		checkNums(t, "run", rows[0], map[string]float64{
			"k": 3, "pass_1": 2.0 / 3, "pass_k": 1.0 / 3, "gap": 1.0 / 3, "ratio": 0.5, "tasks_1": 3, "tasks_k": 3,
		})
		if got, want := rows[0]["run"], "gap"; got != want {
			t.Errorf("run = %v, want %v", got, want)
		}
		if got, want := rows[0]["convention"], "per-task"; got != want {
			t.Errorf("convention = %v, want %v", got, want)
		}
	})

	t.Run("ByEmotionFamily", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "gap", "--by", "emotion_family")
		if len(rows) != 2 || rows[0]["emotion_family"] != "anger" || rows[1]["emotion_family"] != "fear" {
			t.Fatalf("rows = %v, want anger then fear", rows)
		}
		// anger (tasks 0, 1): pass^1 = (1 + 2/3)/2 = 5/6, pass^3 = (1 + 0)/2 = 1/2,
		// gap = 1/3, ratio = (1/2)/(5/6) = 3/5.
		checkNums(t, "anger", rows[0], map[string]float64{
			"k": 3, "pass_1": 5.0 / 6, "pass_k": 0.5, "gap": 1.0 / 3, "ratio": 0.6, "tasks_1": 2, "tasks_k": 2,
		})
		// fear (task 2): pass^1 = 1/3, pass^3 = 0, gap = 1/3, ratio = 0.
		checkNums(t, "fear", rows[1], map[string]float64{
			"k": 3, "pass_1": 1.0 / 3, "pass_k": 0, "gap": 1.0 / 3, "ratio": 0, "tasks_1": 1, "tasks_k": 1,
		})
	})

	t.Run("K2", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "gap", "--k", "2")
		if len(rows) != 1 {
			t.Fatalf("rows = %v, want one", rows)
		}
		// pass^2 = (C(3,2)/C(3,2) + C(2,2)/C(3,2) + 0)/3 = (1 + 1/3)/3 = 4/9;
		// gap = 2/3 − 4/9 = 2/9; ratio = (4/9)/(2/3) = 2/3.
		checkNums(t, "k=2", rows[0], map[string]float64{
			"k": 2, "pass_1": 2.0 / 3, "pass_k": 4.0 / 9, "gap": 2.0 / 9, "ratio": 2.0 / 3,
		})
	})

	t.Run("MinTrialsSameHere", func(t *testing.T) {
		// Every task has the run's 3 trials, so both conventions agree.
		perTask := mustRun(t, "--db", dbPath, "stats", "gap", "--format", "csv")
		minTrials := mustRun(t, "--db", dbPath, "stats", "gap", "--format", "csv", "--convention", "min-trials")
		if got, want := strings.ReplaceAll(minTrials, "min-trials", "per-task"), perTask; got != want {
			t.Errorf("min-trials:\n%s\nper-task:\n%s", got, want)
		}
	})

	t.Run("ErrUsage", func(t *testing.T) {
		for _, args := range [][]string{
			{"--k", "1"}, {"--k", "0"}, {"--convention", "x"}, {"--by", "color"}, {"--format", "xml"}, {"extra"},
		} {
			r := runCLI(t, "", append([]string{"--db", dbPath, "stats", "gap"}, args...)...)
			if r.code != 2 {
				t.Errorf("stats gap %s: exit %d, want 2\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
			}
		}
	})
}

// Asking for a k above every task's trials must not answer for another k.
// BUG: today `stats gap --k 5` on 3-trial data prints a k = 1 row with gap 0
// and ratio 1, as if reliability were perfect.
func TestStatsGap_ErrKAboveTrials(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "gap.json")
	r := runCLI(t, "", "--db", dbPath, "stats", "gap", "--k", "5", "--format", "json")
	if r.code != 0 {
		if r.code == 2 && strings.Contains(r.stderr, "5") {
			return // refusing the k is fine too
		}
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if k := num(t, row, "k"); k != 5 {
			t.Errorf("--k 5 gave a row for k = %v (gap %v, ratio %v): want k = 5 with pass_k/gap/ratio null, or no row and a note",
				k, row["gap"], row["ratio"])
		}
	}
}

// abandonment.json, 8 trajectories (user turns = user messages):
//
//	task 0 anger/cold: reward −1 user_abandoned + ###UNSATISFIED### at turn 2;
//	                   ###UNSATISFIED### at turn 3 (reward 0); a pass (2 turns)
//	task 1 anger/warm: reward −1 user_abandoned at turn 4 (no marker); a fail
//	task 2 fear/cold:  a pass, a fail — never abandoned
//	task 3 fear/warm:  ###UNSATISFIED### at turn 1 (reward −1 user_abandoned)
func TestStatsAbandonment_HandComputed(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "abandonment.json")

	t.Run("Joint", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "abandonment", "--by", "emotion_family,politeness")
		want := []struct {
			value        string
			n, abandoned int
			meanTurn     float64
		}{
			{"anger / cold", 3, 2, (2 + 3) / 2.0},
			{"anger / warm", 2, 1, 4},
			{"fear / cold", 2, 0, math.NaN()}, // nobody abandoned: no turn
			{"fear / warm", 1, 1, 1},
		}
		if len(rows) != len(want) {
			t.Fatalf("got %d rows, want %d: %v", len(rows), len(want), rows)
		}
		for i, w := range want {
			row := rows[i]
			if row["dimension"] != "emotion_family,politeness" || row["value"] != w.value {
				t.Errorf("row %d: dimension %v value %v, want emotion_family,politeness and %q", i, row["dimension"], row["value"], w.value)
				continue
			}
			lo, hi := wilsonByHand(w.abandoned, w.n)
			checkNums(t, w.value, row, map[string]float64{
				"trajectories": float64(w.n), "abandoned": float64(w.abandoned),
				"rate": float64(w.abandoned) / float64(w.n), "rate_lo": lo, "rate_hi": hi,
				"mean_turn": w.meanTurn,
			})
		}
	})

	t.Run("DefaultDimensions", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "abandonment")
		byKey := map[string]map[string]any{}
		for _, r := range rows {
			byKey[r["dimension"].(string)+"="+r["value"].(string)] = r
		}
		// emotion_family: anger 3 of 5 at turns 2, 3, 4 (mean 3); fear 1 of 3 at turn 1.
		// emotion_leaf is unset everywhere ("-"): all 8, 4 abandoned, mean turn (2+3+4+1)/4 = 2.5.
		for key, w := range map[string][3]float64{
			"emotion_family=anger": {5, 3, 3},
			"emotion_family=fear":  {3, 1, 1},
			"emotion_leaf=-":       {8, 4, 2.5},
			"politeness=cold":      {5, 2, 2.5}, // turns 2, 3
			"politeness=warm":      {3, 2, 2.5}, // turns 4, 1
		} {
			row, ok := byKey[key]
			if !ok {
				t.Errorf("no row %s in %v", key, rows)
				continue
			}
			lo, hi := wilsonByHand(int(w[1]), int(w[0]))
			checkNums(t, key, row, map[string]float64{
				"trajectories": w[0], "abandoned": w[1], "rate": w[1] / w[0], "rate_lo": lo, "rate_hi": hi, "mean_turn": w[2],
			})
		}
	})

	t.Run("CSV", func(t *testing.T) {
		out := mustRun(t, "--db", dbPath, "stats", "abandonment", "--by", "emotion_family", "--format", "csv")
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("not CSV: %v\n%s", err, out)
		}
		wantHeader := []string{"run_id", "run", "dimension", "value", "trajectories", "abandoned", "rate", "rate_lo", "rate_hi", "mean_turn"}
		if diff := cmp.Diff(wantHeader, recs[0]); diff != "" {
			t.Fatalf("header (-want +got):\n%s", diff)
		}
		if len(recs) != 3 || recs[1][3] != "anger" || recs[1][0] != "1" || recs[1][1] != "abandonment" {
			t.Fatalf("records = %v, want run 1's anger and fear", recs)
		}
		// anger: 3 of 5.
		lo, hi := wilsonByHand(3, 5)
		for j, w := range map[int]float64{6: 0.6, 7: lo, 8: hi, 9: 3} {
			got, err := strconv.ParseFloat(recs[1][j], 64)
			if err != nil || math.Abs(got-w) > statsTol {
				t.Errorf("anger %s = %q, want %v", recs[0][j], recs[1][j], w)
			}
		}
	})
}

// balance.json: 11 trajectories, one trial each. Per trajectory: its
// assistant messages (T = one tool call, T2 = one message with two calls;
// Q1 "Could you give me your email?", Q2 "Please confirm (yes/no).", Q3
// "What is your zip code?" are follow-ups; S1 "Is there anything else I can
// help you with?" and S2 "Your order has been cancelled." are not), user +
// agent messages, and the outcome.
var balanceTrajectories = []struct {
	name             string
	calls, followUps int
	turns            int
	passed, quit     bool
}{
	{"A: T Q1 S1", 1, 1, 6, true, false},     // share 1/2
	{"B: T2 S2", 2, 0, 4, false, false},      // share 1
	{"C: Q1 Q3", 0, 2, 5, false, false},      // share 0
	{"D: Q2 T2 T S2", 3, 1, 7, true, false},  // share 3/4
	{"E: Q1 Q2 T Q3", 1, 3, 8, false, true},  // share 1/4, ends ###UNSATISFIED###
	{"F: T Q2 T S1", 2, 1, 7, true, false},   // share 2/3
	{"G: S1", 0, 0, 3, false, false},         // no share: left out
	{"H: Q3 T", 1, 1, 5, false, false},       // share 1/2
	{"I: Q1", 0, 1, 3, true, false},          // share 0
	{"J: T Q1 T2 S2", 3, 1, 7, false, false}, // share 3/4
	{"K: T S2", 1, 0, 4, true, false},        // share 1
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestStatsBalance_HandComputed(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "balance.json", "balance-separated.json")
	var shares, turns, quit, passed []float64
	for _, b := range balanceTrajectories {
		if b.calls+b.followUps == 0 {
			continue
		}
		shares = append(shares, float64(b.calls)/float64(b.calls+b.followUps))
		turns = append(turns, float64(b.turns))
		quit = append(quit, boolFloat(b.quit))
		passed = append(passed, boolFloat(b.passed))
	}

	t.Run("Bins", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "balance", "--run", "balance", "--part", "bins")
		// Five bins of width 0.2, the last closed: [0,.2) C I; [.2,.4) E;
		// [.4,.6) A H; [.6,.8) D F J; [.8,1] B K.
		want := [][2]int{{2, 1}, {1, 0}, {2, 1}, {3, 2}, {2, 1}}
		if len(rows) != len(want) {
			t.Fatalf("got %d bins, want %d: %v", len(rows), len(want), rows)
		}
		for i, w := range want {
			lo, hi := wilsonByHand(w[1], w[0])
			checkNums(t, "bin "+strconv.Itoa(i), rows[i], map[string]float64{
				"share_lo": float64(i) / 5, "share_hi": float64(i+1) / 5,
				"trajectories": float64(w[0]), "passed": float64(w[1]),
				"success_rate": float64(w[1]) / float64(w[0]), "success_rate_lo": lo, "success_rate_hi": hi,
			})
		}
	})

	t.Run("Regression", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "balance", "--run", "balance", "--part", "regression")
		if len(rows) != 3 || rows[0]["term"] != "intercept" || rows[1]["term"] != "share" || rows[2]["term"] != "share^2" {
			t.Fatalf("rows = %v, want intercept, share, share^2", rows)
		}
		var b [3]float64
		for i, row := range rows {
			b[i] = num(t, row, "coefficient")
			if math.IsNaN(b[i]) || num(t, row, "n") != float64(len(shares)) {
				t.Fatalf("row %v: want a finite coefficient over n = %d", row, len(shares))
			}
			if z, se := num(t, row, "z"), num(t, row, "se"); math.Abs(z-b[i]/se) > 1e-9 {
				t.Errorf("%s: z = %v, want coefficient/se = %v", row["term"], z, b[i]/se)
			}
		}
		// Passes and failures share the shares 0, 1/2, 3/4 and 1, so no
		// quadratic separates them and the MLE exists. At the MLE the score
		// Σ (yᵢ − p̂ᵢ)·(1, sᵢ, sᵢ²) is zero: check it with the printed β̂.
		var score [3]float64
		for i, s := range shares {
			p := 1 / (1 + math.Exp(-(b[0] + b[1]*s + b[2]*s*s)))
			for j, x := range []float64{1, s, s * s} {
				score[j] += (passed[i] - p) * x
			}
		}
		for j, g := range score {
			if math.Abs(g) > 1e-6 {
				t.Errorf("score[%d] = %v at the printed coefficients %v: not the MLE", j, g, b)
			}
		}
		// The vertex is −b1/(2·b2); middle_wins needs b2 < 0 and the vertex in (0, 1).
		vertex := -b[1] / (2 * b[2])
		checkNums(t, "share^2", rows[2], map[string]float64{"vertex": vertex})
		if got, want := rows[2]["middle_wins"], b[2] < 0 && vertex > 0 && vertex < 1; got != want {
			t.Errorf("middle_wins = %v, want %v (b2 %v, vertex %v)", got, want, b[2], vertex)
		}
		// Only share^2 has a verdict; the other terms' middle_wins is null.
		for _, row := range rows[:2] {
			if v, ok := row["middle_wins"]; !ok || v != nil {
				t.Errorf("%v: middle_wins = %#v, want null", row["term"], v)
			}
		}
	})

	t.Run("RegressionSeparated", func(t *testing.T) {
		// balance-separated.json passes only at share 1/2 (shares 0, 1/4, 1
		// fail): −(s − 0.4)(s − 0.6) separates them, so there is no MLE.
		out := mustRun(t, "--db", dbPath, "stats", "balance", "--run", "balance-separated", "--part", "regression")
		if !strings.Contains(out, "(no fit: ") || !strings.Contains(out, "separation") {
			t.Fatalf("want a (no fit: ... separation ...) row:\n%s", out)
		}
	})

	t.Run("Correlation", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "balance", "--run", "balance", "--part", "correlation")
		want := map[string]float64{
			"share vs turns":                        pearsonByHand(shares, turns),
			"share vs abandonment (point-biserial)": pearsonByHand(shares, quit),
			"share vs success (point-biserial)":     pearsonByHand(shares, passed),
		}
		if len(rows) != len(want) {
			t.Fatalf("rows = %v, want %d", rows, len(want))
		}
		for _, row := range rows {
			q, _ := row["quantity"].(string)
			w, ok := want[q]
			if !ok {
				t.Errorf("unexpected quantity %q", q)
				continue
			}
			checkNums(t, q, row, map[string]float64{"pearson_r": w, "n": float64(len(shares))})
		}
	})

	t.Run("CSVAllShowsBins", func(t *testing.T) {
		r := runCLI(t, "", "--db", dbPath, "stats", "balance", "--run", "balance", "--format", "csv")
		if r.code != 0 || !strings.HasPrefix(r.stdout, "run_id,run,share_lo,share_hi,") || !strings.Contains(r.stderr, "--part") {
			t.Fatalf("exit %d stdout %q stderr %q: want the bins table and a note", r.code, r.stdout, r.stderr)
		}
	})
}

// Invalid --ci must be a usage error, as in passk, emotions and
// generalization. BUG: abandonment and balance accept any --ci and show it
// as brackets.
func TestStatsBehaviour_ErrBadCI(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "abandonment.json")
	for _, cmd := range []string{"passk", "abandonment", "balance"} {
		r := runCLI(t, "", "--db", dbPath, "stats", cmd, "--ci", "bogus")
		if r.code != 2 {
			t.Errorf("stats %s --ci bogus: exit %d, want 2", cmd, r.code)
		}
	}
}

// generalizationDB ingests the four gen-*.json files (tuned_m and base_m on
// retail and airline, 2 tasks × 2 trials, the same tasks for both models on
// a domain) and tags both tuned runs as trained on retail.
func generalizationDB(t *testing.T, dbPath string) {
	t.Helper()
	for _, model := range []string{"tuned", "base"} {
		for _, domain := range []string{"retail", "airline"} {
			ingestInto(t, dbPath, []string{"--model", model + "_m", "--domain", domain}, "gen-"+model+"-"+domain+".json")
		}
	}
	// Flags after the argument.
	mustRun(t, "--db", dbPath, "runs", "tag", "gen-tuned-retail", "--train-domains", "retail", "--base", "gen-base-retail")
	mustRun(t, "--db", dbPath, "runs", "tag", "gen-tuned-airline", "--train-domains", "retail", "--base", "gen-base-airline")
}

func TestStatsGeneralization_HandComputed(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "gen.db")
	generalizationDB(t, dbPath)
	// Passes per task (of 2 trials):
	//   retail  tuned 2, 1 → pass^1 (1 + 1/2)/2 = 3/4; base 1, 0 → 1/4;
	//           paired Δ = mean(1 − 1/2, 1/2 − 0) = 1/2.
	//   airline tuned 1, 0 → 1/4; base 1, 1 → 1/2; paired Δ = mean(0, −1/2) = −1/4.

	t.Run("Deltas", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "generalization", "--resamples", "200")
		want := []struct {
			domain, scope string
			nums          map[string]float64
		}{
			{"airline", "out-of-domain", map[string]float64{"tuned_pass_1": 0.25, "base_pass_1": 0.5, "delta": -0.25, "paired_tasks": 2}},
			{"retail", "in-domain", map[string]float64{"tuned_pass_1": 0.75, "base_pass_1": 0.25, "delta": 0.5, "paired_tasks": 2}},
			// One domain on each side: the means are those domains' Δ.
			{"retail", "in-domain mean", map[string]float64{"tuned_pass_1": math.NaN(), "base_pass_1": math.NaN(), "delta": 0.5}},
			{"airline", "out-of-domain mean", map[string]float64{"tuned_pass_1": math.NaN(), "base_pass_1": math.NaN(), "delta": -0.25}},
		}
		if len(rows) != len(want) {
			t.Fatalf("got %d rows, want %d: %v", len(rows), len(want), rows)
		}
		for i, w := range want {
			row := rows[i]
			if row["model"] != "tuned_m" || row["domain"] != w.domain || row["scope"] != w.scope {
				t.Errorf("row %d = %v, want tuned_m %s %s", i, row, w.domain, w.scope)
				continue
			}
			checkNums(t, w.scope, row, w.nums)
			// Retail's paired differences are both 1/2, so every resample
			// gives 1/2; airline's are 0 and −1/2.
			lo, hi, d := num(t, row, "delta_lo"), num(t, row, "delta_hi"), num(t, row, "delta")
			if !(lo <= d && d <= hi) || lo < -0.5-statsTol || hi > 0.5+statsTol {
				t.Errorf("%s %s: CI [%v, %v] around %v", w.domain, w.scope, lo, hi, d)
			}
			if w.domain == "retail" && w.scope == "in-domain" && (math.Abs(lo-0.5) > statsTol || math.Abs(hi-0.5) > statsTol) {
				t.Errorf("retail CI [%v, %v], want [0.5, 0.5]", lo, hi)
			}
		}
	})

	t.Run("Matrix", func(t *testing.T) {
		rows := jsonObjects(t, "--db", dbPath, "stats", "generalization", "--part", "matrix")
		// Runs 1, 2: tuned on retail, airline; 3, 4: base on retail, airline.
		want := []map[string]any{
			{"domain": "airline", "base_m": 0.5, "tuned_m": 0.25, "run_ids": []any{4.0, 2.0}, "note": nil},
			{"domain": "retail", "base_m": 0.25, "tuned_m": 0.75, "run_ids": []any{3.0, 1.0}, "note": nil},
		}
		if diff := cmp.Diff(want, rows); diff != "" {
			t.Errorf("matrix (-want +got):\n%s", diff)
		}
	})

	t.Run("ErrUsage", func(t *testing.T) {
		for _, args := range [][]string{{"--part", "x"}, {"--ci", "x"}, {"--resamples", "10"}, {"--level", "1"}} {
			if r := runCLI(t, "", append([]string{"--db", dbPath, "stats", "generalization"}, args...)...); r.code != 2 {
				t.Errorf("stats generalization %s: exit %d, want 2", strings.Join(args, " "), r.code)
			}
		}
	})
}

// The bootstrap is seeded: the same --seed gives the same output and
// another seed moves some bound.
func TestStatsBootstrap_Seeded(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "boot.db")
	fixtureDB(t, dbPath)
	for _, args := range [][]string{
		{"stats", "passk", "--ci", "brackets"},
		{"stats", "passk", "--ci", "pm"},
		{"stats", "emotions", "--ci", "brackets"},
		{"stats", "emotions", "--ci", "pm"},
	} {
		name := strings.Join(args[1:], " ")
		base := append([]string{"--db", dbPath}, append(args, "--resamples", "200", "--format", "csv")...)
		a := mustRun(t, append(base, "--seed", "7")...)
		b := mustRun(t, append(base, "--seed", "7")...)
		c := mustRun(t, append(base, "--seed", "8")...)
		if a != b {
			t.Errorf("%s: --seed 7 twice gave different output:\n%s\n%s", name, a, b)
		}
		if a == c {
			t.Errorf("%s: --seed 7 and --seed 8 gave the same intervals:\n%s", name, a)
		}
		if !strings.Contains(strings.SplitN(a, "\n", 2)[0], "_lo,") {
			t.Errorf("%s: csv lacks _lo/_hi columns:\n%s", name, a)
		}
		// Text output shows the interval in the cell.
		text := mustRun(t, append([]string{"--db", dbPath}, append(args, "--resamples", "200")...)...)
		if mark := map[string]string{"brackets": "[", "pm": "±"}[args[3]]; !strings.Contains(text, mark) {
			t.Errorf("%s: table output has no %q:\n%s", name, mark, text)
		}
	}
}

// `stats passk --ci none` (the default) keeps the JSON shape of issue 2,
// plus note (null unless the row is not evaluated; issue 8).
func TestStatsPassK_CINoneJSONShape(t *testing.T) {
	t.Parallel()
	dbPath := ingestStats(t, nil, "gap.json")
	for _, extra := range [][]string{nil, {"--ci", "none"}} {
		rows := jsonObjects(t, append([]string{"--db", dbPath, "stats", "passk"}, extra...)...)
		if len(rows) != 3 {
			t.Fatalf("rows = %v, want k = 1..3", rows)
		}
		for _, row := range rows {
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range row {
					if !yield(k) {
						return
					}
				}
			})
			want := []string{"convention", "k", "note", "pass_at_k", "pass_hat_k", "run", "run_id", "tasks", "trajectories"}
			if diff := cmp.Diff(want, keys); diff != "" {
				t.Fatalf("%v: keys (-want +got):\n%s", extra, diff)
			}
		}
		// pass@3 = (1 + 1 + 1)/3 = 1: every task passes at least once.
		checkNums(t, "k=3", rows[2], map[string]float64{"k": 3, "pass_hat_k": 1.0 / 3, "pass_at_k": 1, "tasks": 3, "trajectories": 9})
	}
}

// statsOutputDB holds data for every stats command: the fixtures (with and
// without emotions), the generalization runs, and the balance and
// abandonment files.
func statsOutputDB(t *testing.T) string {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "all.db")
	fixtureDB(t, dbPath)
	generalizationDB(t, dbPath)
	ingestInto(t, dbPath, nil, "balance.json", "abandonment.json")
	return dbPath
}

var statsCommands = [][]string{
	{"passk", "--by", "emotion_family"},
	{"passk", "--ci", "pm", "--resamples", "200"},
	{"emotions", "--resamples", "200"},
	{"gap", "--by", "emotion_family"},
	{"abandonment"},
	{"abandonment", "--by", "emotion_family,politeness", "--ci", "brackets"},
	{"balance"},
	{"balance", "--part", "regression", "--ci", "none"},
	{"generalization", "--resamples", "200"},
	{"generalization", "--part", "matrix"},
}

var markdownRule = regexp.MustCompile(`^\| --- (\| --- )*\|$`)

func TestStats_OutputFormats(t *testing.T) {
	t.Parallel()
	dbPath := statsOutputDB(t)
	for _, args := range statsCommands {
		name := strings.Join(args, " ")
		cmd := append([]string{"--db", dbPath, "stats"}, args...)

		// balance --part all writes three tables: check each.
		tex := mustRun(t, append(cmd, "--format", "latex")...)
		tables := strings.SplitAfter(strings.TrimSpace(tex), `\end{tabular}`)
		tables = slices.DeleteFunc(tables, func(s string) bool { return strings.TrimSpace(s) == "" })
		if len(tables) == 0 {
			t.Errorf("%s: no LaTeX table", name)
		}
		for _, tab := range tables {
			if err := table.CheckLaTeX(tab); err != nil {
				t.Errorf("%s --format latex: %v\n%s", name, err, tex)
			}
		}

		md := mustRun(t, append(cmd, "--format", "markdown")...)
		for i, block := range strings.Split(strings.TrimSpace(md), "\n\n") {
			lines := strings.Split(block, "\n")
			if len(lines) < 3 {
				t.Errorf("%s --format markdown: table %d has no rows:\n%s", name, i, block)
				continue
			}
			if !markdownRule.MatchString(lines[1]) || strings.Count(lines[1], "---") != strings.Count(lines[0], " | ")+1 {
				t.Errorf("%s --format markdown: table %d has no header separator row matching its header:\n%s", name, i, block)
			}
		}
	}
}

func TestStats_HelpHasExample(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"passk", "emotions", "gap", "abandonment", "balance", "generalization"} {
		out := mustRun(t, "stats", cmd, "--help")
		if !strings.Contains(out, "Example:") {
			t.Errorf("emobench stats %s --help has no example:\n%s", cmd, out)
		}
	}
	if out := mustRun(t, "runs", "tag", "--help"); !strings.Contains(out, "Example:") {
		t.Errorf("emobench runs tag --help has no example:\n%s", out)
	}
}

// A run named with --run that gives no row is named in a note, not
// silently left out.
func TestStatsPassK_NotesRunWithoutRows(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "empty.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "tau2", "empty-run-no-simulations.json"), filepath.Join(realRuns, "gpt-4.1-retail.json"))
	r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--run", "1", "--run", "2", "--k", "1")
	if want := "note: run 1 (empty-run-no-simulations) has no row: it holds no trajectory, or no task with k trials (see `emobench runs`)\n"; r.code != 0 || r.stderr != want || !strings.Contains(r.stdout, "gpt-4.1-retail") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant the run 2 row and the note %q", r.code, r.stderr, r.stdout, want)
	}
}
