package analysis

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// EmotionComparisons pairs only the runs that belong together (issue #20
// item 13): one command's runs, a pair of files, the pairs the user names,
// or a pool with a pool; every other with- or without-emotions unit is
// left unpaired with a note saying why.
func TestEmotionComparisons_Pairing(t *testing.T) {
	with := PoolKey{"m", "u", "retail", "with-emotions"}
	without := PoolKey{"m", "u", "retail", "without-emotions"}
	airline := PoolKey{"m", "u", "airline", "with-emotions"}
	runs := map[int64]PoolKey{
		5: with, 6: without, // one `run` command
		7: with, 8: without, // another
		9: with, 10: without, // a pair of files
		11: with,                           // alone
		12: without, 13: without, 14: with, // one group, two runs without
		15: airline, // nothing without on airline
	}
	groups := map[int64]string{5: "run:a", 6: "run:a", 7: "run:b", 8: "run:b", 9: "file:x", 10: "file:x", 12: "run:c", 13: "run:c", 14: "run:c", 15: "run:d"}
	pairs := func(cs []EmotionComparison) [][2]int64 {
		var out [][2]int64
		for _, c := range cs {
			out = append(out, [2]int64{c.With.ID, c.Without.ID})
		}
		return out
	}
	notes := func(us []Unpaired) []string {
		var out []string
		for _, u := range us {
			out = append(out, u.Note())
		}
		return out
	}
	tests := []struct {
		name      string
		pool      bool
		named     [][2]int64
		wantPairs [][2]int64
		wantNotes []string
	}{
		{
			name:      "PerRun",
			wantPairs: [][2]int64{{5, 6}, {7, 8}, {9, 10}},
			wantNotes: []string{
				"run 11 (with-emotions) has no without-emotions run from the same `run` command or file pair; pair it with --pair 11:N or use --pool",
				"run 12 (without-emotions) is one of runs 12,13,14 from the same `run` command or file pair, not one run per condition: not compared; name the pair with --pair N:12",
				"run 13 (without-emotions) is one of runs 12,13,14 from the same `run` command or file pair, not one run per condition: not compared; name the pair with --pair N:13",
				"run 14 (with-emotions) is one of runs 12,13,14 from the same `run` command or file pair, not one run per condition: not compared; name the pair with --pair 14:N",
				"run 15 (with-emotions) has no without-emotions run from the same `run` command or file pair; pair it with --pair 15:N or use --pool",
			},
		},
		{
			name:      "Named",
			named:     [][2]int64{{11, 13}, {5, 6}},
			wantPairs: [][2]int64{{5, 6}, {7, 8}, {9, 10}, {11, 13}},
			wantNotes: []string{
				"run 12 (without-emotions) is one of runs 12,13,14 from the same `run` command or file pair, not one run per condition: not compared; name the pair with --pair N:12",
				"run 14 (with-emotions) is one of runs 12,13,14 from the same `run` command or file pair, not one run per condition: not compared; name the pair with --pair 14:N",
				"run 15 (with-emotions) has no without-emotions run from the same `run` command or file pair; pair it with --pair 15:N or use --pool",
			},
		},
		{
			name:      "Pooled",
			pool:      true,
			wantPairs: [][2]int64{{5, 6}},
			wantNotes: []string{"pool m / u / airline / with-emotions (runs 15) has no without-emotions pool of the same agent model, user model and domain: not compared"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, unpaired := EmotionComparisons(NewUnits(runs, tt.pool), Pairing{Groups: groups, Named: tt.named})
			if diff := cmp.Diff(tt.wantPairs, pairs(got)); diff != "" {
				t.Errorf("pairs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNotes, notes(unpaired)); diff != "" {
				t.Errorf("unpaired notes (-want +got):\n%s", diff)
			}
		})
	}
}

// A run left unpaired is named with its file, and its note says why by
// where it came from (#20 item 13): no file beside it, no folder known,
// several runs of a condition in one file pair or one command.
func TestEmotionComparisons_NotesNameTheSource(t *testing.T) {
	with := PoolKey{"m", "u", "retail", "with-emotions"}
	without := PoolKey{"m", "u", "retail", "without-emotions"}
	runs := map[int64]PoolKey{1: with, 2: with, 3: without, 4: with, 5: with, 6: with, 7: without, 8: with, 9: with, 10: without, 11: with}
	file := func(path, why string) Source { return Source{Ingested: true, File: path, NoPair: why} }
	p := Pairing{
		// 1, 2, 3: one folder each; 4: stdin; 5: a run alone; 6, 11: one
		// file ingested twice, 7 its pair; 8, 9, 10: one command.
		Groups: map[int64]string{1: "file:/e1/q-*.json", 2: "file:/e2/q-*.json", 3: "file:/e3/q-*.json",
			6: "file:/f/q-*.json", 7: "file:/f/q-*.json", 8: "run:c", 9: "run:c", 10: "run:c", 11: "file:/f/q-*.json"},
		Sources: map[int64]Source{
			1: file("/e1/q-with-emotions.json", ""), 2: file("/e2/q-with-emotions.json", ""), 3: file("/e3/q-without-emotions.json", ""),
			4: file("stdin", "it was read from stdin, which has no folder"), 5: {},
			6: file("/f/q-with-emotions.json", ""), 7: file("/f/q-without-emotions.json", ""), 8: {}, 9: {}, 10: {},
			11: file("/f/q-with-emotions.json", ""),
		},
	}
	got, unpaired := EmotionComparisons(NewUnits(runs, false), p)
	if len(got) != 0 {
		t.Errorf("pairs %v, want none", got)
	}
	var notes []string
	for _, u := range unpaired {
		notes = append(notes, u.Note())
	}
	beside := " run of its agent model, user model and domain from a file beside it (its name but for the condition words); pair it with "
	want := []string{
		"run 1 (with-emotions, /e1/q-with-emotions.json) has no without-emotions" + beside + "--pair 1:N or use --pool",
		"run 2 (with-emotions, /e2/q-with-emotions.json) has no without-emotions" + beside + "--pair 2:N or use --pool",
		"run 3 (without-emotions, /e3/q-without-emotions.json) has no with-emotions" + beside + "--pair N:3 or use --pool",
		"run 4 (with-emotions, stdin) pairs with no file by name: it was read from stdin, which has no folder; pair it with --pair 4:N or use --pool",
		"run 5 (with-emotions) has no without-emotions run of its agent model, user model and domain from the same `run` command; pair it with --pair 5:N or use --pool",
		"run 6 (with-emotions, /f/q-with-emotions.json) is one of runs 6,7,11 ingested from one file pair (files in one folder named alike but for the condition words), which holds several runs of a condition: not compared; name the pair with --pair 6:N",
		"run 7 (without-emotions, /f/q-without-emotions.json) is one of runs 6,7,11 ingested from one file pair (files in one folder named alike but for the condition words), which holds several runs of a condition: not compared; name the pair with --pair N:7",
		"run 8 (with-emotions) is one of runs 8,9,10 of one `run` command, which holds several runs of a condition: not compared; name the pair with --pair 8:N",
		"run 9 (with-emotions) is one of runs 8,9,10 of one `run` command, which holds several runs of a condition: not compared; name the pair with --pair 9:N",
		"run 10 (without-emotions) is one of runs 8,9,10 of one `run` command, which holds several runs of a condition: not compared; name the pair with --pair N:10",
		"run 11 (with-emotions, /f/q-with-emotions.json) is one of runs 6,7,11 ingested from one file pair (files in one folder named alike but for the condition words), which holds several runs of a condition: not compared; name the pair with --pair 11:N",
	}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestCheckNamedPair(t *testing.T) {
	runs := map[int64]PoolKey{
		1: {"m", "u", "retail", "with-emotions"}, 2: {"m", "u", "retail", "without-emotions"},
		3: {"m", "u", "retail", "with-emotions"}, 4: {"other", "u", "retail", "without-emotions"},
	}
	u := NewUnits(runs, false)
	if got, err := CheckNamedPair(u, 2, 1); err != nil || got != [2]int64{1, 2} {
		t.Errorf("CheckNamedPair(2, 1) = %v, %v: want {1 2} (with first)", got, err)
	}
	for _, tt := range []struct {
		a, b int64
		want string
	}{
		{1, 3, "runs 1 (with-emotions) and 3 (with-emotions): a pair is one with-emotions and one without-emotions run"},
		{1, 4, "runs 1 (m / u / retail) and 4 (other / u / retail) differ in agent model, user model or domain"},
		{1, 9, "run 9 is not among the runs compared"},
	} {
		if _, err := CheckNamedPair(u, tt.a, tt.b); err == nil || err.Error() != tt.want {
			t.Errorf("CheckNamedPair(%d, %d) = %v, want %q", tt.a, tt.b, err, tt.want)
		}
	}
}

// McNemar's p is NaN when no (task, trial) pair matches across the
// conditions (issue #20 item 14), and 1 when pairs match and all agree.
func TestCompareEmotions_McNemarWithoutMatchedPairs(t *testing.T) {
	runs := map[int64]PoolKey{1: {"m", "u", "retail", "with-emotions"}, 2: {"m", "u", "retail", "without-emotions"}}
	p := Pairing{Named: [][2]int64{{1, 2}}}
	trial := func(run int64, task string, trial int, passed bool) ConditionTrial {
		return ConditionTrial{RunID: run, PairKey: task, Trial: trial, Passed: passed}
	}
	tests := []struct {
		name        string
		trials      []ConditionTrial
		b, c        int
		matched     int
		p           float64 // NaN: none
		wantNoMatch bool
	}{
		{
			// Tasks a and b ran in both conditions, but with trial 0 and
			// trial 1: two task pairs, no (task, trial) pair; 1.00 vs 0.00.
			name:   "NoMatchedTrial",
			trials: []ConditionTrial{trial(1, "a", 0, true), trial(1, "b", 0, true), trial(2, "a", 1, false), trial(2, "b", 1, false)},
			p:      math.NaN(), wantNoMatch: true,
		},
		{
			// The same trials matched and concordant: b = c = 0, p = 1.
			name:    "AllConcordant",
			trials:  []ConditionTrial{trial(1, "a", 0, true), trial(1, "b", 0, false), trial(2, "a", 0, true), trial(2, "b", 0, false)},
			matched: 2, p: 1,
		},
		{
			// Two discordant pairs both ways: p = min(1, 2·P[X ≤ 0]), X ~
			// Bin(2, ½) = 2·¼ = 0.5.
			name:   "Discordant",
			trials: []ConditionTrial{trial(1, "a", 0, true), trial(1, "b", 0, true), trial(2, "a", 0, false), trial(2, "b", 0, false)},
			b:      2, matched: 2, p: 0.5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := EmotionsWithNotes(tt.trials, NewUnits(runs, false), p, nil, BootstrapOptions{Resamples: 100, Seed: 1})
			if len(res.Rows) == 0 {
				t.Fatalf("no rows: %v", res.Notes)
			}
			r := res.Rows[0]
			if r.Dimension != "all" || r.Pairs != 2 || r.B != tt.b || r.C != tt.c || r.Matched != tt.matched {
				t.Errorf("row = %+v, want 2 pairs, b %d c %d, %d matched", r, tt.b, tt.c, tt.matched)
			}
			if got := r.P; math.IsNaN(got) != math.IsNaN(tt.p) || (!math.IsNaN(tt.p) && math.Abs(got-tt.p) > 1e-12) {
				t.Errorf("p = %v, want %v", got, tt.p)
			}
			if math.IsNaN(tt.p) && !math.IsNaN(r.PHolm) {
				t.Errorf("p_holm = %v, want NaN", r.PHolm)
			}
			note := "m / u / retail, runs 1 (with emotions) vs 2 (without): " + NoMatchedTrialsNote
			if got := cmp.Equal(res.Notes, []string{note}); got != tt.wantNoMatch {
				t.Errorf("notes = %q, want the no-matched-pair note: %v", res.Notes, tt.wantNoMatch)
			}
		})
	}
}
