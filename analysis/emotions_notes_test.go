package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEmotionsWithNotes(t *testing.T) {
	opts := BootstrapOptions{Resamples: 100, Seed: 1}
	// exampleTrials have one trial per task, so k = 2 pairs nothing.
	res := EmotionsWithNotes(exampleTrials(), NewUnits(exampleRuns, false), Pairing{Named: [][2]int64{{1, 3}, {2, 3}}}, []int{1, 2}, opts)
	for _, r := range res.Rows {
		if r.K != 1 || r.Pairs == 0 {
			t.Errorf("row %+v: want only k = 1 rows with pairs", r)
		}
	}
	want := []string{
		"m / u / retail, runs 1 (with emotions) vs 3 (without): left out 0 tasks run only with emotions and 1 run only without: they have no pair",
		"m / u / retail, runs 2 (with emotions) vs 3 (without): left out 0 tasks run only with emotions and 1 run only without: they have no pair",
		"k=2: no task has 2 trials in both conditions (rows left out): run with --trials 2 or more",
	}
	if diff := cmp.Diff(want, res.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	none := EmotionsWithNotes(nil, NewUnits(exampleRuns, false), Pairing{}, nil, opts)
	if len(none.Rows) != 0 || len(none.Notes) != 4 || none.Notes[3][:9] != "no pairs:" {
		t.Errorf("nothing to pair: %+v", none)
	}
}
