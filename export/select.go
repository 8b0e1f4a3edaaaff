package export

import (
	"fmt"
	"iter"
	"slices"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/redact"
)

// Select returns the runs of all that ids names, in the order of ids, or
// every run of all when ids is empty. Each run's config is redacted, and its
// trajectories, from trajectories(id), pass through clean: a file an older
// emobench wrote may hold credentials no writing command has redacted yet,
// and export only reads it.
func Select(all []emobench.Run, ids []int64, trajectories func(id int64) iter.Seq2[*emobench.Trajectory, error], clean func(*emobench.Trajectory)) []Run {
	var runs []Run
	for _, r := range all {
		r.Config, _ = redact.Config(r.Config)
		if len(ids) == 0 || slices.Contains(ids, r.ID) {
			runs = append(runs, Run{Run: r, Trajectories: cleaned(trajectories(r.ID), clean)})
		}
	}
	if len(ids) > 0 {
		slices.SortStableFunc(runs, func(a, b Run) int {
			return slices.Index(ids, a.ID) - slices.Index(ids, b.ID)
		})
	}
	return runs
}

// cleaned passes each trajectory of trajs through clean.
func cleaned(trajs iter.Seq2[*emobench.Trajectory, error], clean func(*emobench.Trajectory)) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		for t, err := range trajs {
			if t != nil {
				clean(t)
			}
			if !yield(t, err) {
				return
			}
		}
	}
}

// String describes the written file in one line, such as "wrote runs.csv
// (2 runs)".
func (w Written) String() string {
	switch {
	case w.RunID != 0:
		return fmt.Sprintf("wrote %s (run %d, %s)", w.Path, w.RunID, count(w.Trajectories, "trajectory", "trajectories"))
	case w.Table == "":
		return fmt.Sprintf("wrote %s (%s, %s)", w.Path, count(w.Runs, "run", "runs"), count(w.Trajectories, "trajectory", "trajectories"))
	case w.Table == "runs":
		return fmt.Sprintf("wrote %s (%s)", w.Path, count(w.Runs, "run", "runs"))
	case w.Table == "trajectories":
		return fmt.Sprintf("wrote %s (%s)", w.Path, count(w.Trajectories, "trajectory", "trajectories"))
	default:
		return "wrote " + w.Path
	}
}

// count is n with the singular or plural noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
