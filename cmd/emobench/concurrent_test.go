package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emobench/emobench/db"
)

// childCLI returns the command that runs emobench with args in a child
// process (TestHelperRunProcess), its stdout and stderr going to out.
func childCLI(ctx context.Context, out *bytes.Buffer, args ...string) *exec.Cmd {
	raw, _ := json.Marshal(args)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperRunProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envRunArgs+"="+string(raw))
	cmd.Stdout, cmd.Stderr = out, out
	return cmd
}

// Writers starting and ending on a file at rest switch it between the
// DELETE and WAL journal modes: concurrent writers wait for each other and
// readers wait for the switch, and none fails with "database is locked" or
// calls the file "not an emobench database". Every file is stored once.
// Every other round starts from a file at rest in WAL mode, which readers
// read immutably and writers wait for.
func TestConcurrent_WritersAndReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess writers and readers skipped in -short mode")
	}
	dir := t.TempDir()
	first := writeFixture(t, dir, "taubench/demo-model-b-retail-without-emotions.json")
	files := []string{
		writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json"),
		writeFixture(t, dir, "taubench/demo-model-a-retail-without-emotions.json"),
		writeFixture(t, dir, "taubench/demo-model-b-retail-with-emotions.json"),
	}
	readers := [][]string{
		{"runs"}, {"sql", "--format", "csv", "SELECT COUNT(*) AS n FROM runs"}, {"stats", "passk"}, {"check"},
	}
	var mu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf(format, args...))
	}
	reads := 0
	deadline := time.Now().Add(15 * time.Second)
	for round := 0; round < 6 && time.Now().Before(deadline); round++ {
		dbPath := filepath.Join(dir, fmt.Sprintf("c-%d.db", round))
		mustRun(t, "--db", dbPath, "ingest", first) // at rest, in DELETE mode
		if round%2 == 1 {
			plainSQL(t, dbPath, "PRAGMA journal_mode = WAL") // at rest in WAL mode: read immutably
		}
		stop := make(chan struct{})
		var rwg sync.WaitGroup
		for r := range 2 {
			rwg.Add(1)
			go func() {
				defer rwg.Done()
				for i := r; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					args := append([]string{"--db", dbPath}, readers[i%len(readers)]...)
					var out bytes.Buffer
					err := childCLI(t.Context(), &out, args...).Run()
					mu.Lock()
					reads++
					mu.Unlock()
					if err != nil || strings.Contains(out.String(), "not an emobench database") || strings.Contains(out.String(), "locked") {
						fail("round %d: %v: %v\n%s", round, args[2:], err, out.String())
					} else if args[2] == "sql" && !validCount(out.String()) {
						fail("round %d: %v said %q, want 1 to 4 runs", round, args[2:], out.String())
					}
				}
			}()
		}
		var wwg sync.WaitGroup
		for _, f := range files {
			wwg.Add(1)
			go func() {
				defer wwg.Done()
				var out bytes.Buffer
				if err := childCLI(t.Context(), &out, "--db", dbPath, "ingest", f).Run(); err != nil {
					fail("round %d: ingest %s: %v\n%s", round, filepath.Base(f), err, out.String())
				}
			}()
		}
		wwg.Wait()
		close(stop)
		rwg.Wait()
		got := sqlCSV(t, dbPath, "SELECT name, COUNT(*) FROM runs GROUP BY name ORDER BY name")
		want := "name,COUNT(*)\ndemo-model-a-retail-with-emotions,1\ndemo-model-a-retail-without-emotions,1\ndemo-model-b-retail-with-emotions,1\ndemo-model-b-retail-without-emotions,1\n"
		if got != want {
			fail("round %d: runs stored:\n%s\nwant each file once:\n%s", round, got, want)
		}
	}
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("%d reads", reads)
}

// A reader of a file at rest in WAL mode with no -wal reads it immutably
// (SQLite takes no lock for it): a writer starting meanwhile in another
// process waits until that reader closes, so that its checkpoint cannot
// write pages under the read.
func TestConcurrent_WriterWaitsForImmutableReader(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess writer skipped in -short mode")
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "wal.db")
	mustRun(t, "--db", dbPath, "ingest", writeFixture(t, dir, "taubench/demo-model-a-retail-with-emotions.json"))
	plainSQL(t, dbPath, "PRAGMA journal_mode = WAL") // as an earlier emobench left it
	requireNoJournalFiles(t, "at rest in WAL mode", dbPath)
	before := fileSum(t, dbPath)

	store, err := db.OpenReadOnly(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	var out bytes.Buffer
	writer := childCLI(t.Context(), &out, "--db", dbPath, "ingest", writeFixture(t, dir, "taubench/demo-model-b-retail-with-emotions.json"))
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- writer.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the writer finished (%v) while an immutable reader had the file open:\n%s", err, out.String())
	case <-time.After(2 * time.Second):
	}
	if after := fileSum(t, dbPath); after != before {
		t.Fatal("the file changed under an immutable reader")
	}
	if runs, err := store.ListRunSummaries(t.Context()); err != nil || len(runs) != 1 {
		t.Fatalf("reader: %d runs (%v), want 1", len(runs), err)
	}
	store.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("writer: %v\n%s", err, out.String())
		}
	case <-time.After(2 * time.Minute): // a hang guard, not a speed assertion
		t.Fatal("the writer still waits 2 min after the reader closed")
	}
	if !strings.Contains(out.String(), "waiting: another process is reading") {
		t.Errorf("the writer did not say it waited:\n%s", out.String())
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs"); got != 2 {
		t.Fatalf("%d runs after the writer, want 2", got)
	}
}

// validCount reports whether out, from `sql --format csv` in a child
// process, starts with a count of 1 to 4 runs.
func validCount(out string) bool {
	for n := 1; n <= 4; n++ {
		if strings.HasPrefix(out, fmt.Sprintf("n\n%d\n", n)) {
			return true
		}
	}
	return false
}

// Readers of a file another process is creating see no database yet, an
// empty one, or the whole schema: never a file between two migrations
// (taken for an older or foreign one).
func TestConcurrent_ReadersWhileCreating(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess writers and readers skipped in -short mode")
	}
	dir := t.TempDir()
	file := writeFixture(t, dir, "taubench/demo-model-b-retail-without-emotions.json")
	readers := [][]string{{"runs"}, {"check"}, {"stats", "passk"}}
	allowed := []string{"no database at", "holds no emobench schema yet", "no emobench schema (user_version 0)"}
	var failures []string
	deadline := time.Now().Add(15 * time.Second)
	for round := 0; round < 8 && time.Now().Before(deadline); round++ {
		dbPath := filepath.Join(dir, fmt.Sprintf("new-%d.db", round))
		var out bytes.Buffer
		writer := childCLI(t.Context(), &out, "--db", dbPath, "ingest", file)
		if err := writer.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- writer.Wait() }()
	read:
		for i := 0; ; i++ {
			select {
			case err := <-done:
				if err != nil {
					failures = append(failures, fmt.Sprintf("round %d: ingest: %v\n%s", round, err, out.String()))
				}
				break read
			default:
			}
			var rout bytes.Buffer
			args := append([]string{"--db", dbPath}, readers[i%len(readers)]...)
			if err := childCLI(t.Context(), &rout, args...).Run(); err != nil {
				ok := false
				for _, a := range allowed {
					ok = ok || strings.Contains(rout.String(), a)
				}
				if !ok {
					failures = append(failures, fmt.Sprintf("round %d: %v: %v\n%s", round, args[2:], err, rout.String()))
				}
			}
		}
	}
	for _, f := range failures {
		t.Error(f)
	}
}
