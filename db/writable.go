package db

import (
	"os"
	"path/filepath"

	"github.com/emobench/emobench"
)

// notWritable explains why the database at path cannot be opened for
// writing, when the cause is a read-only file or directory (SQLite creates
// its -wal and -shm files beside the database, so a writable file in a
// read-only directory cannot be written either); nil otherwise, and the
// caller's own error stands.
func notWritable(path string) error {
	if _, err := os.Stat(path); err == nil && !writable(path) {
		return emobench.Errorf(emobench.EINVALID,
			"cannot open database %s for writing: the file is read-only (make it writable, or copy it elsewhere; commands that only read open it read-only)", path)
	}
	if dir := filepath.Dir(path); !writable(dir) {
		return emobench.Errorf(emobench.EINVALID,
			"cannot open database %s for writing: its directory %s is read-only, and SQLite writes its journal beside the file (make the directory writable, or keep the database elsewhere)", path, dir)
	}
	return nil
}
