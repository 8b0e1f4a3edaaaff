package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// An empty --db, or EMOBENCH_DB set to "", is a usage error: SQLite would
// store an ingest or a paid run in a temporary database lost on exit.
func TestCLI_ErrEmptyDB(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	const want = "emobench: --db is empty (given as --db '' or EMOBENCH_DB=''): name the database file, e.g. --db runs.db\n" +
		"Run 'emobench --help' or 'emobench COMMAND --help' for usage.\n"
	t.Chdir(dir)
	if r := runCLI(t, "", "--db", "", "ingest", file); r.code != exitUsage || r.stderr != want || r.stdout != "" {
		t.Errorf("--db '' ingest: exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	t.Setenv("EMOBENCH_DB", "")
	if r := runCLI(t, "", "run", "--domain", "retail", "--agent", "oracle", "--tasks", "1"); r.code != exitUsage || r.stderr != want {
		t.Errorf("EMOBENCH_DB='' run: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
	if r := runCLI(t, "", "runs"); r.code != exitUsage || r.stderr != want {
		t.Errorf("EMOBENCH_DB='' runs: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".json" {
			t.Errorf("an empty --db left %s behind", e.Name())
		}
	}
}

// downgrade turns the current file at path into one that an emobench of
// schema version wrote: migrations 1 to version as they are (the schema
// check compares definitions, so a file undone by ALTER TABLE would not
// pass), no application_id up to version 6 (which set none), and path's
// rows in the columns that version has (user stops of later reasons as
// user_stop, the only one before migration 10). Then it runs stmts.
func downgrade(t *testing.T, path string, version int, stmts ...string) {
	t.Helper()
	current := path + ".current"
	if err := os.Rename(path, current); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(current)
	var all []string
	for v := 1; v <= version; v++ {
		files, err := filepath.Glob(filepath.Join("..", "..", "db", "migrations", fmt.Sprintf("%04d_*.sql", v)))
		if err != nil || len(files) != 1 {
			t.Fatalf("migration %d: %v %v", v, files, err)
		}
		body, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, string(body))
	}
	all = append(all, "ATTACH DATABASE '"+current+"' AS cur")
	if version < 10 {
		all = append(all, "UPDATE cur.trajectories SET termination_reason = 'user_stop' WHERE termination_reason IN ('user_transfer', 'user_out_of_scope')")
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.SetMaxOpenConns(1) // the attachment is the connection's
	for _, s := range all {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	var copies []string
	rows, err := raw.Query(`SELECT 'INSERT INTO main."' || m.name || '" (' || group_concat('"' || c.name || '"') || ') SELECT ' || group_concat('"' || c.name || '"') || ' FROM cur."' || m.name || '"'
		FROM main.sqlite_schema m JOIN pragma_table_info(m.name, 'main') c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite%' AND c.name IN (SELECT name FROM pragma_table_info(m.name, 'cur'))
		GROUP BY m.name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, s)
	}
	rows.Close()
	appID := db.ApplicationID
	if version <= 6 {
		appID = 0
	}
	copies = append(copies, "DETACH DATABASE cur", fmt.Sprintf("PRAGMA application_id = %d", appID), fmt.Sprintf("PRAGMA user_version = %d", version))
	for _, s := range append(copies, stmts...) {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// fileSum is the sha256 of path's bytes.
func fileSum(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// requireNoJournalFiles fails when path has a -wal, -shm or -journal file.
func requireNoJournalFiles(t *testing.T, what, path string) {
	t.Helper()
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("%s: %s%s exists", what, filepath.Base(path), suffix)
		}
	}
}

// Another program's SQLite file is refused by every writing command without
// a byte changed; the read commands refuse it too (sql reads it; check
// names the problem), and none creates a -wal or -shm beside it.
func TestForeignDB_Untouched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	other := filepath.Join(dir, "other.db")
	fixtureDB(t, other)
	tests := []struct {
		name  string
		setup []string
		desc  string // what the refusal says inside the parentheses
	}{
		{"version4", []string{"PRAGMA user_version = 4"}, "application_id 0, user_version 4, 2 schema objects; not emobench's schema of version 4: no table messages"},
		{"negative", []string{"PRAGMA user_version = -3"}, "application_id 0, user_version -3, 2 schema objects"},
		{"appid", []string{"PRAGMA application_id = 305419896"}, "application_id 305419896, user_version 0, 2 schema objects"},
		{"wal", []string{"PRAGMA journal_mode = WAL", "PRAGMA user_version = 7"}, "application_id 0, user_version 7, 2 schema objects"},
		// A table named like one of emobench's does not make it emobench's.
		{"lookalike", []string{"CREATE TABLE runs (id INTEGER PRIMARY KEY)", "PRAGMA user_version = 1"},
			"application_id 0, user_version 1, 3 schema objects; not emobench's schema of version 1: no table messages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "notes.db")
			plainSQL(t, path, append([]string{"CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT UNIQUE)", "INSERT INTO notes (body) VALUES ('keep me')"}, tt.setup...)...)
			requireNoJournalFiles(t, "setup", path)
			before := fileSum(t, path)
			refusal := "emobench: " + path + " is not an emobench database (" + tt.desc + "): emobench leaves it as it is\n"
			commands := [][]string{
				{"ingest", file},
				{"migrate"},
				{"merge", other},
				{"run", "--domain", "retail", "--agent", "oracle", "--tasks", "1"},
				{"runs"},
				{"stats", "passk"},
				{"report", "--out", filepath.Join(t.TempDir(), "r.html")},
			}
			for _, args := range commands {
				r := runCLI(t, "", append([]string{"--db", path}, args...)...)
				if r.code != exitFailure || r.stderr != refusal {
					t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", args[0], r.code, r.stderr, refusal)
				}
			}
			if out := mustRun(t, "--db", path, "sql", "--format", "csv", "SELECT body FROM notes"); out != "body\nkeep me\n" {
				t.Errorf("sql read %q", out)
			}
			r := runCLI(t, "", "--db", path, "check")
			if want := "problem: " + strings.TrimSuffix(strings.TrimPrefix(refusal, "emobench: "), "\n") + "\n"; r.code != exitFailure || !strings.Contains(r.stdout, want) {
				t.Errorf("check: exit %d, stdout %q; want exit 1 and %q", r.code, r.stdout, want)
			}
			if after := fileSum(t, path); after != before {
				t.Errorf("sha256 changed: %s, was %s", after, before)
			}
			requireNoJournalFiles(t, "after the commands", path)
		})
	}
}

// A file at rest after a writing command has no -wal or -shm, and the
// read-only commands create none, on such a file and on one an earlier
// emobench left in WAL mode.
func TestReadOnlyCommands_NoWALFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, mode := range []string{"DELETE", "WAL"} {
		path := filepath.Join(dir, mode+".db")
		fixtureDB(t, path)
		requireNoJournalFiles(t, "after ingest", path)
		plainSQL(t, path, "PRAGMA journal_mode = "+mode)
		before := fileSum(t, path)
		for _, args := range [][]string{
			{"runs"}, {"stats", "passk"}, {"sql", "SELECT COUNT(*) FROM runs"}, {"check"},
			{"report", "--out", filepath.Join(dir, mode+"-report.html")},
		} {
			mustRun(t, append([]string{"--db", path}, args...)...)
			requireNoJournalFiles(t, mode+" "+args[0], path)
		}
		if after := fileSum(t, path); after != before {
			t.Errorf("%s: the read commands changed the file", mode)
		}
	}
}

// Files of an emobench older than application_id (user_version 1 to 6,
// application_id 0) are recognised by their schema: read commands read
// them unchanged, and the first write marks them.
func TestLegacyDB_RecognisedAndMarked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-b-retail-without-emotions.json")
	v6 := filepath.Join(dir, "v6.db")
	fixtureDB(t, v6)
	downgrade(t, v6, 6)
	v2 := filepath.Join(dir, "v2.db")
	fixtureDB(t, v2)
	downgrade(t, v2, 2)
	for _, path := range []string{v6, v2} {
		name := filepath.Base(path)
		before := fileSum(t, path)
		if r := runCLI(t, "", "--db", path, "check"); r.code != exitOK {
			t.Errorf("%s check: exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
		}
		if after := fileSum(t, path); after != before {
			t.Errorf("%s: check changed the file", name)
		}
		mustRun(t, "--db", path, "ingest", file)
		if got, want := sqlInt(t, path, "PRAGMA application_id"), db.ApplicationID; got != want {
			t.Errorf("%s: application_id = %d after a write, want %d", name, got, want)
		}
		if got, want := sqlInt(t, path, "PRAGMA user_version"), db.SchemaVersion(); got != want {
			t.Errorf("%s: user_version = %d after a write, want %d", name, got, want)
		}
	}
}

// notifyBuffer is a goroutine-safe buffer that signals every write.
type notifyBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func newNotifyBuffer() *notifyBuffer { return &notifyBuffer{wrote: make(chan struct{}, 1)} }

func (b *notifyBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer func() {
		select {
		case b.wrote <- struct{}{}:
		default:
		}
	}()
	return b.buf.Write(p)
}

func (b *notifyBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startCLI runs the CLI in-process in a goroutine; the result arrives on
// the returned channel.
func startCLI(ctx context.Context, args []string, stdout, stderr io.Writer) <-chan int {
	done := make(chan int, 1)
	go func() {
		app := newApp(strings.NewReader(""), stdout, stderr)
		done <- run(ctx, app, append([]string{"emobench"}, args...), stderr)
	}()
	return done
}

// While an ingest holds the write lock (here: a second handle in the middle
// of IngestRun), a second ingest or run says on stderr that it waits, waits
// as long as it takes, and succeeds once the first is done.
func TestConcurrentWriters_SecondWaits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	for _, second := range [][]string{
		{"ingest", file},
		{"run", "--domain", "retail", "--agent", "oracle", "--tasks", "1", "--condition", "with-emotions"},
		{"interrupted", "ingest", file}, // Ctrl-C while waiting stops the second writer
	} {
		t.Run(second[0], func(t *testing.T) {
			interrupt := second[0] == "interrupted"
			if interrupt {
				second = second[1:]
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			dbPath := filepath.Join(t.TempDir(), "shared.db")
			first, err := db.Open(context.Background(), dbPath)
			if err != nil {
				t.Fatal(err)
			}
			defer first.Close()
			holding, release := make(chan struct{}), make(chan struct{})
			records := func(yield func(*emobench.Trajectory, error) bool) {
				reward := 1.0
				if !yield(&emobench.Trajectory{Task: emobench.Task{Key: "1"}, Reward: &reward, Evaluated: true}, nil) {
					return
				}
				close(holding) // the first trajectory is written: the transaction holds the lock
				<-release
			}
			firstDone := make(chan error, 1)
			go func() {
				_, err := first.IngestRun(context.Background(), emobench.Run{Name: "long", SourceFormat: "taubench", SourceSHA256: "long", Domain: "retail"}, records, db.DuplicateRefuse)
				firstDone <- err
			}()
			<-holding

			var stdout bytes.Buffer
			stderr := newNotifyBuffer()
			secondDone := startCLI(ctx, append([]string{"--db", dbPath}, second...), &stdout, stderr)
			want := "waiting: another process is writing to " + dbPath + "; emobench waits until it is done (Ctrl-C stops)\n"
			for !strings.Contains(stderr.String(), "waiting:") {
				select {
				case <-stderr.wrote:
				case code := <-secondDone:
					close(release)
					t.Fatalf("the second writer finished (exit %d) while the first held the lock; stderr %q", code, stderr.String())
				}
			}
			if interrupt {
				cancel()
				code := <-secondDone
				close(release)
				if err := <-firstDone; err != nil {
					t.Fatalf("first ingest: %v", err)
				}
				if want := want + "emobench: interrupted while waiting for another process writing to " + dbPath + ": context canceled\n"; code != exitFailure || stderr.String() != want {
					t.Errorf("interrupted while waiting: exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
				}
				if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs"); got != 1 {
					t.Errorf("%d runs stored, want only the first writer's", got)
				}
				return
			}
			close(release)
			if err := <-firstDone; err != nil {
				t.Fatalf("first ingest: %v", err)
			}
			if code := <-secondDone; code != exitOK {
				t.Fatalf("second %s: exit %d\nstdout: %s\nstderr: %s", second[0], code, stdout.String(), stderr.String())
			}
			if got := stderr.String(); !strings.HasPrefix(got, want) || strings.Contains(got, "locked") {
				t.Errorf("stderr = %q, want it to start with %q", got, want)
			}
			if got := sqlCSV(t, dbPath, "SELECT id, name FROM runs ORDER BY id"); !strings.HasPrefix(got, "id,name\n1,long\n2,") {
				t.Errorf("runs = %q, want the long ingest as run 1 and the second writer's run as run 2", got)
			}
		})
	}
}

// A second `run --resume N` while a first process runs run N is refused at
// once with a message naming that process; the lock goes with the first
// run, and a lock left by a dead process is taken over with a note.
func TestRun_ErrSecondResume(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := newChatServer(t, map[string]func(c *chatCall){
		"held-agent": func(c *chatCall) {
			once.Do(func() { close(entered) })
			select {
			case <-release:
			case <-c.r.Context().Done():
				return
			}
			c.text("Is there anything else?", 10, 5)
		},
	})
	t.Setenv("OPENAI_API_KEY", testSecret)
	dbPath := filepath.Join(t.TempDir(), "resume.db")
	var stdout, stderr bytes.Buffer
	firstDone := startCLI(context.Background(), []string{"--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions",
		"--max-steps", "2", "--agent", "llm:held-agent", "--user", "scripted", "--base-url", srv.baseURL()}, &stdout, &stderr)
	select {
	case <-entered:
	case code := <-firstDone:
		t.Fatalf("the first run ended (exit %d) before its first LLM call\n%s", code, stderr.String())
	}
	host, _ := os.Hostname()
	lock := sqlCSV(t, dbPath, "SELECT pid, host, command, started_at FROM run_locks WHERE run_id = 1")
	fields := strings.Split(strings.TrimSpace(strings.TrimPrefix(lock, "pid,host,command,started_at\n")), ",")
	if len(fields) != 4 || fields[0] != strconv.Itoa(os.Getpid()) || fields[1] != host || fields[2] != "emobench run" {
		close(release)
		t.Fatalf("run_locks = %q, want this process (%d on %s) running run 1", lock, os.Getpid(), host)
	}
	r := runCLI(t, "", "--db", dbPath, "run", "--resume", "1", "--base-url", srv.baseURL())
	want := fmt.Sprintf("emobench: run 1 is already being run by process %d on %s (emobench run, since %s): a second process would store the same (task, trial) pairs twice; wait for it to finish or stop it\n",
		os.Getpid(), host, fields[3])
	close(release)
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("second resume: exit %d, stderr %q; want exit 1 and %q", r.code, r.stderr, want)
	}
	if code := <-firstDone; code != exitOK {
		t.Fatalf("first run: exit %d\n%s", code, stderr.String())
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM run_locks"); got != 0 {
		t.Errorf("%d locks left after the run ended, want 0", got)
	}

	// A lock whose process is gone (killed, say) does not block a resume.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	plainSQL(t, dbPath, fmt.Sprintf("INSERT INTO run_locks VALUES (1, %d, '%s', 'emobench run --resume 1', '2026-01-01T00:00:00Z')", dead.Process.Pid, host))
	r = runCLI(t, "", "--db", dbPath, "run", "--resume", "1", "--base-url", srv.baseURL())
	note := fmt.Sprintf("note: run 1 was held by process %d (emobench run --resume 1), which is no longer running: taking it over\n", dead.Process.Pid)
	if r.code != exitOK || !strings.HasPrefix(r.stderr, note) {
		t.Errorf("resume over a dead lock: exit %d, stderr %q; want 0 and %q", r.code, r.stderr, note)
	}
}

// A run merged from a shared db keeps the source_sha256 of the file it was
// once ingested from, but it was not read from that file here: ingesting
// the genuine file says so instead of "already ingested", --reingest
// replaces the merged run with the file's own content, and runs and check
// show each run's provenance.
func TestIngest_MergedRunProvenance(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	genuine := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	fresh := filepath.Join(dir, "fresh.db")
	mustRun(t, "--db", fresh, "ingest", genuine)
	wantRuns := withoutFirstColumn(mustRun(t, "--db", fresh, "runs", "--format", "csv"))

	// Someone's shared db holds the file's run with fabricated numbers.
	shared := filepath.Join(dir, "shared.db")
	mustRun(t, "--db", shared, "ingest", genuine)
	plainSQL(t, shared, "UPDATE trajectories SET reward = 1, passed = 1")
	sharedSum := fileSum(t, shared)

	mine := filepath.Join(dir, "mine.db")
	mustRun(t, "--db", mine, "merge", shared)
	mustRun(t, "--db", mine, "runs", "tag", "1", "--train-domains", "retail")
	mergedAt := strings.TrimSpace(strings.TrimPrefix(sqlCSV(t, mine, "SELECT merged_at FROM runs"), "merged_at\n"))
	name := "demo-model-a-retail-with-emotions"
	merged := fmt.Sprintf("run 1 (%s) was merged from %s (sha256 %s…) on %s", name, shared, sharedSum[:12], mergedAt)

	if got, want := mustRun(t, "--db", mine, "ingest", genuine), genuine+": skipped: "+merged+", not ingested from this file; --reingest replaces it with this file's own content\n"; got != want {
		t.Errorf("ingest of the genuine file said %q, want %q", got, want)
	}
	if got := mustRun(t, "--db", mine, "runs", "--format", "csv"); !strings.HasSuffix(strings.Split(got, "\n")[1], ",merged") {
		t.Errorf("runs does not show the merged provenance:\n%s", got)
	}
	checkWant := "ok: integrity and schema as expected\nprovenance: 0 ingested, 0 native, 1 merged, 0 unknown\nprovenance: " + merged +
		"; it claims to come from " + genuine + " (sha256 " + fileSum(t, genuine) + "), which was not ingested here\n"
	if got := mustRun(t, "--db", mine, "check"); !strings.HasSuffix(got, checkWant) {
		t.Errorf("check said %q, want it to end with %q", got, checkWant)
	}

	out := mustRun(t, "--db", mine, "ingest", "--reingest", genuine)
	if want := genuine + ": --reingest: run 1, not ingested from this file, is replaced by the file's own content\n" + genuine + ": ingested as run 2 (" + name + ")"; !strings.HasPrefix(out, want) {
		t.Errorf("ingest --reingest said %q, want it to start with %q", out, want)
	}
	if got := withoutFirstColumn(mustRun(t, "--db", mine, "runs", "--format", "csv")); got != wantRuns {
		t.Errorf("after --reingest, runs =\n%s\nwant the file's own numbers, as in a fresh db:\n%s", got, wantRuns)
	}
	if got, want := sqlCSV(t, mine, "SELECT id, provenance, train_domains FROM runs"), "id,provenance,train_domains\n2,ingested,\"[\"\"retail\"\"]\"\n"; got != want {
		t.Errorf("runs after --reingest = %q, want %q (the tags kept)", got, want)
	}
	for _, table := range []string{"tasks", "trajectories", "messages"} {
		q := "SELECT COUNT(*) FROM " + table
		if got, want := sqlInt(t, mine, q), sqlInt(t, fresh, q); got != want {
			t.Errorf("%s after --reingest: %d rows, want %d as in a fresh db", table, got, want)
		}
	}
	if got, want := mustRun(t, "--db", mine, "ingest", "--reingest", genuine), genuine+": skipped, already ingested as run 2 ("+name+")\n"; got != want {
		t.Errorf("a second --reingest said %q, want %q", got, want)
	}
	if got := mustRun(t, "--db", mine, "check"); !strings.HasSuffix(got, "provenance: 1 ingested, 0 native, 0 merged, 0 unknown\n") {
		t.Errorf("check after --reingest said %q", got)
	}

	// Runs an emobench before provenance stored are of unknown provenance.
	old := filepath.Join(dir, "old.db")
	mustRun(t, "--db", old, "ingest", genuine)
	downgrade(t, old, 6)
	want := genuine + ": skipped: run 1 (" + name + ") has this file's sha256 but unknown provenance (stored by an emobench before provenance was recorded, it may have been merged from another db); --reingest replaces it with this file's own content\n"
	if got := mustRun(t, "--db", old, "ingest", genuine); got != want {
		t.Errorf("ingest into an older db said %q, want %q", got, want)
	}
}

// A vacuumed copy is for sharing: it is marked as emobench's, carries no
// run lock of this machine's processes, and has no -wal beside it.
func TestVacuum_CopyWithoutLocks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.db")
	mustRun(t, "--db", path, "run", "--domain", "retail", "--agent", "oracle", "--tasks", "1", "--condition", "with-emotions")
	plainSQL(t, path, "INSERT INTO run_locks VALUES (1, 1, 'elsewhere', 'emobench run', '2026-01-01T00:00:00Z')")
	out := filepath.Join(dir, "copy.db")
	mustRun(t, "--db", path, "vacuum", "--out", out)
	if got := sqlInt(t, out, "SELECT COUNT(*) FROM run_locks"); got != 0 {
		t.Errorf("the copy holds %d run locks, want 0", got)
	}
	if got := sqlInt(t, out, "PRAGMA application_id"); got != db.ApplicationID {
		t.Errorf("the copy's application_id = %d, want %d", got, db.ApplicationID)
	}
	requireNoJournalFiles(t, "the copy", out)
}

// A file with every table and view name of an earlier emobench's schema but
// other columns is not emobench's: refused before any write, not a byte
// changed (a migration would fail on it halfway, after the switch to WAL).
func TestForeignDB_LookalikeColumnsUntouched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json")
	path := filepath.Join(dir, "lookalike.db")
	fixtureDB(t, path)
	downgrade(t, path, 6, "ALTER TABLE maintenance RENAME COLUMN done_at TO finished")
	before := fileSum(t, path)
	r := runCLI(t, "", "--db", path, "ingest", file)
	want := "emobench: " + path + " is not an emobench database (application_id 0, user_version 6, "
	wantWhy := "; not emobench's schema of version 6: no table maintenance with columns task,done_at (it has task,finished)): emobench leaves it as it is\n"
	if r.code != exitFailure || !strings.HasPrefix(r.stderr, want) || !strings.HasSuffix(r.stderr, wantWhy) {
		t.Errorf("exit %d, stderr %q; want exit 1, %q … %q", r.code, r.stderr, want, wantWhy)
	}
	if after := fileSum(t, path); after != before {
		t.Errorf("sha256 changed: %s, was %s", after, before)
	}
	requireNoJournalFiles(t, "after ingest", path)
}
