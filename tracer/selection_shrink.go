package tracer

import (
	"fmt"

	"github.com/emobench/emobench/db"
)

// ShrunkWarning is the warning for a selection that holds fewer
// trajectories than it was stored with (`runs rm` deleted some, and the
// foreign key took them out of it), or "" when it holds them all. sel's
// Size must be set (FindSelection, ListSelections).
func ShrunkWarning(sel db.Selection) string {
	f, err := DecodeFunnel(sel)
	if err != nil || f.Total.Kept <= sel.Size {
		return ""
	}
	return fmt.Sprintf("selection %s was stored with %d trajectories; %d were deleted since (runs rm); re-run tracer filter",
		sel.Name, f.Total.Kept, f.Total.Kept-sel.Size)
}

// ShrunkSelections names the selections of after that hold fewer
// trajectories than the same selection in before, with the counts, as
// notes ("selection k1 loses 46 of its 100 trajectories").
func ShrunkSelections(before, after []db.Selection) []string {
	size := map[int64]int{}
	for _, s := range after {
		size[s.ID] = s.Size
	}
	var notes []string
	for _, s := range before {
		if n, ok := size[s.ID]; ok && n < s.Size {
			notes = append(notes, fmt.Sprintf("selection %s loses %d of its %d trajectories (re-run tracer filter)", s.Name, s.Size-n, s.Size))
		}
	}
	return notes
}
