package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// A task whose own reward basis checks nothing (empty, COMMUNICATE without
// outputs, NL_ASSERTION without assertions) would give reward 1 to an
// agent that does nothing: run --tasks-file refuses it naming the file,
// the task and why, and tracer audit fails it with the reason (#20 item 16).
func TestRun_VacuousRewardBasis(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(*emobench.TaskSpec)
		why  string
	}{
		{"empty", nil, "reward basis is empty"}, // reward_basis: [], which TaskSpec's encoding leaves out
		{"communicate", func(s *emobench.TaskSpec) {
			s.RewardBasis, s.Outputs = []emobench.CheckKind{emobench.CheckDB, emobench.CheckCommunicate}, nil
		}, "reward basis COMMUNICATE has no outputs to check"},
		{"nl", func(s *emobench.TaskSpec) {
			s.RewardBasis, s.NLAssertions = []emobench.CheckKind{emobench.CheckNLAssertion}, nil
		}, "reward basis NL_ASSERTION has no nl_assertions to check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tasks := fileTasks(t, 2)
			path := filepath.Join(dir, "tasks.json")
			if tc.edit != nil {
				tc.edit(&tasks[1])
				writeTasks(t, path, tasks)
			} else {
				writeTasks(t, path, tasks)
				b, _ := os.ReadFile(path)
				b = []byte(strings.Replace(string(b), `"id": "retail-test-901",`, `"id": "retail-test-901", "reward_basis": [],`, 1))
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := runCLI(t, "", "--db", filepath.Join(dir, "v.db"), "run", "--tasks-file", path, "--agent", "nothing", "--condition", "with-emotions")
			if want := "tasks.json: decode tasks: task retail-test-901: " + tc.why; r.code != exitUsage || !strings.Contains(r.stderr, want) {
				t.Errorf("run: exit %d, stderr %q; want %d and %q", r.code, r.stderr, exitUsage, want)
			}
			r = runCLI(t, "", "tracer", "audit", "--tasks", path)
			if r.code != exitFailure || !strings.Contains(r.stdout+r.stderr, tc.why) {
				t.Errorf("tracer audit: exit %d\nstdout: %s\nstderr: %s\nwant a failed check saying %q", r.code, r.stdout, r.stderr, tc.why)
			}
		})
	}
}
