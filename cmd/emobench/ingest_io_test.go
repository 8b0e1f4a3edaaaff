package main

// Tests of how ingest reads its inputs (issue 8, items 5, 6, 7 and 9): one
// open file hashed as it is parsed, pipes and devices read as streams,
// symlinks followed, sorted-keys τ²-bench files in bounded memory.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emobench/emobench/internal/cliargs"
)

// tauRecords is a τ-bench result file of n records of task 0, trials 0..n-1,
// whose instructions are word.
func tauRecords(n int, word string) string {
	var recs []string
	for i := range n {
		recs = append(recs, fmt.Sprintf(`{"task_id": 0, "reward": 1.0, "info": {"task": {"user_id": "u", "instruction": %q, "actions": [], "outputs": []}, "reward_info": {"reward": 1.0}}, "traj": [{"role": "user", "content": "###STOP###"}], "trial": %d}`, word, i))
	}
	return "[" + strings.Join(recs, ",\n") + "]\n"
}

// sortedTau2 is a τ²-bench Results object as json.dump(..., sort_keys=True)
// writes it: simulations before tasks. Simulation i is task i%2, trial i/2.
func sortedTau2(n int) string {
	var sims []string
	for i := range n {
		sims = append(sims, fmt.Sprintf(`{"id": "s%d", "messages": [{"content": "hi", "role": "user"}], "reward_info": {"reward": %d}, "task_id": "t%d", "termination_reason": "user_stop", "trial": %d}`, i, i%2, i%2, i/2))
	}
	return `{"info": {"agent_info": {"llm": "gpt-4.1"}, "environment_info": {"domain_name": "retail"}}, "simulations": [` +
		strings.Join(sims, ", ") +
		`], "tasks": [{"id": "t0", "user_scenario": {"instructions": "return an item"}}, {"id": "t1", "user_scenario": {"instructions": "cancel an order"}}], "timestamp": "2026-01-01T00:00:00"}` + "\n"
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// runRows returns "id,name,source_sha256,trajectories" per run of dbPath.
func runRows(t *testing.T, dbPath string) string {
	t.Helper()
	return mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT r.id, r.name, r.source_sha256, (SELECT COUNT(*) FROM trajectories t WHERE t.run_id = r.id) AS n FROM runs r ORDER BY r.id")
}

// ingestWithHook runs `emobench ingest args...` in-process, with afterHash
// called between hashing and parsing.
func ingestWithHook(t *testing.T, dbPath string, afterHash func(string), args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp(strings.NewReader(""), &out, &errOut)
	for _, cmd := range app.Commands {
		if cmd.Name == "ingest" {
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, afterHash: afterHash}
			*cmd = *ingestCommand(e)
			cliargs.MarkCommandUsageErrors(cmd)
		}
	}
	code := run(context.Background(), app, append([]string{"emobench", "--db", dbPath, "ingest"}, args...), &errOut)
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// Item 5: a file replaced (renamed over) after it was hashed is still read
// from the descriptor that was hashed: its run has its own sha256 and its
// own records, and the new file is then ingested on its own.
func TestIngest_ReplacedWhileIngestedKeepsItsOwnBytes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	path := filepath.Join(dir, "run.json")
	genuine, other := tauRecords(2, "genuine"), tauRecords(3, "other")
	if err := os.WriteFile(path, []byte(genuine), 0o644); err != nil {
		t.Fatal(err)
	}
	replace := func(string) {
		tmp := filepath.Join(dir, "other.tmp")
		if err := os.WriteFile(tmp, []byte(other), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	if r := ingestWithHook(t, dbPath, replace, path); r.code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRun(t, "--db", dbPath, "ingest", "--name", "other", path)
	want := "id,name,source_sha256,n\n" +
		"1,run," + sha256Hex(genuine) + ",2\n" +
		"2,other," + sha256Hex(other) + ",3\n"
	if got := runRows(t, dbPath); got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
}

// Item 5: a file rewritten in place between hashing and parsing is
// refused, and nothing of it is stored.
func TestIngest_ErrChangedWhileIngested(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	path := filepath.Join(dir, "run.json")
	genuine, other := tauRecords(2, "genuine"), tauRecords(2, "changed")
	if err := os.WriteFile(path, []byte(genuine), 0o644); err != nil {
		t.Fatal(err)
	}
	rewrite := func(string) {
		if err := os.WriteFile(path, []byte(other), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := ingestWithHook(t, dbPath, rewrite, path)
	want := "error: " + path + ": changed while it was read (sha256 " + sha256Hex(genuine) + " when first read, " +
		sha256Hex(other) + " when parsed): nothing of it was stored; ingest it again once nothing writes to it\n"
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
	if got := runRows(t, dbPath); got != "id,name,source_sha256,n\n" {
		t.Errorf("runs stored:\n%s", got)
	}
}

// Item 5: in a τ²-bench run directory each file is checked on its own: a
// simulation rewritten after the run was hashed stores nothing.
func TestIngest_ErrTau2DirChangedWhileIngested(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	run := filepath.Join(dir, "run")
	writeTau2Dir(t, run, run)
	sim := filepath.Join(run, "simulations", "s1.json")
	before, err := os.ReadFile(sim)
	if err != nil {
		t.Fatal(err)
	}
	changed := bytes.Replace(before, []byte(`"reward": 1`), []byte(`"reward": 0`), 1)
	r := ingestWithHook(t, dbPath, func(string) {
		if err := os.WriteFile(sim, changed, 0o644); err != nil {
			t.Fatal(err)
		}
	}, run)
	want := "error: " + run + ": simulations/s1.json changed while it was read (sha256 " + sha256Hex(string(before)) +
		" when first read, " + sha256Hex(string(changed)) + " when parsed): nothing of the run was stored; ingest it again once nothing writes to it\n"
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
	if got := runRows(t, dbPath); got != "id,name,source_sha256,n\n" {
		t.Errorf("runs stored:\n%s", got)
	}
}

// writeTau2Dir writes a τ²-bench 1.x run directory at dir with two
// simulations; their files are written in simDir (dir itself, or a folder
// the simulations symlink to).
func writeTau2Dir(t *testing.T, dir, simDir string) {
	t.Helper()
	for _, d := range []string{filepath.Join(dir, "simulations"), filepath.Join(simDir, "simulations")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	results := `{"timestamp": "2026-01-01T00:00:00", "info": {"agent_info": {"llm": "gpt-4.1"}, "environment_info": {"domain_name": "retail"}}, "tasks": [{"id": "t0", "user_scenario": {"instructions": "return an item"}}]}`
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(results), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		name := fmt.Sprintf("s%d.json", i)
		sim := fmt.Sprintf(`{"id": "s%d", "task_id": "t0", "trial": %d, "termination_reason": "user_stop", "reward_info": {"reward": 1}, "messages": [{"role": "user", "content": "hi"}]}`, i, i)
		if err := os.WriteFile(filepath.Join(simDir, "simulations", name), []byte(sim), 0o644); err != nil {
			t.Fatal(err)
		}
		if simDir != dir {
			if err := os.Symlink(filepath.Join(simDir, "simulations", name), filepath.Join(dir, "simulations", name)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Item 6: `ingest -` reads standard input, and a second time it is
// skipped by its sha256.
func TestIngest_Stdin(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	in := tauRecords(2, "piped")
	r := runCLI(t, in, "--db", dbPath, "ingest", "-")
	if want := "stdin: ingested as run 1 (stdin): 2 trajectories; model unknown, domain unknown, condition none\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("exit %d, stdout %q, stderr %q; want stdout %q", r.code, r.stdout, r.stderr, want)
	}
	r = runCLI(t, in, "--db", dbPath, "ingest", "--name", "again", "-")
	if want := "stdin: skipped, already ingested as run 1 (stdin)\n"; r.code != 0 || r.stdout != want {
		t.Errorf("second ingest: exit %d, stdout %q, stderr %q; want stdout %q", r.code, r.stdout, r.stderr, want)
	}
	want := "id,name,source_sha256,n\n1,stdin," + sha256Hex(in) + ",2\n"
	if got := runRows(t, dbPath); got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
}

// Item 6: a stream of many read chunks arrives whole, its sha256 that of
// every byte.
func TestIngest_StdinManyChunks(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	in := tauRecords(3000, strings.Repeat("long instruction ", 20)) // about 1.5 MB, several 256 KiB reads
	if r := runCLI(t, in, "--db", dbPath, "ingest", "-"); r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, want := runRows(t, dbPath), "id,name,source_sha256,n\n1,stdin,"+sha256Hex(in)+",3000\n"; got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
}

// Item 6 and 9: a sorted-keys τ²-bench file (simulations before tasks) is
// read from a file in two passes and from a pipe through a spool, with the
// same result as each other; the spool leaves no temporary file.
func TestIngest_Tau2SortedKeysFileAndPipe(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	content := sortedTau2(6)
	path := filepath.Join(dir, "sorted.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", dbPath, "ingest", path)
	other := filepath.Join(dir, "other.db")
	if r := runCLI(t, content, "--db", other, "ingest", "--name", "sorted", "-"); r.code != 0 {
		t.Fatalf("ingest -: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	query := "SELECT k.task_key, replace(replace(k.instruction, char(10), ' '), char(9), '') AS instruction, t.trial, t.reward FROM trajectories t JOIN tasks k ON k.id = t.task_id ORDER BY t.id"
	fromFile := mustRun(t, "--db", dbPath, "sql", "--format", "csv", query)
	want := "task_key,instruction,trial,reward\n" +
		"t0,Instructions: return an item,0,0\nt1,Instructions: cancel an order,0,1\nt0,Instructions: return an item,1,0\n" +
		"t1,Instructions: cancel an order,1,1\nt0,Instructions: return an item,2,0\nt1,Instructions: cancel an order,2,1\n"
	if fromFile != want {
		t.Errorf("from the file:\n%s\nwant:\n%s", fromFile, want)
	}
	if fromPipe := mustRun(t, "--db", other, "sql", "--format", "csv", query); fromPipe != want {
		t.Errorf("from the pipe:\n%s\nwant:\n%s", fromPipe, want)
	}
	for _, p := range []string{dbPath, other} {
		if got, want := runRows(t, p), "id,name,source_sha256,n\n1,sorted,"+sha256Hex(content)+",6\n"; got != want {
			t.Errorf("%s runs:\n%s\nwant:\n%s", filepath.Base(p), got, want)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Item 6: the spool is capped by --max-spool, with a clear error, and
// removed.
func TestIngest_ErrSpoolFull(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	r := runCLI(t, sortedTau2(50), "--db", dbPath, "ingest", "--max-spool", "1KiB", "-")
	want := "error: stdin: its simulations come before its tasks (as json.dump(..., sort_keys=True) writes them), so from a pipe they are spooled to a temporary file, which reached --max-spool 1.0 KiB: raise --max-spool, or give the file's path instead of a pipe\n"
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	r = runCLI(t, "", "--db", dbPath, "ingest", "--max-spool", "lots", "-")
	if want := "emobench: --max-spool \"lots\" is not a size such as 4GiB, 512MiB or 1000000\n"; r.code != exitUsage || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("--max-spool lots: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Item 6: a FIFO is read as a stream, with nothing spooled.
func TestIngest_FIFO(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "run.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	content := tauRecords(3, "fifo")
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		w.WriteString(content)
	}()
	dbPath := filepath.Join(dir, "runs.db")
	mustRun(t, "--db", dbPath, "ingest", fifo)
	if got, want := runRows(t, dbPath), "id,name,source_sha256,n\n1,run,"+sha256Hex(content)+",3\n"; got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Item 6: a FIFO that no program writes to does not hold ingest past the
// end of its context (Ctrl-C, SIGTERM).
func TestIngest_FIFOWithoutWriterStopsOnCancel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "run.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	dbPath := filepath.Join(dir, "runs.db")
	ctx, cancel := context.WithCancel(context.Background())
	const opening = "emobench/ingest.openCtx.func1()"
	before := goroutinesIn(opening) // those of earlier runs stay blocked
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		app := newApp(strings.NewReader(""), &out, &errOut)
		done <- run(ctx, app, []string{"emobench", "--db", dbPath, "ingest", fifo}, &errOut)
	}()
	waitForGoroutines(t, opening, before) // ingest is opening the FIFO
	cancel()
	select {
	case code := <-done:
		want := "emobench: " + fifo + ": interrupted; nothing of this file was stored\n"
		if code != exitFailure || errOut.String() != want {
			t.Errorf("exit %d, stderr %q; want exit 1, stderr %q", code, errOut.String(), want)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a speed assertion
		t.Fatal("ingest of a FIFO without a writer did not return after its context ended")
	}
}

// goroutinesIn counts the goroutines whose stack holds the function fn.
func goroutinesIn(fn string) int {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	return bytes.Count(buf[:n], []byte(fn))
}

// waitForGoroutines waits until more than before goroutines run fn.
func waitForGoroutines(t *testing.T, fn string, before int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if goroutinesIn(fn) > before {
			return
		}
	}
	t.Fatalf("no new goroutine ran %s within 30 s", fn)
}

// Environment of the child processes that run TestHelperMain.
const (
	envMainArgs     = "EMOBENCH_TEST_MAIN_ARGS"
	envMainMaxWrite = "EMOBENCH_TEST_MAIN_MAX_FILE_BYTES"
)

// TestHelperMain is the emobench command itself, run as a child process:
// signals as in main, arguments from $EMOBENCH_TEST_MAIN_ARGS (separated
// by newlines), and no file written past
// $EMOBENCH_TEST_MAIN_MAX_FILE_BYTES (RLIMIT_FSIZE) when it is set.
// Without arguments it does nothing.
func TestHelperMain(t *testing.T) {
	args := os.Getenv(envMainArgs)
	if args == "" {
		return
	}
	if limit := os.Getenv(envMainMaxWrite); limit != "" {
		n, err := strconv.ParseUint(limit, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, stop := signalContext()
	defer stop()
	os.Exit(run(ctx, newApp(os.Stdin, os.Stdout, os.Stderr), append([]string{"emobench"}, strings.Split(args, "\n")...), os.Stderr))
}

// Item 6: /dev/zero is read as a stream, not copied to a temporary file:
// it is refused at its first byte. The child may write no file past 64 MB,
// so an ingest that spools it fails there instead of filling the disk.
func TestIngest_ErrDevZeroNotSpooled(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero: %v", err)
	}
	tmp := t.TempDir()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, envMainMaxWrite+"="+strconv.Itoa(64<<20), envMainArgs+"=--db\n"+dbPath+"\ningest\n/dev/zero")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run()
	want := "error: /dev/zero: not JSON: invalid character '\\x00' looking for beginning of value\n"
	if code := cmd.ProcessState.ExitCode(); code != exitFailure || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 1, stderr %q", code, stderr.String(), want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Item 6: SIGTERM stops an ingest blocked on a silent writer, and it
// leaves no temporary file and no run.
func TestIngest_SIGTERMStopsAndLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("child-process signal test skipped in -short mode")
	}
	tmp := t.TempDir()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "run.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	dbPath := filepath.Join(dir, "runs.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, envMainArgs+"=--db\n"+dbPath+"\ningest\n"+fifo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once the child has opened it
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString(`[{"task_id": 0, "reward": 1.0, `); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(30 * time.Second): // a hang guard, not a speed assertion
		cmd.Process.Kill()
		<-exited
		t.Fatal("ingest did not stop on SIGTERM")
	}
	want := "emobench: " + fifo + ": interrupted; nothing of this file was stored\n"
	if code := cmd.ProcessState.ExitCode(); code != exitFailure || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 1, stderr %q", code, stderr.String(), want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if got := runRows(t, dbPath); got != "id,name,source_sha256,n\n" {
		t.Errorf("runs stored:\n%s", got)
	}
}

// Item 7: symlinked *.json files in a directory, and a τ²-bench run
// directory whose simulations are symlinks (git-annex, DVC), are read
// through their links.
func TestIngest_Symlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := filepath.Join(dir, "annex")
	results := filepath.Join(dir, "results")
	for _, d := range []string{store, results} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	content := tauRecords(2, "linked")
	if err := os.WriteFile(filepath.Join(store, "SHA256E-s1--abc.json"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(store, "SHA256E-s1--abc.json"), filepath.Join(results, "gpt-4o-retail.json")); err != nil {
		t.Fatal(err)
	}
	writeTau2Dir(t, filepath.Join(results, "tau2-run"), filepath.Join(store, "tau2-run"))
	dbPath := filepath.Join(dir, "runs.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", results)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := mustRun(t, "--db", dbPath, "sql", "--format", "csv",
		"SELECT r.name, r.domain, (SELECT COUNT(*) FROM trajectories t WHERE t.run_id = r.id) AS n FROM runs r ORDER BY r.id")
	if want := "name,domain,n\ngpt-4o-retail,retail,2\ntau2-run,retail,2\n"; got != want {
		t.Errorf("runs:\n%s\nwant:\n%s", got, want)
	}
}

// Item 7: what is skipped is named, with why: a broken symlink is an
// error (its content is missing), a FIFO or a symlinked directory a note.
func TestIngest_ErrSymlinksSkippedSaySo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	if err := os.Mkdir(results, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(results, "a.json"), []byte(tauRecords(1, "a")), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(results, "b.json")
	if err := os.Symlink(filepath.Join(dir, ".git", "annex", "objects", "b.json"), broken); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(results, "c.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	linkedDir := filepath.Join(results, "d.json")
	if err := os.Symlink(dir, linkedDir); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "tau2-run")
	writeTau2Dir(t, run, run)
	if err := os.Symlink(filepath.Join(dir, "missing.json"), filepath.Join(run, "simulations", "s2.json")); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "runs.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", results, run, broken)
	wantErr := "note: " + fifo + ": skipped, a named pipe, not a regular file (give it as an argument to read it)\n" +
		"note: " + linkedDir + ": skipped, a symlink to a directory (not followed; give it as an argument to ingest it)\n" +
		"error: " + broken + ": a symlink whose target is missing (no such file or directory): is its content fetched (git annex get, dvc pull)?\n" +
		"error: " + broken + ": a symlink whose target is missing (no such file or directory): is its content fetched (git annex get, dvc pull)?\n" +
		"error: " + run + ": simulations/s2.json is a symlink whose target is missing: is its content fetched (git annex get, dvc pull)?\n" +
		noModelInName(filepath.Join(results, "a.json"))
	if r.code != exitFailure || r.stderr != wantErr {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, wantErr)
	}
	if want := results + "/a.json: ingested as run 1 (a): 1 trajectory; model unknown, domain unknown, condition none\n"; r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
}

// Item 9: repeated (task, trial) pairs are found in the database, not in
// memory: still found after more distinct tasks than the task cache holds,
// with the record index of the first.
func TestIngest_ErrDuplicateAfterManyTasks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var recs []string
	const tasks = 1500 // more than db's task cache
	for i := range tasks {
		recs = append(recs, fmt.Sprintf(`{"task_id": %d, "reward": 0.0, "info": {"task": {"user_id": "u", "instruction": "i%d", "actions": [], "outputs": []}, "reward_info": {"reward": 0.0}}, "traj": [], "trial": 0}`, i, i))
	}
	recs = append(recs, recs[7])
	path := filepath.Join(dir, "dup.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(recs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "runs.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", path)
	want := fmt.Sprintf("error: %s: record %d: duplicate (task_id 7, trial 0), first seen at record 7 (use --on-duplicate keep-last to keep the later one)\n", path, tasks)
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
	r = runCLI(t, "", "--db", dbPath, "ingest", "--on-duplicate", "keep-last", path)
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("%d trajectories", tasks)) || !strings.Contains(r.stdout, "1 duplicate (task_id, trial) records replaced") {
		t.Errorf("keep-last: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// Item 6: `sql` reading its query from a stdin that never ends (a terminal,
// a silent pipe) stops when its context ends.
func TestSQL_StdinStopsOnCancel(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	mustRun(t, "--db", dbPath, "migrate")
	silent, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, newApp(silent, &out, &errOut), []string{"emobench", "--db", dbPath, "sql"}, &errOut)
	}()
	cancel()
	select {
	case code := <-done:
		if want := "emobench: reading the query from stdin: context canceled\n"; code != exitFailure || errOut.String() != want {
			t.Errorf("exit %d, stderr %q; want exit 1, stderr %q", code, errOut.String(), want)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a speed assertion
		t.Fatal("sql reading a silent stdin did not return after its context ended")
	}
}

// Item 6: a query on stdin is capped, so /dev/zero cannot fill memory.
func TestSQL_ErrStdinQueryTooLong(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "runs.db")
	mustRun(t, "--db", dbPath, "migrate")
	r := runCLI(t, strings.Repeat("x", 16<<20+1), "--db", dbPath, "sql")
	if want := "emobench: the query on stdin is longer than 16 MiB\n"; r.code != exitUsage || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2, stderr starting %q", r.code, r.stderr, want)
	}
}

// A symlink loop in a walked folder is named as a loop, not as content
// that git-annex or DVC has not fetched.
func TestIngest_ErrSymlinkLoopNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	if err := os.Mkdir(results, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(results, "a.json"), []byte(tauRecords(1, "a")), 0o644); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(results, "loop.json")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "--db", filepath.Join(dir, "runs.db"), "ingest", results)
	want := "error: " + loop + ": a symlink loop (too many levels of symbolic links): nothing to read\n" + noModelInName(filepath.Join(results, "a.json"))
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
	// The same inside a τ²-bench run's simulations/.
	run := filepath.Join(dir, "tau2-run")
	writeTau2Dir(t, run, run)
	a, z := filepath.Join(run, "simulations", "aa.json"), filepath.Join(run, "simulations", "zz.json")
	if err := os.Symlink(z, a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a, z); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, "", "--db", filepath.Join(dir, "runs.db"), "ingest", run)
	want = "error: " + run + ": simulations/aa.json is a symlink loop (too many levels of symbolic links)\n"
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("run directory: exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", r.code, r.stderr, want)
	}
}

// noModelInName is the note of a file whose name gives no model, as
// stderr prints it.
func noModelInName(path string) string {
	return "note: " + path + ": file name " + filepath.Base(path) + " does not have the shape <model>-<domain>[-(with|without)-emotions].json with a known domain: model unknown (correct it with `emobench runs set RUN --model M`, or give --model)\n"
}
