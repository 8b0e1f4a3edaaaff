package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// StrictPassKRow is one (run, group, k) scored twice over the same tasks
// and trials: Gated counts a trajectory as passed when its reward is 1,
// which each task's reward basis gates; Strict counts it only when, in
// addition, every check its reward_info records passed (τ²-bench issues
// #15, #81, #224: reward 1 while a check outside reward_basis failed).
// Demoted is the number of the group's trajectories that pass gated but
// not strictly; Delta is Strict.PassHatK − Gated.PassHatK (≤ 0; NaN when
// not evaluated).
type StrictPassKRow struct {
	Gated, Strict PassKRow
	Demoted       int
	Delta         float64
}

// StrictPassK computes pass^k and pass@k as PassK does, with gated and
// with strict passes, row by row:
//
//	strict pass^k = mean_t C(s_t,k)/C(n_t,k),  s_t ≤ c_t
//
// where s_t counts the strict passes of task t. gated and strict must
// hold the same tasks in the same order with the same trials and groups,
// strict passes never above gated ones; otherwise (the data changed
// between two reads, say) it returns an error naming the first task that
// differs. Errors of opts are PassK's.
func StrictPassK(gated, strict []TaskTrials, opts PassKOptions) ([]StrictPassKRow, error) {
	if len(gated) != len(strict) {
		return nil, fmt.Errorf("strict scoring: %d tasks gated, %d strict: the runs changed while they were read; run again", len(gated), len(strict))
	}
	demoted := map[string]int{}
	for i, g := range gated {
		s := strict[i]
		if g.RunID != s.RunID || g.TaskID != s.TaskID || g.Trials != s.Trials || !slices.Equal(g.Group, s.Group) {
			return nil, fmt.Errorf("strict scoring: run %d, task row %d: gated and strict counts are of different tasks or trials: the runs changed while they were read; run again", g.RunID, g.TaskID)
		}
		if s.Passes > g.Passes {
			return nil, fmt.Errorf("strict scoring: run %d, task row %d: %d strict passes above %d gated ones", g.RunID, g.TaskID, s.Passes, g.Passes)
		}
		demoted[groupKey(g.RunID, g.Group)] += g.Passes - s.Passes
	}
	gatedRows, err := PassK(gated, opts)
	if err != nil {
		return nil, err
	}
	strictRows, err := PassK(strict, opts)
	if err != nil {
		return nil, err
	}
	// Equal tasks, trials and groups give the same rows in the same order.
	rows := make([]StrictPassKRow, len(gatedRows))
	for i, g := range gatedRows {
		s := strictRows[i]
		rows[i] = StrictPassKRow{Gated: g, Strict: s, Demoted: demoted[groupKey(g.RunID, g.Group)], Delta: s.PassHatK - g.PassHatK}
		if g.NotEvaluated {
			rows[i].Delta = math.NaN()
		}
	}
	return rows, nil
}

func groupKey(run int64, group []string) string {
	b := strconv.AppendInt(nil, run, 10)
	for _, v := range group {
		b = append(append(b, 0), v...)
	}
	return string(b)
}
