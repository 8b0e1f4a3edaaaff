package atomicfile_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/emobench/emobench/internal/atomicfile"
)

// Every kind of file has its name; a block device cannot be made in a
// test, so its mode is made up (ModeDevice without ModeCharDevice, as
// os.Stat reports one).
func TestKind(t *testing.T) {
	for _, tc := range []struct {
		mode fs.FileMode
		want string
	}{
		{0o644, "a regular file"},
		{fs.ModeDir | 0o755, "a directory"},
		{fs.ModeNamedPipe | 0o644, "a named pipe (FIFO)"},
		{fs.ModeSocket | 0o755, "a socket"},
		{fs.ModeDevice | fs.ModeCharDevice | 0o666, "a character device"},
		{fs.ModeDevice | 0o660, "a block device"},
		{fs.ModeSymlink | 0o777, "a symbolic link"},
		{fs.ModeIrregular, "an irregular file"},
	} {
		if got := atomicfile.Kind(tc.mode); got != tc.want {
			t.Errorf("Kind(%v) = %q, want %q", tc.mode, got, tc.want)
		}
	}
}

// mkfifo makes a named pipe at path; the tests never open it, so nothing
// blocks.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// notRegular checks that err refuses path as kind, and that path is still
// of mode want.
func notRegular(t *testing.T, err error, path, kind string, want fs.FileMode) {
	t.Helper()
	var nr *atomicfile.NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), path+" is "+kind+", not a regular file") {
		t.Errorf("err = %v, want a *NotRegularError saying %s is %s", err, path, kind)
	}
	info, serr := os.Stat(path)
	if serr != nil || info.Mode().Type() != want {
		t.Errorf("after the refusal %s is %v (%v), want it left as it was (%v)", path, info, serr, want)
	}
}

// onlyEntries checks that dir holds exactly names: no temporary file is
// left behind.
func onlyEntries(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

func TestWriteFile_OK(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	for _, content := range []string{"first", "second"} { // the second replaces a regular file
		if err := atomicfile.WriteFile(t.Context(), path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Errorf("file holds %q, want %q", b, content)
		}
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}
	onlyEntries(t, dir, "out.json")
}

// A device, a named pipe or a directory is never replaced, however the
// path reaches it (here a symbolic link to /dev/null, which is only
// looked at).
func TestWriteFile_ErrNotRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	mkfifo(t, fifo)
	notRegular(t, atomicfile.WriteFile(t.Context(), fifo, []byte("x")), fifo, "a named pipe (FIFO)", fs.ModeNamedPipe)

	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	notRegular(t, atomicfile.WriteFile(t.Context(), sub, []byte("x")), sub, "a directory", fs.ModeDir)

	link := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	notRegular(t, atomicfile.WriteFile(t.Context(), link, []byte("x")), link, "a character device", fs.ModeDevice|fs.ModeCharDevice)
	if target, err := os.Readlink(link); err != nil || target != "/dev/null" {
		t.Errorf("link now points to %q (%v), want /dev/null", target, err)
	}
	onlyEntries(t, dir, "null", "pipe", "sub")
}

func TestWriteFile_ErrNoDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "missing", "out.json")
	err := atomicfile.WriteFile(t.Context(), path, []byte("x"))
	if want := "cannot write " + path + ": directory " + filepath.Dir(path) + " does not exist"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// A failed fill or a cancelled context leaves the old file as it was and
// no temporary file.
func TestWrite_ErrLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := errors.New("disk full")
	err := atomicfile.Write(t.Context(), path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return broken
	})
	if !errors.Is(err, broken) {
		t.Errorf("err = %v, want the fill's error", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	err = atomicfile.Write(ctx, path, func(w io.Writer) error {
		_, err := w.Write([]byte("all of it"))
		cancel() // Ctrl-C after the content was written, before the rename
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file holds %q, want it kept as old", b)
	}
	onlyEntries(t, dir, "out.json")
}

// A failed write to a new path leaves no partial file there and no
// temporary file beside it; a later write succeeds.
func TestWrite_ErrNewPathLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "new.json")
	broken := errors.New("encode: bad record 3")
	err := atomicfile.Write(t.Context(), path, func(w io.Writer) error {
		w.Write([]byte(`[{"id":1},{"id":2},`))
		return broken
	})
	if !errors.Is(err, broken) {
		t.Errorf("err = %v, want the fill's error", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lstat(%s) = %v, want no file", path, err)
	}
	onlyEntries(t, dir)
	if err := atomicfile.WriteFile(t.Context(), path, []byte("[]\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "[]\n" {
		t.Errorf("file holds %q, want %q", b, "[]\n")
	}
	onlyEntries(t, dir, "new.json")
}

// CommitNew keeps a file that appeared at the path meanwhile.
func TestFile_CommitNewErrExists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "copy.db")
	f, err := atomicfile.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if err := os.WriteFile(path, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := f.CommitNew(); err == nil || !strings.Contains(err.Error(), path+": it exists") {
		t.Errorf("err = %v, want the path named as existing", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "theirs" {
		t.Errorf("file holds %q, want theirs kept", b)
	}
	onlyEntries(t, dir, "copy.db")
}

// A set that fails removes its files and the directories it created, and
// keeps a directory that was there before.
func TestSet_AbortRemovesCreatedDirs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "new", "deeper")
	var set atomicfile.Set
	if err := set.MkdirAll(out); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Create(filepath.Join(out, "a.csv")); err != nil {
		t.Fatal(err)
	}
	set.Abort()
	onlyEntries(t, dir)

	var ok atomicfile.Set
	if err := ok.MkdirAll(out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.csv", "b.csv"} {
		f, err := ok.Create(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(name)
	}
	if err := ok.Commit(); err != nil {
		t.Fatal(err)
	}
	ok.Abort() // after Commit: nothing to do
	onlyEntries(t, out, "a.csv", "b.csv")
}

func TestSet_MkdirAllErrNotDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	mkfifo(t, fifo)
	var set atomicfile.Set
	err := set.MkdirAll(filepath.Join(fifo, "sub"))
	if err == nil || !strings.Contains(err.Error(), fifo+" is a named pipe (FIFO)") {
		t.Errorf("err = %v, want the pipe named", err)
	}
}
