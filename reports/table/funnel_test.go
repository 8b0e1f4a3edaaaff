package table_test

import (
	"bytes"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
)

func TestFunnel(t *testing.T) {
	f := analysis.Funnel{
		Rows:  []analysis.FunnelRow{{Domain: "retail", Family: "anger", Generated: 5, Collected: 10, Passed: 6, NotAbandoned: 5, WithinDependence: 4, Kept: 4, DependenceUnknown: 1}},
		Total: analysis.FunnelRow{Generated: 5, Collected: 10, TestExcluded: 2, Passed: 6, NotAbandoned: 5, WithinDependence: 4, Kept: 4, DependenceUnknown: 1},
	}
	var b bytes.Buffer
	if err := table.Funnel(f).Write(&b, "csv"); err != nil {
		t.Fatal(err)
	}
	want := "domain,family,generated,collected,test_excluded,passed,not_abandoned,within_dependence,kept,dependence_unknown\n" +
		"retail,anger,5,10,0,6,5,4,4,1\nall,all,5,10,2,6,5,4,4,1\n"
	if got := b.String(); got != want {
		t.Fatalf("csv:\n%s\nwant\n%s", got, want)
	}
}

func TestSelections(t *testing.T) {
	var b bytes.Buffer
	rows := []table.SelectionRow{{Name: "sft", CreatedAt: "2026-01-02T03:04:05Z", Size: 7, Criteria: `{"min_reward":1}`}}
	if err := table.Selections(rows).Write(&b, "csv"); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "name,created_at,trajectories,criteria\nsft,2026-01-02T03:04:05Z,7,\"{\"\"min_reward\"\":1}\"\n"; got != want {
		t.Fatalf("csv %q, want %q", got, want)
	}
}
