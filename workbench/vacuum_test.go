package workbench_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/workbench"
)

// damagedCopy copies the database at src to a new file whose messages
// table's root page is overwritten with garbage: it opens, and its runs
// read, but VACUUM fails halfway with "database disk image is malformed".
func damagedCopy(t *testing.T, src string) string {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+src+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int
	err = conn.QueryRow("SELECT (SELECT rootpage FROM sqlite_schema WHERE name = 'messages'), (SELECT page_size FROM pragma_page_size)").Scan(&root, &pageSize)
	conn.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	page := data[(root-1)*pageSize : root*pageSize]
	for i := range page {
		page[i] = 0xA5
	}
	path := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Item 9 of issue #20: a vacuum that fails halfway (a damaged source)
// leaves nothing at --out, nor a temporary file beside it, and the retry
// with a good source writes it.
func TestVacuum_ErrDamagedSourceLeavesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	good := ingestedDB(t)
	damaged := damagedCopy(t, good)
	dir := t.TempDir()
	out := filepath.Join(dir, "compact.db")
	_, err := workbench.Vacuum(ctx, damaged, out, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "vacuum into "+out) || !strings.Contains(err.Error(), "malformed") {
		t.Fatalf("vacuum of a damaged file: err = %v, want it to name %s and the damage", err, out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a failed vacuum left %d files in %s (%v), want none", len(entries), dir, entries)
	}
	size, err := workbench.Vacuum(ctx, good, out, func(string) {})
	if err != nil {
		t.Fatalf("the retry with a good source: %v", err)
	}
	if info, err := os.Stat(out); err != nil || info.Size() != size || info.Mode().Perm() != 0o644 {
		t.Fatalf("after the retry %s is %v (%v), want %d bytes, mode 0644", out, info, err, size)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%s holds %v, want only compact.db", dir, entries)
	}
}

// A leftover -wal, -journal or -shm beside --out (another database's)
// refuses the vacuum: SQLite would apply it to the copy when it is first
// opened, and the copy would hold the other database (#20 items 8, 9).
func TestVacuum_ErrSideFileBesideOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	good := ingestedDB(t)
	for _, suffix := range []string{"-wal", "-journal", "-shm"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out.db")
		if err := os.WriteFile(out+suffix, []byte("another database's"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := workbench.Vacuum(ctx, good, out, func(string) {})
		if err == nil || !strings.Contains(err.Error(), out+suffix+" exists beside it") {
			t.Fatalf("vacuum beside %s: err = %v, want a refusal naming it", suffix, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("%s holds %v, want only the leftover", dir, entries)
		}
	}
}
