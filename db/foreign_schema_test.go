package db_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

// A file whose emobench schema objects were changed is refused by every
// opening that reads emobench's objects (RequireCurrent, Merge's source)
// or writes them (Open), with an error naming the file and the object;
// objects of the file's own beside emobench's are allowed (#20 item 5).
func TestOpen_ErrForeignSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		stmts []string
		want  string // after "PATH: "; "" = allowed
	}{
		{"view returning 0.99", []string{"DROP VIEW run_summaries",
			`CREATE VIEW run_summaries AS SELECT r.id AS run_id, r.name AS run, r.agent_model AS agent_model, r.domain AS domain,
			 r.condition AS condition, 1 AS tasks, 1 AS min_trials, 1 AS max_trials, 1 AS trajectories, 0.99 AS pass_hat_1, 0 AS abandoned FROM runs r`},
			"view run_summaries differs from emobench's schema"},
		{"table turned into a view", []string{"DROP TABLE messages",
			`CREATE VIEW messages AS SELECT 1 AS id, 1 AS trajectory_id, 0 AS idx, 'user' AS role, 'hi' AS content, NULL AS tool_name,
			 NULL AS tool_call_id, NULL AS tool_arguments, NULL AS tool_calls, 0 AS arguments_malformed, NULL AS prompt_tokens,
			 NULL AS completion_tokens, NULL AS cost`},
			"table messages is a view"},
		{"missing index", []string{"DROP INDEX trajectories_task"}, "index trajectories_task is missing"},
		{"index added to a table", []string{"CREATE UNIQUE INDEX one_trial ON trajectories (run_id)"}, "index one_trial on trajectories is not emobench's"},
		{"trigger on a table", []string{"CREATE TRIGGER evil AFTER UPDATE ON runs BEGIN DELETE FROM messages; END"},
			"trigger evil on runs is not emobench's"},
		{"trigger on the file's own table", []string{"CREATE TABLE loot (n INTEGER)", "CREATE TRIGGER evil AFTER INSERT ON loot BEGIN DELETE FROM loot; END"},
			"trigger evil on loot is not emobench's"},
		{"own table", []string{"CREATE TABLE my_notes (body TEXT)", "CREATE INDEX my_notes_body ON my_notes (body)", "CREATE VIEW my_view AS SELECT COUNT(*) AS n FROM runs"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			path := craftDB(t, tt.stmts...)
			check := func(what string, err error) {
				t.Helper()
				if tt.want == "" {
					if err != nil {
						t.Errorf("%s: %v, want the file's own objects allowed", what, err)
					}
					return
				}
				want := path + ": " + tt.want
				var altered *db.AlteredSchemaError
				if err == nil || !strings.Contains(err.Error(), want) || !errors.As(err, &altered) || altered.Path != path || emobench.ErrorCode(err) != emobench.EINVALID {
					t.Errorf("%s: %v, want an EINVALID *AlteredSchemaError of %s with %q", what, err, path, want)
				}
			}
			ro := openRO(t, path)
			check("RequireCurrent", ro.RequireCurrent(ctx))
			target, _ := MustOpenDB(t)
			_, err := target.Merge(ctx, ro, nil)
			check("Merge", err)
			rw, err := db.Open(ctx, path)
			if err == nil {
				rw.Close()
			}
			if !strings.HasPrefix(tt.name, "trigger") { // Open names triggers in its own words (ForeignTriggersError)
				check("Open", err)
			} else if err == nil {
				t.Error("Open of a file with a trigger: no error")
			}
			// check itself still opens the file and reports it: the same
			// object first, or nothing when the others accept the file.
			rep, err := ro.Check(ctx)
			if err != nil {
				t.Errorf("Check: %v", err)
			}
			if got := strings.Join(rep.Problems, "\n"); got != tt.want && !strings.HasPrefix(got, tt.want+"\n") || tt.want == "" && got != "" {
				t.Errorf("Check's problems:\n%s\nwant first %q", got, tt.want)
			}
		})
	}
}
