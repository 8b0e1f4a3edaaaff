// Package atomicfile writes output files so that a reader never sees one
// half-written and no file that is not a regular file is ever replaced:
// each file is written to a temporary name in its own directory, synced,
// and renamed into place only when complete; on any error, cancellation or
// panic the temporary file is removed. A destination that exists as
// anything but a regular file (a device, a named pipe, a socket, a
// directory) is refused, with or without a caller's "force": renaming over
// /dev/null would replace the system's /dev/null with a regular file.
//
// It imports only the standard library.
package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Kind names what a file of mode is, with its article, for messages:
// "a regular file", "a directory", "a named pipe (FIFO)", "a socket",
// "a character device", "a block device", "a symbolic link" or
// "an irregular file".
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// NotRegularError is a path that exists as something other than a
// regular file (after following symbolic links), which is never written.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: emobench writes only regular files and leaves it as it is", e.Path, Kind(e.Mode))
}

// Target reports whether path exists as a regular file (a symbolic link
// is followed to its target). It returns a *NotRegularError when path
// exists as anything else, and an error naming the directory when path's
// directory does not exist.
func Target(path string) (exists bool, err error) {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.Mode().IsRegular():
		return true, nil
	case err == nil:
		return false, &NotRegularError{Path: path, Mode: info.Mode()}
	case !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	if _, lerr := os.Lstat(path); lerr == nil {
		// A symbolic link to nothing: the rename would replace the link.
		return false, nil
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return false, fmt.Errorf("cannot write %s: directory %s does not exist", path, dir)
	}
	return false, nil
}

// File is a file being written under a temporary name beside its final
// path. Commit renames it into place; Abort removes it.
type File struct {
	*os.File        // the temporary file
	path     string // the final path
	closed   bool
}

// Create checks path with Target and opens a temporary file in path's
// directory (named after it, hidden, mode 0600 until Commit) that Commit
// renames to path. The caller must call Commit or Abort.
func Create(path string) (*File, error) {
	if _, err := Target(path); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &File{File: f, path: path}, nil
}

// Path is the final path the file is renamed to.
func (f *File) Path() string { return f.path }

// finish syncs and closes the temporary file and makes it readable by all
// (0644: what emobench writes is meant to be shared).
func (f *File) finish() error {
	if f.closed {
		return nil
	}
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	f.closed = true
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// place renames the temporary file to its path; a path that became
// something other than a regular file meanwhile is still refused. The
// directory is not synced here (see syncDir).
func (f *File) place() error {
	if _, err := Target(f.path); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), f.path); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// syncDir syncs directory dir, so that a rename or link into it (a new
// directory entry) survives a crash: the file's own Sync makes its content
// durable, not its name. The error names path, the file written.
func syncDir(dir, path string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("write %s: sync directory: %w", path, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: sync directory %s: %w", path, dir, err)
	}
	return nil
}

// Commit syncs and closes the file, renames it to its path, replacing a
// regular file there, and syncs the directory. On error before the rename
// the temporary file is removed; an error syncing the directory leaves
// the file in place.
func (f *File) Commit() error {
	err := f.finish()
	if err == nil {
		err = f.place()
	}
	if err != nil {
		f.Abort()
		return err
	}
	return syncDir(filepath.Dir(f.path), f.path)
}

// CommitNew is Commit for a path that must not exist: a file created there
// meanwhile is kept, and the commit fails. It links the temporary file to
// path (which fails when path exists); where links are not supported, it
// checks and renames.
func (f *File) CommitNew() error {
	err := f.finish()
	if err == nil {
		err = f.link()
	}
	f.Abort() // the temporary name; path holds the file now
	if err != nil {
		return err
	}
	return syncDir(filepath.Dir(f.path), f.path)
}

func (f *File) link() error {
	err := os.Link(f.Name(), f.path)
	if err == nil {
		return nil
	}
	if _, lerr := os.Lstat(f.path); lerr == nil {
		return fmt.Errorf("write %s: it exists (created meanwhile), and is left as it is", f.path)
	}
	return f.place() // no hard links on this file system
}

// Abort closes and removes the temporary file; after Commit, or a second
// time, it does nothing.
func (f *File) Abort() {
	if !f.closed {
		f.Close()
		f.closed = true
	}
	os.Remove(f.Name()) // gone already after a rename
}

// Write writes path through fill: fill writes the whole content to w (a
// temporary file), and the file is renamed to path (Commit) only when fill
// returned nil and ctx is not done. Otherwise nothing is left behind and
// path keeps what it held.
func Write(ctx context.Context, path string, fill func(w io.Writer) error) (err error) {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
	if err := fill(f); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// WriteFile is Write with data as the content.
func WriteFile(ctx context.Context, path string, data []byte) error {
	return Write(ctx, path, func(w io.Writer) error {
		if _, err := w.Write(data); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	})
}

// Set is files written together: Commit renames all of them into place
// once every one is complete, Abort removes them and the directories the
// set created. The zero Set is ready to use.
type Set struct {
	files []*File
	dirs  []string // created by MkdirAll, outermost first
}

// MkdirAll creates dir and the parents it lacks (0755), remembering each
// it created for Abort. A path on the way that exists as something other
// than a directory is an error naming it.
func (s *Set) MkdirAll(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err == nil {
			if !info.IsDir() {
				return fmt.Errorf("cannot create directory %s: %s is %s", dir, d, Kind(info.Mode()))
			}
			break
		}
		missing = append(missing, d)
		if p := filepath.Dir(d); p == d {
			break
		}
	}
	slices.Reverse(missing)
	for _, d := range missing {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create directory %s: %w", d, err)
		} else if err == nil {
			s.dirs = append(s.dirs, d)
		}
	}
	return nil
}

// Create opens a file of the set that Commit renames to path (see
// Create). A path given twice is an error.
func (s *Set) Create(path string) (*File, error) {
	if slices.ContainsFunc(s.files, func(f *File) bool { return f.path == path }) {
		return nil, fmt.Errorf("write %s: the same file twice", path)
	}
	f, err := Create(path)
	if err != nil {
		return nil, err
	}
	s.files = append(s.files, f)
	return f, nil
}

// Commit syncs and closes every file, renames each into place, then syncs
// each directory that gained an entry (a file's, and the parent of each
// directory MkdirAll created). On error it calls Abort: files renamed
// before the error stay in place.
func (s *Set) Commit() error {
	for _, f := range s.files {
		if err := f.finish(); err != nil {
			s.Abort()
			return err
		}
	}
	for i, f := range s.files {
		if err := f.place(); err != nil {
			s.files = s.files[i:]
			s.dirs = nil // they hold the files renamed
			s.Abort()
			return err
		}
	}
	// Each directory that gained an entry, with the path it gained (for
	// the error), synced once.
	type entry struct{ dir, path string }
	var entries []entry
	for _, f := range s.files {
		entries = append(entries, entry{filepath.Dir(f.path), f.path})
	}
	for _, d := range s.dirs {
		entries = append(entries, entry{filepath.Dir(d), d})
	}
	s.files, s.dirs = nil, nil
	synced := map[string]bool{}
	for _, e := range entries {
		if synced[e.dir] {
			continue
		}
		synced[e.dir] = true
		if err := syncDir(e.dir, e.path); err != nil {
			return err
		}
	}
	return nil
}

// Abort removes every temporary file not yet renamed, then the
// directories MkdirAll created, innermost first, where they are empty.
func (s *Set) Abort() {
	for _, f := range s.files {
		f.Abort()
	}
	for i := len(s.dirs) - 1; i >= 0; i-- {
		os.Remove(s.dirs[i]) // fails, and keeps it, when not empty
	}
	s.files, s.dirs = nil, nil
}
