package analysis_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/emobench/emobench/analysis"
)

func TestMatrix(t *testing.T) {
	m, err := analysis.Matrix([]analysis.MatrixCell{
		{Domain: "retail", Model: "qwen-tuned", Pass1: 0.6},
		{Domain: "airline", Model: "qwen", Pass1: 0.3},
		{Domain: "retail", Model: "qwen", Pass1: 0.5},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Domains, []string{"airline", "retail"}; !slices.Equal(got, want) {
		t.Fatalf("Domains = %v, want %v", got, want)
	}
	if got, want := m.Models, []string{"qwen", "qwen-tuned"}; !slices.Equal(got, want) {
		t.Fatalf("Models = %v, want %v", got, want)
	}
	want := [][]float64{{0.3, math.NaN()}, {0.5, 0.6}}
	for i := range want {
		for j := range want[i] {
			got, w := m.Pass1[i][j], want[i][j]
			if math.IsNaN(w) != math.IsNaN(got) || !math.IsNaN(w) && got != w {
				t.Errorf("Pass1[%d][%d] = %v, want %v", i, j, got, w)
			}
		}
	}
}

func TestMatrix_Errors(t *testing.T) {
	m, err := analysis.Matrix(nil)
	if err != nil || len(m.Domains) != 0 || len(m.Models) != 0 || len(m.Pass1) != 0 {
		t.Fatalf("Matrix(nil) = %+v, %v; want empty, nil", m, err)
	}
	dup := []analysis.MatrixCell{{Domain: "a", Model: "m", Pass1: 1}, {Domain: "a", Model: "m", Pass1: 0}}
	if _, err := analysis.Matrix(dup); err == nil {
		t.Fatal("duplicate cell: err = nil, want an error")
	}
}

func ExampleMatrix() {
	m, _ := analysis.Matrix([]analysis.MatrixCell{
		{Domain: "retail", Model: "base", Pass1: 0.5},
		{Domain: "retail", Model: "tuned", Pass1: 0.625},
		{Domain: "airline", Model: "tuned", Pass1: 0.4},
	})
	fmt.Println(m.Models)
	for i, d := range m.Domains {
		fmt.Println(d, m.Pass1[i])
	}
	// Output:
	// [base tuned]
	// airline [NaN 0.4]
	// retail [0.5 0.625]
}

// PooledMatrix puts each unit's pass^1 in its domain's row; an agent model
// with two units on one domain gets a column per unit, named by run (per
// run) or by pool key (pooled).
func TestPooledMatrix(t *testing.T) {
	keys := map[int64]analysis.PoolKey{
		1: {AgentModel: "gpt", UserModel: "u", Domain: "retail", Condition: "none"},
		2: {AgentModel: "gpt", UserModel: "u", Domain: "retail", Condition: "with-emotions"},
		3: {AgentModel: "gpt", UserModel: "u", Domain: "airline", Condition: "none"},
		4: {AgentModel: "qwen", UserModel: "u", Domain: "retail", Condition: "none"},
		5: {AgentModel: "qwen", UserModel: "u", Domain: "retail", Condition: "none"}, // pools with 4
	}
	rows := func(units analysis.Units) []analysis.PassKRow {
		var out []analysis.PassKRow
		for _, u := range units.List() {
			out = append(out,
				analysis.PassKRow{RunID: u.ID, K: 1, PassHatK: float64(u.ID) / 10, Tasks: int(u.ID) * 2, NotEvaluated: u.ID == 3},
				analysis.PassKRow{RunID: u.ID, K: 2, PassHatK: 0.01, Tasks: 1}, // ignored: k = 2
			)
		}
		return out
	}

	t.Run("PerRun", func(t *testing.T) {
		units := analysis.NewUnits(keys, false)
		m, err := analysis.PooledMatrix(rows(units), units)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.Domains, []string{"airline", "retail"}; !slices.Equal(got, want) {
			t.Fatalf("Domains = %q, want %q", got, want)
		}
		// gpt has two runs on retail, qwen two: every column names its run.
		if got, want := m.Models, []string{"gpt (run 1)", "gpt (run 2)", "gpt (run 3)", "qwen (run 4)", "qwen (run 5)"}; !slices.Equal(got, want) {
			t.Fatalf("Models = %q, want %q", got, want)
		}
		if got, want := fmt.Sprint(m.Pass1), "[[NaN NaN 0.3 NaN NaN] [0.1 0.2 NaN 0.4 0.5]]"; got != want {
			t.Errorf("Pass1 = %s, want %s", got, want)
		}
		if got, want := fmt.Sprint(m.Tasks), "[[0 0 6 0 0] [2 4 0 8 10]]"; got != want {
			t.Errorf("Tasks = %s, want %s", got, want)
		}
		if got, want := fmt.Sprint(m.RunIDs), "[[3] [1 2 4 5]]"; got != want {
			t.Errorf("RunIDs = %s, want %s", got, want)
		}
		if got, want := m.NotEvaluatedCells(), []string{"gpt (run 3) on airline"}; !slices.Equal(got, want) {
			t.Errorf("NotEvaluatedCells = %q, want %q", got, want)
		}
	})
	t.Run("Pooled", func(t *testing.T) {
		units := analysis.NewUnits(keys, true)
		m, err := analysis.PooledMatrix(rows(units), units)
		if err != nil {
			t.Fatal(err)
		}
		// Runs 4 and 5 are one pool: qwen has one unit on retail, its
		// column is the model; gpt has two pools on retail, so each of its
		// columns names its key (airline's pool shares retail's column).
		if got, want := m.Models, []string{"gpt / u / none", "gpt / u / with-emotions", "qwen"}; !slices.Equal(got, want) {
			t.Fatalf("Models = %q, want %q", got, want)
		}
		if got, want := fmt.Sprint(m.RunIDs), "[[3] [1 2 4 5]]"; got != want {
			t.Errorf("RunIDs = %s, want %s", got, want)
		}
		if got, want := fmt.Sprint(m.Pass1), "[[0.3 NaN NaN] [0.1 0.2 0.4]]"; got != want {
			t.Errorf("Pass1 = %s, want %s (the qwen pool's value is its first run's)", got, want)
		}
	})
	t.Run("ErrTwice", func(t *testing.T) {
		units := analysis.NewUnits(keys, false)
		twice := []analysis.PassKRow{{RunID: 3, K: 1, PassHatK: 0.5}, {RunID: 3, K: 1, PassHatK: 0.6}}
		if _, err := analysis.PooledMatrix(twice, units); err == nil {
			t.Fatal("a unit given twice: err = nil, want an error naming its cell")
		}
	})
	t.Run("Empty", func(t *testing.T) {
		m, err := analysis.PooledMatrix(nil, analysis.NewUnits(nil, false))
		if err != nil || len(m.Domains) != 0 || len(m.NotEvaluatedCells()) != 0 {
			t.Fatalf("PooledMatrix(nil) = %+v, %v; want empty, nil", m, err)
		}
	})
}
