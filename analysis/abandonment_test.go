package analysis_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/emobench/emobench/analysis"
)

// abandonRows returns n rows of group g of which the first a abandoned at
// the given turns (cycled; nil leaves Turn 0).
func abandonRows(g string, a, n int, turns []int) []analysis.AbandonmentRow {
	var rows []analysis.AbandonmentRow
	for i := range n {
		r := analysis.AbandonmentRow{Group: []string{g}, Abandoned: i < a}
		if r.Abandoned && len(turns) > 0 {
			r.Turn = turns[i%len(turns)]
		}
		rows = append(rows, r)
	}
	return rows
}

func TestAbandonment(t *testing.T) {
	// Wilson intervals from Newcombe (1998), Statist. Med. 17:857–872,
	// Table I, method 3 (score, no continuity correction): 81/263,
	// 15/148, 0/20 and 1/29. Mean turns by hand.
	var rows []analysis.AbandonmentRow
	rows = append(rows, abandonRows("d", 1, 29, []int{7})...)
	rows = append(rows, abandonRows("a", 81, 263, []int{2, 4})...) // 81 turns: 41×2 + 40×4 = 242
	rows = append(rows, abandonRows("c", 0, 20, nil)...)
	rows = append(rows, abandonRows("b", 15, 148, []int{3, 0})...) // turn 0 is unknown: 8 known, all 3
	tests := []struct {
		group          string
		n, abandoned   int
		lo, hi, meanTn float64
	}{
		{"a", 263, 81, 0.2553, 0.3662, 242.0 / 81},
		{"b", 148, 15, 0.0624, 0.1605, 3},
		{"c", 20, 0, 0.0000, 0.1611, math.NaN()},
		{"d", 29, 1, 0.0061, 0.1718, 7},
	}
	got := analysis.Abandonment(rows)
	if len(got) != len(tests) {
		t.Fatalf("len = %v, want %v", len(got), len(tests))
	}
	for i, tt := range tests {
		r := got[i]
		if !slices.Equal(r.Group, []string{tt.group}) || r.N != tt.n || r.Abandoned != tt.abandoned {
			t.Errorf("row %d = %v n=%d abandoned=%d, want %s n=%d abandoned=%d", i, r.Group, r.N, r.Abandoned, tt.group, tt.n, tt.abandoned)
		}
		if want := float64(tt.abandoned) / float64(tt.n); math.Abs(r.Rate-want) > tol {
			t.Errorf("%s: Rate = %v, want %v", tt.group, r.Rate, want)
		}
		if math.Abs(r.CI.Lo-tt.lo) > 5e-5 || math.Abs(r.CI.Hi-tt.hi) > 5e-5 {
			t.Errorf("%s: CI = %v, want [%.4f, %.4f] (Newcombe 1998)", tt.group, r.CI, tt.lo, tt.hi)
		}
		if math.IsNaN(tt.meanTn) != math.IsNaN(r.MeanTurn) || !math.IsNaN(tt.meanTn) && math.Abs(r.MeanTurn-tt.meanTn) > tol {
			t.Errorf("%s: MeanTurn = %v, want %v", tt.group, r.MeanTurn, tt.meanTn)
		}
	}
}

func TestAbandonment_Empty(t *testing.T) {
	if got := analysis.Abandonment(nil); len(got) != 0 {
		t.Fatalf("Abandonment(nil) = %v, want none", got)
	}
	// A nil group is one group.
	got := analysis.Abandonment([]analysis.AbandonmentRow{{}, {Abandoned: true}})
	if len(got) != 1 || got[0].N != 2 || got[0].Abandoned != 1 || !math.IsNaN(got[0].MeanTurn) {
		t.Fatalf("Abandonment = %+v, want one group, 1 of 2, NaN mean turn", got)
	}
}

func ExampleAbandonment() {
	rows := []analysis.AbandonmentRow{
		{Group: []string{"anger"}, Abandoned: true, Turn: 3},
		{Group: []string{"anger"}, Abandoned: true, Turn: 5},
		{Group: []string{"anger"}, Abandoned: false},
		{Group: []string{"enjoyment"}, Abandoned: false},
		{Group: []string{"enjoyment"}, Abandoned: false},
	}
	for _, r := range analysis.Abandonment(rows) {
		fmt.Printf("%s: %d/%d = %.2f %v, mean turn %.1f\n", r.Group[0], r.Abandoned, r.N, r.Rate, r.CI, r.MeanTurn)
	}
	// Output:
	// anger: 2/3 = 0.67 [0.2077, 0.9385] (95% wilson), mean turn 4.0
	// enjoyment: 0/2 = 0.00 [0.0000, 0.6576] (95% wilson), mean turn NaN
}
