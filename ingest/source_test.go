package ingest_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench/ingest"
)

// sortedResults is a τ²-bench Results object as json.dump(...,
// sort_keys=True) writes it: n simulations before the tasks.
func sortedResults(n int) string {
	var sims []string
	for i := range n {
		sims = append(sims, fmt.Sprintf(`{"id": "s%d", "messages": [], "reward_info": {"reward": 1}, "task_id": "t0", "termination_reason": "user_stop", "trial": %d}`, i, i))
	}
	return `{"info": {}, "simulations": [` + strings.Join(sims, ", ") + `], "tasks": [{"id": "t0"}], "timestamp": "2026-01-01T00:00:00"}`
}

// From a stream, simulations before tasks are spooled to a temporary file
// that is gone once the source is closed; from a file they are read on a
// second pass. Both give every simulation.
func TestOpen_Tau2SortedKeysSpooledFromStream(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	content := sortedResults(5)
	path := filepath.Join(t.TempDir(), "sorted.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := ingest.OpenSource(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]*ingest.Source{"stream": ingest.StreamSource(t.Context(), "pipe", strings.NewReader(content)), "file": file} {
		o, err := ingest.Open(src, ingest.Hints{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n := 0
		for _, err := range o.Trajectories {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			n++
		}
		if sum, err := src.Finish(); n != 5 || err != nil || sum != sha256Hex(content) {
			t.Errorf("%s: %d trajectories, sha256 %s (%v); want 5 and %s", name, n, sum, err, sha256Hex(content))
		}
		src.Close()
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestOpen_ErrSpoolFull(t *testing.T) {
	src := ingest.StreamSource(t.Context(), "pipe", strings.NewReader(sortedResults(50)))
	defer src.Close()
	_, err := ingest.Open(src, ingest.Hints{MaxSpool: 1 << 10})
	if err == nil || !strings.HasPrefix(err.Error(), "pipe: its simulations come before its tasks") || !strings.Contains(err.Error(), "reached --max-spool 1.0 KiB") {
		t.Errorf("error %v: want the spool full, naming the source", err)
	}
}

// A record past Hints.MaxRecord fails its source, named.
func TestOpen_ErrRecordTooLarge(t *testing.T) {
	big := strings.Replace(emobenchRecord, `"hi"`, `"`+strings.Repeat("a", 4<<10)+`"`, 1)
	src := ingest.StreamSource(t.Context(), "pipe", strings.NewReader(big))
	defer src.Close()
	o, err := ingest.Open(src, ingest.Hints{MaxRecord: 1 << 10})
	if err == nil {
		for _, e := range o.Trajectories {
			if e != nil {
				err = e
			}
		}
	}
	if !errors.As(err, new(*ingest.RecordTooLargeError)) {
		t.Errorf("error %v: want a *RecordTooLargeError", err)
	}
}
