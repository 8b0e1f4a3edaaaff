package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun_EpisodeTimeout: --episode-timeout 0 is a usage error (as
// --timeout 0 is) and creates no database; a given timeout, and no limit
// for a negative one, is recorded in runs.config, and so is the
// parallel-tool-calls rule of a built-in agent.
func TestRun_EpisodeTimeout(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.db")
	r := runCLI(t, "", "--db", zero, "run", "--domain", "retail", "--tasks", "1", "--agent", "oracle", "--episode-timeout", "0")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--episode-timeout 0: need a positive duration, or a negative one for no limit") {
		t.Fatalf("--episode-timeout 0: exit %d, stderr %q; want 2 and the rule", r.code, r.stderr)
	}
	if _, err := os.Stat(zero); err == nil {
		t.Errorf("a usage error created %s", zero)
	}
	for _, tt := range []struct{ flag, want string }{{"20m", "20m0s"}, {"-1s", "none"}, {"", "10m0s"}} {
		dbPath := filepath.Join(dir, "t"+tt.want+".db")
		args := []string{"--db", dbPath, "run", "--domain", "retail", "--tasks", "1", "--condition", "with-emotions", "--agent", "oracle"}
		if tt.flag != "" {
			args = append(args, "--episode-timeout", tt.flag)
		}
		mustRun(t, args...)
		got := sqlCSV(t, dbPath, "SELECT json_extract(config, '$.episode_timeout') AS episode_timeout, json_extract(config, '$.parallel_tool_calls') AS parallel FROM runs")
		if want := "episode_timeout,parallel\n" + tt.want + ",allow\n"; got != want {
			t.Errorf("--episode-timeout %q: runs.config has\n%s\nwant\n%s", tt.flag, got, want)
		}
	}
}
