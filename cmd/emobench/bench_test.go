package main

// Benchmarks for the performance targets:
//
//   - ingest at 30 MB/s or more on one core   (BenchmarkIngest_*, run with -cpu 1)
//   - peak RSS under 150 MB while ingesting    (BenchmarkIngestPeakRSS)
//   - stats passk over 1,000,000 trajectories
//     in under 2 s                              (BenchmarkStatsPassK_1M)
//
// They never assert on time; compare runs with benchstat:
//
//	go test ./cmd/emobench -run '^$' -bench . -benchtime 3x -benchmem -cpu 1

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/ingest"
	"github.com/emobench/emobench/workbench"
)

// benchSeed seeds every synthetic input, so two runs measure the same bytes.
const benchSeed = 20260101

// realRunsDir is /work/shared/realruns seen from this package's directory
// (go test runs benchmarks in cmd/emobench).
const realRunsDir = "../../../shared/realruns"

// BenchmarkIngest_RealRuns ingests each top-level τ-bench file of the shared
// real-runs folder, and the retail ones of its taubench folder, into a fresh
// database per iteration.
func BenchmarkIngest_RealRuns(b *testing.B) {
	files, err := filepath.Glob(filepath.Join(realRunsDir, "*.json"))
	more, _ := filepath.Glob(filepath.Join(realRunsDir, "taubench", "*retail*.json"))
	files = append(files, more...)
	if err == nil && len(files) == 0 {
		err = errors.New("no *.json files")
	}
	if err != nil {
		b.Skipf("../shared/realruns not found: %s: %v", realRunsDir, err)
	}
	for _, path := range files {
		b.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(b *testing.B) {
			benchIngestFile(b, path)
		})
	}
}

// BenchmarkIngest_Synthetic ingests a generated τ-bench file of each size.
// The 200MB case is skipped under -short.
func BenchmarkIngest_Synthetic(b *testing.B) {
	for _, size := range []int64{10 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			if size > 10<<20 && testing.Short() {
				b.Skip("large synthetic file skipped in -short mode")
			}
			path := filepath.Join(b.TempDir(), "synthetic-retail-with-emotions.json")
			if _, err := writeSyntheticFile(path, benchSeed, size); err != nil {
				b.Fatal(err)
			}
			benchIngestFile(b, path)
		})
	}
}

// BenchmarkIngest_TauBenchLines ingests τ-bench JSON Lines of 100,000
// small records (100 tasks x 1,000 trials): per-record costs, such as the
// duplicate check, dominate.
func BenchmarkIngest_TauBenchLines(b *testing.B) {
	path := filepath.Join(b.TempDir(), "lines-retail.jsonl")
	if err := writeTauBenchLines(path, benchSeed, 100, 1000); err != nil {
		b.Fatal(err)
	}
	benchIngestFile(b, path)
}

// BenchmarkIngest_DecodeOnly runs the τ-bench reader alone over a 10 MB
// synthetic file, to tell parsing cost from SQLite cost.
func BenchmarkIngest_DecodeOnly(b *testing.B) {
	path := filepath.Join(b.TempDir(), "synthetic.json")
	info, err := writeSyntheticFile(path, benchSeed, 10<<20)
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, err := range ingest.TauBench(bytes.NewReader(data)) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != info.records {
			b.Fatalf("decoded %d records, want %d", n, info.records)
		}
	}
	b.ReportMetric(float64(info.records*b.N)/b.Elapsed().Seconds(), "traj/s")
}

// benchIngestFile times IngestRun of the file at path into a new database per
// iteration and reports MB/s (through SetBytes) and traj/s. The time covers
// reading, the transaction and closing the database (the WAL checkpoint);
// creating the database is not timed.
func benchIngestFile(b *testing.B, path string) {
	ctx := context.Background()
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	dir := b.TempDir()
	trajectories, i := 0, 0
	var cpu time.Duration // user+sys of the timed parts: honest on a loaded machine
	for b.Loop() {
		b.StopTimer()
		dbPath := filepath.Join(dir, "bench"+strconv.Itoa(i)+".db")
		i++
		store, err := db.Open(ctx, dbPath)
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		cpu -= processCPU(b)
		b.StartTimer()

		run := emobench.Run{Name: filepath.Base(path), SourceFormat: ingest.FormatTauBench, SourcePath: path}
		res, err := store.IngestRun(ctx, run, ingest.TauBench(bufio.NewReaderSize(f, 256<<10)), db.DuplicateRefuse)
		if err != nil {
			b.Fatal(err)
		}

		if err := store.Close(); err != nil { // checkpoints the WAL: part of the cost
			b.Fatal(err)
		}

		b.StopTimer()
		cpu += processCPU(b)
		trajectories += res.Trajectories
		f.Close()
		removeDB(b, dbPath)
		b.StartTimer()
	}
	b.ReportMetric(float64(trajectories)/b.Elapsed().Seconds(), "traj/s")
	b.ReportMetric(float64(st.Size())*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
}

// processCPU is the user+sys time this process has used so far.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func removeDB(tb testing.TB, path string) {
	tb.Helper()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			tb.Fatal(err)
		}
	}
}

// Environment of the ingest child process of BenchmarkIngestPeakRSS.
const (
	envPeakRSSFile = "EMOBENCH_BENCH_INGEST_FILE"
	envPeakRSSDB   = "EMOBENCH_BENCH_INGEST_DB"
)

// BenchmarkIngestPeakRSS runs `emobench --db X ingest FILE` over a 200 MB
// synthetic file in a child process (the test binary re-executed into
// TestHelperIngestProcess), so that generating the file does not count, and
// reports the child's peak resident set size. Skipped under -short.
func BenchmarkIngestPeakRSS(b *testing.B) {
	if testing.Short() {
		b.Skip("200 MB peak-RSS benchmark skipped in -short mode")
	}
	const size = 200 << 20
	dir := b.TempDir()
	path := filepath.Join(dir, "synthetic-retail-with-emotions.json")
	if _, err := writeSyntheticFile(path, benchSeed, size); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
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

// TestHelperIngestProcess is the child of BenchmarkIngestPeakRSS: it ingests
// the file named by $EMOBENCH_BENCH_INGEST_FILE into the database
// $EMOBENCH_BENCH_INGEST_DB through the CLI. Without those variables it does
// nothing.
func TestHelperIngestProcess(t *testing.T) {
	path, dbPath := os.Getenv(envPeakRSSFile), os.Getenv(envPeakRSSDB)
	if path == "" || dbPath == "" {
		return
	}
	var stderr strings.Builder
	args := []string{"emobench", "--db", dbPath, "ingest", path}
	if code := run(context.Background(), newApp(strings.NewReader(""), io.Discard, &stderr), args, &stderr); code != exitOK {
		t.Fatalf("emobench ingest exited %d: %s", code, stderr.String())
	}
}

// BenchmarkStatsPassK_1M times pass^k over a database of 1,000,000
// trajectories: 10 runs (5 with, 5 without emotions) x 1,000 tasks x 100
// trials, no messages. The database is built once through IngestRun (about
// a minute; skipped under -short). workbench.ComputePassK is what `emobench stats
// passk` runs after opening the database; the cli case runs the whole
// command, table output included.
func BenchmarkStatsPassK_1M(b *testing.B) {
	if testing.Short() {
		b.Skip("building a 1M-trajectory database skipped in -short mode")
	}
	const runs, tasks, trials = 10, 1000, 100
	const total = runs * tasks * trials
	ctx := context.Background()
	dbPath := filepath.Join(b.TempDir(), "stats1m.db")
	buildStatsDB(b, dbPath, runs, tasks, trials)

	store, err := db.OpenReadOnly(ctx, dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	sel, err := workbench.Select(ctx, store, nil, false)
	if err != nil {
		b.Fatal(err)
	}
	for _, by := range []string{"condition", "emotion_family"} {
		b.Run("by="+by, func(b *testing.B) {
			opts := analysis.PassKOptions{Convention: analysis.PerTask}
			for b.Loop() {
				rows, _, err := workbench.ComputePassK(ctx, store, sel, []string{by}, opts)
				if err != nil {
					b.Fatal(err)
				}
				if len(rows) == 0 {
					b.Fatal("no pass^k rows")
				}
			}
			b.ReportMetric(float64(total*b.N)/b.Elapsed().Seconds(), "traj/s")
		})
	}
	for name, stats := range map[string][]string{
		"cli/by=emotion_family": {"passk", "--by", "condition,emotion_family"},
		"cli/emotions":          {"emotions", "--resamples", "200"},
		"cli/abandonment":       {"abandonment"},
	} {
		b.Run(name, func(b *testing.B) {
			args := append([]string{"emobench", "--db", dbPath, "stats"}, stats...)
			for b.Loop() {
				var stderr strings.Builder
				if code := run(ctx, newApp(strings.NewReader(""), io.Discard, &stderr), args, &stderr); code != exitOK {
					b.Fatalf("%v exited %d: %s", args[3:], code, stderr.String())
				}
			}
			b.ReportMetric(float64(total*b.N)/b.Elapsed().Seconds(), "traj/s")
		})
	}
}

// emotionLeaves lists a few Atlas of Emotions leaf states per family.
var emotionLeaves = map[string][]string{
	"enjoyment": {"relief", "amusement", "excitement"},
	"sadness":   {"disappointment", "resignation", "despair"},
	"fear":      {"anxiety", "nervousness", "dread"},
	"anger":     {"annoyance", "frustration", "exasperation"},
	"disgust":   {"dislike", "aversion", "revulsion"},
}

var emotionFamilies = []string{"enjoyment", "sadness", "fear", "anger", "disgust"}

// syntheticEmotion is task i's emotion profile.
func syntheticEmotion(r *rand.Rand) emobench.EmotionProfile {
	family := emotionFamilies[r.IntN(len(emotionFamilies))]
	leaves := emotionLeaves[family]
	return emobench.EmotionProfile{
		Family:     family,
		Leaf:       leaves[r.IntN(len(leaves))],
		Politeness: []string{"warm", "neutral", "cold"}[r.IntN(3)],
		Urgency:    []string{"low", "moderate", "high"}[r.IntN(3)],
		Trust:      []string{"trusting", "cautious", "skeptical"}[r.IntN(3)],
	}
}

// buildStatsDB stores runs x tasks x trials message-less trajectories at
// path through the public ingest API. Tasks are shared by all runs.
func buildStatsDB(b *testing.B, path string, runs, tasks, trials int) {
	b.Helper()
	ctx := context.Background()
	store, err := db.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	r := rand.New(rand.NewPCG(benchSeed, 1))
	taskList := make([]emobench.Task, tasks)
	passRate := make([]float64, tasks)
	for i := range taskList {
		taskList[i] = emobench.Task{
			Domain:      "retail",
			Key:         strconv.Itoa(i),
			Instruction: fmt.Sprintf("You are user %d. You want to return order #W%07d.", i, r.IntN(1e7)),
			UserID:      fmt.Sprintf("user%d@example.com", i),
			Emotion:     syntheticEmotion(r),
			Actions:     json.RawMessage(`[{"name":"return_delivered_order_items","kwargs":{"order_id":"#W1"}}]`),
			Outputs:     json.RawMessage(`[]`),
		}
		passRate[i] = r.Float64()
	}
	for run := range runs {
		cond := emobench.ConditionWithEmotions
		if run%2 == 1 {
			cond = emobench.ConditionWithoutEmotions
		}
		info := emobench.Run{
			Name:         fmt.Sprintf("model-%d-retail-%s", run/2, cond),
			SourceFormat: "synthetic",
			AgentModel:   fmt.Sprintf("model-%d", run/2),
			Domain:       "retail",
			Condition:    cond,
		}
		res, err := store.IngestRun(ctx, info, syntheticTrajectories(r, taskList, passRate, trials), db.DuplicateRefuse)
		if err != nil {
			b.Fatal(err)
		}
		if got, want := res.Trajectories, tasks*trials; got != want {
			b.Fatalf("run %d stored %d trajectories, want %d", run, got, want)
		}
	}
}

// syntheticTrajectories yields every (task, trial) of one run, without
// messages; a trial passes with its task's pass rate.
func syntheticTrajectories(r *rand.Rand, tasks []emobench.Task, passRate []float64, trials int) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		for i, task := range tasks {
			for trial := range trials {
				reward, reason := 0.0, emobench.TerminationUserStop
				switch u := r.Float64(); {
				case u < passRate[i]:
					reward = 1
				case u > 0.95:
					reward, reason = -1, emobench.TerminationUserUnsatisfied
				}
				traj := &emobench.Trajectory{
					Task: task, Trial: trial, Reward: &reward, Evaluated: true,
					TerminationReason: reason,
				}
				if !yield(traj, nil) {
					return
				}
			}
		}
	}
}

// syntheticInfo describes a generated file.
type syntheticInfo struct {
	records int
	bytes   int64
}

// The JSON shapes of a τ-Emotion-Bench result record, as the generator
// writes them (field order as in the real files).
type (
	synthRecord struct {
		TaskID int            `json:"task_id"`
		Reward float64        `json:"reward"`
		Info   synthInfo      `json:"info"`
		Traj   []synthMessage `json:"traj"`
		Trial  int            `json:"trial"`
	}
	synthInfo struct {
		Task       *synthTask       `json:"task"`
		Source     string           `json:"source"`
		UserCost   float64          `json:"user_cost"`
		RewardInfo *synthRewardInfo `json:"reward_info"`
	}
	synthTask struct {
		UserID        string        `json:"user_id"`
		Actions       []synthAction `json:"actions"`
		Instruction   string        `json:"instruction"`
		Outputs       []string      `json:"outputs"`
		EmotionFamily string        `json:"emotion_family"`
		EmotionLeaf   string        `json:"emotion_leaf"`
		Politeness    string        `json:"dimension_politeness"`
		Urgency       string        `json:"dimension_urgency"`
		Trust         string        `json:"dimension_trust_in_agent"`
	}
	synthAction struct {
		Name   string            `json:"name"`
		Kwargs map[string]string `json:"kwargs"`
	}
	synthRewardInfo struct {
		Reward  float64        `json:"reward"`
		Info    map[string]any `json:"info"`
		Actions []synthAction  `json:"actions"`
	}
	synthMessage struct {
		Role         string          `json:"role"`
		Content      *string         `json:"content"`
		ToolCalls    []synthToolCall `json:"tool_calls,omitempty"`
		FunctionCall *struct{}       `json:"function_call,omitempty"`
		Name         string          `json:"name,omitempty"`
		ToolCallID   string          `json:"tool_call_id,omitempty"`
	}
	synthToolCall struct {
		Function synthFunction `json:"function"`
		ID       string        `json:"id"`
		Type     string        `json:"type"`
	}
	synthFunction struct {
		Arguments string `json:"arguments"` // a JSON object, as a string
		Name      string `json:"name"`
	}
)

var synthWords = strings.Fields(`order item return exchange refund payment
	method address city zip product variant price delivered pending cancel
	modify user account email please thanks need want help the a to for of
	and with my your this that is are was be can will not now quickly`)

var synthTools = []string{
	"find_user_id_by_email", "get_user_details", "get_order_details",
	"get_product_details", "list_all_product_types", "cancel_pending_order",
	"return_delivered_order_items", "exchange_delivered_order_items",
	"modify_pending_order_address",
}

func synthText(r *rand.Rand, words int) string {
	var sb strings.Builder
	for i := range words {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(synthWords[r.IntN(len(synthWords))])
	}
	return sb.String()
}

// writeSyntheticFile streams a τ-Emotion-Bench result file of at least size
// bytes to path, deterministic in seed: 115 tasks, record i is task i mod
// 115 at trial i / 115, each with a ~5 KB system prompt and about 20 further
// messages, a third of them tool calls with JSON-string arguments.
func writeSyntheticFile(path string, seed uint64, size int64) (syntheticInfo, error) {
	const nTasks = 115
	f, err := os.Create(path)
	if err != nil {
		return syntheticInfo{}, err
	}
	defer f.Close()
	cw := &countingWriter{w: f}
	w := bufio.NewWriterSize(cw, 1<<20)

	r := rand.New(rand.NewPCG(seed, 2))
	system := "# Retail agent policy\n\n" + synthText(r, 850) // ≈ 5 KB
	tasks := make([]*synthTask, nTasks)
	for i := range tasks {
		e := syntheticEmotion(r)
		t := &synthTask{
			UserID:        fmt.Sprintf("user.%d@example.com", i),
			Instruction:   synthText(r, 80) + "\n\nEmotion instruction: " + synthText(r, 30),
			Outputs:       []string{},
			EmotionFamily: e.Family, EmotionLeaf: e.Leaf,
			Politeness: e.Politeness, Urgency: e.Urgency, Trust: e.Trust,
		}
		for range 1 + r.IntN(4) {
			t.Actions = append(t.Actions, synthAction{
				Name:   synthTools[r.IntN(len(synthTools))],
				Kwargs: map[string]string{"order_id": fmt.Sprintf("#W%07d", r.IntN(1e7)), "reason": "no longer needed"},
			})
		}
		tasks[i] = t
	}

	info := syntheticInfo{}
	if _, err := w.WriteString("[\n"); err != nil {
		return info, err
	}
	for i := 0; int64(w.Buffered())+cw.n < size; i++ {
		rec := synthRecordAt(r, i, nTasks, tasks, system)
		b, err := json.MarshalIndent(rec, "  ", "  ")
		if err != nil {
			return info, err
		}
		if i > 0 {
			w.WriteString(",\n")
		}
		w.WriteString("  ")
		if _, err := w.Write(b); err != nil {
			return info, err
		}
		info.records++
	}
	if _, err := w.WriteString("\n]\n"); err != nil {
		return info, err
	}
	if err := w.Flush(); err != nil {
		return info, err
	}
	info.bytes = cw.n
	return info, f.Close()
}

func synthRecordAt(r *rand.Rand, i, nTasks int, tasks []*synthTask, system string) synthRecord {
	task := tasks[i%nTasks]
	rec := synthRecord{TaskID: i % nTasks, Trial: i / nTasks, Info: synthInfo{Task: task, Source: "user", UserCost: r.Float64() / 100}}
	str := func(s string) *string { return &s }
	rec.Traj = append(rec.Traj, synthMessage{Role: "system", Content: str(system)})
	for turn := range 6 + r.IntN(3) {
		rec.Traj = append(rec.Traj, synthMessage{Role: "user", Content: str(synthText(r, 10+r.IntN(30)))})
		if turn%2 == 1 {
			tool := synthTools[r.IntN(len(synthTools))]
			id := fmt.Sprintf("chatcmpl-tool-%016x", r.Uint64())
			args, _ := json.Marshal(map[string]string{"order_id": fmt.Sprintf("#W%07d", r.IntN(1e7)), "note": synthText(r, 3)})
			rec.Traj = append(rec.Traj,
				synthMessage{Role: "assistant", ToolCalls: []synthToolCall{{
					Function: synthFunction{Name: tool, Arguments: string(args)}, ID: id, Type: "function",
				}}},
				synthMessage{Role: "tool", Name: tool, ToolCallID: id,
					Content: str(fmt.Sprintf(`{"order_id": "#W%07d", "status": "delivered", "items": %q}`, r.IntN(1e7), synthText(r, 60)))},
			)
		}
		rec.Traj = append(rec.Traj, synthMessage{Role: "assistant", Content: str(synthText(r, 20+r.IntN(40)))})
	}
	ri := &synthRewardInfo{Info: map[string]any{"r_actions": 0.0, "gt_data_hash": fmt.Sprintf("%016x", r.Uint64())}, Actions: task.Actions}
	switch u := r.Float64(); {
	case u < 0.6:
		rec.Reward, ri.Reward = 1, 1
		rec.Traj = append(rec.Traj, synthMessage{Role: "user", Content: str("Thanks. ###STOP###")})
	case u < 0.9:
		rec.Traj = append(rec.Traj, synthMessage{Role: "user", Content: str("Fine. ###STOP###")})
	default:
		rec.Reward, ri.Reward = -1, -1
		ri.Info = map[string]any{"reason": "user_abandoned"}
		rec.Traj = append(rec.Traj, synthMessage{Role: "user", Content: str("Forget it. ###UNSATISFIED###")})
	}
	rec.Info.RewardInfo = ri
	return rec
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
