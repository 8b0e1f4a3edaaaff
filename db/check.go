package db

import (
	"context"
	"database/sql"
	"strings"
)

// CheckReport is what Check found. A file is healthy when Problems is empty.
type CheckReport struct {
	SchemaVersion int
	Integrity     []string // PRAGMA integrity_check's lines ("ok" when sound)
	Problems      []string // schema differences and integrity errors, one per line
	Notes         []string // objects of the file's own, left alone, and how to repair the schema
}

// Check runs SQLite's integrity_check and compares the file's schema with
// the schema this emobench's migrations create, on a read-only
// connection: by the function the opening of a file uses (schemaDiff), so
// that a file Check passes is one every command accepts, and each object
// that has every other command refuse the file is a problem here, in the
// same words. Tables, views and indexes of the file's own are notes. When the schema
// matches and is this build's, it also recounts the per-(run, task)
// outcomes from every trajectory (CheckOutcomes, whose queries read the
// current schema; migrate recomputes an older file's outcomes).
func (db *DB) Check(ctx context.Context) (CheckReport, error) {
	var rep CheckReport
	version, err := db.userVersion(ctx)
	if err != nil {
		return rep, err
	}
	rep.SchemaVersion = version
	if db.notOurs != nil {
		rep.Problems = append(rep.Problems, db.notOurs.Error())
	} else if version == 0 {
		rep.Problems = append(rep.Problems, "no emobench schema (user_version 0): not an emobench database, or an empty file")
	}
	if rep.Integrity, err = stringRows(ctx, db.sql, "PRAGMA integrity_check"); err != nil {
		return rep, err
	}
	if len(rep.Integrity) != 1 || rep.Integrity[0] != "ok" {
		for _, line := range rep.Integrity {
			rep.Problems = append(rep.Problems, "integrity: "+line)
		}
	}
	if db.notOurs != nil {
		return rep, nil // another program's schema: not compared with emobench's
	}
	problems, notes, err := schemaDiff(ctx, db.sql, version)
	if err != nil {
		return rep, err
	}
	rep.Problems = append(rep.Problems, problems...)
	rep.Notes = notes
	if len(problems) > 0 && version > 0 {
		rep.Notes = append(rep.Notes, "the file's schema was altered outside emobench: every command but check and sql refuses it until each object above is as emobench creates it (a new file from `emobench --db new.db migrate` has them)")
	}
	if len(rep.Problems) == 0 && version >= SchemaVersion() {
		outcomes, err := db.CheckOutcomes(ctx)
		if err != nil {
			return rep, err
		}
		rep.Problems = append(rep.Problems, outcomes...)
	}
	return rep, nil
}

// outcomesVersion is the schema version that added run_task_outcomes.
const outcomesVersion = 9

// referenceSchema builds, in memory, the schema of the given version.
func referenceSchema(ctx context.Context, version int) (map[string]schemaObject, error) {
	mem, err := memorySchema(ctx, version)
	if err != nil {
		return nil, err
	}
	defer mem.Close()
	return schemaOf(ctx, mem)
}

// memorySchema returns an in-memory database (one connection, closed with
// it) holding emobench's schema of the given version: its migrations.
func memorySchema(ctx context.Context, version int) (*sql.DB, error) {
	mem, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	mem.SetMaxOpenConns(1)
	for _, m := range migrations() {
		if m.version > version {
			break
		}
		body, err := migrationFS.ReadFile("migrations/" + m.name)
		if err == nil {
			_, err = mem.ExecContext(ctx, string(body))
		}
		if err != nil {
			mem.Close()
			return nil, err
		}
	}
	return mem, nil
}

// schemaObject is one table, view, index or trigger as sqlite_schema
// holds it, by its columns: what recognises an earlier emobench's file
// (missingSchema). Definitions are compared by schemaProblems.
type schemaObject struct {
	cols string // column names of tables and views, comma-separated
}

// schemaOf maps each schema object ("table runs", "index tasks_pair", ...)
// to its columns.
func schemaOf(ctx context.Context, conn *sql.DB) (map[string]schemaObject, error) {
	rows, err := conn.QueryContext(ctx, "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
	if err != nil {
		return nil, err
	}
	type object struct{ kind, name string }
	var objects []object
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.kind, &o.name); err != nil {
			rows.Close()
			return nil, err
		}
		objects = append(objects, o)
	}
	rows.Close()
	out := map[string]schemaObject{}
	for _, o := range objects {
		// A view that does not even compile is reported, not fatal: such
		// files are what check is for.
		var obj schemaObject
		if o.kind == "table" || o.kind == "view" {
			names, err := stringRows(ctx, conn, "SELECT name FROM pragma_table_info(?)", o.name)
			if err != nil {
				obj.cols = "cannot read columns: " + err.Error()
			} else {
				obj.cols = strings.Join(names, ",")
			}
		}
		out[o.kind+" "+o.name] = obj
	}
	return out, nil
}

func stringRows(ctx context.Context, conn *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
