package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

func TestFactValues(t *testing.T) {
	t.Parallel()
	facts := map[string]string{"feature": "a", "second_feature": "b", "third_feature": "c", "new_feature": "x y", "feature_id": "z", "other_second_feature": "w"}
	if got, want := FactValues(facts, "feature"), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("FactValues = %v, want %v", got, want)
	}
	if got := FactValues(facts, "plan"); got != nil {
		t.Errorf("FactValues of an absent key = %v, want nil", got)
	}
}

func TestMeantValues(t *testing.T) {
	t.Parallel()
	say := strings.ToUpper
	cands := []string{"a", "b", "c"}
	for _, tc := range []struct {
		facts map[string]string
		gold  string
		want  []string
	}{
		{map[string]string{"m": "A"}, "a", []string{"a"}},                       // named
		{map[string]string{"m": "A", "second_m": "B"}, "a", []string{"a"}},      // another intent's value does not widen it
		{map[string]string{"m": "B"}, "a", []string{"b"}},                       // only the named one
		{map[string]string{}, "a", []string{"a", "b", "c"}},                     // the user said nothing
		{map[string]string{"m": "B", "second_m": "C"}, "a", []string{"b", "c"}}, // the gold named by none
	} {
		if got := MeantValues(tc.facts, "m", cands, tc.gold, say); !slices.Equal(got, tc.want) {
			t.Errorf("MeantValues(%v, gold %s) = %v, want %v", tc.facts, tc.gold, got, tc.want)
		}
	}
}

func TestDescribedValues(t *testing.T) {
	t.Parallel()
	// Lines by plan: a and b on "x", c on "y".
	plan := map[string]string{"a": "x", "b": "x", "c": "y"}
	fits := func(c, d string) bool { return plan[c] == d }
	cands := []string{"a", "b", "c"}
	facts := map[string]string{"line_plan": "y", "second_line_plan": "x"}
	if got, want := DescribedValues(facts, "line_plan", cands, "c", fits), []string{"c"}; !slices.Equal(got, want) {
		t.Errorf("gold c on y: %v, want %v", got, want)
	}
	if got, want := DescribedValues(facts, "line_plan", cands, "a", fits), []string{"a", "b"}; !slices.Equal(got, want) {
		t.Errorf("gold a on x, shared with b: %v, want %v", got, want)
	}
	if got := DescribedValues(map[string]string{"line_plan": "y"}, "line_plan", cands, "a", fits); got != nil {
		t.Errorf("no description fits gold: %v, want nil", got)
	}
}

func TestSameCall(t *testing.T) {
	t.Parallel()
	a := emobench.Action{Name: "t", Arguments: []byte(`{"x":1,"y":"b"}`)}
	if !SameCall(a, emobench.Action{Name: "t", Arguments: []byte(`{ "y": "b", "x": 1.0 }`)}) {
		t.Error("reordered arguments: not the same call")
	}
	if SameCall(a, emobench.Action{Name: "u", Arguments: a.Arguments}) || SameCall(a, emobench.Action{Name: "t", Arguments: []byte(`{"x":2,"y":"b"}`)}) {
		t.Error("another tool or value: the same call")
	}
	if SameCall(a, emobench.Action{Name: "t", Arguments: []byte(`{`)}) {
		t.Error("malformed arguments: the same call")
	}
}
