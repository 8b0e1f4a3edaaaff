package workbench_test

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/workbench"
)

// Two poolable runs whose passes include some with a failed action check
// outside the reward basis: strict pass^1 counts them as failures, per run
// and pooled.
func TestPassKStats_ComputeStrict(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	store, err := db.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	const clean = `{"reward": 1, "db_check": {"db_match": true}, "action_checks": [{"action": {"name": "a"}, "action_match": true}], "reward_basis": ["DB"]}`
	const missed = `{"reward": 1, "db_check": {"db_match": true}, "action_checks": [{"action": {"name": "a"}, "action_match": false}], "reward_basis": ["DB"]}`
	// Run a: task 0 passes both trials, one strictly; run b: task 0 passes
	// its one trial strictly.
	for _, r := range []struct {
		name  string
		infos []string
	}{{"a", []string{clean, missed}}, {"b", []string{clean}}} {
		name, infos := r.name, r.infos
		var items []*emobench.Trajectory
		for trial, ri := range infos {
			one := 1.0
			items = append(items, &emobench.Trajectory{Task: task("0"), Trial: trial, Reward: &one, Evaluated: true,
				TerminationReason: emobench.TerminationUserStop, RewardInfo: json.RawMessage(ri)})
		}
		run := emobench.Run{Name: name, SourceFormat: "tau2", AgentModel: "m", UserModel: "u", Domain: "retail", Condition: emobench.ConditionNone}
		seq := func(yield func(*emobench.Trajectory, error) bool) {
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
		}
		if _, err := store.IngestRun(ctx, run, seq, db.DuplicateRefuse); err != nil {
			t.Fatal(err)
		}
	}
	stats := workbench.PassKStats{Options: analysis.PassKOptions{Ks: []int{1}}}
	for _, tt := range []struct {
		pool          bool
		gated, strict []float64 // per unit, in unit order
	}{
		{false, []float64{1, 1}, []float64{0.5, 1}},
		{true, []float64{1}, []float64{2.0 / 3}}, // 3 trials of task 0, 2 strict passes
	} {
		rows, _, err := stats.ComputeStrict(ctx, store, mustSelect(t, store, nil, tt.pool))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(tt.gated) {
			t.Fatalf("pool %v: %d rows, want %d", tt.pool, len(rows), len(tt.gated))
		}
		for i, r := range rows {
			if math.Abs(r.Gated.PassHatK-tt.gated[i]) > tol || math.Abs(r.Strict.PassHatK-tt.strict[i]) > tol {
				t.Errorf("pool %v, unit %d: gated %v strict %v, want %v %v", tt.pool, r.Gated.RunID, r.Gated.PassHatK, r.Strict.PassHatK, tt.gated[i], tt.strict[i])
			}
		}
	}
}
