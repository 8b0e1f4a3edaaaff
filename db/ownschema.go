package db

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// schemaDigests holds, by schema version, the sha256 of the schema
// emobench's migrations create (schemaDigest of its sqlite_schema rows):
// a file whose rows have it is emobench's, known after one query. Another
// file's schema is compared with the migrations' (expectedSchema), once per
// version and process. TestSchemaDigests keeps the current version's here.
var schemaDigests = map[int]string{
	12: "ebf8d87bdaac24fb4a31241fb6e1355ad8760720604af8c1f6f3ef4ee4195e67",
}

// schemaRow is one row of sqlite_schema: a table, view, index or trigger.
type schemaRow struct{ kind, name, table, sql string }

func (r schemaRow) key() string { return r.kind + " " + strings.ToLower(r.name) }

// schemaQuery lists the schema's objects; SQLite's automatic indexes
// (sql NULL) follow from their tables' definitions.
const schemaQuery = "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL"

func readSchemaRows(ctx context.Context, conn *sql.DB) ([]schemaRow, error) {
	rows, err := conn.QueryContext(ctx, schemaQuery)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []schemaRow
	for rows.Next() {
		var r schemaRow
		if err := rows.Scan(&r.kind, &r.name, &r.table, &r.sql); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// schemaDigest is the sha256, in hex, of rows in (type, name) order.
func schemaDigest(rows []schemaRow) string {
	sorted := append([]schemaRow(nil), rows...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].key() < sorted[j].key() })
	h := sha256.New()
	for _, r := range sorted {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", r.kind, r.name, r.table, r.sql)
	}
	return hex.EncodeToString(h.Sum(nil))
}

var expected struct {
	sync.Mutex
	byVersion map[int][]schemaRow
}

// expectedSchema returns the sqlite_schema rows of emobench's schema of
// version, built in memory by its migrations once per process.
func expectedSchema(ctx context.Context, version int) ([]schemaRow, error) {
	expected.Lock()
	defer expected.Unlock()
	if rows, ok := expected.byVersion[version]; ok {
		return rows, nil
	}
	mem, err := memorySchema(ctx, version)
	if err != nil {
		return nil, err
	}
	defer mem.Close()
	rows, err := readSchemaRows(ctx, mem)
	if err != nil {
		return nil, err
	}
	if expected.byVersion == nil {
		expected.byVersion = map[int][]schemaRow{}
	}
	expected.byVersion[version] = rows
	return rows, nil
}

// foreignSchema compares the schema of conn, the file at path of schema
// version, with the one emobench's migrations create for that version
// (schemaDiff, which Check uses too: both give one verdict). It returns
// nil when every object of emobench's is there with its definition, byte
// for byte, and no trigger was added, nor an index to emobench's tables
// and views; the file may hold tables, views and indexes of its own
// besides (a user's table and its indexes, a view reading emobench's
// tables), which emobench's reads and writes never touch. Otherwise it
// returns an *AlteredSchemaError that names path and the first object that
// differs: a replaced view or a table turned into a view would run its SQL
// in emobench's reads, and a trigger in its writes. An error reading the
// schema (SQLITE_BUSY included) is returned as it is.
func foreignSchema(ctx context.Context, path string, conn *sql.DB, version int) error {
	problems, _, err := schemaDiff(ctx, conn, version)
	if err != nil {
		if isBusy(err) {
			return err
		}
		return fmt.Errorf("open %s: %w", path, err)
	}
	if len(problems) == 0 {
		return nil
	}
	more := ""
	if len(problems) > 1 {
		more = fmt.Sprintf(" (and %d more differences)", len(problems)-1)
	}
	return &AlteredSchemaError{Path: path, Problem: problems[0] + more}
}

// schemaDiff compares the schema of conn, of schema version, with
// emobench's of that version (schemaProblems). A file whose rows have
// the digest of emobench's is known to match after one query.
func schemaDiff(ctx context.Context, conn *sql.DB, version int) (problems, notes []string, err error) {
	got, err := readSchemaRows(ctx, conn)
	if err != nil {
		if isBusy(err) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("read its schema: %w", err)
	}
	if schemaDigest(got) == schemaDigests[version] {
		return nil, nil, nil
	}
	want, err := expectedSchema(ctx, version)
	if err != nil {
		return nil, nil, fmt.Errorf("emobench's schema of version %d: %w", version, err)
	}
	problems, notes = schemaProblems(want, got)
	return problems, notes, nil
}

// schemaProblems says how got differs from want, emobench's rows: tables
// first, then views, triggers and indexes. An object of emobench's is
// compared by its exact definition (a view re-created with its own SQL
// but other white space is not emobench's). Every trigger emobench did
// not create is a problem, as is an index on emobench's tables and views;
// tables, views and indexes of the file's own are notes, which never
// refuse the file.
func schemaProblems(want, got []schemaRow) (problems, notes []string) {
	ours, ourTables := map[string]bool{}, map[string]bool{}
	wantBy := map[string]schemaRow{}
	for _, w := range want {
		wantBy[w.key()] = w
		ours[strings.ToLower(w.name)] = true
		if w.kind == "table" || w.kind == "view" {
			ourTables[strings.ToLower(w.name)] = true
		}
	}
	gotBy, kindOf := map[string]schemaRow{}, map[string]string{}
	for _, g := range got {
		gotBy[g.key()] = g
		kindOf[strings.ToLower(g.name)] = g.kind
	}
	type problem struct {
		rank int
		text string
	}
	var found []problem
	rank := map[string]int{"table": 0, "view": 1, "trigger": 2, "index": 3}
	for _, w := range want {
		g, ok := gotBy[w.key()]
		switch {
		case !ok && kindOf[strings.ToLower(w.name)] != "":
			found = append(found, problem{rank[w.kind], fmt.Sprintf("%s %s is a %s", w.kind, w.name, kindOf[strings.ToLower(w.name)])})
		case !ok:
			found = append(found, problem{rank[w.kind], fmt.Sprintf("%s %s is missing", w.kind, w.name)})
		case g.sql != w.sql || g.table != w.table:
			found = append(found, problem{rank[w.kind], fmt.Sprintf("%s %s differs from emobench's schema", w.kind, w.name)})
		}
	}
	for _, g := range got {
		name := strings.ToLower(g.name)
		switch _, ok := wantBy[g.key()]; {
		case ok || ours[name] || strings.HasPrefix(name, "sqlite_"):
			// emobench's, standing in for one of emobench's (said
			// above), or SQLite's own (sqlite_stat1 of ANALYZE)
		case g.kind == "trigger" || ourTables[strings.ToLower(g.table)]:
			found = append(found, problem{rank[g.kind], fmt.Sprintf("%s %s on %s is not emobench's", g.kind, g.name, g.table)})
		default:
			notes = append(notes, fmt.Sprintf("extra %s %s: not emobench's, left alone", g.kind, g.name))
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].rank != found[j].rank {
			return found[i].rank < found[j].rank
		}
		return found[i].text < found[j].text
	})
	for _, p := range found {
		problems = append(problems, p.text)
	}
	sort.Strings(notes)
	return problems, notes
}
