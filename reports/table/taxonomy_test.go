package table_test

import (
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/reports/table"
)

// Taxonomy has a row per family, then per profile dimension.
func TestTaxonomy(t *testing.T) {
	got := table.Taxonomy()
	if want := len(emobench.Taxonomy.Families) + len(emobench.ProfileDimensions); len(got.Rows) != want {
		t.Fatalf("%d rows, want %d", len(got.Rows), want)
	}
	if got.Rows[0][0] != "family" || got.Rows[len(got.Rows)-1][0] != "dimension" {
		t.Errorf("rows run %v … %v, want families then dimensions", got.Rows[0], got.Rows[len(got.Rows)-1])
	}
}
