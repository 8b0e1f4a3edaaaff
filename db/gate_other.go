//go:build !unix

package db

import (
	"errors"
	"os"
)

// tryLockFile reports that flock is not available: SQLite's locks alone
// keep readers and writers apart.
func tryLockFile(*os.File, bool) (bool, error) { return false, errors.ErrUnsupported }

func unlockFile(*os.File) {}

// hardLinks is 1: this system does not say how many names a file has.
func hardLinks(os.FileInfo) uint64 { return 1 }
