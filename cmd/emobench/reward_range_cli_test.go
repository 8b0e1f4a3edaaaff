package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A reward of 1e308 is kept but noted by ingest (file, record, task,
// trial), and runs says the mean_reward it makes is no rate; a NaN reward
// beside a reward_info is stored not evaluated (#20 item 17).
func TestIngest_RewardOutOfRangeNoted(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "range.db")
	file := writeFile(t, "absurd-retail.json", "["+strings.Join([]string{
		tauRecord(0, 0, "1e308", "0.1", `"a"`),
		tauRecord(1, 0, "0.5", "0.1", `"b"`),
		tauRecord(2, 1, "NaN", "0.1", `"c"`),
	}, ",\n")+"]")
	r := runCLI(t, "", "--db", dbPath, "ingest", file)
	if r.code != 0 {
		t.Fatalf("ingest: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		file + ": record 0: task 0, trial 0: reward 1e+308 is outside [-1, 1]: kept as given",
		file + ": record 2: task 2, trial 1: reward is null or not a finite number (NaN, Infinity) beside a reward_info: stored as not evaluated",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("ingest stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	if got, want := sqlCSV(t, dbPath, "SELECT task_key, reward, evaluated, passed FROM trajectory_outcomes ORDER BY task_key"),
		"task_key,reward,evaluated,passed\n0,1e+308,1,0\n1,0.5,1,0\n2,,0,0\n"; got != want {
		t.Errorf("stored:\n%s\nwant:\n%s", got, want)
	}
	r = runCLI(t, "", "--db", dbPath, "runs")
	if want := "note: run 1: 1 evaluated rewards are outside [-1, 1], so its mean_reward (3.333e+307) is not a rate"; r.code != 0 || !strings.Contains(r.stderr, want) {
		t.Errorf("runs: exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
}
