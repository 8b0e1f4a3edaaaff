package reports

import (
	"strconv"

	"github.com/emobench/emobench/analysis"
)

// StrictTable is the table of strict pass^k beside gated pass^k, one row
// per run (or pool) and k, after the runs table: the rows of stats passk
// --strict. It is shown when Rows is not empty.
type StrictTable struct {
	Command string // the emobench stats command that prints these numbers, named in the caption; empty: not named
	Caption string // the generated caption, which Build writes
	Rows    []StrictRow
}

// StrictRow is one run's (or pool's) pass^k at one k, gated and strict.
type StrictRow struct {
	RunID int64  // the unit's id (its first run's when pooled)
	Unit  string // the run's or pool's label
	K     int
	// PassHatK is pass^k as each trial's reward gates it; StrictPassHatK
	// counts a trial as passed only when every check its reward_info
	// records passed; Delta is strict − gated (≤ 0). All NaN when
	// NotEvaluated.
	PassHatK, StrictPassHatK, Delta float64
	Demoted                         int // trials that pass gated and fail strict
	Tasks                           int // tasks behind the row (its n)
	NotEvaluated                    bool
}

// strictTable lays out rows (stats passk --strict, no group fields) with
// units named by label.
func strictTable(rows []analysis.StrictPassKRow, label func(int64) string, noun, command string) StrictTable {
	t := StrictTable{
		Command: command,
		Caption: "pass^k per " + noun + " as the rewards gate it (gated) and strict: a trial passes strictly only when every check its reward_info records passed, " +
			"in its reward_basis or not (a τ²-bench reward can be 1 while an action check or NL assertion outside reward_basis failed). " +
			"Demoted: trials that pass gated and fail strict. Tasks: the tasks with at least k trials." + commandNote(command),
	}
	for _, r := range rows {
		g := r.Gated
		t.Rows = append(t.Rows, StrictRow{
			RunID: g.RunID, Unit: label(g.RunID), K: g.K,
			PassHatK: g.PassHatK, StrictPassHatK: r.Strict.PassHatK, Delta: r.Delta,
			Demoted: r.Demoted, Tasks: g.Tasks, NotEvaluated: g.NotEvaluated,
		})
	}
	return t
}

// strictPageRow is a StrictRow as the page prints it.
type strictPageRow struct {
	Unit, K, PassHatK, StrictPassHatK, Delta string
	Demoted, Tasks                           int
}

func strictPageRows(t StrictTable) []strictPageRow {
	var out []strictPageRow
	for _, r := range t.Rows {
		row := strictPageRow{Unit: r.Unit, K: strconv.Itoa(r.K), Demoted: r.Demoted, Tasks: r.Tasks,
			PassHatK: formatRate(r.PassHatK), StrictPassHatK: formatRate(r.StrictPassHatK), Delta: formatSigned(r.Delta)}
		if r.NotEvaluated {
			row.PassHatK, row.StrictPassHatK, row.Delta = analysis.NotEvaluatedText, analysis.NotEvaluatedText, "–"
		}
		out = append(out, row)
	}
	return out
}

// formatSigned is formatRate with a sign: "−0.250", "+0.000".
func formatSigned(v float64) string {
	s := formatRate(v)
	switch {
	case s == "–":
		return s
	case v < 0:
		return "−" + s[1:]
	}
	return "+" + s
}
