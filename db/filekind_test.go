package db

import (
	"bytes"
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emobench/emobench"
)

// A block device cannot be made in a test: its mode is made up, as
// os.Stat reports one (ModeDevice without ModeCharDevice).
func TestFileKindError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode fs.FileMode
		want string
	}{
		{0o644, ""},
		{fs.ModeDevice | 0o660, "/x/db is a block device, not a database file: emobench leaves it as it is"},
		{fs.ModeDevice | fs.ModeCharDevice | 0o666, "/x/db is a character device, not a database file: emobench leaves it as it is"},
		{fs.ModeNamedPipe | 0o644, "/x/db is a named pipe (FIFO), not a database file: emobench leaves it as it is"},
		{fs.ModeSocket | 0o755, "/x/db is a socket, not a database file: emobench leaves it as it is"},
		{fs.ModeDir | 0o755, "/x/db is a directory, not a database file: emobench leaves it as it is"},
	} {
		err := fileKindError("/x/db", tc.mode)
		got := ""
		if err != nil {
			got = err.Error()
			if emobench.ErrorCode(err) != emobench.EINVALID {
				t.Errorf("%v: code %q, want EINVALID", tc.mode, emobench.ErrorCode(err))
			}
		}
		if got != tc.want {
			t.Errorf("fileKindError(%v) = %q, want %q", tc.mode, got, tc.want)
		}
	}
}

// fifoWithData makes a named pipe in a new directory and keeps it open for
// reading and writing, holding some bytes, until the test ends: an open or
// a read of it by a broken check then returns instead of blocking for
// ever, and fails the test.
func fifoWithData(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "pipe.db")
	heldFIFO(t, path)
	return dir, path
}

// heldFIFO makes a named pipe at path, holding some bytes, and keeps it
// open for reading and writing until the test ends (see fifoWithData).
func heldFIFO(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0) // on Linux: does not block
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.Write(bytes.Repeat([]byte("not a database "), 200)); err != nil {
		t.Fatal(err)
	}
}

// A named pipe or a symbolic link where SQLite keeps a database's journal,
// WAL or shared memory (PATH-journal, -wal, -shm) is refused before SQLite
// opens anything: SQLite would block on the pipe for ever (Ctrl-C
// unheard), delete it, or write through the link. Each open runs in a
// goroutine, so that a broken check fails the test instead of hanging it.
func TestOpen_ErrSideFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ suffix, what string }{
		{"-journal", "journal"}, {"-wal", "WAL file"}, {"-shm", "shared-memory file"},
	} {
		for _, kind := range []string{"fifo", "symlink"} {
			t.Run(tc.suffix+"/"+kind, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				dir := t.TempDir()
				path := filepath.Join(dir, "w.db")
				store, err := Open(ctx, path)
				if err != nil {
					t.Fatal(err)
				}
				if err := store.Close(); err != nil {
					t.Fatal(err)
				}
				side := path + tc.suffix
				victim := filepath.Join(dir, "victim.txt")
				want := side + " is a named pipe (FIFO), not SQLite's " + tc.what + ": emobench leaves it as it is; move it away"
				if kind == "fifo" {
					heldFIFO(t, side)
				} else {
					if err := os.WriteFile(victim, []byte("mine"), 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Symlink(victim, side); err != nil {
						t.Fatal(err)
					}
					want = side + " is a symbolic link, not SQLite's " + tc.what + ": emobench leaves it as it is; move it away"
				}
				opens := map[string]func() (*DB, error){
					"Open":                func() (*DB, error) { return Open(ctx, path) },
					"OpenReadOnly":        func() (*DB, error) { return OpenReadOnly(ctx, path) },
					"Open of a new file":  func() (*DB, error) { return Open(ctx, filepath.Join(dir, "new.db")) },
					"Open through a link": func() (*DB, error) { return Open(ctx, filepath.Join(dir, "link.db")) },
				}
				if err := os.Symlink(path, filepath.Join(dir, "link.db")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(side, filepath.Join(dir, "new.db"+tc.suffix)); err != nil {
					t.Fatal(err)
				}
				for name, open := range opens {
					done := make(chan error, 1)
					go func() {
						store, err := open()
						if store != nil {
							store.Close()
						}
						done <- err
					}()
					select {
					case err = <-done:
					case <-time.After(2 * time.Minute):
						t.Fatalf("%s: still blocked after 2 minutes", name)
					}
					w := want
					if name == "Open of a new file" {
						w = filepath.Join(dir, "new.db"+tc.suffix) + " is a symbolic link, not SQLite's " + tc.what
					}
					if err == nil || !strings.Contains(err.Error(), w) || emobench.ErrorCode(err) != emobench.EINVALID {
						t.Errorf("%s: err = %v, want EINVALID with %q", name, err, w)
					}
				}
				if info, err := os.Lstat(side); err != nil || (kind == "fifo") != (info.Mode()&fs.ModeNamedPipe != 0) {
					t.Errorf("%s is now %v (%v), want it left as it was", side, info, err)
				}
				if got, err := os.ReadFile(victim); kind == "symlink" && (err != nil || string(got) != "mine") {
					t.Errorf("victim.txt holds %q (%v), want it untouched", got, err)
				}
				if _, err := os.Stat(filepath.Join(dir, "new.db")); err == nil {
					t.Error("a refused Open created new.db")
				}
			})
		}
	}
}

// A named pipe as the database is refused at once by Open and
// OpenReadOnly, and nothing is created beside it.
func TestOpen_ErrFIFO(t *testing.T) {
	t.Parallel()
	dir, path := fifoWithData(t)
	want := path + " is a named pipe (FIFO), not a database file"
	if _, err := Open(context.Background(), path); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Open: err = %v, want %q", err, want)
	}
	if _, err := OpenReadOnly(context.Background(), path); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("OpenReadOnly: err = %v, want %q", err, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%s holds %d entries, want only the pipe (no -journal, -wal)", dir, len(entries))
	}
}

// A character device (/dev/null, only read here, and reached through a
// symbolic link in the test's directory too) is refused by OpenReadOnly.
func TestOpenReadOnly_ErrCharDevice(t *testing.T) {
	t.Parallel()
	link := filepath.Join(t.TempDir(), "null.db")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/null", link} {
		store, err := OpenReadOnly(context.Background(), path)
		if want := path + " is a character device, not a database file"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("OpenReadOnly(%s): err = %v, want %q", path, err, want)
		}
		if store != nil {
			store.Close()
		}
	}
	if info, err := os.Stat("/dev/null"); err != nil || info.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/null is now %v (%v)", info, err)
	}
}

// A side file that is a hard link of another file (a regular file with a
// second name) is refused: SQLite would truncate and rewrite that other
// file through it (#20 items 4 and 8, second round).
func TestOpen_ErrSideFileHardLink(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"-journal", "-wal", "-shm"} {
		t.Run(suffix, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := t.TempDir()
			path := filepath.Join(dir, "hl.db")
			store, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if err := store.Close(); err != nil {
				t.Fatal(err)
			}
			victim := filepath.Join(dir, "victim.txt")
			if err := os.WriteFile(victim, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(victim, path+suffix); err != nil {
				t.Skipf("link: %v", err)
			}
			want := path + suffix + " has 2 names (hard links)"
			for name, open := range map[string]func() (*DB, error){
				"Open":         func() (*DB, error) { return Open(ctx, path) },
				"OpenReadOnly": func() (*DB, error) { return OpenReadOnly(ctx, path) },
			} {
				store, err := open()
				if store != nil {
					store.Close()
				}
				if err == nil || !strings.Contains(err.Error(), want) || emobench.ErrorCode(err) != emobench.EINVALID {
					t.Errorf("%s: err = %v, want EINVALID with %q", name, err, want)
				}
			}
			if got, err := os.ReadFile(victim); err != nil || string(got) != "mine" {
				t.Errorf("victim.txt holds %q (%v), want it untouched", got, err)
			}
		})
	}
}

// A file with emobench's mark, tables and a schema version below 1 (set
// outside emobench) is refused with one verdict, never migrated: 0001
// would run over its tables (#20 item 5, second round).
func TestOpen_ErrVersionBelowOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "uv.db")
	store, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA user_version = -1"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	store, err = Open(ctx, path)
	if store != nil {
		store.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "but schema version -1, which no emobench writes") {
		t.Errorf("Open: err = %v, want the version named", err)
	}
}
