package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// strictRow is one row of stats passk --strict --format json.
type strictRow struct {
	K              int      `json:"k"`
	PassHatK       *float64 `json:"pass_hat_k"`
	StrictPassHatK *float64 `json:"strict_pass_hat_k"`
	StrictDelta    *float64 `json:"strict_delta"`
	StrictPassAtK  *float64 `json:"strict_pass_at_k"`
	Demoted        int      `json:"demoted"`
	Tasks          int      `json:"tasks"`
	Trajectories   int      `json:"trajectories"`
	RunID          int64    `json:"run_id"`
	Note           *string  `json:"note"`
	Run            string   `json:"run"`
	Convention     string   `json:"convention"`
	PassAtK        *float64 `json:"pass_at_k"`
}

func strictJSON(t *testing.T, args ...string) []strictRow {
	t.Helper()
	out := mustRun(t, append(args, "--strict", "--format", "json")...)
	var rows []strictRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stats passk --strict output is not JSON: %v\n%s", err, out)
	}
	return rows
}

// TestStatsPassK_Strict: on testdata/strict/tau2-reward-basis.json, whose
// reward_basis (DB, COMMUNICATE) leaves out an action check and an NL
// assertion that fail on two rewards of 1, strict pass^k is below gated.
// By hand from the file: task 1 passes 2 of 2 trials gated, 1 strictly;
// task 2 passes 1 of 2 gated, 0 strictly. pass^1 gated (1 + 1/2)/2 = 0.75,
// strict (1/2 + 0)/2 = 0.25; pass^2 gated (1 + 0)/2 = 0.5, strict 0.
func TestStatsPassK_Strict(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "strict.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join("testdata", "strict", "tau2-reward-basis.json"))
	rows := strictJSON(t, "--db", dbPath, "stats", "passk")
	want := []struct {
		k              int
		gated, strict  float64
		demoted, tasks int
	}{{1, 0.75, 0.25, 2, 2}, {2, 0.5, 0, 2, 2}}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v, want k = 1, 2", rows)
	}
	gated := statsJSON(t, "--db", dbPath, "stats", "passk")
	for i, w := range want {
		r := rows[i]
		if r.K != w.k || r.PassHatK == nil || r.StrictPassHatK == nil || math.Abs(*r.PassHatK-w.gated) > 1e-12 ||
			math.Abs(*r.StrictPassHatK-w.strict) > 1e-12 || r.Demoted != w.demoted || r.Tasks != w.tasks {
			t.Errorf("k = %d: %+v, want gated %v strict %v demoted %d", w.k, r, w.gated, w.strict, w.demoted)
		}
		// The gated column is stats passk's own.
		if g := gated[i].PassHatK; g != *r.PassHatK {
			t.Errorf("k = %d: gated pass^k %v beside stats passk's %v", w.k, *r.PassHatK, g)
		}
	}

	if r := runCLI(t, "", "--db", dbPath, "stats", "passk", "--strict", "--ci", "brackets"); r.code == 0 || !strings.Contains(r.stderr, "--strict gives no intervals") {
		t.Errorf("--strict --ci: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestStatsPassK_StrictNative: a native run's strict pass^k counts the
// checks outside each task's reward basis; the oracle passes both ways.
func TestStatsPassK_StrictNative(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "native.db")
	mustRun(t, "--db", dbPath, "run", "--agent", "oracle", "--domain", "retail", "--tasks", "5", "--condition", "without-emotions", "--seed", "1")
	rows := strictJSON(t, "--db", dbPath, "stats", "passk", "--k", "1")
	if len(rows) != 1 || rows[0].PassHatK == nil || *rows[0].PassHatK != 1 || *rows[0].StrictPassHatK != 1 || rows[0].Demoted != 0 {
		t.Fatalf("oracle: %+v, want gated and strict pass^1 = 1", rows)
	}
}

// TestStatsPassK_StrictRealRuns: the shared τ²-bench airline run holds 9
// rewards of 1, of which 6 failed a check outside reward_basis (counted
// in the JSON with python3: an nl_assertions or action_checks entry not
// met), so strict pass^1 is 3/50.
func TestStatsPassK_StrictRealRuns(t *testing.T) {
	t.Parallel()
	requireRealRuns(t)
	dbPath := filepath.Join(t.TempDir(), "tau2.db")
	mustRun(t, "--db", dbPath, "ingest", filepath.Join(realRuns, "tau2", "airline-qwen2.5-7b-agent-errors.json"))
	rows := strictJSON(t, "--db", dbPath, "stats", "passk")
	if len(rows) != 1 || math.Abs(*rows[0].PassHatK-9.0/50) > 1e-12 || math.Abs(*rows[0].StrictPassHatK-3.0/50) > 1e-12 || rows[0].Demoted != 6 {
		t.Fatalf("airline: %+v, want gated 9/50, strict 3/50, 6 demoted", rows)
	}
}
