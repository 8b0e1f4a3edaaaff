package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/domains/retail"
	"github.com/emobench/emobench/fixtures"
)

// plainSQL runs stmts on dbPath through a plain connection with SQLite's
// defaults, as another program (or someone crafting a file) would.
func plainSQL(t *testing.T, dbPath string, stmts ...string) {
	t.Helper()
	raw, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// withoutFirstColumn drops the first CSV column (run_id) of every line.
func withoutFirstColumn(csv string) string {
	lines := strings.Split(csv, "\n")
	for i, l := range lines {
		if _, rest, ok := strings.Cut(l, ","); ok {
			lines[i] = rest
		}
	}
	return strings.Join(lines, "\n")
}

// csvLines returns the data lines of a one-column CSV result.
func csvLines(csv string) []string {
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	return lines[1:]
}

// requireOneLine fails unless msg is a single line of text.
func requireOneLine(t *testing.T, what, msg string) {
	t.Helper()
	msg = strings.TrimSuffix(msg, "\n")
	if msg == "" || strings.Contains(msg, "\n") || strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
		t.Errorf("%s: want a one-line error, got %q", what, msg)
	}
}

// writeFixture copies the embedded fixture name into dir.
func writeFixture(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := fixtures.FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.Base(name))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Merging the 5 fixture runs into a db that already holds a run renumbers
// them 2-6 and leaves their statistics as they were; merging again adds
// nothing.
func TestMerge_CLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	fixtureDB(t, a)
	mustRun(t, "--db", a, "ingest", filepath.Join("..", "..", "ingest", "testdata", "submission", "full.json"))
	mustRun(t, "--db", b, "ingest", "testdata/error-trial.json")
	names := csvLines(sqlCSV(t, a, "SELECT name FROM runs ORDER BY id"))
	trajectories := sqlInt(t, a, "SELECT COUNT(*) FROM trajectories")
	statsArgs := []string{"stats", "passk", "--format", "csv"}
	for _, n := range names {
		statsArgs = append(statsArgs, "--run", n)
	}
	wantStats := withoutFirstColumn(mustRun(t, append([]string{"--db", a}, statsArgs...)...))

	out := mustRun(t, "--db", b, "merge", a)
	if want := fmt.Sprintf("%s: 5 runs added, 0 extended, 0 skipped; %d trajectories copied, 0 (task, trial) pairs already present; 1 leaderboard files copied\n", a, trajectories); out != want {
		t.Fatalf("merge said %q, want %q", out, want)
	}
	published := "SELECT model, domain, k, pass_hat_k, cost, modality, source_sha256 FROM published_results ORDER BY domain, k"
	if got, want := sqlCSV(t, b, published), sqlCSV(t, a, published); got != want || strings.Count(got, "\n") != 7 {
		t.Fatalf("published results after merge:\n%s\nwant the 6 of a.db:\n%s", got, want)
	}
	ids := sqlCSV(t, b, "SELECT id, name FROM runs ORDER BY id")
	want := "id,name\n1,error-trial\n"
	for i, n := range names {
		want += fmt.Sprintf("%d,%s\n", i+2, n)
	}
	if ids != want {
		t.Fatalf("runs after merge:\n%s\nwant:\n%s", ids, want)
	}
	if got := sqlInt(t, b, "SELECT COUNT(*) FROM trajectories WHERE run_id BETWEEN 2 AND 6"); got != trajectories {
		t.Fatalf("%d trajectories point at the merged runs, want %d", got, trajectories)
	}
	stats := mustRun(t, append([]string{"--db", b}, statsArgs...)...)
	if got := withoutFirstColumn(stats); got != wantStats {
		t.Fatalf("stats passk after merge:\n%s\nbefore:\n%s", got, wantStats)
	}

	before := tableCounts(t, b)
	out = mustRun(t, "--db", b, "merge", a)
	if want := a + ": 0 runs added, 0 extended, 5 skipped; 0 trajectories copied, 0 (task, trial) pairs already present; 0 leaderboard files copied\n"; out != want {
		t.Fatalf("second merge said %q, want %q", out, want)
	}
	if after := tableCounts(t, b); after != before {
		t.Fatalf("second merge changed the counts: %s -> %s", before, after)
	}
	if again := mustRun(t, append([]string{"--db", b}, statsArgs...)...); again != stats {
		t.Fatalf("second merge changed stats passk:\n%s\nwant:\n%s", again, stats)
	}
}

// A corrupt file among the merged ones stores nothing of itself; the files
// before it stay merged.
func TestMerge_CLIErrCorruptSource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, bad, dst := filepath.Join(dir, "good.db"), filepath.Join(dir, "bad.db"), filepath.Join(dir, "dst.db")
	mustRun(t, "--db", good, "ingest", "testdata/error-trial.json")
	fixtureDB(t, bad)
	// Zero the messages table's last leaf pages (those of the last runs):
	// where they lie in the file depends on the schema's history.
	raw, err := sql.Open("sqlite", bad)
	if err != nil {
		t.Fatal(err)
	}
	var pageSize, first int
	err = raw.QueryRow(`SELECT (SELECT page_size FROM pragma_page_size),
		(SELECT pageno FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf' ORDER BY path DESC LIMIT 1 OFFSET 1)`).Scan(&pageSize, &first)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	clear(data[(first-1)*pageSize : first*pageSize])
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", dst, "merge", good, bad)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	requireOneLine(t, "merge of a corrupt file", r.stderr)
	if !strings.Contains(r.stderr, bad) || !strings.Contains(r.stderr, "malformed") {
		t.Errorf("stderr %q: want the file named and the corruption reported", r.stderr)
	}
	t.Logf("merge of a corrupt file: %s", strings.TrimSpace(r.stderr))
	if got := tableCounts(t, dst); got != tableCounts(t, good) {
		t.Fatalf("after the failed merge dst holds %s, want only good.db's %s", got, tableCounts(t, good))
	}
}

// A run merge adds under a name the target has gets a distinct name and a
// note, so --run NAME still names one run.
func TestMerge_CLIRenamesTakenName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bench, shards := filepath.Join(dir, "bench.db"), filepath.Join(dir, "shards.db")
	// 3 tasks: the names are what this test is about.
	args := []string{"run", "--domain", "retail", "--agent", "noisy:0.3", "--condition", "with-emotions", "--name", "x", "--tasks", "3"}
	mustRun(t, append([]string{"--db", bench}, append(args, "--trials", "1")...)...)
	mustRun(t, append([]string{"--db", shards}, append(args, "--trials", "2")...)...)

	r := runCLI(t, "", "--db", bench, "merge", shards)
	if r.code != 0 {
		t.Fatalf("merge exited %d:\n%s", r.code, r.stderr)
	}
	if want := "note: " + shards + ": run 1 is already named \"x\": run 1 of " + shards + " is added as run 2 named \"x-2\" (rename it with `emobench runs set RUN --name NAME`)\n"; r.stderr != want {
		t.Fatalf("merge stderr = %q, want %q", r.stderr, want)
	}
	if got, want := sqlCSV(t, bench, "SELECT id, name FROM runs ORDER BY id"), "id,name\n1,x\n2,x-2\n"; got != want {
		t.Fatalf("runs after merge:\n%s\nwant:\n%s", got, want)
	}
	out := mustRun(t, "--db", bench, "stats", "passk", "--run", "x", "--format", "csv")
	if got := len(csvLines(out)); got != 1 {
		t.Fatalf("stats passk --run x gave %d rows, want 1 (run 1):\n%s", got, out)
	}
}

// The shards of a run, run into three files and merged, are the run: the
// same (task, trial) pairs, two per retail test task (under -short, per
// one of the first 20), with the same outcomes as the run unsharded with
// the same seed.
func TestShard_MergeEqualsWholeRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"run", "--domain", "retail", "--agent", "noisy:0.3", "--condition", "with-emotions", "--trials", "2", "--name", "x"}
	tasks := retail.NumTestTasks
	if testing.Short() {
		tasks = 20
		args = append(args, "--tasks", "20")
	}
	whole := filepath.Join(dir, "whole.db")
	mustRun(t, append([]string{"--db", whole}, args...)...)

	owner := map[string]int{} // "task/trial" -> shard
	var shards []string
	for i := range 3 {
		path := filepath.Join(dir, fmt.Sprintf("shard-%d.db", i))
		mustRun(t, append(append([]string{"--db", path}, args...), "--shard", fmt.Sprintf("%d/3", i))...)
		for _, p := range csvLines(sqlCSV(t, path, "SELECT task_key || '/' || trial FROM trajectory_outcomes")) {
			if prev, dup := owner[p]; dup {
				t.Errorf("pair %s is in shards %d and %d", p, prev, i)
			}
			owner[p] = i
		}
		shards = append(shards, path)
	}
	pairs := 2 * tasks
	if got, want := len(owner), pairs; got != want {
		t.Fatalf("the shards hold %d distinct pairs, want %d (%d tasks x 2 trials)", got, want, tasks)
	}

	all := filepath.Join(dir, "all.db")
	mustRun(t, append([]string{"--db", all, "merge"}, shards...)...)
	if got, want := sqlCSV(t, all, "SELECT id, name, json_extract(config, '$.shard') AS shard FROM runs"), "id,name,shard\n1,x,\n"; got != want {
		t.Fatalf("runs after merge = %q, want one run x without a shard", got)
	}
	if got := sqlInt(t, all, "SELECT COUNT(*) FROM trajectories"); got != pairs {
		t.Fatalf("%d trajectories, want %d", got, pairs)
	}
	if got := sqlInt(t, all, "SELECT COUNT(*) FROM (SELECT 1 FROM trajectory_outcomes GROUP BY task_key, trial HAVING COUNT(*) > 1)"); got != 0 {
		t.Fatalf("%d (task, trial) pairs stored twice", got)
	}
	for _, q := range []string{
		"SELECT task_key, trial, passed, reward, termination_reason, n_messages, n_tool_calls FROM trajectory_outcomes ORDER BY task_key, trial",
		"SELECT COUNT(*), SUM(LENGTH(content)) FROM messages",
	} {
		if got, want := sqlCSV(t, all, q), sqlCSV(t, whole, q); got != want {
			t.Errorf("%s: merged shards differ from the whole run:\n%s\nwant:\n%s", q, got, want)
		}
	}
	stats := []string{"stats", "passk", "--format", "csv"}
	if got, want := mustRun(t, append([]string{"--db", all}, stats...)...), mustRun(t, append([]string{"--db", whole}, stats...)...); got != want {
		t.Errorf("stats passk of the merged shards:\n%s\nof the whole run:\n%s", got, want)
	}
	if out := mustRun(t, "--db", all, "run", "--resume", "x"); !strings.Contains(out, fmt.Sprintf("0 episodes to run (%d already stored)", pairs)) {
		t.Errorf("resume of the merged run said %q, want nothing to run", out)
	}
}

func TestShard_ErrUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "s.db")
	for _, shard := range []string{"3/3", "x", "1/0", "-1/3", "1/", "/3", "1/3/4"} {
		r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--agent", "oracle", "--shard", shard)
		if r.code != 2 || !strings.Contains(r.stderr, "--shard") {
			t.Errorf("--shard %q: exit %d, stderr %q; want 2 and the flag named", shard, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Error("a refused --shard created the database")
	}
}

func TestCheck_OK(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "ok.db")
	fixtureDB(t, dbPath)
	want := fmt.Sprintf("%s: schema version %d (this emobench writes %d)\nok: integrity and schema as expected\nprovenance: 5 ingested, 0 native, 0 merged, 0 unknown\n", dbPath, db.SchemaVersion(), db.SchemaVersion())
	if got := mustRun(t, "--db", dbPath, "check"); got != want {
		t.Fatalf("check said %q, want %q", got, want)
	}
}

// Item 5 of issue #20: check and the commands that read a file give one
// verdict on its schema. A file check passes (exit 0) is one runs and
// merge read; a file they refuse, check refuses too (exit 1), its first
// problem naming the object their error names.
func TestCheck_SameVerdictAsRuns(t *testing.T) {
	t.Parallel()
	clean := filepath.Join(t.TempDir(), "clean.db")
	fixtureDB(t, clean)
	var view string
	raw, err := sql.Open("sqlite", clean)
	if err != nil {
		t.Fatal(err)
	}
	err = raw.QueryRow("SELECT sql FROM sqlite_schema WHERE name = 'run_summaries'").Scan(&view)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stmts []string
		want  string // check's first problem, in runs' refusal too; "" = both accept
		note  string // a note check prints
	}{
		{"whitespace-changed view", []string{"DROP VIEW run_summaries", strings.Join(strings.Fields(view), " ")},
			"view run_summaries differs from emobench's schema", "note: the file's schema was altered outside emobench"},
		{"view returning 0.99", []string{"DROP VIEW run_summaries",
			`CREATE VIEW run_summaries AS SELECT r.id AS run_id, r.name AS run, r.agent_model AS agent_model, r.domain AS domain,
			 r.condition AS condition, 1 AS tasks, 1 AS min_trials, 1 AS max_trials, 1 AS trajectories, 0.99 AS pass_hat_1, 0 AS abandoned FROM runs r`},
			"view run_summaries differs from emobench's schema", ""},
		{"extra view", []string{"CREATE VIEW zz_extra AS SELECT COUNT(*) AS n FROM runs"}, "", "note: extra view zz_extra: not emobench's, left alone"},
		{"extra table", []string{"CREATE TABLE my_notes (body TEXT)", "CREATE INDEX my_notes_body ON my_notes (body)"}, "", "note: extra table my_notes: not emobench's, left alone"},
		{"trigger on our table", []string{"CREATE TRIGGER evil AFTER UPDATE ON runs BEGIN DELETE FROM messages; END"}, "trigger evil on runs is not emobench's", ""},
		{"trigger on the file's own table", []string{"CREATE TABLE loot (n INTEGER)", "CREATE TRIGGER evil AFTER INSERT ON loot BEGIN DELETE FROM loot; END"},
			"trigger evil on loot is not emobench's", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dbPath := filepath.Join(dir, "h.db")
			fixtureDB(t, dbPath)
			plainSQL(t, dbPath, tc.stmts...)
			check := runCLI(t, "", "--db", dbPath, "check")
			lines := strings.Split(check.stdout, "\n")
			runs := runCLI(t, "", "--db", dbPath, "runs")
			merge := runCLI(t, "", "--db", filepath.Join(dir, "target.db"), "merge", dbPath)
			if tc.want == "" {
				if check.code != 0 || len(lines) < 2 || lines[1] != "ok: integrity and schema as expected" || runs.code != 0 || merge.code != 0 {
					t.Errorf("check exit %d, runs exit %d (%s), merge exit %d (%s); want all to accept\ncheck: %s", check.code, runs.code, runs.stderr, merge.code, merge.stderr, check.stdout)
				}
			} else {
				want := dbPath + ": " + tc.want
				if check.code != 1 || len(lines) < 2 || lines[1] != "problem: "+tc.want {
					t.Errorf("check exit %d, output:\n%s\nwant 1 and the first problem %q", check.code, check.stdout, "problem: "+tc.want)
				}
				for name, r := range map[string]result{"runs": runs, "merge": merge} {
					if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "altered outside emobench") {
						t.Errorf("%s: exit %d stderr %q, want 1 and %q", name, r.code, r.stderr, want)
					}
				}
			}
			if !strings.Contains(check.stdout, tc.note) {
				t.Errorf("check output:\n%s\nwant %q", check.stdout, tc.note)
			}
		})
	}
}

// Objects another program added, or emobench's that are gone, are listed.
func TestCheck_ErrSchemaChanged(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "changed.db")
	fixtureDB(t, dbPath)
	plainSQL(t, dbPath,
		"CREATE TRIGGER evil AFTER INSERT ON runs BEGIN DELETE FROM messages; END",
		"CREATE VIEW evil_view AS SELECT 1 AS one",
		"DROP INDEX trajectories_task",
		"ALTER TABLE runs ADD COLUMN note TEXT")
	r := runCLI(t, "", "--db", dbPath, "check")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, line := range []string{
		"problem: trigger evil on runs is not emobench's",
		"note: extra view evil_view: not emobench's, left alone",
		"problem: index trajectories_task is missing",
		"problem: table runs differs from emobench's schema",
	} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("check output lacks %q:\n%s", line, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "ok:") || r.stderr != "" {
		t.Errorf("stdout %q stderr %q: want the problems only, on stdout", r.stdout, r.stderr)
	}
}

// A file whose pages were overwritten gets a list of problems or a one-line
// error, never a panic.
func TestCheck_ErrCorrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "corrupt.db")
	fixtureDB(t, dbPath)
	data, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	page := 32768 // emobench's page size
	if len(data) < 4*page {
		t.Fatalf("fixture db has %d bytes: want at least 4 pages to corrupt one in the middle", len(data))
	}
	mid := len(data) / page / 2 * page
	copy(data[mid:mid+page], bytes.Repeat([]byte{0xA5}, page)) // a page of some table
	if err := os.WriteFile(dbPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", dbPath, "check")
	t.Logf("check of a corrupt file: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1", r.code)
	}
	if !strings.Contains(r.stdout, "problem: integrity: ") {
		requireOneLine(t, "check of a corrupt file", r.stderr)
	}
}

func TestCheck_ErrNotEmobench(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(text, []byte(strings.Repeat("not a database at all\n", 50)), 0o644); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "newer.db")
	fixtureDB(t, newer)
	plainSQL(t, newer, "PRAGMA user_version = 999")
	tests := []struct{ path, want string }{
		{text, "not an emobench database"},
		{newer, "schema version 999, newer than this emobench understands"},
		{filepath.Join(dir, "absent.db"), "no database at"},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"check", "runs", "migrate"} {
			r := runCLI(t, "", "--db", tt.path, cmd)
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				if cmd == "migrate" && tt.want == "no database at" && r.code == 0 {
					continue // migrate creates a new database, as every writing command does
				}
				t.Errorf("%s %s: exit %d stderr %q, want 1 and %q", filepath.Base(tt.path), cmd, r.code, r.stderr, tt.want)
			}
			requireOneLine(t, filepath.Base(tt.path)+" "+cmd, r.stderr)
		}
	}
}

// A file of an older emobench (here schema v2: no published_results) can be
// checked, is refused by the read-only commands with a pointer to migrate,
// and migrate upgrades it.
func TestMigrate_OlderSchema(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "v2.db")
	fixtureDB(t, dbPath)
	before := tableCounts(t, dbPath)
	downgrade(t, dbPath, 2)

	if out := mustRun(t, "--db", dbPath, "check"); !strings.Contains(out, fmt.Sprintf("schema version 2 (this emobench writes %d)\nok:", db.SchemaVersion())) {
		t.Errorf("check of a sound v2 file said %q", out)
	}
	for _, cmd := range [][]string{{"runs"}, {"stats", "passk"}, {"sql", "SELECT 1"}} {
		r := runCLI(t, "", append([]string{"--db", dbPath}, cmd...)...)
		want := fmt.Sprintf("schema version 2, older than this emobench's %d: upgrade it with `emobench --db %s migrate`", db.SchemaVersion(), dbPath)
		if cmd[0] == "sql" && r.code == 0 {
			continue // sql reads any schema
		}
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d stderr %q, want 1 and %q", cmd[0], r.code, r.stderr, want)
		}
	}
	if got, want := mustRun(t, "--db", dbPath, "migrate"), fmt.Sprintf("%s: schema version %d\n", dbPath, db.SchemaVersion()); got != want {
		t.Fatalf("migrate said %q, want %q", got, want)
	}
	if got := sqlInt(t, dbPath, "PRAGMA user_version"); got != db.SchemaVersion() {
		t.Fatalf("user_version = %d after migrate, want %d", got, db.SchemaVersion())
	}
	mustRun(t, "--db", dbPath, "runs")
	if out := mustRun(t, "--db", dbPath, "check"); !strings.Contains(out, "ok:") {
		t.Errorf("check after migrate: %s", out)
	}
	if after := tableCounts(t, dbPath); after != before {
		t.Errorf("migrate changed the data: %s -> %s", before, after)
	}
}

// An older file that also lost a column is not taken for emobench's: check
// names the column, and migrate refuses it without changing a byte (a
// migration could fail on it halfway).
func TestMigrate_OlderSchemaMissingColumn(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "v2-damaged.db")
	fixtureDB(t, dbPath)
	downgrade(t, dbPath, 2, "ALTER TABLE messages DROP COLUMN cost")
	before := fileSum(t, dbPath)
	const why = "not emobench's schema of version 2: no table messages with columns id,trajectory_id,idx,role,content,tool_name,tool_call_id,tool_arguments,tool_calls,arguments_malformed,prompt_tokens,completion_tokens,cost (it has id,trajectory_id,idx,role,content,tool_name,tool_call_id,tool_arguments,tool_calls,arguments_malformed,prompt_tokens,completion_tokens)"
	if r := runCLI(t, "", "--db", dbPath, "check"); r.code != 1 || !strings.Contains(r.stdout, why) {
		t.Errorf("check: exit %d stdout %q, want the messages columns named", r.code, r.stdout)
	}
	if r := runCLI(t, "", "--db", dbPath, "migrate"); r.code != 1 || !strings.Contains(r.stderr, why) {
		t.Errorf("migrate: exit %d stderr %q, want a refusal naming the columns", r.code, r.stderr)
	}
	if after := fileSum(t, dbPath); after != before {
		t.Errorf("migrate changed the refused file")
	}
}

// A crafted file's own tables and views do nothing through the read-only
// commands, nor its triggers through sql; a trigger emobench did not
// create, which would run its plain SQL on writes, has every command
// refuse the file but sql and check, which lists it.
func TestUntrusted_CLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "crafted.db")
	fixtureDB(t, dbPath)
	wantRuns := mustRun(t, "--db", dbPath, "runs", "--format", "csv")
	wantStats := mustRun(t, "--db", dbPath, "stats", "passk", "--format", "csv")
	plainSQL(t, dbPath,
		"CREATE TABLE loot (trajectory_id INTEGER)",
		"CREATE VIEW evil_view AS SELECT load_extension('"+filepath.Join(dir, "evil.so")+"') AS x",
		"CREATE VIEW log_view AS SELECT sqlite_log(1, 'pwned') AS x")
	before := tableCounts(t, dbPath)

	if got := mustRun(t, "--db", dbPath, "runs", "--format", "csv"); got != wantRuns {
		t.Errorf("runs on the crafted file:\n%s\nwant:\n%s", got, wantRuns)
	}
	if got := mustRun(t, "--db", dbPath, "stats", "passk", "--format", "csv"); got != wantStats {
		t.Errorf("stats passk on the crafted file:\n%s\nwant:\n%s", got, wantStats)
	}
	plainSQL(t, dbPath, "CREATE TRIGGER evil_instead INSTEAD OF INSERT ON evil_view BEGIN DELETE FROM runs; INSERT INTO loot VALUES (0); END")
	if r := runCLI(t, "", "--db", dbPath, "runs"); r.code != 1 || !strings.Contains(r.stderr, dbPath+": trigger evil_instead on evil_view is not emobench's") {
		t.Errorf("runs on a file with a trigger on its own view: exit %d, stderr %q, want a refusal naming it", r.code, r.stderr)
	}
	for q, want := range map[string]string{
		"SELECT * FROM evil_view":          "unsafe use of load_extension()",
		"SELECT * FROM log_view":           "unsafe use of sqlite_log()",
		"INSERT INTO evil_view VALUES (1)": "read-only",
		"DELETE FROM loot":                 "read-only",
	} {
		r := runCLI(t, "", "--db", dbPath, "sql", q)
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("sql %q: exit %d stderr %q, want 1 and %q", q, r.code, r.stderr, want)
		}
		requireOneLine(t, "sql "+q, r.stderr)
	}
	if after := tableCounts(t, dbPath); after != before {
		t.Fatalf("reading the crafted file changed it: %s -> %s", before, after)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM loot"); got != 0 {
		t.Fatalf("loot has %d rows after read-only commands, want 0", got)
	}
	plainSQL(t, dbPath, "CREATE TRIGGER evil AFTER INSERT ON trajectories BEGIN INSERT INTO loot VALUES (NEW.id); END")
	if r := runCLI(t, "", "--db", dbPath, "runs"); r.code != 1 || !strings.Contains(r.stderr, dbPath+": trigger evil on trajectories is not emobench's") {
		t.Errorf("runs on a file with a trigger on trajectories: exit %d, stderr %q, want a refusal naming it", r.code, r.stderr)
	}

	// check lists what the file added, even a view it cannot compile.
	r := runCLI(t, "", "--db", dbPath, "check")
	var missing []string
	for _, line := range []string{"problem: trigger evil on trajectories ", "problem: trigger evil_instead on evil_view ",
		"note: extra view evil_view:", "note: extra view log_view:", "note: extra table loot:"} {
		if !strings.Contains(r.stdout, line) {
			missing = append(missing, line)
		}
	}
	if r.code != 1 || len(missing) > 0 {
		t.Errorf("check: exit %d, output lacks %q\nstdout: %s\nstderr: %s", r.code, missing, r.stdout, r.stderr)
	}

	// Writing commands refuse a file with triggers emobench did not create:
	// trusted_schema off would stop only their function calls, not their SQL.
	r = runCLI(t, "", "--db", dbPath, "ingest", "testdata/error-trial.json")
	if r.code != 1 || !strings.Contains(r.stderr, "holds triggers (evil_instead, evil)") {
		t.Fatalf("ingest into the crafted file: exit %d, stderr %q, want a refusal naming the triggers", r.code, r.stderr)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM loot"); got != 0 {
		t.Fatalf("loot has %d rows after the refused ingest, want 0", got)
	}
}

// Two processes ingesting different files into one new database at once
// both succeed: the schema is created once and both runs are stored.
func TestConcurrent_TwoProcessesIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess ingest skipped in -short mode")
	}
	dir := t.TempDir()
	files := []string{
		writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json"),
		writeFixture(t, dir, "taubench/demo-model-b-retail-without-emotions.json"),
	}
	for round := range 3 {
		dbPath := filepath.Join(dir, fmt.Sprintf("both-%d.db", round))
		var cmds []*exec.Cmd
		var outs []*bytes.Buffer
		for _, f := range files {
			args, _ := json.Marshal([]string{"--db", dbPath, "ingest", f})
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRunProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), envRunArgs+"="+string(args))
			out := &bytes.Buffer{}
			cmd.Stdout, cmd.Stderr = out, out
			cmds, outs = append(cmds, cmd), append(outs, out)
		}
		for _, cmd := range cmds {
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Errorf("round %d: ingest of %s: %v\n%s", round, filepath.Base(files[i]), err, outs[i])
			}
		}
		got := sqlCSV(t, dbPath, "SELECT name FROM runs ORDER BY name")
		if want := "name\ndemo-model-a-retail-with-emotions\ndemo-model-b-retail-without-emotions\n"; got != want {
			t.Fatalf("round %d: runs = %q, want both", round, got)
		}
	}
}

// vacuum writes a compact copy with the same rows and never overwrites.
func TestVacuum_CLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath, out := filepath.Join(dir, "v.db"), filepath.Join(dir, "copy.db")
	fixtureDB(t, dbPath)
	if got := mustRun(t, "--db", dbPath, "vacuum", "--out", out); !strings.HasPrefix(got, "wrote "+out+" (") {
		t.Fatalf("vacuum said %q", got)
	}
	if got, want := tableCounts(t, out), tableCounts(t, dbPath); got != want {
		t.Fatalf("copy holds %s, want %s", got, want)
	}
	if r := runCLI(t, "", "--db", dbPath, "vacuum", "--out", out); r.code != 2 || !strings.Contains(r.stderr, "exists") {
		t.Fatalf("vacuum onto an existing file: exit %d stderr %q, want 2", r.code, r.stderr)
	}
}

// merge reads files of older schemas as they are: a version 2 file (no
// published_results) and a version 3 file (no modality) both merge.
func TestMerge_OlderSchemas(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v2, v3, dst := filepath.Join(dir, "v2.db"), filepath.Join(dir, "v3.db"), filepath.Join(dir, "dst.db")
	mustRun(t, "--db", v2, "ingest", "testdata/error-trial.json")
	downgrade(t, v2, 2)
	fixtureDB(t, v3)
	mustRun(t, "--db", v3, "ingest", filepath.Join("..", "..", "ingest", "testdata", "submission", "full.json"))
	downgrade(t, v3, 3)
	out := mustRun(t, "--db", dst, "merge", v2, v3)
	for _, want := range []string{"v2.db: 1 runs added", "v3.db: 5 runs added", "1 leaderboard files copied"} {
		if !strings.Contains(out, want) {
			t.Errorf("merge said %q, want %q", out, want)
		}
	}
	if got := sqlInt(t, dst, "SELECT COUNT(*) FROM published_results WHERE modality IS NULL"); got != 6 {
		t.Errorf("%d published results without modality, want the 6 of the v3 file", got)
	}
}
