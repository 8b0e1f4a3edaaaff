package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --pair takes run names that hold ":" themselves, as every default name
// of an llm: or noisy: agent does: the ":" at which both sides name a run
// separates them (#20 item 13).
func TestStatsEmotions_PairNamesWithColons(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	for _, condition := range []string{"with-emotions", "without-emotions"} {
		mustRun(t, "--db", dbPath, "run", "--domain", "retail", "--agent", "noisy:0.3", "--tasks", "2", "--condition", condition, "--concurrency", "1")
	}
	unpaired := runCLI(t, "", "--db", dbPath, "stats", "emotions")
	if !strings.Contains(unpaired.stderr, "has no without-emotions run") {
		t.Fatalf("two run commands: stderr %q, want them unpaired", unpaired.stderr)
	}
	r := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--format", "csv",
		"--pair", "noisy:0.3-retail-with-emotions:noisy:0.3-retail-without-emotions")
	if r.code != 0 || !strings.Contains(r.stdout, "\nnoisy:0.3 / scripted / retail,1,2,all,") {
		t.Fatalf("--pair by names with colons: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	bad := runCLI(t, "", "--db", dbPath, "stats", "emotions", "--pair", "noisy:0.3-retail-with-emotions:nosuch")
	if bad.code == 0 || !strings.Contains(bad.stderr, "--pair noisy:0.3-retail-with-emotions:nosuch") {
		t.Fatalf("--pair naming no run: exit %d, stderr %q", bad.code, bad.stderr)
	}
}
