package analysis_test

import (
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/google/go-cmp/cmp"
)

// Labels carry no empty or "unknown" segment, and a unit whose agent model
// or domain is unknown is named as its run.
func TestLabels_NoUnknownSegments(t *testing.T) {
	for _, tc := range []struct {
		key  analysis.PoolKey
		want string
	}{
		{analysis.PoolKey{AgentModel: "qwen3", UserModel: analysis.Unknown, Domain: "retail", Condition: "with-emotions"}, "qwen3 / retail / with-emotions"},
		{analysis.PoolKey{AgentModel: "m", Domain: "d"}, "m / d"},
		{analysis.PoolKey{AgentModel: "m", UserModel: "u", Domain: "d", Condition: "c"}, "m / u / d / c"},
		{analysis.PoolKey{AgentModel: analysis.Unknown, UserModel: ""}, ""},
	} {
		if got := tc.key.Label(); got != tc.want {
			t.Errorf("%+v.Label() = %q, want %q", tc.key, got, tc.want)
		}
	}

	names := map[int64]string{1: "a", 2: "b", 3: "c", 4: ""}
	keys := map[int64]analysis.PoolKey{
		1: {AgentModel: "m", UserModel: analysis.Unknown, Domain: "retail", Condition: "with-emotions"},
		2: {AgentModel: "m", UserModel: analysis.Unknown, Domain: "retail", Condition: "with-emotions"},
		3: {AgentModel: analysis.Unknown, UserModel: "u", Domain: "retail", Condition: "with-emotions"},
		4: {AgentModel: "m", Domain: analysis.Unknown},
	}
	var labels, notes []string
	for _, u := range analysis.NewUnits(keys, true).List() {
		labels, notes = append(labels, u.Label(names)), append(notes, u.Name())
	}
	if diff := cmp.Diff([]string{"m / retail / with-emotions (runs 1,2)", "c", "run 4"}, labels); diff != "" {
		t.Errorf("pooled labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"pool m / retail / with-emotions (runs 1,2)", "run 3", "run 4"}, notes); diff != "" {
		t.Errorf("pooled names (-want +got):\n%s", diff)
	}
}

// A matrix column of a unit whose agent model is unknown is its run.
func TestPooledMatrix_UnknownModelIsItsRun(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{
		1: {AgentModel: "m", Domain: "retail"},
		3: {AgentModel: analysis.Unknown, Domain: "retail"},
		5: {AgentModel: "", Domain: "retail"},
	}, false)
	rows := []analysis.PassKRow{{RunID: 1, K: 1, PassHatK: 0.5, Tasks: 2}, {RunID: 3, K: 1, PassHatK: 1, Tasks: 1}, {RunID: 5, K: 1, PassHatK: 0, Tasks: 1}}
	m, err := analysis.PooledMatrix(rows, units)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"m", "run 3", "run 5"}, m.Models); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
}
