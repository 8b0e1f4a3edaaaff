package db

import (
	"context"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// TestSchemaImage_EqualsMigrations checks that a new file, created from
// schemaImage in one transaction, holds object for object (type, name,
// table, SQL text) the schema the migrations create one by one, with the
// current version and emobench's application_id.
func TestSchemaImage_EqualsMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := readSchemaRows(ctx, d.sql)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := memorySchema(ctx, SchemaVersion())
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	want, err := readSchemaRows(ctx, mem)
	if err != nil {
		t.Fatal(err)
	}
	byKey := func(rows []schemaRow) []schemaRow {
		rows = append([]schemaRow(nil), rows...)
		sort.Slice(rows, func(i, j int) bool { return rows[i].key() < rows[j].key() })
		return rows
	}
	if g, w := byKey(got), byKey(want); !reflect.DeepEqual(g, w) {
		t.Fatalf("schema from the image differs from the migrations':\n got %d objects %v\nwant %d objects %v", len(g), g, len(w), w)
	}
	if dg := schemaDigest(got); dg != schemaDigests[SchemaVersion()] {
		t.Errorf("digest of the new file's schema = %s, want schemaDigests[%d] = %s", dg, SchemaVersion(), schemaDigests[SchemaVersion()])
	}
	for pragma, want := range map[string]int{"user_version": SchemaVersion(), "application_id": ApplicationID} {
		var v int
		if err := d.sql.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != want {
			t.Errorf("PRAGMA %s = %d, want %d", pragma, v, want)
		}
	}
	// The tables behave as the migrated ones: sqlite_sequence and the
	// automatic indexes come with them.
	var internal []string
	internal, err = stringRows(ctx, d.sql, "SELECT type || ' ' || name FROM sqlite_schema WHERE name LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	wantInternal, err := stringRows(ctx, mem, "SELECT type || ' ' || name FROM sqlite_schema WHERE name LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(internal, wantInternal) {
		t.Errorf("SQLite's own objects = %v, want %v", internal, wantInternal)
	}
}
