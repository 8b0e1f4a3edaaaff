package db_test

import (
	"context"
	"database/sql"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// MustOpenDB opens a fresh database in a temp dir and closes it at cleanup.
func MustOpenDB(tb testing.TB) (*db.DB, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "test.db")
	store, err := db.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	return store, path
}

func openRW(ctx context.Context, path string) (*db.DB, error) { return db.Open(ctx, path) }

func float(v float64) *float64 { return &v }

func traj(key string, trial int, reward float64) *emobench.Trajectory {
	return &emobench.Trajectory{
		Task:              emobench.Task{Key: key, Instruction: "cancel order " + key, Emotion: emobench.EmotionProfile{Family: "anger"}},
		Trial:             trial,
		Reward:            float(reward),
		Evaluated:         true,
		TerminationReason: emobench.TerminationUserStop,
		Messages: []emobench.Message{
			{Role: emobench.RoleUser, Content: "hi"},
			{Role: emobench.RoleAssistant, ToolCalls: []emobench.ToolCall{{ID: "c1", Name: "cancel", Arguments: []byte(`{"id":1}`)}}},
			{Role: emobench.RoleTool, ToolName: "cancel", ToolCallID: "c1", Content: "Error: not pending"},
			{Role: emobench.RoleUser, Content: "###STOP###"},
		},
	}
}

func seq(items ...any) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		for _, it := range items {
			var ok bool
			switch v := it.(type) {
			case *emobench.Trajectory:
				ok = yield(v, nil)
			case error:
				ok = yield(nil, v)
			}
			if !ok {
				return
			}
		}
	}
}

func run(name, sum string) emobench.Run {
	return emobench.Run{Name: name, SourceFormat: "taubench", SourceSHA256: sum, Domain: "retail", Condition: emobench.ConditionWithEmotions}
}

func queryInt(tb testing.TB, store *db.DB, q string) int {
	tb.Helper()
	rows, err := store.Query(context.Background(), q)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var n int
	if !rows.Next() {
		tb.Fatalf("%s: no row", q)
	}
	if err := rows.Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

func TestOpen_OK(t *testing.T) {
	store, _ := MustOpenDB(t)
	if got, want := queryInt(t, store, "PRAGMA user_version"), db.SchemaVersion(); got != want {
		t.Fatalf("user_version = %d, want %d", got, want)
	}
	if got := queryInt(t, store, "PRAGMA foreign_keys"); got != 1 {
		t.Fatalf("foreign_keys = %d, want 1", got)
	}
	if got := queryInt(t, store, "PRAGMA busy_timeout"); got != db.WriteBusyTimeout {
		t.Fatalf("busy_timeout = %d, want %d", got, db.WriteBusyTimeout)
	}
	rows, err := store.Query(context.Background(), "PRAGMA journal_mode")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var mode string
	rows.Next()
	if err := rows.Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q (%v), want wal", mode, err)
	}
}

func TestOpen_Reopen(t *testing.T) {
	t.Parallel()
	store, path := MustOpenDB(t)
	if _, err := store.IngestRun(context.Background(), run("a", "s1"), seq(traj("1", 0, 1)), db.DuplicateRefuse); err != nil {
		t.Fatal(err)
	}
	store.Close()
	again, err := db.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := queryInt(t, again, "SELECT COUNT(*) FROM trajectories"); got != 1 {
		t.Fatalf("trajectories after reopen = %d, want 1", got)
	}
}

func TestOpen_ErrNewerSchema(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "new.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	// A newer emobench marks its files with emobench's application_id.
	if _, err := raw.Exec("PRAGMA application_id = " + strconv.Itoa(db.ApplicationID) + "; PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	for name, open := range map[string]func(context.Context, string) (*db.DB, error){"Open": openRW, "OpenReadOnly": db.OpenReadOnly} {
		_, err := open(context.Background(), path)
		if err == nil || !strings.Contains(err.Error(), "schema version 999, newer than this emobench") {
			t.Fatalf("%s: err = %v, want a newer-schema error", name, err)
		}
	}
}

func TestOpen_ErrNotSQLite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notes.db")
	if err := os.WriteFile(path, []byte("these are not the pages you are looking for, not at all, no."), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Open(context.Background(), path); err == nil || !strings.Contains(err.Error(), "not an emobench database") {
		t.Fatalf("err = %v, want not an emobench database", err)
	}
}

func TestOpenReadOnly_ErrMissing(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "absent.db")
	_, err := db.OpenReadOnly(context.Background(), path)
	if err == nil || emobench.ErrorCode(err) != emobench.ENOTFOUND {
		t.Fatalf("err = %v, want ENOTFOUND", err)
	}
	if _, statErr := os.Stat(path); !errors.Is(statErr, os.ErrNotExist) {
		t.Fatalf("OpenReadOnly created %s", path)
	}
}

func TestIngestRun_OK(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	res, err := store.IngestRun(ctx, run("a", "s1"), seq(traj("1", 0, 1), traj("2", 0, 0.5), traj("1", 1, 0.9999999)), db.DuplicateRefuse)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Trajectories, 3; got != want {
		t.Fatalf("trajectories = %d, want %d", got, want)
	}
	if got := queryInt(t, store, "SELECT SUM(passed) FROM trajectories"); got != 2 {
		t.Fatalf("passed = %d, want 2 (1.0 and 0.9999999 are within 1e-6)", got)
	}
	if got := queryInt(t, store, "SELECT n_tool_errors + 10 * n_tool_calls + 100 * n_user_turns FROM trajectories LIMIT 1"); got != 211 {
		t.Fatalf("counts = %d, want 211 (1 error, 1 call, 2 user turns)", got)
	}
	if got := queryInt(t, store, "SELECT COUNT(*) FROM messages WHERE tool_name = 'cancel' AND json_extract(tool_arguments, '$.id') = 1"); got != 3 {
		t.Fatalf("assistant tool-call messages = %d, want 3", got)
	}
	// A second run over the same tasks shares their rows.
	if _, err := store.IngestRun(ctx, run("b", "s2"), seq(traj("1", 0, 0), traj("2", 0, 0)), db.DuplicateRefuse); err != nil {
		t.Fatal(err)
	}
	if got := queryInt(t, store, "SELECT COUNT(*) FROM tasks"); got != 2 {
		t.Fatalf("tasks = %d, want 2 (shared by content)", got)
	}
	if got := queryInt(t, store, "SELECT COUNT(*) FROM trajectory_outcomes WHERE emotion_family = 'anger' AND domain = 'retail'"); got != 5 {
		t.Fatalf("trajectory_outcomes rows = %d, want 5", got)
	}
}

func TestIngestRun_ErrRecordRollsBack(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	bad := errors.New("record 2: reward is a string")
	_, err := store.IngestRun(context.Background(), run("a", "s1"), seq(traj("1", 0, 1), traj("2", 0, 1), bad), db.DuplicateRefuse)
	if !errors.Is(err, bad) {
		t.Fatalf("err = %v, want %v", err, bad)
	}
	for _, table := range []string{"runs", "tasks", "trajectories", "messages"} {
		if got := queryInt(t, store, "SELECT COUNT(*) FROM "+table); got != 0 {
			t.Fatalf("%s has %d rows after a failed ingest, want 0", table, got)
		}
	}
}

func TestIngestRun_ErrDuplicate(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	_, err := store.IngestRun(context.Background(), run("a", "s1"), seq(traj("1", 0, 1), traj("2", 0, 1), traj("1", 0, 0)), db.DuplicateRefuse)
	var dup *db.DuplicateError
	if !errors.As(err, &dup) || dup.Index != 2 || dup.FirstIndex != 0 || dup.TaskKey != "1" {
		t.Fatalf("err = %v, want a DuplicateError at record 2 first seen at 0", err)
	}
	if got := queryInt(t, store, "SELECT COUNT(*) FROM runs"); got != 0 {
		t.Fatalf("runs = %d after refused duplicate, want 0", got)
	}
}

func TestIngestRun_KeepLast(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	res, err := store.IngestRun(context.Background(), run("a", "s1"), seq(traj("1", 0, 1), traj("1", 0, 0)), db.DuplicateKeepLast)
	if err != nil {
		t.Fatal(err)
	}
	if res.Trajectories != 1 || res.Replaced != 1 {
		t.Fatalf("result = %+v, want 1 trajectory, 1 replaced", res)
	}
	if got := queryInt(t, store, "SELECT passed FROM trajectories"); got != 0 {
		t.Fatalf("passed = %d, want the later record's 0", got)
	}
	if got := queryInt(t, store, "SELECT COUNT(*) FROM messages"); got != 4 {
		t.Fatalf("messages = %d, want only the later record's 4", got)
	}
}

func TestIngestRun_ErrCanceled(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	items := seq(traj("1", 0, 1), traj("2", 0, 1))
	canceling := func(yield func(*emobench.Trajectory, error) bool) {
		for tr, err := range items {
			if !yield(tr, err) {
				return
			}
			cancel()
		}
	}
	if _, err := store.IngestRun(ctx, run("a", "s1"), canceling, db.DuplicateRefuse); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := queryInt(t, store, "SELECT COUNT(*) FROM trajectories"); got != 0 {
		t.Fatalf("trajectories = %d after cancel, want 0", got)
	}
}

func TestIngestRun_ErrSameSHA(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	if _, err := store.IngestRun(ctx, run("a", "same"), seq(traj("1", 0, 1)), db.DuplicateRefuse); err != nil {
		t.Fatal(err)
	}
	id, name, err := store.FindRunBySHA256(ctx, "same")
	if err != nil || id != 1 || name != "a" {
		t.Fatalf("FindRunBySHA256 = %d %q %v, want 1 a", id, name, err)
	}
	if _, _, err := store.FindRunBySHA256(ctx, "other"); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	if _, err := store.IngestRun(ctx, run("b", "same"), seq(traj("1", 0, 1)), db.DuplicateRefuse); err == nil {
		t.Fatal("a second run with the same source sha256 was stored")
	}
}

func TestReadOnly_ErrWrite(t *testing.T) {
	t.Parallel()
	store, path := MustOpenDB(t)
	ctx := context.Background()
	if _, err := store.IngestRun(ctx, run("a", "s1"), seq(traj("1", 0, 1)), db.DuplicateRefuse); err != nil {
		t.Fatal(err)
	}
	store.Close()
	ro, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for _, q := range []string{
		"DELETE FROM runs",
		"UPDATE trajectories SET passed = 0",
		"DROP TABLE messages",
		"PRAGMA query_only = 0; DELETE FROM runs",
		"CREATE TABLE x (a)",
	} {
		rows, err := ro.Query(ctx, q)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		if err == nil {
			t.Errorf("%s: no error, want a read-only error", q)
		}
	}
	if got := queryInt(t, ro, "SELECT COUNT(*) FROM runs"); got != 1 {
		t.Fatalf("runs = %d after write attempts, want 1", got)
	}
}

func TestResolveRun(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	for i, name := range []string{"a", "b", "b"} {
		if _, err := store.IngestRun(ctx, run(name, string(rune('x'+i))), seq(traj("1", 0, 1)), db.DuplicateRefuse); err != nil {
			t.Fatal(err)
		}
	}
	if id, err := store.ResolveRun(ctx, "a"); err != nil || id != 1 {
		t.Fatalf("ResolveRun(a) = %d, %v, want 1", id, err)
	}
	if id, err := store.ResolveRun(ctx, "3"); err != nil || id != 3 {
		t.Fatalf("ResolveRun(3) = %d, %v, want 3", id, err)
	}
	if _, err := store.ResolveRun(ctx, "b"); err == nil || !strings.Contains(err.Error(), "matches runs 2, 3") {
		t.Fatalf("ResolveRun(b) err = %v, want ambiguous", err)
	}
	if _, err := store.ResolveRun(ctx, "zzz"); emobench.ErrorCode(err) != emobench.ENOTFOUND {
		t.Fatalf("ResolveRun(zzz) err = %v, want ENOTFOUND", err)
	}
}

func TestOpen_ErrForeignDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "other.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("CREATE TABLE notes (body TEXT)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before, _ := os.ReadFile(path)
	if _, err := db.Open(context.Background(), path); err == nil || !strings.Contains(err.Error(), "not an emobench database") {
		t.Fatalf("err = %v, want a refusal of another program's database", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the refused file was changed")
	}
}

func TestOpen_NewerSchemaUntouched(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "newer.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before, _ := os.ReadFile(path)
	if _, err := db.Open(context.Background(), path); err == nil {
		t.Fatal("a newer schema was accepted")
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the refused file was changed (e.g. switched to WAL)")
	}
}

// Two processes (here: two pools) opening a fresh file at once must not
// both try to create the schema.
func TestOpen_Concurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "race.db")
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			store, err := db.Open(context.Background(), path)
			if err == nil {
				store.Close()
			}
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent open: %v", err)
		}
	}
}

func TestOpen_ErrMissingDirectory(t *testing.T) {
	t.Parallel()
	_, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "no", "such", "x.db"))
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("err = %v, want a missing-directory error", err)
	}
}

func TestOpen_ErrEmptyPath(t *testing.T) {
	t.Parallel()
	const want = "no database path given (an empty path is a temporary database that SQLite deletes on close)"
	for name, open := range map[string]func(context.Context, string) (*db.DB, error){"Open": openRW, "OpenReadOnly": db.OpenReadOnly} {
		if _, err := open(context.Background(), ""); err == nil || err.Error() != want {
			t.Errorf("%s(\"\"): err = %v, want %q", name, err, want)
		}
	}
}

// A file at rest in WAL mode with no -wal is read immutably, so SQLite
// takes no lock for the reader: a writer of the same process is refused
// (one of another process waits), and opens once the reader is closed.
func TestOpen_ErrReadImmutablyHere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, path := MustOpenDB(t)
	store.Close()
	plain, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Exec("PRAGMA journal_mode = WAL"); err != nil {
		t.Fatal(err)
	}
	plain.Close()
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("-wal after the last close: %v", err)
	}
	ro, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Open(ctx, path); emobench.ErrorCode(err) != emobench.EINVALID || !strings.Contains(err.Error(), "being read by this process") {
		t.Fatalf("Open during an immutable read: %v, want EINVALID", err)
	}
	if err := ro.RequireCurrent(ctx); err != nil {
		t.Fatal(err)
	}
	ro.Close()
	rw, err := db.Open(ctx, path)
	if err != nil {
		t.Fatalf("Open after the reader closed: %v", err)
	}
	rw.Close()
}

// While a writer has the file open, its -wal exists (SQLite creates it at
// the first read after the switch to WAL, so Open reads): no reader starts
// an immutable read of a file a writer is about to change.
func TestOpen_WALExistsWhileOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.db")
	for _, state := range []string{"new", "at rest"} {
		store, err := db.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path + "-wal"); err != nil {
			t.Errorf("%s file: no -wal while a writer has it open: %v", state, err)
		}
		store.Close()
		if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s file: -wal after Close: %v", state, err)
		}
	}
}
