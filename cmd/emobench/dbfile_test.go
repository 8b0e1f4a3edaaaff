package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 4 of issue #20: a named pipe as --db, or as the file of merge or
// check, or as vacuum's source, is refused at once (exit 1), naming it.
func TestDB_ErrFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.db")
	cliFIFO(t, fifo)
	good := filepath.Join(t.TempDir(), "good.db")
	fixtureDB(t, good)
	want := fifo + " is a named pipe (FIFO), not a database file"
	for _, args := range [][]string{
		{"--db", fifo, "runs"},
		{"--db", fifo, "migrate"},
		{"--db", fifo, "check"},
		{"--db", fifo, "vacuum", "--out", filepath.Join(dir, "copy.db")},
		{"--db", good, "merge", fifo},
	} {
		r := runCLI(t, "", args...)
		if r.code != exitFailure || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", strings.Join(args, " "), r.code, r.stderr, exitFailure, want)
		}
	}
	stillA(t, fifo, fs.ModeNamedPipe, dir, 1)
}

// Item 8 of issue #20: a device as --db is refused (exit 1) before
// anything opens it; /dev/null is only read here (commands that read).
func TestDB_ErrCharDevice(t *testing.T) {
	t.Parallel()
	good := filepath.Join(t.TempDir(), "good.db")
	fixtureDB(t, good)
	want := "/dev/null is a character device, not a database file"
	for _, args := range [][]string{
		{"--db", "/dev/null", "runs"},
		{"--db", "/dev/null", "check"},
		{"--db", good, "merge", "/dev/null"},
	} {
		r := runCLI(t, "", args...)
		if r.code != exitFailure || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", strings.Join(args, " "), r.code, r.stderr, exitFailure, want)
		}
	}
	if _, err := os.Stat("/dev/null-journal"); err == nil {
		t.Error("/dev/null-journal exists")
	}
}
