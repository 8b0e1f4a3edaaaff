package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sql --format json gives numbers as numbers, NULL as null and TEXT holding
// a JSON object or array as that JSON value (runs.config is one).
func TestSQL_JSONValues(t *testing.T) {
	dbPath := ingestStats(t, nil, "gap.json")
	rows := jsonObjects(t, "--db", dbPath, "sql",
		`SELECT id, config, 0.25 AS share, NULL AS missing, '[1, "a"]' AS list, '{bad' AS text, '7' AS digits FROM runs`)
	if len(rows) != 1 {
		t.Fatalf("rows = %v, want 1", rows)
	}
	r := rows[0]
	if _, ok := r["config"].(map[string]any); !ok {
		t.Errorf("config = %#v, want a JSON object", r["config"])
	}
	want := map[string]any{"id": 1.0, "share": 0.25, "missing": nil, "list": []any{1.0, "a"}, "text": "{bad", "digits": "7"}
	for k, v := range want {
		if diff := cmp.Diff(v, r[k]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
}

// runs --format markdown and latex print the runs table.
func TestRuns_MarkdownAndLaTeX(t *testing.T) {
	dbPath := ingestStats(t, nil, "gap.json")
	md := mustRun(t, "--db", dbPath, "runs", "--format", "markdown")
	lines := strings.Split(strings.TrimSpace(md), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "| id | name |") || !strings.HasPrefix(lines[1], "| --- |") || !strings.HasPrefix(lines[2], "| 1 | gap |") {
		t.Errorf("runs --format markdown:\n%s", md)
	}
	tex := mustRun(t, "--db", dbPath, "runs", "--format", "latex")
	if !strings.Contains(tex, `\begin{tabular}`) || !strings.Contains(tex, "1 & gap &") {
		t.Errorf("runs --format latex:\n%s", tex)
	}
}
