package table

import "github.com/emobench/emobench/analysis"

// Funnel is Tracer's funnel as `tracer filter` and `tracer funnel` print
// it: one row per (domain, family), in f's order, then the total (domain
// and family "all"), each with the counts of every step from generated
// tasks to kept trajectories and those of unknown user dependence.
func Funnel(f analysis.Funnel) *Table {
	t := &Table{Columns: []string{"domain", "family", "generated", "collected", "test_excluded", "passed", "not_abandoned", "within_dependence", "kept", "dependence_unknown"}}
	row := func(domain, family string, r analysis.FunnelRow) {
		t.Rows = append(t.Rows, []any{domain, family, r.Generated, r.Collected, r.TestExcluded, r.Passed, r.NotAbandoned, r.WithinDependence, r.Kept, r.DependenceUnknown})
	}
	for _, r := range f.Rows {
		row(r.Domain, r.Family, r)
	}
	row("all", "all", f.Total)
	return t
}

// SelectionRow is one stored Tracer selection as `tracer funnel` lists it.
type SelectionRow struct {
	Name      string
	CreatedAt string // RFC 3339, UTC
	Size      int    // kept trajectories
	Criteria  string // the criteria record, JSON
}

// Selections lists stored selections, one row each in order.
func Selections(sels []SelectionRow) *Table {
	t := &Table{Columns: []string{"name", "created_at", "trajectories", "criteria"}}
	for _, s := range sels {
		t.Rows = append(t.Rows, []any{s.Name, s.CreatedAt, s.Size, s.Criteria})
	}
	return t
}
