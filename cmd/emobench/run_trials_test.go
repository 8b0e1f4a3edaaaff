package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --trials 2^63−1 gets one clear bound error, before anything is planned
// or stored (#20 item 22h).
func TestRun_ErrTrialsTooLarge(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "trials.db")
	for _, tc := range []struct{ trials, want string }{
		{"9223372036854775807", "--trials 9223372036854775807 is too large: at most 10000"},
		{"10001", "--trials 10001 is too large: at most 10000"},
		{"0", "--trials 0: need at least 1"},
	} {
		r := runCLI(t, "", "--db", dbPath, "run", "--domain", "retail", "--agent", "oracle", "--trials", tc.trials)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "--trials") != 1 {
			t.Errorf("--trials %s: exit %d, stderr %q; want 2 and only %q", tc.trials, r.code, r.stderr, tc.want)
		}
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Errorf("a refused run created %s", dbPath)
	}
}
