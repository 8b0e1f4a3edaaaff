package db

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
)

// CheckReport is what Check found. A file is healthy when Problems is empty.
type CheckReport struct {
	SchemaVersion int
	Integrity     []string // PRAGMA integrity_check's lines ("ok" when sound)
	Problems      []string // schema differences and integrity errors, one per line
}

// Check runs SQLite's integrity_check and compares the file's schema with
// the schema this emobench's migrations create (tables, views, indexes,
// triggers and every column), on a read-only connection. When the schema
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
	want, err := referenceSchema(ctx, version)
	if err != nil {
		return rep, err
	}
	got, err := schemaOf(ctx, db.sql)
	if err != nil {
		return rep, err
	}
	rep.Problems = append(rep.Problems, compareSchemas(want, got)...)
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

// schemaObject is one table, view, index or trigger as sqlite_schema holds it.
type schemaObject struct {
	cols string // column names of tables and views, comma-separated
	sql  string // its definition, white space collapsed
}

// schemaOf maps each schema object ("table runs", "index tasks_pair", ...)
// to its columns and definition.
func schemaOf(ctx context.Context, conn *sql.DB) (map[string]schemaObject, error) {
	rows, err := conn.QueryContext(ctx, "SELECT type, name, COALESCE(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
	if err != nil {
		return nil, err
	}
	type object struct{ kind, name, sql string }
	var objects []object
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.kind, &o.name, &o.sql); err != nil {
			rows.Close()
			return nil, err
		}
		objects = append(objects, o)
	}
	rows.Close()
	out := map[string]schemaObject{}
	for _, o := range objects {
		// The definition itself is compared too: a view rewritten with the
		// same columns must not pass. One that does not even compile is
		// reported, not fatal: such files are what check is for.
		obj := schemaObject{sql: strings.Join(strings.Fields(o.sql), " ")}
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

func compareSchemas(want, got map[string]schemaObject) []string {
	var problems []string
	for obj, w := range want {
		g, ok := got[obj]
		switch {
		case !ok:
			problems = append(problems, "missing "+obj)
		case g.cols != w.cols:
			problems = append(problems, fmt.Sprintf("%s has columns (%s), want (%s)", obj, g.cols, w.cols))
		case g.sql != w.sql:
			problems = append(problems, fmt.Sprintf("%s has another definition than emobench's: %s", obj, g.sql))
		}
	}
	for obj := range got {
		if _, ok := want[obj]; !ok {
			problems = append(problems, "unexpected "+obj+" (not created by emobench)")
		}
	}
	sort.Strings(problems)
	return problems
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
