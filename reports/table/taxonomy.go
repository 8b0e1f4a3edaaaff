package table

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/emobench/emobench"
)

// Taxonomy lists the emotion taxonomy (the emotions command): each family
// with its leaves, then each profile dimension with its values.
func Taxonomy() *Table {
	t := &Table{Columns: []string{"kind", "name", "values"}}
	for _, f := range emobench.Taxonomy.Families {
		t.Rows = append(t.Rows, []any{"family", f.Name, strings.Join(f.Leaves, ", ")})
	}
	for _, d := range emobench.ProfileDimensions {
		t.Rows = append(t.Rows, []any{"dimension", d, strings.Join(emobench.Taxonomy.Dimensions[d], ", ")})
	}
	return t
}

// WriteTaxonomy writes the emotion taxonomy to w in format: "table", the
// Taxonomy table; "json", emobench.Taxonomy as indented JSON.
func WriteTaxonomy(w io.Writer, format string) error {
	if format == "table" {
		return Taxonomy().Write(w, format)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(emobench.Taxonomy)
}
