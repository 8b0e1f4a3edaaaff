package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dupKeysCase is a file with keys repeated in one object, as
// testdata/dupkeys/<name>/input(.json), with the queries whose results, and
// the notes and warnings ingest prints, are in want.txt.
type dupKeysCase struct {
	name    string
	input   string   // input.json, or input for a τ²-bench run directory
	queries []string // run after ingest; their CSV goes to want.txt
	// checks are single values that must hold whatever want.txt says:
	// the last value of each repeated key, read by SQLite's json_extract
	// (which takes the first of repeated keys) from the stored JSON.
	checks map[string]string
}

var dupKeysCases = []dupKeysCase{{
	name:  "taubench",
	input: "input.json",
	queries: []string{
		`SELECT t.trial, k.task_key, k.user_id, k.actions, t.agent_cost, t.reward, t.reward_info, t.extra FROM trajectories t JOIN tasks k ON k.id = t.task_id ORDER BY k.task_key`,
		`SELECT idx, content FROM messages ORDER BY trajectory_id, idx`,
	},
	checks: map[string]string{
		`SELECT json_extract(reward_info, '$.reward') FROM trajectories t JOIN tasks k ON k.id = t.task_id WHERE k.task_key = '0'`:             "1",
		`SELECT agent_cost FROM trajectories t JOIN tasks k ON k.id = t.task_id WHERE k.task_key = '0'`:                                        "2",
		`SELECT json_extract(extra, '$.labels.k') FROM trajectories t JOIN tasks k ON k.id = t.task_id WHERE k.task_key = '0'`:                 "last",
		`SELECT json_extract(actions, '$[0].kwargs.order_id') FROM tasks WHERE task_key = '0'`:                                                 "#W2",
		`SELECT user_id FROM tasks WHERE task_key = '0'`:                                                                                       "last",
		`SELECT content FROM messages m JOIN trajectories t ON t.id = m.trajectory_id JOIN tasks k ON k.id = t.task_id WHERE k.task_key = '0'`: "last ###STOP###",
		// A record without repeated keys is stored byte for byte.
		`SELECT reward_info FROM trajectories t JOIN tasks k ON k.id = t.task_id WHERE k.task_key = '1'`: `"{""reward"": 0.0,   ""info"": {""r_actions"": 0}}"`,
	},
}, {
	name:    "taubench-cap",
	input:   "input.json",
	queries: []string{`SELECT count(*), sum(reward = 0) FROM trajectories`},
}, {
	name:  "tau2",
	input: "input.json",
	queries: []string{
		`SELECT agent_model, created_at, json_extract(config, '$.tau2') FROM runs`,
		`SELECT task_key, actions FROM tasks`,
		`SELECT trial, reward, reward_info, extra FROM trajectories ORDER BY trial`,
		`SELECT content FROM messages ORDER BY trajectory_id, idx`,
	},
	checks: map[string]string{
		`SELECT json_extract(config, '$.tau2.info.agent_info.llm') FROM runs`:            "gpt-last",
		`SELECT json_extract(config, '$.tau2.wrapper.agent.llm') FROM runs`:              "wrapper-last",
		`SELECT json_extract(config, '$.tau2.timestamp') FROM runs`:                      "2026-01-01T00:00:00",
		`SELECT json_extract(config, '$.tau2.info.num_trials') FROM runs`:                "4",
		`SELECT json_extract(actions, '$[0].kwargs.amount') FROM tasks`:                  "2",
		`SELECT json_extract(reward_info, '$.reward') FROM trajectories WHERE trial = 0`: "1",
		`SELECT json_extract(extra, '$.seed') FROM trajectories WHERE trial = 0`:         "7",
		`SELECT reward_info FROM trajectories WHERE trial = 1`:                           `"{""reward"": 1.0,  ""db_check"": {""db_match"": true}}"`,
	},
}, {
	name:  "tau2dir",
	input: "input",
	queries: []string{
		`SELECT trial, reward, reward_info FROM trajectories`,
	},
	checks: map[string]string{
		`SELECT json_extract(reward_info, '$.reward') FROM trajectories`:               "1",
		`SELECT json_extract(reward_info, '$.nl_assertions[0].met') FROM trajectories`: "1",
		`SELECT trial FROM trajectories`:                                               "2",
	},
}, {
	name:    "submission",
	input:   "input.json",
	queries: []string{`SELECT model, domain, k, pass_hat_k, cost FROM published_results`},
	checks: map[string]string{
		`SELECT model FROM published_results`: "last",
		`SELECT cost FROM published_results`:  "2",
	},
}}

// Every key repeated in a record is named, in one note per record (at
// most 20 notes per file, the rest counted), and the JSON stored from the
// record holds the last value of each, as its typed columns do: SQLite's
// json_extract, which reads the first of repeated keys, agrees with the
// note. Run with -update to rewrite testdata/dupkeys/*/want.txt.
func TestIngest_DuplicateKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range dupKeysCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "dupkeys", tc.name)
			input, err := filepath.Abs(filepath.Join(dir, tc.input))
			if err != nil {
				t.Fatal(err)
			}
			dbPath := filepath.Join(t.TempDir(), "e.db")
			r := runCLI(t, "", "--db", dbPath, "ingest", input)
			if r.code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			var got strings.Builder
			for _, line := range strings.SplitAfter(r.stderr, "\n") {
				if strings.HasPrefix(line, "note: ") || strings.HasPrefix(line, "warning: ") {
					got.WriteString(strings.ReplaceAll(line, input, "INPUT"))
				}
			}
			for _, q := range tc.queries {
				got.WriteString("\n-- " + q + "\n" + csvQuery(t, dbPath, q))
			}
			wantPath := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(wantPath, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("notes and stored rows (-want +got):\n%s", diff)
			}
			for q, want := range tc.checks {
				got := strings.TrimSuffix(csvQuery(t, dbPath, q), "\n")
				if _, value, ok := strings.Cut(got, "\n"); ok {
					got = value // the header line dropped
				}
				if got != want {
					t.Errorf("%s = %s, want %s", q, got, want)
				}
			}
		})
	}
}
