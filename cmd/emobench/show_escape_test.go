package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// show and ingest's summary and notes print no terminal escape sequence
// from the data, and show prints costs to 6 significant digits (#20 item
// 22a, 22d).
func TestShow_NoEscapesAndShortCosts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "esc.db")
	rec := `[{"task_id": "t\u001b]0;owned\u0007", "reward": 5, "info": {"task": {"user_id": "u", "instruction": "i\u001b[2J", "actions": [], "outputs": []},` +
		` "agent_cost": 0.00009532699999999999, "user_cost": 0.1, "reward_info": {"reward": 5, "info": {"note": "x\u009b31m"}}},` +
		` "traj": [{"role": "user", "content": "hello \u001b[31mred\u001b[0m\rover\nline two"}], "trial": 0}]`
	file := filepath.Join(dir, "esc\x1b[1m-retail.json")
	if err := os.WriteFile(file, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", dbPath, "ingest", file)
	if r.code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	show := runCLI(t, "", "--db", dbPath, "show", "1")
	if show.code != 0 {
		t.Fatalf("show: exit %d\n%s", show.code, show.stderr)
	}
	for name, out := range map[string]string{"ingest stdout": r.stdout, "ingest stderr": r.stderr, "show": show.stdout} {
		if strings.ContainsAny(out, "\x1b\x07\r\u009b") {
			t.Errorf("%s holds a control character:\n%q", name, out)
		}
	}
	if !strings.Contains(r.stderr, "task t\uFFFD]0;owned\uFFFD, trial 0: reward 5 is outside") {
		t.Errorf("ingest's note does not name the task with its control characters replaced:\n%q", r.stderr)
	}
	for _, want := range []string{"hello \uFFFD[31mred\uFFFD[0m\\rover\n    line two", "cost: agent $0.000095327, user $0.1\n"} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("show does not print %q:\n%s", want, show.stdout)
		}
	}
}
