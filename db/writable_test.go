package db_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// readOnlyDir makes dir read-only for the test: by its mode, or for root,
// whom modes do not stop, by the immutable attribute (chattr +i); it skips
// the test when neither can be had.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no read-only directories by mode on windows")
	}
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("running as root and chattr +i %s failed (%v: %s): no way to make a read-only directory", dir, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
}

// Opening a database for writing in a read-only directory fails with an
// error naming the path and the directory, not SQLite's "unable to open
// database file"; a new file is not created, and an existing one still
// opens read-only.
func TestOpen_ErrReadOnlyDirectory(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "runs.db")
	store, err := db.Open(ctx, existing)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	readOnlyDir(t, dir)
	for _, path := range []string{existing, filepath.Join(dir, "new.db")} {
		store, err := db.Open(ctx, path)
		if err == nil {
			store.Close()
			t.Fatalf("Open(%s) in a read-only directory: no error", path)
		}
		msg := err.Error()
		if !strings.Contains(msg, "cannot open database "+path+" for writing") || !strings.Contains(msg, "directory "+dir+" is read-only") {
			t.Errorf("Open(%s): %q, want it to name the path and the read-only directory", path, msg)
		}
		if got := emobench.ErrorCode(err); got != emobench.EINVALID {
			t.Errorf("Open(%s): code %q, want %q", path, got, emobench.EINVALID)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.db")); !os.IsNotExist(err) {
		t.Errorf("new.db: stat error %v, want it not created", err)
	}
	ro, err := db.OpenReadOnly(ctx, existing)
	if err != nil {
		t.Fatalf("OpenReadOnly(%s) in a read-only directory: %v", existing, err)
	}
	ro.Close()
}
