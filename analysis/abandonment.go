package analysis

import (
	"math"
	"slices"
	"strings"
)

// AbandonmentRow is one trajectory's abandonment outcome. Group holds the
// values of the grouping fields the caller chose (the same fields, in the
// same order, for every row; nil puts every row in one group).
type AbandonmentRow struct {
	Group     []string
	Abandoned bool // the user gave up (e.g. ###UNSATISFIED### or a stop before the goal)
	// Turn is the 1-based index of the user turn at which the user
	// abandoned; 0 or less when unknown or not abandoned.
	Turn int
}

// AbandonmentRate is the abandonment rate of one group.
type AbandonmentRate struct {
	Group     []string
	N         int     // trajectories
	Abandoned int     // of which abandoned
	Rate      float64 // Abandoned / N
	CI        CI      // 95% Wilson score interval of Rate (Wilson 1927; see Wilson)
	// MeanTurn is the mean Turn over the abandoned rows whose Turn ≥ 1;
	// NaN when there are none.
	MeanTurn float64
}

// Abandonment computes, per group, the abandonment rate
//
//	rate = abandoned / n
//
// with its 95% Wilson score interval (Wilson 1927), and the mean user turn
// at which users abandoned. Groups come out sorted by their values; empty
// input gives nil.
func Abandonment(rows []AbandonmentRow) []AbandonmentRate {
	type acc struct {
		rate          AbandonmentRate
		turnSum       float64
		turnsObserved int
	}
	index := map[string]*acc{}
	var groups []*acc
	for _, r := range rows {
		key := strings.Join(r.Group, "\x00")
		a, ok := index[key]
		if !ok {
			a = &acc{rate: AbandonmentRate{Group: r.Group}}
			index[key] = a
			groups = append(groups, a)
		}
		a.rate.N++
		if r.Abandoned {
			a.rate.Abandoned++
			if r.Turn >= 1 {
				a.turnSum += float64(r.Turn)
				a.turnsObserved++
			}
		}
	}
	slices.SortStableFunc(groups, func(a, b *acc) int { return slices.Compare(a.rate.Group, b.rate.Group) })
	var out []AbandonmentRate
	for _, a := range groups {
		r := a.rate
		r.Rate = float64(r.Abandoned) / float64(r.N)
		r.CI = Wilson(r.Abandoned, r.N, 0.95)
		r.MeanTurn = math.NaN()
		if a.turnsObserved > 0 {
			r.MeanTurn = a.turnSum / float64(a.turnsObserved)
		}
		out = append(out, r)
	}
	return out
}

// AbandonmentTrajectory is one trajectory for AbandonmentByUnit: its run,
// the values of its group fields (read only), whether the user abandoned
// and at which user turn (see AbandonmentRow.Turn).
type AbandonmentTrajectory struct {
	RunID     int64
	Fields    map[string]string
	Abandoned bool
	Turn      int
}

// UnitAbandonment is Abandonment over one unit's trajectories grouped by
// Fields.
type UnitAbandonment struct {
	Unit   Unit
	Fields []string
	Rates  []AbandonmentRate
}

// AbandonmentByUnit computes, for every unit of u in order and every field
// list of dims in order, Abandonment over the unit's trajectories grouped
// by those fields (a missing field groups as ""). Trajectories of runs u
// does not hold are left out.
func AbandonmentByUnit(trajectories []AbandonmentTrajectory, u Units, dims [][]string) []UnitAbandonment {
	byUnit := map[int64][]AbandonmentTrajectory{}
	for _, t := range trajectories {
		if unit, ok := u.Of(t.RunID); ok {
			byUnit[unit.ID] = append(byUnit[unit.ID], t)
		}
	}
	var out []UnitAbandonment
	for _, unit := range u.List() {
		for _, fields := range dims {
			rows := make([]AbandonmentRow, len(byUnit[unit.ID]))
			for i, t := range byUnit[unit.ID] {
				group := make([]string, len(fields))
				for j, f := range fields {
					group[j] = t.Fields[f]
				}
				rows[i] = AbandonmentRow{Group: group, Abandoned: t.Abandoned, Turn: t.Turn}
			}
			out = append(out, UnitAbandonment{Unit: unit, Fields: fields, Rates: Abandonment(rows)})
		}
	}
	return out
}
