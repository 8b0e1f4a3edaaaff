package browsertest

import (
	"strings"
	"testing"
)

func TestRect_Overlaps(t *testing.T) {
	a := Rect{X: 0, Y: 0, W: 10, H: 10}
	for _, tc := range []struct {
		b    Rect
		want bool
	}{
		{Rect{X: 5, Y: 5, W: 10, H: 10}, true},    // shares a 5×5 corner
		{Rect{X: 10, Y: 0, W: 10, H: 10}, false},  // touches the right edge
		{Rect{X: 9.8, Y: 0, W: 10, H: 10}, false}, // 0.2 px: within the slack
		{Rect{X: 0, Y: 20, W: 10, H: 10}, false},  // below
		{Rect{X: 2, Y: 2, W: 2, H: 2}, true},      // inside
	} {
		if got := a.Overlaps(tc.b); got != tc.want {
			t.Errorf("%v.Overlaps(%v) = %v, want %v", a, tc.b, got, tc.want)
		}
		if got := tc.b.Overlaps(a); got != tc.want {
			t.Errorf("%v.Overlaps(%v) = %v, want %v (not symmetric)", tc.b, a, got, tc.want)
		}
	}
}

func TestLayoutProblems(t *testing.T) {
	l := []ChartLayout{{
		ID: "c", W: 200, H: 200,
		Texts:     []Rect{{X: 0, Y: 0, W: 20, H: 12, Text: "a"}, {X: 10, Y: 4, W: 20, H: 12, Text: "b"}, {X: 40, Y: 0, W: 20, H: 12, Text: "c"}},
		Legends:   []Rect{{X: 100, Y: 0, W: 50, H: 100}},
		Toolboxes: []Rect{{X: 140, Y: 0, W: 20, H: 20}},
		Grids:     []Rect{{X: 0, Y: 20, W: 120, H: 100}},
	}}
	got := LayoutProblems(l)
	if len(got) != 3 {
		t.Fatalf("LayoutProblems = %q, want 3 problems (a over b, legend on the plot, legend under the toolbox)", got)
	}
	l[0].Grids[0].W = 100 // the plot ends where the legend starts
	l[0].Toolboxes[0].X = 150
	l[0].Texts = l[0].Texts[1:]
	if got := LayoutProblems(l); len(got) != 0 {
		t.Errorf("LayoutProblems = %q, want none", got)
	}
	l[0].Texts[0].X = -3 // cut by the left edge
	if got := LayoutProblems(l); len(got) != 1 || !strings.Contains(got[0], "cut by the chart's edge") {
		t.Errorf("LayoutProblems = %q, want the cut text", got)
	}
}
