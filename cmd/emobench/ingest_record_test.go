package main

// Tests of --max-record (issue 8, item 9): memory is bounded per record, not
// only per file (a leaderboard submission is one record). A record over the limit is refused, naming the file, the
// record and the flag, with nothing of the file stored; bytes are counted
// as they are read, so an endless string on a pipe stops at the limit.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/workbench"
)

// bigContent is a message content literal of n bytes.
func bigContent(n int) string { return strings.Repeat("a", n) }

// tooLarge is the error text of a record refused at --max-record 1MiB.
const tooLarge = "larger than --max-record (1 MiB): 1048576 bytes read so far and it has not ended; raise --max-record to read it"

// tau2Sim is a τ²-bench simulation of task t0 whose one message has content.
func tau2Sim(i int, content string) string {
	return fmt.Sprintf(`{"id": "s%d", "task_id": "t0", "trial": %d, "termination_reason": "user_stop", "reward_info": {"reward": 1}, "messages": [{"role": "user", "content": %q}]}`, i, i, content)
}

const tau2Info = `{"agent_info": {"llm": "gpt-4.1"}, "environment_info": {"domain_name": "retail"}}`
const tau2Tasks = `[{"id": "t0", "user_scenario": {"instructions": "return an item"}}]`

func TestIngest_ErrRecordTooLarge(t *testing.T) {
	t.Parallel()
	small, big := bigContent(100), bigContent(2<<20)
	rec0 := `{"task_id": 0, "reward": 1.0, "info": {"reward_info": {"reward": 1.0}}, "traj": [{"role": "user", "content": "` + small + `"}], "trial": 0}`
	rec1 := `{"task_id": 0, "reward": 1.0, "info": {"reward_info": {"reward": 1.0}}, "traj": [{"role": "user", "content": "` + big + `"}], "trial": 1}`
	taubench := "[" + rec0 + "," + rec1 + "]\n"
	lines := rec0 + "\n" + rec1 + "\n"
	inlineHead := `{"timestamp": "2026-01-01T00:00:00", "info": ` + tau2Info + `, "tasks": ` + tau2Tasks + `, "simulations": [` + tau2Sim(0, small) + ", "
	inline := inlineHead + tau2Sim(1, big) + "]}\n"
	bareHead := "[" + tau2Sim(0, small) + ", "
	bare := bareHead + tau2Sim(1, big) + "]\n"
	sortedHead := `{"info": ` + tau2Info + `, "simulations": [` + tau2Sim(0, small) + ", "
	sorted := sortedHead + tau2Sim(1, big) + `], "tasks": ` + tau2Tasks + `, "timestamp": "2026-01-01T00:00:00"}` + "\n"
	bigTasks := `{"timestamp": "2026-01-01T00:00:00", "info": ` + tau2Info + `, "tasks": [{"id": "t0", "user_scenario": {"instructions": "` + small + `"}}, {"id": "t1", "user_scenario": {"instructions": "` + big + `"}}], "simulations": []}` + "\n"
	tasksAt := len(`{"timestamp": "2026-01-01T00:00:00", "info": ` + tau2Info + `, "tasks": [{"id": "t0", "user_scenario": {"instructions": "` + small + `"}},`)
	submission := `{"model_name": "m", "notes": "` + big + `", "results": {"retail": {"pass_1": 50}}}` + "\n"
	tests := []struct {
		name, file, content string
		stdin               bool
		want                string // after "error: PATH: "
	}{
		{"taubench", "run.json", taubench, false, fmt.Sprintf("record 1 (byte %d): %s", len(rec0)+2, tooLarge)},
		{"taubench stdin", "", taubench, true, fmt.Sprintf("record 1 (byte %d): %s", len(rec0)+2, tooLarge)},
		{"taubench lines", "run.jsonl", lines, false, fmt.Sprintf("record 1 (byte %d): %s", len(rec0)+1, tooLarge)},
		{"tau2 inline", "tau2.json", inline, false, fmt.Sprintf("simulation 1 (byte %d): %s", len(inlineHead)-1, tooLarge)},
		{"tau2 bare", "bare.json", bare, false, fmt.Sprintf("simulation 1 (byte %d): %s", len(bareHead)-1, tooLarge)},
		{"tau2 sorted keys", "sorted.json", sorted, false, fmt.Sprintf("simulation 1 (byte %d): %s", len(sortedHead)-1, tooLarge)},
		{"tau2 sorted keys stdin", "", sorted, true, fmt.Sprintf("simulation 1 (byte %d): %s", len(sortedHead)-1, tooLarge)},
		{"tau2 task", "tasks.json", bigTasks, false, fmt.Sprintf("tasks[1] (byte %d): %s", tasksAt, tooLarge)},
		{"submission", "submission.json", submission, false, "the submission (byte 0): " + tooLarge},
		{"submission stdin", "", submission, true, "the submission (byte 0): " + tooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			dbPath := filepath.Join(dir, "runs.db")
			arg, shown, stdin := filepath.Join(dir, tt.file), filepath.Join(dir, tt.file), ""
			if tt.stdin {
				arg, shown, stdin = "-", "stdin", tt.content
			} else if err := os.WriteFile(arg, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, stdin, "--db", dbPath, "ingest", "--max-record", "1MiB", arg)
			if want := "error: " + shown + ": " + tt.want + "\n"; r.code != exitFailure || r.stderr != want {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
			}
			if got := runRows(t, dbPath); got != "id,name,source_sha256,n\n" {
				t.Errorf("runs stored after the error:\n%s", got)
			}
			// Under a limit that holds the record, the file ingests.
			r = runCLI(t, stdin, "--db", dbPath, "ingest", "--max-record", "3MiB", arg)
			if r.code != exitOK {
				t.Errorf("--max-record 3MiB: exit %d, stderr:\n%s", r.code, r.stderr)
			}
		})
	}
}

// A run directory: a simulation file, and results.json, over the limit.
func TestIngest_ErrRecordTooLargeTau2Dir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	writeTau2Dir(t, run, run)
	sim := filepath.Join(run, "simulations", "s1.json")
	if err := os.WriteFile(sim, []byte(tau2Sim(1, bigContent(2<<20))), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "runs.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", "--max-record", "1MiB", run)
	if want := "error: " + run + ": simulation 1 (simulations/s1.json, byte 0): " + tooLarge + "\n"; r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
	results := `{"timestamp": "2026-01-01T00:00:00", "info": {"notes": "` + bigContent(2<<20) + `"}, "tasks": []}`
	if err := os.WriteFile(filepath.Join(run, "results.json"), []byte(results), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, "", "--db", dbPath, "ingest", "--max-record", "1MiB", run)
	want := "error: " + run + ": results.json: larger than --max-record (1 MiB): 1048577 bytes read so far and it has not ended; raise --max-record to read it\n"
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
	if got := runRows(t, dbPath); got != "id,name,source_sha256,n\n" {
		t.Errorf("runs stored after the errors:\n%s", got)
	}
	if r := runCLI(t, "", "--db", dbPath, "ingest", "--max-record", "3MiB", run); r.code != exitOK {
		t.Errorf("--max-record 3MiB: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// endlessString is a τ-bench file on a pipe whose first message's content
// never ends. It fails a read past guard bytes, so that a reader without a
// limit ends too (with another error) instead of filling memory.
type endlessString struct {
	head  []byte
	read  int64
	guard int64
}

var errGuard = errors.New("test guard: read past 32 MiB of an endless string")

func (e *endlessString) Read(p []byte) (int, error) {
	if e.read >= e.guard {
		return 0, errGuard
	}
	n := 0
	for n < len(p) && int64(n)+e.read < e.guard {
		if e.read+int64(n) < int64(len(e.head)) {
			p[n] = e.head[e.read+int64(n)]
		} else {
			p[n] = 'a'
		}
		n++
	}
	e.read += int64(n)
	return n, nil
}

// An endless string on stdin stops at --max-record: the error names the
// record, and little more than the limit is read.
func TestIngest_ErrRecordTooLargeEndlessStdin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, head, want string }{
		{"taubench", `[{"task_id": 1, "reward": 1, "traj": [{"role": "user", "content": "`, "record 0 (byte 1)"},
		{"tau2", `{"info": {}, "tasks": [], "simulations": [{"id": "s0", "task_id": "t0", "messages": [{"role": "user", "content": "`, "simulation 0 (byte 42)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := &endlessString{head: []byte(tt.head), guard: 32 << 20}
			var out, errOut bytes.Buffer
			app := newApp(in, &out, &errOut)
			dbPath := filepath.Join(t.TempDir(), "runs.db")
			done := make(chan int, 1)
			go func() {
				done <- run(context.Background(), app, []string{"emobench", "--db", dbPath, "ingest", "--max-record", "1MiB", "-"}, &errOut)
			}()
			var code int
			select {
			case code = <-done:
			case <-time.After(5 * time.Minute): // a hang guard, not a timing assertion
				t.Fatal("ingest still reading an endless string after 5 minutes")
			}
			if want := "error: stdin: " + tt.want + ": " + tooLarge + "\n"; code != exitFailure || errOut.String() != want {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", code, errOut.String(), want)
			}
			// The limit, plus the read-ahead of a few 256 KiB buffers.
			if in.read > 3<<20 {
				t.Errorf("read %d bytes of stdin; want at most 3 MiB at --max-record 1MiB", in.read)
			}
		})
	}
}

// --max-record's default is the library's.
func TestIngest_MaxRecordDefault(t *testing.T) {
	t.Parallel()
	n, err := workbench.ParseByteSize("max-record", defaultMaxRecord)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := n, int64(ingest.DefaultMaxRecord); got != want {
		t.Errorf("--max-record default %s = %d bytes, want ingest.DefaultMaxRecord %d", defaultMaxRecord, got, want)
	}
	r := runCLI(t, "", "--db", filepath.Join(t.TempDir(), "runs.db"), "ingest", "--max-record", "lots", "-")
	if want := "emobench: --max-record \"lots\" is not a size such as 4GiB, 512MiB or 1000000\n"; r.code != exitUsage || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("--max-record lots: exit %d, stderr %q", r.code, r.stderr)
	}
}
