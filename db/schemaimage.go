package db

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// schemaImage is the SQL that creates, in an empty file, the schema every
// migration together leaves: the CREATE statements of its sqlite_schema,
// tables first, then indexes, views and triggers, each kind in the order
// the migrations created it. Applying the migrations one by one costs a
// new file twelve commits and a reparse of the whole schema after every
// ALTER TABLE; the image is one statement list in one transaction.
// TestSchemaImage_EqualsMigrations checks that a file created from it has,
// object for object, the schema the migrations create step by step. It is
// built once per process, from an in-memory database (memorySchema).
var schemaImage = sync.OnceValues(func() (string, error) {
	ctx := context.Background()
	mem, err := memorySchema(ctx, SchemaVersion())
	if err != nil {
		return "", err
	}
	defer mem.Close()
	// sqlite_sequence and SQLite's other internal objects come with the
	// tables that need them; automatic indexes have no sql.
	stmts, err := stringRows(ctx, mem, `SELECT sql FROM sqlite_schema
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
		ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, rowid`)
	if err != nil {
		return "", err
	}
	return strings.Join(stmts, ";\n") + ";\n", nil
})

// createFromImage gives the empty file (schema version 0, no objects) the
// current schema in one transaction (schemaImage). It reports false, having
// written nothing, when the file is no longer at version 0: another process
// created or migrated it meanwhile, and migrate goes on from its version.
// A file at version 0 with objects is another program's (refuseForeign).
func (db *DB) createFromImage(ctx context.Context) (bool, error) {
	image, err := schemaImage()
	if err != nil {
		return false, err
	}
	created := false
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		var current int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
			return err
		}
		if current != 0 {
			return nil
		}
		if err := refuseForeign(ctx, tx, db.path); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, image); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "PRAGMA application_id = "+strconv.Itoa(ApplicationID)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(SchemaVersion())); err != nil {
			return err
		}
		created = true
		return nil
	})
	return created, err
}
