package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestStrictPassK(t *testing.T) {
	// Run 1: task 1 passes 3 of 4 trials gated, 1 strictly; task 2 passes
	// 4 of 4 both ways. Hand computation, k = 2:
	//   gated  pass^2 = (C(3,2)/C(4,2) + 1)/2 = (3/6 + 1)/2 = 0.75
	//   strict pass^2 = (C(1,2)/C(4,2) + 1)/2 = (0 + 1)/2   = 0.5
	// k = 1: gated (3/4 + 1)/2 = 0.875, strict (1/4 + 1)/2 = 0.625.
	gated := []TaskTrials{{RunID: 1, TaskID: 1, Trials: 4, Passes: 3}, {RunID: 1, TaskID: 2, Trials: 4, Passes: 4}}
	strict := []TaskTrials{{RunID: 1, TaskID: 1, Trials: 4, Passes: 1}, {RunID: 1, TaskID: 2, Trials: 4, Passes: 4}}
	rows, err := StrictPassK(gated, strict, PassKOptions{Ks: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ gated, strict, delta float64 }{{0.875, 0.625, -0.25}, {0.75, 0.5, -0.25}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		r := rows[i]
		if math.Abs(r.Gated.PassHatK-w.gated) > 1e-12 || math.Abs(r.Strict.PassHatK-w.strict) > 1e-12 || math.Abs(r.Delta-w.delta) > 1e-12 {
			t.Errorf("k = %d: gated %v strict %v delta %v, want %v %v %v", r.Gated.K, r.Gated.PassHatK, r.Strict.PassHatK, r.Delta, w.gated, w.strict, w.delta)
		}
		if r.Demoted != 2 {
			t.Errorf("k = %d: demoted %d, want 2", r.Gated.K, r.Demoted)
		}
	}
}

func TestStrictPassK_NotEvaluated(t *testing.T) {
	tasks := []TaskTrials{{RunID: 1, TaskID: 1, Trials: 2, Unevaluated: 2}}
	rows, err := StrictPassK(tasks, tasks, PassKOptions{Ks: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || !rows[0].Strict.NotEvaluated || !math.IsNaN(rows[0].Strict.PassHatK) || !math.IsNaN(rows[0].Delta) {
		t.Fatalf("rows %+v, want one not evaluated with NaN estimates", rows)
	}
}

func TestStrictPassK_ErrMismatch(t *testing.T) {
	a := []TaskTrials{{RunID: 1, TaskID: 1, Trials: 2, Passes: 1}}
	tests := []struct {
		strict []TaskTrials
		want   string
	}{
		{nil, "1 tasks gated, 0 strict"},
		{[]TaskTrials{{RunID: 1, TaskID: 1, Trials: 3, Passes: 1}}, "run 1, task row 1: gated and strict counts are of different tasks or trials"},
		{[]TaskTrials{{RunID: 1, TaskID: 1, Trials: 2, Passes: 2}}, "2 strict passes above 1 gated ones"},
	}
	for _, tt := range tests {
		_, err := StrictPassK(a, tt.strict, PassKOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err %v, want %q", err, tt.want)
		}
	}
}

func ExampleStrictPassK() {
	// One task, 2 trials passed gated; one of them failed a check outside
	// its reward basis.
	gated := []TaskTrials{{RunID: 1, TaskID: 1, Trials: 2, Passes: 2}}
	strict := []TaskTrials{{RunID: 1, TaskID: 1, Trials: 2, Passes: 1}}
	rows, _ := StrictPassK(gated, strict, PassKOptions{Ks: []int{1}})
	r := rows[0]
	fmt.Printf("pass^1 gated %.2f strict %.2f, %d demoted\n", r.Gated.PassHatK, r.Strict.PassHatK, r.Demoted)
	// Output: pass^1 gated 1.00 strict 0.50, 1 demoted
}
