//go:build unix

package db

import "syscall"

// wOK is access(2)'s W_OK.
const wOK = 2

// writable reports whether the process may write path (a file, or a
// directory to create files in): access(2) with W_OK, which also says no
// on a read-only mount or an immutable file, even to root.
func writable(path string) bool { return syscall.Access(path, wOK) == nil }
