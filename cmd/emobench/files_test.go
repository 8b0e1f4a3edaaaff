package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/emobench/emobench/export"
)

// cliFIFO makes a named pipe at path and keeps it open for reading and
// writing, holding some bytes, until the test ends: should a command open
// or read it, it gets an answer instead of blocking for ever (and the
// test fails instead of hanging).
func cliFIFO(t *testing.T, path string) {
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

// stillA checks that path is still of type mode (not replaced by a
// regular file), and that dir holds exactly want entries.
func stillA(t *testing.T, path string, mode fs.FileMode, dir string, want int) {
	t.Helper()
	if info, err := os.Stat(path); err != nil || info.Mode().Type() != mode {
		t.Errorf("%s is now %v (%v), want it left as %v", path, info, err, mode)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != want {
		t.Errorf("%s holds %d entries, want %d: nothing created beside", dir, len(entries), want)
	}
}

// Item 7 of issue #20: --force replaces a regular file only. Every writer
// refuses a named pipe and a symbolic link to /dev/null (in the test's
// directory: the real /dev/null is never named with --force), naming the
// path and its kind, and leaves both as they were.
func TestOut_ErrNotRegularEvenWithForce(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	fixtureDB(t, dbPath)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	cliFIFO(t, fifo)
	link := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "tracer", "filter", "--run", "1", "--min-reward", "0", "--allow-test-tasks", "--selection", "s")
	domain := catalogDomain(t)
	for _, target := range []struct{ path, kind string }{
		{fifo, "a named pipe (FIFO)"},
		{link, "a character device"},
	} {
		out := target.path
		for _, args := range [][]string{
			{"--db", dbPath, "report", "--out", out, "--force", "--resamples", "200"},
			{"--db", dbPath, "export", "--format", export.FormatJSONL, "--out", out, "--force"},
			{"--db", dbPath, "export", "--format", export.FormatCSV, "--out", out, "--force"},
			{"--db", dbPath, "export", "--format", export.FormatTauBench, "--run", "1", "--out", out, "--force"},
			{"--db", dbPath, "tracer", "export", "--selection", "s", "--format", "openai", "--out", out, "--force"},
			{"--db", dbPath, "tracer", "export", "--selection", "s", "--format", "openai", "--out", filepath.Join(t.TempDir(), "t.jsonl"), "--stats", out, "--force"},
			{"tracer", "generate", "--domain", domain, "--n", "1", "--out", out, "--force"},
			{"--db", dbPath, "vacuum", "--out", out},
		} {
			r := runCLI(t, "", args...)
			want := out + " is " + target.kind
			if r.code == 0 || !strings.Contains(r.stderr, want) {
				t.Errorf("%s: exit %d, stderr %q; want a refusal naming %q", strings.Join(args, " "), r.code, r.stderr, want)
			}
		}
	}
	stillA(t, fifo, fs.ModeNamedPipe, dir, 2)
	if got, err := os.Readlink(link); err != nil || got != "/dev/null" {
		t.Errorf("%s points to %q (%v), want /dev/null", link, got, err)
	}
}

// Items 4 and 8 of issue #20: a named pipe where SQLite keeps a db's WAL
// or journal has every command refuse the db, naming the pipe, and leave
// it there: `runs set` and `merge` (of a source with a pipe as its
// journal) neither block on it nor delete it.
func TestDB_ErrSideFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath, src := filepath.Join(dir, "w.db"), filepath.Join(dir, "src.db")
	fixtureDB(t, dbPath)
	fixtureDB(t, src)
	cliFIFO(t, dbPath+"-wal")
	cliFIFO(t, src+"-journal")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", dbPath, "runs", "set", "1", "--name", "zz"}, dbPath + "-wal is a named pipe (FIFO), not SQLite's WAL file: emobench leaves it as it is; move it away"},
		{[]string{"--db", dbPath, "runs"}, dbPath + "-wal is a named pipe (FIFO), not SQLite's WAL file"},
		{[]string{"--db", filepath.Join(t.TempDir(), "v1.db"), "merge", src}, src + "-journal is a named pipe (FIFO), not SQLite's journal"},
	} {
		if r := runCLI(t, "", tc.args...); r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d stderr %q, want 1 and %q", strings.Join(tc.args[2:], " "), r.code, r.stderr, tc.want)
		}
	}
	stillA(t, dbPath+"-wal", fs.ModeNamedPipe, dir, 4)
	stillA(t, src+"-journal", fs.ModeNamedPipe, dir, 4)
}
