package db_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// TestIngestRun_UserStops: user_transfer and user_out_of_scope are stored
// as themselves and read back so.
func TestIngestRun_UserStops(t *testing.T) {
	t.Parallel()
	store, _ := MustOpenDB(t)
	ctx := context.Background()
	transfer, outOfScope := traj("7", 0, 1), traj("8", 0, 0)
	transfer.TerminationReason, transfer.Messages[3].Content = emobench.TerminationUserTransfer, "###TRANSFER###"
	outOfScope.TerminationReason, outOfScope.Messages[3].Content = emobench.TerminationUserOutOfScope, "I can't say. ###OUT-OF-SCOPE###"
	// A stop whose message holds a marker is what its source said it was.
	stop := traj("9", 0, 1)
	stop.Messages[3].Content = "###STOP### (no ###TRANSFER### needed)"
	res, err := store.IngestRun(ctx, run("r", "s1"), seq(transfer, outOfScope, stop), db.DuplicateRefuse)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := queryText(t, store, "SELECT termination_reason FROM trajectories ORDER BY id"), "user_transfer\nuser_out_of_scope\nuser_stop"; got != want {
		t.Fatalf("stored reasons\n%s\nwant\n%s", got, want)
	}
	want := map[string]emobench.TerminationReason{"7": emobench.TerminationUserTransfer, "8": emobench.TerminationUserOutOfScope, "9": emobench.TerminationUserStop}
	for traj, err := range store.Trajectories(ctx, res.RunID) {
		if err != nil {
			t.Fatal(err)
		}
		if got := traj.TerminationReason; got != want[traj.Task.Key] {
			t.Errorf("task %s: read back %s, want %s", traj.Task.Key, got, want[traj.Task.Key])
		}
	}
	st, err := store.FindTrajectory(ctx, int64(queryInt(t, store, "SELECT id FROM trajectories WHERE termination_reason = 'user_stop'")))
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Trajectory.TerminationReason; got != emobench.TerminationUserStop {
		t.Fatalf("FindTrajectory of task 9: %s, want user_stop", got)
	}
}

// schema9File writes a file of schema version 9 (migrations 1 to 9 as
// they are) and runs stmts in it.
func schema9File(t *testing.T, stmts ...string) string {
	t.Helper()
	return schemaFile(t, 9, stmts...)
}

// schemaFile writes a file of schema version (migrations 1 to version as
// they are) and runs stmts in it: an older emobench's file.
func schemaFile(t *testing.T, version int, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("v%d.db", version))
	var all []string
	for v := 1; v <= version; v++ {
		files, err := filepath.Glob(fmt.Sprintf("migrations/%04d_*.sql", v))
		if err != nil || len(files) != 1 {
			t.Fatalf("migration %d: %v %v", v, files, err)
		}
		body, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, string(body))
	}
	all = append(all, fmt.Sprintf("PRAGMA application_id = %d", db.ApplicationID), fmt.Sprintf("PRAGMA user_version = %d", version))
	plainExec(t, path, append(all, stmts...)...)
	return path
}

// Migration 10 rebuilds trajectories with the wider CHECK: rows, ids,
// messages, outcomes, indexes, the view and the cascades survive, and the
// user_stop rows whose last user message holds a τ²-bench marker get
// their own reason.
func TestMigrate_UserStopReasons(t *testing.T) {
	t.Parallel()
	path := schema9File(t,
		`INSERT INTO runs (id, name, source_format, ingested_at) VALUES (1, 'old', 'tau2', '2026-01-01T00:00:00Z'), (2, 'other', 'tau2', '2026-01-01T00:00:00Z')`,
		`INSERT INTO tasks (id, domain, task_key, content_sha256) VALUES (1, 'airline', '1', 'h1'), (2, 'airline', '2', 'h2')`,
		`INSERT INTO trajectories (id, run_id, task_id, trial, reward, passed, evaluated, termination_reason,
		    n_messages, n_user_turns, n_agent_turns, n_tool_calls, n_tool_errors, seed, evaluable, extra) VALUES
		 (10, 1, 1, 1, 1.0, 1, 1, 'user_stop',        2, 2, 0, 0, 0, 7, 1, '{"k":1}'),
		 (11, 1, 1, 2, 0.0, 0, 1, 'user_stop',        2, 2, 0, 0, 0, NULL, 1, NULL),
		 (12, 1, 2, 1, 0.0, 0, 1, 'user_stop',        2, 2, 0, 0, 0, NULL, 1, NULL),
		 (13, 1, 2, 2, 0.0, 0, 1, 'agent_stop',       1, 1, 0, 0, 0, NULL, 1, NULL),
		 (14, 1, 2, 3, NULL, 0, 0, 'user_stop',       0, 0, 0, 0, 0, NULL, 0, NULL),
		 (15, 2, 1, 1, 0.0, 0, 1, 'user_unsatisfied', 1, 1, 0, 0, 0, NULL, 1, NULL)`,
		// 10: transfer; 11: out of scope; 12: an earlier transfer, a plain
		// last stop; 13: a marker, but the agent stopped; 14: no messages.
		`INSERT INTO messages (id, trajectory_id, idx, role, content, cost) VALUES
		 (100, 10, 0, 'user', 'I want a refund.', 0.5),
		 (101, 10, 1, 'user', 'Fine. ###TRANSFER###', NULL),
		 (102, 11, 0, 'user', 'hi', NULL),
		 (103, 11, 1, 'user', '###OUT-OF-SCOPE### I have no idea', NULL),
		 (104, 12, 0, 'user', '###TRANSFER###', NULL),
		 (105, 12, 1, 'user', '###STOP###', NULL),
		 (106, 13, 0, 'user', '###TRANSFER###', NULL),
		 (107, 15, 0, 'user', '###UNSATISFIED###', NULL)`,
		`INSERT INTO run_task_outcomes (run_id, task_id, evaluable, trials, passes, abandoned, evaluated, partial, credit)
		 SELECT run_id, task_id, evaluable, COUNT(*), SUM(passed), SUM(termination_reason = 'user_unsatisfied'), SUM(evaluated), 0,
		        TOTAL(CASE WHEN evaluated = 1 AND reward > 0 THEN reward ELSE 0.0 END)
		 FROM trajectories GROUP BY run_id, task_id, evaluable`)

	store := openDBAt(t, path)
	if got, want := queryInt(t, store, "SELECT user_version FROM pragma_user_version"), db.SchemaVersion(); got != want || want < 10 {
		t.Fatalf("user_version %d, want %d (≥ 10)", got, want)
	}
	if got, want := queryText(t, store, "SELECT id, termination_reason, seed, evaluable, extra FROM trajectories ORDER BY id"),
		"10|user_transfer|7|1|{\"k\":1}\n11|user_out_of_scope|<nil>|1|<nil>\n12|user_stop|<nil>|1|<nil>\n13|agent_stop|<nil>|1|<nil>\n14|user_stop|<nil>|0|<nil>\n15|user_unsatisfied|<nil>|1|<nil>"; got != want {
		t.Fatalf("trajectories after migration\n%s\nwant\n%s", got, want)
	}
	if got, want := queryText(t, store, "SELECT id, trajectory_id, idx, content, cost FROM messages ORDER BY id"),
		"100|10|0|I want a refund.|0.5\n101|10|1|Fine. ###TRANSFER###|<nil>\n102|11|0|hi|<nil>\n103|11|1|###OUT-OF-SCOPE### I have no idea|<nil>\n"+
			"104|12|0|###TRANSFER###|<nil>\n105|12|1|###STOP###|<nil>\n106|13|0|###TRANSFER###|<nil>\n107|15|0|###UNSATISFIED###|<nil>"; got != want {
		t.Fatalf("messages after migration\n%s\nwant\n%s", got, want)
	}
	mustConsistentOutcomes(t, store, "migration 10")
	if got, want := queryText(t, store, outcomeRows), "1|1|1|2|1|0|2|0|1\n1|2|0|1|0|0|0|0|0\n1|2|1|2|0|0|2|0|0\n2|1|1|1|0|1|1|0|0"; got != want {
		t.Fatalf("outcomes after migration\n%s\nwant\n%s", got, want)
	}
	if got, want := queryText(t, store, "SELECT trajectory_id, termination_reason FROM trajectory_outcomes WHERE run_id = 1 ORDER BY 1"),
		"10|user_transfer\n11|user_out_of_scope\n12|user_stop\n13|agent_stop\n14|user_stop"; got != want {
		t.Fatalf("trajectory_outcomes\n%s\nwant\n%s", got, want)
	}
	// The file's schema is the one a new file gets: tables, indexes, views.
	rep, err := store.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 {
		t.Fatalf("check after migration: %s", strings.Join(rep.Problems, "\n"))
	}
	if got := queryText(t, store, "SELECT sql FROM sqlite_schema WHERE name = 'messages'"); !strings.Contains(got, `REFERENCES "trajectories"(id) ON DELETE CASCADE`) {
		t.Fatalf("messages refers elsewhere:\n%s", got)
	}
	if got := queryText(t, store, "SELECT COUNT(*) FROM pragma_foreign_key_check"); got != "0" {
		t.Fatalf("%s foreign key violations", got)
	}
	if got := queryText(t, store, "SELECT name FROM sqlite_schema WHERE name LIKE '%v10%'"); got != "" {
		t.Fatalf("left behind: %s", got)
	}

	store.Close()

	// The new reasons are accepted, others still refused; deleting a run
	// still cascades to its trajectories and their messages.
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, s := range []string{"UPDATE trajectories SET termination_reason = 'user_out_of_scope' WHERE id = 12", "DELETE FROM runs WHERE id = 1"} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if _, err := raw.Exec("UPDATE trajectories SET termination_reason = 'bored' WHERE id = 15"); err == nil {
		t.Fatal("termination_reason 'bored' accepted")
	}
	var counts string
	if err := raw.QueryRow("SELECT (SELECT COUNT(*) FROM trajectories) || '|' || (SELECT COUNT(*) FROM messages) || '|' || (SELECT COUNT(*) FROM run_task_outcomes)").Scan(&counts); err != nil {
		t.Fatal(err)
	}
	if want := "1|1|1"; counts != want {
		t.Fatalf("after deleting run 1: trajectories|messages|outcomes = %s, want %s", counts, want)
	}
}

// Merging a file of schema 9, read as it is, gives its user_stop rows the
// reason their last user message states, as migration 10 does.
func TestMerge_FromSchema9RefinesUserStops(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srcPath := schema9File(t,
		`INSERT INTO runs (id, name, source_format, ingested_at) VALUES (1, 'a', 'tau2', '2026-01-01T00:00:00Z')`,
		`INSERT INTO tasks (id, domain, task_key, content_sha256) VALUES (1, 'airline', '1', 'h1'), (2, 'airline', '2', 'h2')`,
		`INSERT INTO trajectories (id, run_id, task_id, trial, reward, passed, evaluated, termination_reason,
		    n_messages, n_user_turns, n_agent_turns, n_tool_calls, n_tool_errors, evaluable) VALUES
		 (10, 1, 1, 0, 1.0, 1, 1, 'user_stop', 2, 1, 1, 0, 0, 1),
		 (11, 1, 2, 0, 1.0, 1, 1, 'user_stop', 2, 1, 1, 0, 0, 1)`,
		`INSERT INTO messages (id, trajectory_id, idx, role, content) VALUES
		 (100, 10, 0, 'assistant', 'Done.'), (101, 10, 1, 'user', '###TRANSFER###'),
		 (102, 11, 0, 'assistant', 'Done.'), (103, 11, 1, 'user', '###STOP###')`)

	store, _ := MustOpenDB(t)
	if _, err := store.Merge(ctx, openRO(t, srcPath), nil); err != nil {
		t.Fatal(err)
	}
	if got, want := queryText(t, store, "SELECT k.task_key, t.termination_reason FROM trajectories t JOIN tasks k ON k.id = t.task_id ORDER BY 1"),
		"1|user_transfer\n2|user_stop"; got != want {
		t.Fatalf("merged reasons\n%s\nwant\n%s", got, want)
	}
}
