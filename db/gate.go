package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/emobench/emobench"
)

// The gate keeps an immutable read and a writer apart. A file in WAL mode
// whose -wal is absent is read with SQLite's immutable flag (so that no
// -wal or -shm is created), and such a connection takes no SQLite lock: a
// writer starting on the file could checkpoint pages into it under the
// reader. So, besides SQLite's own locks, emobench holds a BSD flock on
// the database file:
//
//   - a reader holds it shared while it decides how to read the file and
//     opens its first connection, and for as long as it reads immutably;
//   - a writer holds it exclusive while it inspects the file and switches it
//     to WAL mode, until the -wal exists (SQLite creates it at the first read
//     after the switch; it then stays until the last connection closes, so
//     no reader starts an immutable read), and while it switches the file
//     back to DELETE mode and closes.
//
// A writer therefore waits for immutable readers to finish, and a reader
// waits for the moment a writer switches the file's journal mode.
// flock locks are independent of the POSIX locks SQLite takes.

// gatePoll is how often a wait for the gate tries again.
const gatePoll = 20 * time.Millisecond

// immutableHere counts, per cleaned absolute path, the immutable reads of
// this process: a writer of the same process would wait for them forever.
var immutableHere = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

func gateKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// gateLock holds the gate of one file until release.
type gateLock struct {
	f         *os.File
	key       string
	immutable bool // counted in immutableHere
}

// release gives up the lock; it may be called more than once, and on nil.
func (l *gateLock) release() {
	if l == nil || l.f == nil {
		return
	}
	if l.immutable {
		immutableHere.Lock()
		if immutableHere.n[l.key]--; immutableHere.n[l.key] <= 0 {
			delete(immutableHere.n, l.key)
		}
		immutableHere.Unlock()
		l.immutable = false
	}
	unlockFile(l.f)
	l.f.Close()
	l.f = nil
}

// markImmutable records that the lock's holder reads the file immutably.
func (l *gateLock) markImmutable() {
	if l == nil || l.f == nil || l.immutable {
		return
	}
	l.immutable = true
	immutableHere.Lock()
	immutableHere.n[l.key]++
	immutableHere.Unlock()
}

// lockGate takes path's gate, shared or exclusive, waiting (calling
// onWait once, when not nil, if the wait lasts over a second) until it is
// free or ctx is done. A file that does not exist has no gate: it returns a
// nil lock, as it does where flock is not available.
func lockGate(ctx context.Context, path string, exclusive bool, onWait func()) (*gateLock, error) {
	key := gateKey(path)
	if exclusive {
		immutableHere.Lock()
		n := immutableHere.n[key]
		immutableHere.Unlock()
		if n > 0 {
			return nil, emobench.Errorf(emobench.EINVALID, "%s is being read by this process (immutably): close it before opening it for writing", path)
		}
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	start := time.Now()
	told := false
	for {
		ok, err := tryLockFile(f, exclusive)
		if err != nil {
			f.Close()
			return nil, nil // no flock here (e.g. a file system without it): SQLite's locks alone
		}
		if ok {
			return &gateLock{f: f, key: key}, nil
		}
		if !told && onWait != nil && time.Since(start) > time.Second {
			told = true
			onWait()
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("interrupted while waiting for another process using %s: %w", path, ctx.Err())
		case <-time.After(gatePoll):
		}
	}
}
