package table_test

import (
	"bytes"
	"encoding/json"
	"strings"
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

// WriteTaxonomy's json is emobench.Taxonomy; its table names each family.
func TestWriteTaxonomy(t *testing.T) {
	var js, tab bytes.Buffer
	want, err := json.MarshalIndent(emobench.Taxonomy, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := table.WriteTaxonomy(&js, "json"); err != nil || js.String() != string(want)+"\n" {
		t.Errorf("json: %v\n%s\nwant\n%s", err, js.String(), want)
	}
	if err := table.WriteTaxonomy(&tab, "table"); err != nil || !strings.Contains(tab.String(), emobench.Taxonomy.Families[0].Name) {
		t.Errorf("table: %v\n%s", err, tab.String())
	}
}
