// Package analysis holds the workbench's statistics as pure functions over
// plain slices: no SQL, no I/O. Callers (cmd/emobench) load the data and hand
// it in; reports render what comes out.
package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Convention says which trial count n enters the pass^k estimators.
type Convention string

const (
	// PerTask uses each task's own number of trials n_t and leaves out of
	// pass^k every task with n_t < k (τ²-bench's convention).
	PerTask Convention = "per-task"
	// MinTrials uses the run's number of distinct trial values as n for every
	// task (τ-bench v1's display_metrics).
	MinTrials Convention = "min-trials"
)

// ParseConvention returns the Convention spelled s.
func ParseConvention(s string) (Convention, error) {
	switch c := Convention(s); c {
	case PerTask, MinTrials:
		return c, nil
	}
	return "", fmt.Errorf("convention %q is not one of per-task, min-trials", s)
}

// PassHatK is the unbiased estimator of the probability that k i.i.d. trials
// of one task all pass, given c passes in n trials:
//
//	pass^k = C(c,k) / C(n,k)  (Yao et al. 2024, τ-bench)
//
// It is computed as the product Π_{i<k} (c−i)/(n−i), which neither overflows
// nor loses precision for large n. It returns NaN when k < 1, n < k, or c is
// outside [0, n].
func PassHatK(n, c, k int) float64 {
	if k < 1 || n < k || c < 0 || c > n {
		return math.NaN()
	}
	p := 1.0
	for i := 0; i < k; i++ {
		if c-i <= 0 {
			return 0
		}
		p *= float64(c-i) / float64(n-i)
	}
	return p
}

// PassAtK is the unbiased estimator of the probability that at least one of
// k i.i.d. trials of one task passes, given c passes in n trials:
//
//	pass@k = 1 − C(n−c,k) / C(n,k)  (Chen et al. 2021, Codex)
//
// It returns NaN when k < 1, n < k, or c is outside [0, n].
func PassAtK(n, c, k int) float64 {
	if k < 1 || n < k || c < 0 || c > n {
		return math.NaN()
	}
	return 1 - PassHatK(n, n-c, k)
}

// TaskTrials is one task's outcome within one run: how many trials were run
// and how many passed. Group holds the values of the grouping fields the
// caller asked for (the same fields, in the same order, for every element).
// Unevaluated counts the trials without reward information (0, the zero
// value, when every trial was evaluated); they count as failures in Passes.
type TaskTrials struct {
	RunID       int64
	TaskID      int64
	Group       []string
	Trials      int
	Passes      int
	Unevaluated int
	// Excluded counts the task's trajectories left out of the listing
	// (τ²-bench's non-evaluable ones under --infra-errors exclude). Under
	// MinTrials the task's n is the run's n less these, so that an
	// excluded trial leaves the denominator rather than counting as a
	// missing one (a failure).
	Excluded int
}

// minTrialsN is the MinTrials n of task t in a unit whose n is runN.
func minTrialsN(runN int, t TaskTrials) int { return runN - t.Excluded }

// NotEvaluated reports whether tasks have trials and none of them was
// evaluated. A statistic over such a unit (or group) is "not evaluated":
// its failures are not measured failures, so it is NaN, never 0.
func NotEvaluated(tasks []TaskTrials) bool {
	trials, unevaluated := 0, 0
	for _, t := range tasks {
		trials += t.Trials
		unevaluated += t.Unevaluated
	}
	return trials > 0 && unevaluated >= trials
}

// NotEvaluatedText is how outputs mark a statistic that is not evaluated.
const NotEvaluatedText = "not evaluated"

// PassKOptions configures PassK.
type PassKOptions struct {
	Convention Convention // PerTask when empty
	// Ks lists the k to report. When empty, every k from 1 to the largest n
	// seen in the group is reported.
	Ks []int
	// RunTrials gives, for MinTrials, each run's number of distinct trial
	// values. A run missing from the map falls back to the largest n_t of
	// its tasks.
	RunTrials map[int64]int
}

// PassKRow is pass^k and pass@k for one (run, group) at one k.
type PassKRow struct {
	RunID        int64
	Group        []string
	K            int
	PassHatK     float64 // mean over the used tasks of C(c,k)/C(n,k)
	PassAtK      float64 // mean over the used tasks of 1 − C(n−c,k)/C(n,k)
	Tasks        int     // tasks that entered the means
	Trajectories int     // trials of those tasks
	Convention   Convention
	// NotEvaluated is set when no trial of the (run, group) was evaluated
	// (see NotEvaluated): PassHatK and PassAtK are then NaN, not 0.
	NotEvaluated bool
	// HatCI and AtCI are the bootstrap intervals of PassHatK and PassAtK
	// over the row's tasks, once PassKIntervals has set them; the zero CI
	// before (and NaN bounds when the row is not evaluated).
	HatCI, AtCI CI
}

// PassK computes pass^k and pass@k per (run, group) and k. Rows come out
// ordered by run, group, then k. A (run, group, k) that no task can estimate
// (every n_t < k) yields no row. A (run, group) none of whose trials was
// evaluated yields its rows with NotEvaluated set and NaN estimates.
func PassK(tasks []TaskTrials, opts PassKOptions) ([]PassKRow, error) {
	conv := opts.Convention
	if conv == "" {
		conv = PerTask
	}
	if _, err := ParseConvention(string(conv)); err != nil {
		return nil, err
	}
	for _, k := range opts.Ks {
		if k < 1 {
			return nil, fmt.Errorf("k = %d: k must be at least 1", k)
		}
	}
	groups := groupTasks(tasks)
	// At most one row per group and k: made at that size, not grown (rows
	// are large, and growing them was a tenth of stats passk's memory).
	size := 0
	for _, g := range groups {
		if len(opts.Ks) > 0 {
			size += len(opts.Ks)
		} else {
			size += maxTrials(g.tasks)
		}
	}
	var rows []PassKRow
	if size > 0 {
		rows = make([]PassKRow, 0, size)
	}
	for _, g := range groups {
		rows = passKGroup(rows, g, conv, opts)
	}
	return rows, nil
}

type taskGroup struct {
	runID  int64
	group  []string
	tasks  []TaskTrials // read only: often a part of PassK's input
	lo, hi int          // tasks is the input's [lo:hi] while shared
	shared bool
}

// groupTasks groups tasks by (run, group), in order of first appearance,
// then sorts the groups by run and group. Tasks come grouped (by run, and
// often by group), so a task of the last group seen is appended without a
// lookup; the others look their group up by a key built in one buffer. A
// group whose tasks are consecutive in the input is that part of it, not
// a copy (copies grown task by task were most of pass^k's allocations).
func groupTasks(tasks []TaskTrials) []*taskGroup {
	index := map[string]*taskGroup{}
	var groups []*taskGroup
	var last *taskGroup
	var buf []byte
	for i, t := range tasks {
		if last == nil || last.runID != t.RunID || !slices.Equal(last.group, t.Group) {
			buf = strconv.AppendInt(buf[:0], t.RunID, 10)
			for _, v := range t.Group {
				buf = append(append(buf, 0), v...)
			}
			g, ok := index[string(buf)]
			if !ok {
				g = &taskGroup{runID: t.RunID, group: t.Group, lo: i, hi: i, shared: true}
				index[string(buf)] = g
				groups = append(groups, g)
			}
			last = g
		}
		switch {
		case last.shared && last.hi == i:
			last.hi++
		case last.shared: // the group resumes after others: copy it
			last.tasks = append(slices.Clone(tasks[last.lo:last.hi]), t)
			last.shared = false
		default:
			last.tasks = append(last.tasks, t)
		}
	}
	for _, g := range groups {
		if g.shared {
			g.tasks = tasks[g.lo:g.hi:g.hi]
		}
	}
	slices.SortStableFunc(groups, func(a, b *taskGroup) int {
		if a.runID != b.runID {
			return int(a.runID - b.runID)
		}
		return slices.Compare(a.group, b.group)
	})
	return groups
}

// passKGroup appends group g's rows, one per k, to rows.
func passKGroup(rows []PassKRow, g *taskGroup, conv Convention, opts PassKOptions) []PassKRow {
	trialsOf := func(t TaskTrials) int { return t.Trials }
	if conv == MinTrials {
		n, ok := opts.RunTrials[g.runID]
		if !ok {
			n = maxTrials(g.tasks)
		}
		trialsOf = func(t TaskTrials) int { return minTrialsN(n, t) }
	}
	ks := opts.Ks
	if len(ks) == 0 {
		maxN := 0
		for _, t := range g.tasks {
			maxN = max(maxN, trialsOf(t))
		}
		for k := 1; k <= maxN; k++ {
			ks = append(ks, k)
		}
	}
	notEvaluated := NotEvaluated(g.tasks)
	for _, k := range ks {
		row := PassKRow{RunID: g.runID, Group: g.group, K: k, Convention: conv, NotEvaluated: notEvaluated}
		var sumHat, sumAt float64
		for _, t := range g.tasks {
			n := trialsOf(t)
			if n < k || t.Passes > n {
				continue
			}
			sumHat += PassHatK(n, t.Passes, k)
			sumAt += PassAtK(n, t.Passes, k)
			row.Tasks++
			row.Trajectories += t.Trials
		}
		if row.Tasks == 0 {
			continue
		}
		row.PassHatK = sumHat / float64(row.Tasks)
		row.PassAtK = sumAt / float64(row.Tasks)
		if notEvaluated {
			row.PassHatK, row.PassAtK = math.NaN(), math.NaN()
		}
		rows = append(rows, row)
	}
	return rows
}

// MinTrialsSuspect reports whether MinTrials' n is in doubt for one run:
// n = distinct, the number of distinct trial values, is only the number of
// trials each task was meant to have when those values are the n
// consecutive numbers from 0 (or from 1) and some task has exactly n
// trials. It is suspect when the values have gaps (last − first + 1 ≠ n),
// start above 1 (a trial equal to the task id, say), or when the most
// trials any task has, maxTaskTrials, is not n.
func MinTrialsSuspect(distinct, first, last, maxTaskTrials int) bool {
	return last-first+1 != distinct || first > 1 || first < 0 || maxTaskTrials != distinct
}

func maxTrials(tasks []TaskTrials) int {
	n := 0
	for _, t := range tasks {
		n = max(n, t.Trials)
	}
	return n
}

// TrialNumbers describes the trial values of one run: how many distinct
// values, and the smallest and largest.
type TrialNumbers struct {
	Distinct, First, Last int
}

// SuspectTrialNotes returns, for --convention min-trials, one note per run
// of tasks (per-run TaskTrials, ascending run ids) whose n, its number of
// distinct trial values in numbers, is in doubt (MinTrialsSuspect), naming
// the run (by names), its trial values, its tasks' trials and the n used.
func SuspectTrialNotes(numbers map[int64]TrialNumbers, tasks []TaskTrials, names map[int64]string) []string {
	fewest, most := map[int64]int{}, map[int64]int{}
	var ids []int64
	for _, t := range tasks {
		if _, ok := most[t.RunID]; !ok {
			ids = append(ids, t.RunID)
			fewest[t.RunID] = t.Trials
		}
		fewest[t.RunID] = min(fewest[t.RunID], t.Trials)
		most[t.RunID] = max(most[t.RunID], t.Trials)
	}
	slices.Sort(ids)
	var notes []string
	for _, id := range ids {
		n := numbers[id]
		if !MinTrialsSuspect(n.Distinct, n.First, n.Last, most[id]) {
			continue
		}
		taskTrials := fmt.Sprintf("%d-%d trials", fewest[id], most[id])
		switch {
		case fewest[id] == 1 && most[id] == 1:
			taskTrials = "1 trial"
		case fewest[id] == most[id]:
			taskTrials = fmt.Sprintf("%d trials", most[id])
		}
		notes = append(notes, fmt.Sprintf("run %d (%s): trial numbers look sparse: %s from %d to %d, and tasks have %s; --convention min-trials used n = %d for every task (--convention per-task uses each task's own trials)",
			id, names[id], plural(n.Distinct, "distinct value", "distinct values"), n.First, n.Last, taskTrials, n.Distinct))
	}
	return notes
}
