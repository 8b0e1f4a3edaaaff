package db

import (
	"context"
	"testing"
)

// The digest of the current schema is known without running the
// migrations; a new migration adds its version's digest here.
func TestSchemaDigests(t *testing.T) {
	t.Parallel()
	rows, err := expectedSchema(context.Background(), SchemaVersion())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := schemaDigests[SchemaVersion()], schemaDigest(rows); got != want {
		t.Fatalf("schemaDigests[%d] = %q, want %q (add the digest of the new schema version)", SchemaVersion(), got, want)
	}
}
