package workbench_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/fixtures"
	"github.com/emobench/emobench/workbench"
)

// ingestedDB is a database file under t.TempDir() holding one run
// ingested from the pass^k fixture, closed.
func ingestedDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "ingested.db")
	store, err := workbench.OpenWrite(ctx, path, func(n string) { t.Errorf("note on a new database: %s", n) })
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	file := writeIngestFile(t, dir, "passk.json", fixtureBytes(t, fixtures.PassKFile))
	if _, err := workbench.IngestPath(ctx, store, file, nil, ingestTestOptions()); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenExisting_ErrMissing(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "missing.db")
	_, err := workbench.OpenExisting(context.Background(), path, func(string) {})
	if want := path + ": no such database"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stat %s: %v, want no file: OpenExisting never creates one", path, err)
	}
}

func TestOpenCurrent_OK(t *testing.T) {
	t.Parallel()
	store, err := workbench.OpenCurrent(context.Background(), ingestedDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	runs, err := store.ListRuns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
}

func TestMergeFile_OK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	other := ingestedDB(t)
	store := openRunTestDB(t)
	rep, err := workbench.MergeFile(ctx, store, other)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture has 4 tasks with 4, 4, 4 and 3 trials.
	if rep.RunsAdded != 1 || rep.Trajectories != 15 {
		t.Fatalf("merge report %+v, want 1 run added, 15 trajectories", rep)
	}
	rep, err = workbench.MergeFile(ctx, store, other)
	if err != nil {
		t.Fatal(err)
	}
	if rep.RunsAdded != 0 || rep.RunsSkipped != 1 {
		t.Fatalf("second merge report %+v, want the run skipped", rep)
	}
}

func TestMergeFile_ErrNotADatabase(t *testing.T) {
	t.Parallel()
	store := openRunTestDB(t)
	path := writeIngestFile(t, t.TempDir(), "junk.db", []byte(strings.Repeat("not sqlite ", 100)))
	if _, err := workbench.MergeFile(context.Background(), store, path); err == nil {
		t.Fatal("merging a file that is no database: no error")
	}
}

func TestVacuum_OK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := ingestedDB(t)
	out := filepath.Join(t.TempDir(), "compact.db")
	size, err := workbench.Vacuum(ctx, path, out, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if size != info.Size() || size == 0 {
		t.Fatalf("size = %d, file has %d bytes; want them equal and not 0", size, info.Size())
	}
	// A second copy to the same file is refused: vacuum never overwrites.
	_, err = workbench.Vacuum(ctx, path, out, func(string) {})
	if !errors.Is(err, emobench.ErrRequest) || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("vacuum onto an existing file: err = %v, want an EREQUEST error that says it exists", err)
	}
}

func TestVacuum_ErrMissingDB(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "missing.db")
	if _, err := workbench.Vacuum(context.Background(), path, filepath.Join(dir, "out.db"), func(string) {}); err == nil {
		t.Fatal("vacuum of a missing database: no error")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stat %s: %v, want no file: vacuum never creates the database", path, err)
	}
}

func TestCheckDB_OK(t *testing.T) {
	t.Parallel()
	path := ingestedDB(t)
	rep, err := workbench.CheckDB(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 {
		t.Fatalf("problems %q, want none", rep.Problems)
	}
	if want := []string{"provenance: 1 ingested, 0 native, 0 merged, 0 unknown"}; !slices.Equal(rep.Provenance, want) {
		t.Fatalf("provenance = %q, want %q", rep.Provenance, want)
	}
	version := db.SchemaVersion()
	want := []string{
		fmt.Sprintf("%s: schema version %d (this emobench writes %d)", path, version, version),
		"ok: integrity and schema as expected",
		"provenance: 1 ingested, 0 native, 0 merged, 0 unknown",
	}
	if got := rep.Lines(path); !slices.Equal(got, want) {
		t.Fatalf("lines = %q, want %q", got, want)
	}
}

func TestChecked_Lines(t *testing.T) {
	t.Parallel()
	version := db.SchemaVersion()
	broken := &workbench.Checked{CheckReport: db.CheckReport{SchemaVersion: version, Problems: []string{"table runs: missing"}}}
	want := []string{fmt.Sprintf("x.db: schema version %d (this emobench writes %d)", version, version), "problem: table runs: missing"}
	if got := broken.Lines("x.db"); !slices.Equal(got, want) {
		t.Fatalf("lines with a problem = %q, want %q", got, want)
	}
	old := &workbench.Checked{CheckReport: db.CheckReport{SchemaVersion: version - 1}}
	want = []string{
		fmt.Sprintf("x.db: schema version %d (this emobench writes %d)", version-1, version),
		"ok: integrity and schema as expected",
		fmt.Sprintf("note: the read commands need schema version %d: upgrade with `emobench --db x.db migrate`", version),
	}
	if got := old.Lines("x.db"); !slices.Equal(got, want) {
		t.Fatalf("lines of an older schema = %q, want %q", got, want)
	}
}

func TestCheckDB_ErrNotADatabase(t *testing.T) {
	t.Parallel()
	path := writeIngestFile(t, t.TempDir(), "junk.db", []byte(strings.Repeat("not sqlite ", 100)))
	rep, err := workbench.CheckDB(context.Background(), path)
	if rep != nil || err == nil {
		t.Fatalf("rep %+v, err %v; want no report and an error", rep, err)
	}
}

func TestOpenRuns_OK(t *testing.T) {
	t.Parallel()
	store, ids, err := workbench.OpenRuns(context.Background(), ingestedDB(t), []string{"passk", "1"})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if want := []int64{1, 1}; !slices.Equal(ids, want) {
		t.Fatalf("ids = %v, want %v", ids, want)
	}
}

func TestOpenRuns_ErrRunNotFound(t *testing.T) {
	t.Parallel()
	_, _, err := workbench.OpenRuns(context.Background(), ingestedDB(t), []string{"1", "nope"})
	var missing *db.RunNotFoundError
	if !errors.As(err, &missing) {
		t.Fatalf("err = %v, want a *db.RunNotFoundError", err)
	}
}

func TestMergeFiles_StopsAtFailure(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	good := ingestedDB(t)
	bad := writeIngestFile(t, t.TempDir(), "junk.db", []byte(strings.Repeat("not sqlite ", 100)))
	store := openRunTestDB(t)
	var merged []string
	err := workbench.MergeFiles(ctx, store, "target.db", []string{good, bad, good}, func(line string) {
		merged = append(merged, line)
	}, func(string) {})
	if err == nil {
		t.Fatal("merging a file that is no database: no error")
	}
	if want := []string{good + ": 1 runs added, 0 extended, 0 skipped; "}; len(merged) != 1 || !strings.HasPrefix(merged[0], want[0]) {
		t.Fatalf("merged %q, want %q: the files after the failure are not merged", merged, want)
	}
}
