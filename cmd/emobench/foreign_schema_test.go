package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// endless is a recursive CTE that never ends, as a hostile view holds it.
const endless = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) "

// The hostile files of #20 item 5, built from a real emobench file: runs
// and report hung on a run_summaries view replaced by an endless query, a
// view returning 0.99 had runs print 0.9900, and merge hung on a messages
// view standing in for the table. Every command refuses each file, naming
// it and the object, without running any of its SQL; check is the command
// that reads such a file. The commands run under a deadline, so that the
// test fails rather than hangs.
func TestForeignSchema_Refused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		stmts []string
		want  string
	}{
		{"endless run_summaries", []string{"DROP VIEW run_summaries",
			`CREATE VIEW run_summaries AS ` + endless + `SELECT r.id AS run_id, r.name AS run, r.agent_model AS agent_model,
			 r.domain AS domain, r.condition AS condition, 1 AS tasks, 1 AS min_trials, 1 AS max_trials, 1 AS trajectories,
			 (SELECT MAX(n) FROM c) AS pass_hat_1, 0 AS abandoned FROM runs r`},
			"view run_summaries differs from emobench's schema"},
		{"run_summaries of 0.99", []string{"DROP VIEW run_summaries",
			`CREATE VIEW run_summaries AS SELECT r.id AS run_id, r.name AS run, r.agent_model AS agent_model,
			 r.domain AS domain, r.condition AS condition, 1 AS tasks, 1 AS min_trials, 1 AS max_trials, 1 AS trajectories,
			 0.99 AS pass_hat_1, 0 AS abandoned FROM runs r`},
			"view run_summaries differs from emobench's schema"},
		{"endless messages view", []string{"DROP TABLE messages",
			`CREATE VIEW messages AS ` + endless + `SELECT n AS id, 1 AS trajectory_id, n AS idx, 'user' AS role, 'hi' AS content,
			 NULL AS tool_name, NULL AS tool_call_id, NULL AS tool_arguments, NULL AS tool_calls, 0 AS arguments_malformed,
			 NULL AS prompt_tokens, NULL AS completion_tokens, NULL AS cost FROM c`},
			"table messages is a view"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			hostile := filepath.Join(dir, "runs.db")
			fixtureDB(t, hostile)
			plainSQL(t, hostile, tt.stmts...)
			want := "emobench: " + hostile + ": " + tt.want
			hint := "see `emobench --db " + hostile + " check`"
			for _, args := range [][]string{
				{"--db", hostile, "runs"},
				{"--db", hostile, "report", "--out", filepath.Join(dir, "report.html")},
				{"--db", filepath.Join(dir, "target.db"), "merge", hostile},
			} {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				r := runCLIContext(ctx, "", args...)
				cancel()
				if r.code != exitFailure || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, hint) {
					t.Errorf("%s: exit %d, stderr %q; want exit %d and %q … %q", strings.Join(args[2:], " "), r.code, r.stderr, exitFailure, want, hint)
				}
			}
			if r := runCLI(t, "", "--db", hostile, "check"); r.code != exitFailure || !strings.Contains(r.stdout, "problem: ") {
				t.Errorf("check: exit %d, stdout %q; want the problems listed", r.code, r.stdout)
			}
		})
	}
}
