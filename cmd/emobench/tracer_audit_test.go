package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// auditFixture is tracer's fixture tasks file: audit-pass and one task
// failing each criterion.
var auditFixture = filepath.Join("..", "..", "tracer", "testdata", "audit", "tasks.json")

func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("output differs from %s (-want +got):\n%s", golden, diff)
	}
}

// tracer audit prints the per-criterion table and the failing tasks, and
// exits 1 because four fixture tasks fail.
func TestTracerAudit_Golden(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"table", "json"} {
		t.Run(format, func(t *testing.T) {
			r := runCLI(t, "", "tracer", "audit", "--tasks-file", auditFixture, "--format", format)
			if r.code != 1 || !strings.Contains(r.stderr, "4 of 5 tasks fail a check") {
				t.Fatalf("exit %d, stderr %q; want 1 and the failing count", r.code, r.stderr)
			}
			checkGolden(t, filepath.Join("testdata", "tracer_audit", "want."+format), r.stdout)
		})
	}
	var out struct {
		Tasks    int `json:"tasks"`
		Failures []struct {
			TaskID    string `json:"task_id"`
			Criterion string `json:"criterion"`
		} `json:"failures"`
	}
	r := runCLI(t, "", "tracer", "audit", "--tasks-file", auditFixture, "--format", "json")
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Tasks != 5 || len(out.Failures) != 4 || out.Failures[0].TaskID != "audit-goal" || out.Failures[0].Criterion != "goal_oriented" {
		t.Errorf("json: %+v, want 5 tasks and audit-goal failing goal_oriented first", out)
	}
}

// A tasks file that does not decode is an error naming the file and the
// task; nothing is printed on stdout.
func TestTracerAudit_BadTasksFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, err := os.ReadFile(auditFixture)
	if err != nil {
		t.Fatal(err)
	}
	var tasks []map[string]any
	if err := json.Unmarshal(data, &tasks); err != nil {
		t.Fatal(err)
	}
	tasks[1]["instruction"] = ""
	noInstruction, _ := json.Marshal(tasks[:2])
	tasks[1]["instruction"], tasks[1]["domain"] = "I want it cancelled.", "bowling"
	unknownDomain, _ := json.Marshal(tasks[:2])
	for name, tt := range map[string]struct {
		body string
		want []string
	}{
		"no-instruction.json": {string(noInstruction), []string{"task 1", "audit-goal", "no instruction"}},
		"not-json.json":       {`[{"id": "x",`, []string{"decode tasks"}},
		"bad-domain.json":     {string(unknownDomain), []string{"task 1 (audit-goal)", "bowling"}},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, "", "tracer", "audit", "--tasks-file", path)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, path) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 1, nothing, an error naming the file", name, r.code, r.stdout, r.stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%s: stderr %q lacks %q", name, r.stderr, w)
			}
		}
	}
	if r := runCLI(t, "", "tracer", "audit", "--tasks-file", filepath.Join(dir, "missing.json")); r.code != 1 || !strings.Contains(r.stderr, "missing.json") {
		t.Errorf("missing file: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestTracerAudit_Usage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"tracer", "audit"},
		{"tracer", "audit", "--tasks-file", auditFixture, "--domain", "retail"},
		{"tracer", "audit", "--domain", "bowling"},
		{"tracer", "audit", "--domain", "retail", "--format", "latex"},
		{"tracer", "audit", "--domain", "retail", "--split", "dev"},
		{"tracer", "audit", "--domain", "retail", "--judge-api-key-env", "MY_KEY"},
		{"tracer", "audit", "--domain", "retail", "--judge", "gpt-4.1"},
		{"tracer", "audit", "--domain", "retail", "--judge", "llm:m", "--judge-base-url", "http://u:secret@localhost:1/v1"},
	} {
		if r := runCLI(t, "", args...); r.code != 2 {
			t.Errorf("emobench %s: exit %d, want 2\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}

// --domain audits the embedded tasks of the split asked for; the table
// counts them all.
func TestTracerAudit_Domain(t *testing.T) {
	t.Parallel()
	r := runCLI(t, "", "tracer", "audit", "--domain", "airline", "--split", "test", "--format", "json")
	var out struct {
		Tasks    int `json:"tasks"`
		Criteria []struct {
			Method  string `json:"method"`
			Checked int    `json:"checked"`
		} `json:"criteria"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code == 2 {
		t.Fatalf("exit %d, output %q: %v", r.code, r.stdout, err)
	}
	if out.Tasks == 0 || len(out.Criteria) != 9 || out.Criteria[0].Checked != out.Tasks {
		t.Errorf("json %+v: want every task checked by the rules", out)
	}
}

// --judge asks the model once per task, with the key from
// --judge-api-key-env, and its verdicts join the table.
func TestTracerAudit_Judge(t *testing.T) {
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		content := `{"goal_oriented": {"met": true, "reason": "a goal"}, "tool_task_with_preference": {"met": true, "reason": "a cancel"}, ` +
			`"solvable": {"met": true, "reason": "replays"}, "out_of_domain_handoff": {"met": true, "reason": "in policy"}}`
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1735689600, "model": "judge-m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}))
	defer srv.Close()
	data, err := os.ReadFile(auditFixture)
	if err != nil {
		t.Fatal(err)
	}
	var tasks []json.RawMessage
	if err := json.Unmarshal(data, &tasks); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pass.json")
	if err := os.WriteFile(path, []byte("["+string(tasks[0])+"]"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AUDIT_JUDGE_KEY", "sk-audit-test")
	r := runCLI(t, "", "tracer", "audit", "--tasks-file", path, "--judge", "llm:judge-m", "--judge-base-url", srv.URL+"/v1",
		"--judge-api-key-env", "AUDIT_JUDGE_KEY", "--format", "csv")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if len(auth) != 1 || auth[0] != "Bearer sk-audit-test" {
		t.Errorf("judge requests' Authorization %q, want one with the key of AUDIT_JUDGE_KEY", auth)
	}
	if !strings.Contains(r.stdout, "goal_oriented,judge,1,1,1,0,0\n") || strings.Contains(r.stdout, "sk-audit-test") {
		t.Errorf("csv output:\n%s\nwant the judge's pass of goal_oriented and no key", r.stdout)
	}
}
