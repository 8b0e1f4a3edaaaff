package main

// Peak-RSS benchmarks for the two file shapes whose memory used to grow
// with the file: a τ²-bench Results file written with json.dump(...,
// sort_keys=True), whose simulations come before its tasks, and τ-bench
// JSON Lines of 1,000,000 records; and for one record as large as
// --max-record allows, whose memory grows with the record. Each ingests in a child process (the
// test binary re-executed into TestHelperIngestProcess) and reports the
// child's peak resident set size as peak-RSS-MB. They run only with -bench
// and are skipped under -short:
//
//	go test ./cmd/emobench -run '^$' -bench 'PeakRSS' -benchtime 1x

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/emobench/emobench/ingest"
)

// BenchmarkIngestPeakRSS_Tau2SortKeys ingests a 200 MB τ²-bench Results
// file whose keys are sorted (info, simulations, tasks, timestamp).
func BenchmarkIngestPeakRSS_Tau2SortKeys(b *testing.B) {
	if testing.Short() {
		b.Skip("200 MB peak-RSS benchmark skipped in -short mode")
	}
	path := filepath.Join(b.TempDir(), "sorted-keys-tau2.json")
	if err := writeSortedKeysTau2(path, benchSeed, 200<<20); err != nil {
		b.Fatal(err)
	}
	benchPeakRSS(b, path)
}

// BenchmarkIngestPeakRSS_TauBenchLines1M ingests τ-bench JSON Lines of
// 1,000,000 small records (1,000 tasks x 1,000 trials).
func BenchmarkIngestPeakRSS_TauBenchLines1M(b *testing.B) {
	if testing.Short() {
		b.Skip("1M-record peak-RSS benchmark skipped in -short mode")
	}
	path := filepath.Join(b.TempDir(), "lines-retail.jsonl")
	if err := writeTauBenchLines(path, benchSeed, 1000, 1000); err != nil {
		b.Fatal(err)
	}
	benchPeakRSS(b, path)
}

// benchPeakRSS ingests path into a fresh database per iteration in a child
// process and reports the largest peak RSS of the children.
func benchPeakRSS(b *testing.B, path string) {
	b.Helper()
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	dir := b.TempDir()
	var peakKB int64
	i := 0
	for b.Loop() {
		dbPath := filepath.Join(dir, "peak"+strconv.Itoa(i)+".db")
		i++
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperIngestProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), envPeakRSSFile+"="+path, envPeakRSSDB+"="+dbPath)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("ingest child: %v\n%s", err, out)
		}
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			b.Skip("no rusage on this platform")
		}
		peakKB = max(peakKB, ru.Maxrss) // kilobytes on Linux
		b.StopTimer()
		removeDB(b, dbPath)
		b.StartTimer()
	}
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
}

// writeSortedKeysTau2 writes a τ²-bench Results object of at least size
// bytes as json.dump(..., sort_keys=True) does: every object's keys sorted,
// so simulations come before tasks. 50 tasks; simulation i is task i mod 50
// at trial i / 50 with about 12 messages.
func writeSortedKeysTau2(path string, seed uint64, size int64) error {
	const nTasks = 50
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cw := &countingWriter{w: f}
	w := bufio.NewWriterSize(cw, 1<<20)
	r := rand.New(rand.NewPCG(seed, 3))
	info := map[string]any{
		"agent_info":       map[string]any{"implementation": "llm_agent", "llm": "gpt-4.1"},
		"environment_info": map[string]any{"domain_name": "retail"},
		"user_info":        map[string]any{"implementation": "user_simulator", "llm": "gpt-4.1-mini"},
	}
	b, _ := json.Marshal(info)
	w.WriteString(`{"info": `)
	w.Write(b)
	w.WriteString(`, "simulations": [`)
	for i := 0; int64(w.Buffered())+cw.n < size; i++ {
		if i > 0 {
			w.WriteString(", ")
		}
		b, err := json.Marshal(sortedSimulation(r, i, nTasks))
		if err != nil {
			return err
		}
		w.Write(b)
	}
	w.WriteString(`], "tasks": [`)
	for i := range nTasks {
		if i > 0 {
			w.WriteString(", ")
		}
		task := map[string]any{
			"id": strconv.Itoa(i),
			"evaluation_criteria": map[string]any{
				"actions":          []any{map[string]any{"name": "get_order_details", "arguments": map[string]any{"order_id": fmt.Sprintf("#W%07d", r.IntN(1e7))}}},
				"communicate_info": []any{},
			},
			"user_scenario": map[string]any{"instructions": synthText(r, 60)},
		}
		b, _ := json.Marshal(task)
		w.Write(b)
	}
	w.WriteString(`], "timestamp": "2026-01-01T00:00:00"}` + "\n")
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func sortedSimulation(r *rand.Rand, i, nTasks int) map[string]any {
	var messages []any
	for turn := range 6 {
		messages = append(messages,
			map[string]any{"role": "user", "content": synthText(r, 20+r.IntN(30)), "turn_idx": 2 * turn},
			map[string]any{"role": "assistant", "content": synthText(r, 30+r.IntN(40)), "turn_idx": 2*turn + 1},
		)
	}
	return map[string]any{
		"id": fmt.Sprintf("sim-%d", i), "task_id": strconv.Itoa(i % nTasks), "trial": i / nTasks,
		"termination_reason": "user_stop", "agent_cost": r.Float64() / 100, "user_cost": r.Float64() / 100,
		"reward_info": map[string]any{"reward": float64(r.IntN(2))},
		"messages":    messages, "seed": r.IntN(1000), "duration": r.Float64() * 60,
		"timestamp": "2026-01-01T00:00:00",
	}
}

// writeTauBenchLines writes τ-bench JSON Lines: one small record per line,
// tasks x trials of them.
func writeTauBenchLines(path string, seed uint64, tasks, trials int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(seed, 4))
	instructions := make([]string, tasks)
	for i := range instructions {
		instructions[i] = synthText(r, 30)
	}
	for trial := range trials {
		for task := range tasks {
			reward := float64(r.IntN(2))
			rec := map[string]any{
				"task_id": task, "trial": trial, "reward": reward,
				"info": map[string]any{
					"task":        map[string]any{"user_id": fmt.Sprintf("user%d", task), "instruction": instructions[task], "actions": []any{}, "outputs": []any{}},
					"reward_info": map[string]any{"reward": reward, "info": map[string]any{}},
					"user_cost":   r.Float64() / 100,
				},
				"traj": []any{
					map[string]any{"role": "user", "content": synthText(r, 8)},
					map[string]any{"role": "assistant", "content": synthText(r, 10)},
					map[string]any{"role": "user", "content": "Thanks. ###STOP###"},
				},
			}
			b, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			w.Write(b)
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// BenchmarkIngestPeakRSS_MaxRecord ingests one record as large as
// --max-record allows by default (ingest.DefaultMaxRecord, less 4 KiB),
// in the shapes that cost the most memory per byte: a τ-bench record of
// many messages, a τ-bench record of one long message, a τ²-bench
// simulation of many messages in a sorted-keys file (read twice), and one
// of a long message; and many one-letter messages, the costliest per byte.
func BenchmarkIngestPeakRSS_MaxRecord(b *testing.B) {
	if testing.Short() {
		b.Skip("peak-RSS benchmark skipped in -short mode")
	}
	size := int64(ingest.DefaultMaxRecord) - 4<<10
	message := `{"role": "user", "content": "` + strings.Repeat("hello ", 40) + `"}`
	messages := func(n int64) string {
		var s strings.Builder
		for s.Len()+len(message)+1 < int(n) {
			if s.Len() > 0 {
				s.WriteByte(',')
			}
			s.WriteString(message)
		}
		return s.String()
	}
	long := func(n int64) string { return `{"role": "user", "content": "` + strings.Repeat("a", int(n)) + `"}` }
	taubench := func(traj string) string {
		return `[{"task_id": 1, "reward": 1, "info": {"reward_info": {"reward": 1}}, "traj": [` + traj + `]}]` + "\n"
	}
	tau2Sorted := func(msgs string) string {
		return `{"info": {"agent_info": {"llm": "gpt-4.1"}}, "simulations": [{"id": "s0", "messages": [` + msgs +
			`], "reward_info": {"reward": 1}, "task_id": "t0", "termination_reason": "user_stop", "trial": 0}], "tasks": [{"id": "t0"}], "timestamp": "2026-01-01T00:00:00"}` + "\n"
	}
	tiny := `{"role": "user", "content": "a"}`
	tinyMessages := func(n int64) string {
		var s strings.Builder
		for s.Len()+len(tiny)+1 < int(n) {
			if s.Len() > 0 {
				s.WriteByte(',')
			}
			s.WriteString(tiny)
		}
		return s.String()
	}
	tau2Bare := func(msgs string) string {
		return `[{"id": "s0", "task_id": "t0", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1}, "messages": [` + msgs + `]}]` + "\n"
	}
	for _, c := range []struct{ name, content string }{
		{"taubench-tiny-messages", taubench(tinyMessages(size - 100))},
		{"tau2-bare-tiny-messages", tau2Bare(tinyMessages(size - 200))},
		{"taubench-messages", taubench(messages(size - 100))},
		{"taubench-string", taubench(long(size - 200))},
		{"tau2-sorted-messages", tau2Sorted(messages(size - 200))},
		{"tau2-sorted-string", tau2Sorted(long(size - 300))},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), c.name+".json")
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				b.Fatal(err)
			}
			benchPeakRSS(b, path)
		})
	}
}
