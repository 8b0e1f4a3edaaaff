package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Gap returns how much reliability is lost from one trial to k trials:
//
//	diff  = pass^1 − pass^k
//	ratio = pass^k / pass^1
//
// diff is how much single-trial success does not survive k repetitions and
// ratio the share that does; both are plain arithmetic on the pass^k
// estimator (Yao et al. 2024, τ-bench, which plots this drop over k). ratio
// is NaN when pass1 = 0; NaN inputs give NaN outputs.
func Gap(pass1, passk float64) (diff, ratio float64) {
	diff = pass1 - passk
	if pass1 == 0 {
		return diff, math.NaN()
	}
	return diff, passk / pass1
}

// GapRow is the pass^1 → pass^k gap of one (run, group) at its largest k.
type GapRow struct {
	RunID      int64
	Group      []string
	K          int     // the largest k among the (run, group)'s rows
	Pass1      float64 // pass^1 (NaN when there is no k = 1 row)
	PassK      float64 // pass^K
	Diff       float64 // Pass1 − PassK
	Ratio      float64 // PassK / Pass1, NaN when Pass1 = 0
	Tasks1     int     // tasks behind Pass1
	TasksK     int     // tasks behind PassK
	Convention Convention
	// NotEvaluated is set when the (run, group)'s PassK rows are (no
	// trajectory evaluated): every value is then NaN, never 0.
	NotEvaluated bool
}

// GapAtMaxK takes PassK rows and returns, per (run, group), Gap between its
// k = 1 row and its row with the largest K, ordered by run then group.
//
// Under PerTask, pass^K averages only the tasks with n_t ≥ K, so Tasks1 and
// TasksK can differ and the gap then mixes a change of k with a change of
// task set; compare them before reading the gap. A (run, group) with no
// k = 1 row gets Pass1, Diff and Ratio NaN; one whose largest K is 1 gets
// Diff 0 and Ratio 1 (or NaN when pass^1 = 0). GapAtMaxK panics when one
// (run, group) mixes conventions.
func GapAtMaxK(rows []PassKRow) []GapRow {
	type acc struct {
		out   GapRow
		have1 bool
	}
	index := map[string]*acc{}
	var accs []*acc
	for _, r := range rows {
		key := fmt.Sprint(r.RunID) + "\x00" + strings.Join(r.Group, "\x00")
		a, ok := index[key]
		if !ok {
			a = &acc{out: GapRow{RunID: r.RunID, Group: r.Group, Convention: r.Convention}}
			index[key] = a
			accs = append(accs, a)
		}
		if r.Convention != a.out.Convention {
			panic(fmt.Sprintf("analysis: GapAtMaxK: run %d group %q mixes conventions %q and %q",
				r.RunID, r.Group, a.out.Convention, r.Convention))
		}
		a.out.NotEvaluated = a.out.NotEvaluated || r.NotEvaluated
		if r.K == 1 {
			a.have1 = true
			a.out.Pass1, a.out.Tasks1 = r.PassHatK, r.Tasks
		}
		if r.K > a.out.K {
			a.out.K, a.out.PassK, a.out.TasksK = r.K, r.PassHatK, r.Tasks
		}
	}
	out := make([]GapRow, 0, len(accs))
	for _, a := range accs {
		g := a.out
		if !a.have1 {
			g.Pass1 = math.NaN()
		}
		g.Diff, g.Ratio = Gap(g.Pass1, g.PassK)
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(a, b GapRow) int {
		if c := cmp.Compare(a.RunID, b.RunID); c != 0 {
			return c
		}
		return slices.Compare(a.Group, b.Group)
	})
	return out
}

// GapResult is the gap table of stats gap: its rows and the notes that say
// which rows have no pass^k or were left out.
type GapResult struct {
	Rows  []GapRow
	Notes []string
}

// Gaps is GapAtMaxK over rows (PassK rows of units, named by names), with
// two rules:
//   - when k > 0 the gap is taken at k: a (unit, group) with no task of k
//     trials gets K = k, PassK, Diff and Ratio NaN and TasksK 0 (its
//     pass^k is unknown, not 0), with a note;
//   - a (unit, group) whose largest k is 1 (one trial per task) has no gap
//     and is left out; one note names those units.
func Gaps(rows []PassKRow, k int, units Units, names map[int64]string) GapResult {
	var res GapResult
	gaps := GapAtMaxK(rows)
	if k > 0 {
		for i := range gaps {
			if gaps[i].K < k {
				gaps[i].K, gaps[i].PassK, gaps[i].Diff, gaps[i].Ratio, gaps[i].TasksK = k, math.NaN(), math.NaN(), math.NaN(), 0
				res.Notes = append(res.Notes, fmt.Sprintf("%s has no task with %d trials: pass^%d is unknown", units.ByID(gaps[i].RunID).Name(), k, k))
			}
		}
	}
	var left []string
	seen := map[int64]bool{}
	for _, g := range gaps {
		if g.K >= 2 {
			res.Rows = append(res.Rows, g)
			continue
		}
		if !seen[g.RunID] {
			seen[g.RunID] = true
			if u := units.ByID(g.RunID); u.Pooled {
				left = append(left, u.Label(names))
			} else {
				left = append(left, fmt.Sprintf("%d (%s)", g.RunID, names[g.RunID]))
			}
		}
	}
	if len(left) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("left out %s with one trial per task: a gap needs k >= 2 (run with --trials 2 or more): %s",
			plural(len(left), units.Noun(), units.Noun()+"s"), strings.Join(left, ", ")))
	}
	return res
}
