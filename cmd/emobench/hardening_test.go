package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench/export"
)

// writeLargeTauBench streams a τ-bench result file of about size bytes into
// path, with records shaped like the real ones (a 6 KB system policy, user,
// assistant tool calls with JSON-string arguments, tool results, info.task
// with τ-Emotion-Bench fields, reward_info with actions), task_id cycling
// over 100 tasks and trial counting the cycles. It returns the number of
// records.
func writeLargeTauBench(t *testing.T, path string, size int64) int {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	policy := strings.Repeat("- At the beginning of the conversation, you have to authenticate the user identity by locating their user id via email, or via name + zip code.\n", 40)
	var written int64
	n := 0
	w.WriteString("[")
	for ; written < size; n++ {
		task := n % 100
		user := fmt.Sprintf("user%d@example.com", task)
		traj := []map[string]any{
			{"role": "system", "content": policy},
			{"role": "user", "content": fmt.Sprintf("Hi, I want to return the kettle from order #W%07d. ", n) + strings.Repeat("It is broken. ", 10)},
		}
		for step := range 8 {
			id := fmt.Sprintf("call_%d_%d", n, step)
			args, _ := json.Marshal(map[string]any{"order_id": fmt.Sprintf("#W%07d", n), "item_ids": []string{"3015420423"}, "step": step})
			traj = append(traj,
				map[string]any{"role": "assistant", "content": nil, "tool_calls": []map[string]any{
					{"id": id, "type": "function", "function": map[string]any{"name": "get_order_details", "arguments": string(args)}}}},
				map[string]any{"role": "tool", "tool_call_id": id, "name": "get_order_details",
					"content": `{"order_id": "#W5955464", "status": "delivered", "items": [{"name": "Electric Kettle", "item_id": "3015420423", "price": 154.04, "options": {"capacity": "1L", "material": "glass", "color": "black"}}]}` + strings.Repeat(" ", 200)},
				map[string]any{"role": "assistant", "content": "I found your order. Could you confirm the items you want to return? " + strings.Repeat("Thank you. ", 20)},
				map[string]any{"role": "user", "content": "Yes, the kettle, please."},
			)
		}
		traj = append(traj, map[string]any{"role": "user", "content": "Thanks. ###STOP###"})
		actions := []map[string]any{{"name": "return_delivered_order_items", "kwargs": map[string]any{"order_id": "#W5955464", "item_ids": []string{"3015420423"}, "payment_method_id": "paypal_3246095"}}}
		rec := map[string]any{
			"task_id": task,
			"reward":  float64(n % 2),
			"info": map[string]any{
				"task": map[string]any{
					"user_id": user, "actions": actions, "outputs": []string{},
					"instruction":    fmt.Sprintf("You are %s. You want to return the kettle of your delivered order.", user),
					"emotion_family": "anger", "emotion_leaf": "annoyance", "dimension_politeness": "neutral",
					"dimension_urgency": "high", "dimension_trust_in_agent": "cautious",
				},
				"source":      "user",
				"user_cost":   0.00133,
				"reward_info": map[string]any{"reward": float64(n % 2), "info": map[string]any{"r_actions": float64(n % 2), "gt_data_hash": strings.Repeat("89", 32)}, "actions": actions},
			},
			"traj":  traj,
			"trial": n / 100,
		}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			w.WriteString(",\n")
		}
		w.Write(b)
		written += int64(len(b)) + 2
	}
	w.WriteString("]\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return n
}

// A SIGKILL in the middle of ingesting a large file leaves a database that
// passes `check` and holds nothing of that file (its one transaction never
// committed); ingesting the file again then stores all of it.
func TestIngest_KillDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess ingest of a large file skipped in -short mode")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "big-retail-with-emotions.json")
	records := writeLargeTauBench(t, file, 80<<20)
	dbPath := filepath.Join(dir, "kill.db")
	mustRun(t, "--db", dbPath, "migrate") // the schema exists before the child starts: WAL growth is the ingest's
	wal := dbPath + "-wal"
	walSize := func() int64 {
		st, err := os.Stat(wal)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	startWAL := walSize()

	args, _ := json.Marshal([]string{"--db", dbPath, "ingest", file})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRunProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envRunArgs+"="+string(args))
	var childOut strings.Builder
	cmd.Stdout, cmd.Stderr = &childOut, &childOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			<-done
		}
	}()
	// An uncommitted transaction spills its pages to the WAL once the page
	// cache fills: 8 MB of WAL means the ingest is well under way.
	const spilled = 8 << 20
	// A guard against a child that never writes, not a speed assertion:
	// on a machine shared with other jobs the child may start slowly.
	deadline := time.Now().Add(2 * time.Minute)
	for walSize() < startWAL+spilled {
		select {
		case err := <-done:
			killed = true
			t.Fatalf("the child finished (%v) after %v, before the WAL grew by %d bytes; output:\n%s", err, time.Since(start), spilled, childOut.String())
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the WAL grew to only %d bytes in 2 min; output:\n%s", walSize(), childOut.String())
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-done
	killed = true
	t.Logf("killed after %v with a %d-byte WAL", time.Since(start), walSize())
	if strings.Contains(childOut.String(), "ingested as run") {
		t.Fatalf("the child finished before it was killed:\n%s", childOut.String())
	}

	if out := mustRun(t, "--db", dbPath, "check"); !strings.Contains(out, "ok: integrity and schema as expected") {
		t.Fatalf("check after the kill: %q", out)
	}
	if out := mustRun(t, "--db", dbPath, "runs", "--format", "csv"); strings.Contains(out, "big-retail") || strings.Count(out, "\n") != 1 {
		t.Fatalf("runs after the kill list a run of the killed ingest:\n%s", out)
	}
	if got := tableCounts(t, dbPath); got != "(SELECT COUNT(*) FROM runs),(SELECT COUNT(*) FROM tasks),(SELECT COUNT(*) FROM trajectories),(SELECT COUNT(*) FROM messages)\n0,0,0,0\n" {
		t.Fatalf("table counts after the kill:\n%s", got)
	}

	out := mustRun(t, "--db", dbPath, "ingest", file)
	if want := fmt.Sprintf("ingested as run 1 (big-retail-with-emotions): %d trajectories", records); !strings.Contains(out, want) {
		t.Fatalf("re-ingest said %q, want %q", out, want)
	}
	if got, want := sqlInt(t, dbPath, "SELECT COUNT(*) FROM trajectories"), records; got != want {
		t.Errorf("%d trajectories after the re-ingest, want %d", got, want)
	}
	if got, want := sqlInt(t, dbPath, "SELECT COUNT(*) FROM messages"), records*35; got != want {
		t.Errorf("%d messages after the re-ingest, want %d", got, want)
	}
	if out := mustRun(t, "--db", dbPath, "check"); !strings.Contains(out, "ok:") {
		t.Fatalf("check after the re-ingest: %q", out)
	}
}

// writeFile writes data to name in a fresh temporary directory and returns
// its path.
func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tauRecord is one τ-bench record whose only message is a user message with
// content, a JSON string literal as written.
func tauRecord(taskID, trial int, reward, userCost, content string) string {
	return fmt.Sprintf(`{"task_id": %d, "reward": %s, "info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []}, "source": "user", "user_cost": %s, "reward_info": {"reward": %s, "info": {}}}, "traj": [{"role": "user", "content": %s}], "trial": %d}`,
		taskID, reward, userCost, reward, content, trial)
}

// A 10 MB message is stored whole, under a --max-record that holds its
// record (the default, 3MiB, refuses it: see TestIngest_ErrRecordTooLarge).
func TestIngest_HugeMessage(t *testing.T) {
	const size = 10 << 20
	content := strings.Repeat("abcdefghi\n", size/10) // 10 bytes each, \n escaped in JSON
	quoted, _ := json.Marshal(content)
	dbPath := filepath.Join(t.TempDir(), "huge.db")
	mustRun(t, "--db", dbPath, "ingest", "--max-record", "16MiB", writeFile(t, "huge-retail.json", "["+tauRecord(0, 0, "1.0", "0.5", string(quoted))+"]"))
	if got := sqlInt(t, dbPath, "SELECT length(content) FROM messages"); got != size {
		t.Errorf("length(content) = %d, want %d", got, size)
	}
	if got := sqlCSV(t, dbPath, "SELECT substr(content, 1, 9), substr(content, -10, 9) FROM messages"); got != "\"substr(content, 1, 9)\",\"substr(content, -10, 9)\"\nabcdefghi,abcdefghi\n" {
		t.Errorf("ends of the content: %q", got)
	}
}

// Text in any script, emoji (also as an escaped surrogate pair), combining
// marks, right-to-left text, control characters and a NUL (\u0000) inside a
// JSON string are stored byte for byte.
func TestIngest_UnicodeIntact(t *testing.T) {
	want := "中文 日本語 한국어 😀👍🏽👨‍👩‍👧 \U0001F600 مرحبا بالعالم שלום e\u0301 n\u0303 Å\u030a \u202eRTL override\u202c tab\there nul\x00after \x01\x1f end"
	literal := `"中文 日本語 한국어 😀👍🏽👨‍👩‍👧 \ud83d\ude00 مرحبا بالعالم שלום e\u0301 n\u0303 Å\u030a \u202eRTL override\u202c tab\there nul\u0000after \u0001\u001f end"`
	var check string
	if err := json.Unmarshal([]byte(literal), &check); err != nil || check != want {
		t.Fatalf("the test's literal decodes to %q (%v), want %q", check, err, want)
	}
	dbPath := filepath.Join(t.TempDir(), "unicode.db")
	mustRun(t, "--db", dbPath, "ingest", writeFile(t, "unicode-retail.json", "["+tauRecord(0, 0, "1.0", "0.5", literal)+"]"))
	// hex() shows every byte, past the NUL where length() and printing stop.
	got := sqlCSV(t, dbPath, "SELECT hex(content) AS h, length(CAST(content AS BLOB)) AS n FROM messages")
	if w := fmt.Sprintf("h,n\n%s,%d\n", strings.ToUpper(hex.EncodeToString([]byte(want))), len(want)); got != w {
		t.Errorf("stored content:\n%s\nwant:\n%s", got, w)
	}
}

// Python's bare NaN and Infinity read as unknown: NULL reward and costs.
func TestIngest_NonFiniteNull(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "nan.db")
	in := "[" + tauRecord(0, 0, "NaN", "Infinity", `"NaN and Infinity in a string stay"`) + ",\n" + tauRecord(1, 0, "1.0", "-Infinity", `"x"`) + "]"
	mustRun(t, "--db", dbPath, "ingest", writeFile(t, "nan-retail.json", in))
	got := sqlCSV(t, dbPath, "SELECT task_key, reward IS NULL AS r, user_cost IS NULL AS u, agent_cost IS NULL AS a, passed FROM trajectory_outcomes ORDER BY task_key")
	if want := "task_key,r,u,a,passed\n0,1,1,1,0\n1,0,1,1,1\n"; got != want {
		t.Errorf("outcomes:\n%s\nwant:\n%s", got, want)
	}
	if got := sqlCSV(t, dbPath, "SELECT content FROM messages ORDER BY id LIMIT 1"); got != "content\nNaN and Infinity in a string stay\n" {
		t.Errorf("content %q: the string must be kept", got)
	}
}

// A repeated (task_id, trial) is refused by default, storing nothing; with
// --on-duplicate keep-last the later record wins.
func TestIngest_DuplicatePair(t *testing.T) {
	in := "[" + strings.Join([]string{
		tauRecord(0, 0, "0.25", "0.1", `"first"`),
		tauRecord(1, 0, "1.0", "0.1", `"other task"`),
		tauRecord(0, 0, "0.75", "0.1", `"second"`),
	}, ",\n") + "]"
	file := writeFile(t, "dup-retail.json", in)
	dbPath := filepath.Join(t.TempDir(), "dup.db")
	r := runCLI(t, "", "--db", dbPath, "ingest", file)
	if r.code != exitFailure || !strings.Contains(r.stderr, "record 2") || !strings.Contains(r.stderr, "duplicate (task_id 0, trial 0)") {
		t.Fatalf("exit %d, stderr %q: want 1 and the duplicate named", r.code, r.stderr)
	}
	if got := sqlInt(t, dbPath, "SELECT COUNT(*) FROM runs"); got != 0 {
		t.Fatalf("%d runs stored from a refused file", got)
	}
	out := mustRun(t, "--db", dbPath, "ingest", "--on-duplicate", "keep-last", file)
	if !strings.Contains(out, "2 trajectories") || !strings.Contains(out, "1 duplicate") {
		t.Errorf("keep-last said %q", out)
	}
	got := sqlCSV(t, dbPath, "SELECT k.task_key, j.trial, j.reward, m.content FROM trajectories j JOIN tasks k ON k.id = j.task_id JOIN messages m ON m.trajectory_id = j.id ORDER BY k.task_key")
	if want := "task_key,trial,reward,content\n0,0,0.75,second\n1,0,1,other task\n"; got != want {
		t.Errorf("stored:\n%s\nwant the later record of task 0:\n%s", got, want)
	}
}

// The termination reasons τ-bench and τ²-bench cannot spell (agent_stop,
// too_many_errors) and those τ²-bench cannot (user_unsatisfied, transfer)
// survive an export and re-ingest in both formats, through emobench's own
// keys.
func TestExport_RoundTripKeepsReasons(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src.db")
	fixtureDB(t, src)
	// The fixtures end in user_stop or user_unsatisfied; give some
	// trajectories the reasons of native runs.
	plainSQL(t, src,
		"UPDATE trajectories SET termination_reason = 'transfer' WHERE id IN (SELECT id FROM trajectories WHERE termination_reason = 'user_stop' ORDER BY id LIMIT 3)",
		"UPDATE trajectories SET termination_reason = 'agent_stop' WHERE id IN (SELECT id FROM trajectories WHERE termination_reason = 'user_stop' ORDER BY id LIMIT 3)",
		"UPDATE trajectories SET termination_reason = 'too_many_errors' WHERE id IN (SELECT id FROM trajectories WHERE termination_reason = 'user_stop' ORDER BY id LIMIT 3)")
	q := "SELECT termination_reason, COUNT(*) FROM trajectories GROUP BY 1 ORDER BY 1"
	before := sqlCSV(t, src, q)
	for _, reason := range []string{"agent_stop", "too_many_errors", "user_unsatisfied", "transfer"} {
		if !strings.Contains(before, "\n"+reason+",") {
			t.Fatalf("the source db has no %s trajectory:\n%s", reason, before)
		}
	}
	for _, format := range []string{export.FormatTauBench, export.FormatTau2} {
		t.Run(format, func(t *testing.T) {
			dst := roundTrip(t, src, format)
			if after := sqlCSV(t, dst, q); after != before {
				t.Errorf("termination reasons after the round trip:\n%s\nwant:\n%s", after, before)
			}
			checkRoundTrip(t, src, dst, true)
			tasks := "SELECT DISTINCT domain, task_key, user_id, emotion_family, emotion_leaf, politeness, urgency, trust FROM tasks ORDER BY 1, 2"
			if got, want := sqlCSV(t, dst, tasks), sqlCSV(t, src, tasks); got != want {
				t.Errorf("tasks' user ids and emotions after the round trip:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
