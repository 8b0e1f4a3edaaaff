package main

// Benchmarks of `stats passk` over the per-(run, task) outcome table:
//
//   - BenchmarkPasskOutcomeTable: every run of a 1,000,000-trajectory
//     database and of 240 runs of 50 tasks × 4 trials
//   - BenchmarkPasskOneRun: --run of one run of the ~1 GB database
//
// Each reports cpu-ms/op (user+sys CPU time of the process per operation),
// which two other processes on the same cores disturb less than ns/op:
//
//	go test ./cmd/emobench -run '^$' -bench 'Passk' -benchtime 20x
//
// TestPasskCPUVersusPython compares the CPU time of `emobench stats passk`
// (the built binary) with /work/shared/bench/ref_passk.py's over the same
// 240 files; it runs only with EMOBENCH_BENCH_PYTHON=1.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// The shape of the ~1 GB database: gigabyteRuns τ-bench result files of
// gigabyteTasks tasks × gigabyteTrials trials, records shaped like the real
// runs (realisticRecord).
const (
	gigabyteRuns   = 240
	gigabyteTasks  = 50
	gigabyteTrials = 4
)

// cpuTime is the user+sys CPU time this process has used.
func cpuTime(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Skipf("no getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchCPU runs op b.N times and reports cpu-ms/op beside ns/op.
func benchCPU(b *testing.B, op func()) {
	b.Helper()
	start := cpuTime(b)
	for b.Loop() {
		op()
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// benchPassK times workbench.ComputePassK (what `stats passk` runs once the database
// is open) over runIDs (all when nil), and the whole command in-process.
func benchPassK(b *testing.B, dbPath string, runIDs []int64, cliArgs ...string) {
	ctx := context.Background()
	store, err := db.OpenReadOnly(ctx, dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	sel, err := workbench.Select(ctx, store, runIDs, false)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("computePassK", func(b *testing.B) {
		benchCPU(b, func() {
			rows, _, err := workbench.ComputePassK(ctx, store, sel, nil, analysis.PassKOptions{Convention: analysis.PerTask})
			if err != nil {
				b.Fatal(err)
			}
			if len(rows) == 0 {
				b.Fatal("no pass^k rows")
			}
		})
	})
	b.Run("cli", func(b *testing.B) {
		args := append([]string{"emobench", "--db", dbPath, "stats", "passk"}, cliArgs...)
		benchCPU(b, func() {
			var stderr strings.Builder
			if code := run(ctx, newApp(strings.NewReader(""), io.Discard, &stderr), args, &stderr); code != exitOK {
				b.Fatalf("%v exited %d: %s", args[3:], code, stderr.String())
			}
		})
	})
}

// BenchmarkPasskOutcomeTable times pass^k over every run of a database of
// 1,000,000 message-less trajectories (10 runs x 1,000 tasks x 100
// trials, as BenchmarkStatsPassK_1M) and of one shaped like the ~1 GB
// database without its messages (240 runs x 50 tasks x 4 trials): the
// cost follows the (run, task) pairs, 10,000 and 12,000. Skipped under
// -short (building the first takes a minute). TestPasskCPUVersusPython
// measures the ~1 GB database itself, and so does the "gigabyte" case when
// $EMOBENCH_BENCH_GIGABYTE_DB names one.
func BenchmarkPasskOutcomeTable(b *testing.B) {
	if testing.Short() {
		b.Skip("building the benchmark databases skipped in -short mode")
	}
	for _, size := range []struct {
		name                  string
		runs, tasks, trialsOf int
	}{{"1M", 10, 1000, 100}, {"240x50x4", gigabyteRuns, gigabyteTasks, gigabyteTrials}} {
		b.Run(size.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "stats.db")
			buildStatsDB(b, path, size.runs, size.tasks, size.trialsOf)
			benchPassK(b, path, nil)
		})
	}
	if path := os.Getenv(envBenchGigabyteDB); path != "" {
		b.Run("gigabyte", func(b *testing.B) { benchPassK(b, path, nil) })
	}
}

// BenchmarkPasskOneRun times pass^k over one run (--run) of the ~1 GB
// database (built first: a few minutes): the runs are selected in SQL, so
// the others cost nothing.
func BenchmarkPasskOneRun(b *testing.B) {
	if testing.Short() {
		b.Skip("building the 1 GB database skipped in -short mode")
	}
	path := gigabyteDB(b)
	name := gigabyteRunName(gigabyteRuns / 2)
	ctx := context.Background()
	store, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	id, err := store.ResolveRun(ctx, strings.TrimSuffix(name, ".json"))
	store.Close()
	if err != nil {
		b.Fatal(err)
	}
	benchPassK(b, path, []int64{id}, "--run", fmt.Sprint(id))
}

// envBenchGigabyteDB names a ~1 GB database built earlier by gigabyteDB
// (buildGigabyteDB), to measure without building it again.
const envBenchGigabyteDB = "EMOBENCH_BENCH_GIGABYTE_DB"

// gigabyteDB builds the ~1 GB database in a temp dir of b (removed when b
// ends): a minute or two of CPU. With $EMOBENCH_BENCH_GIGABYTE_DB set, it
// returns that file instead.
func gigabyteDB(b *testing.B) string {
	b.Helper()
	if path := os.Getenv(envBenchGigabyteDB); path != "" {
		return path
	}
	path := filepath.Join(b.TempDir(), "runs.db")
	if err := buildGigabyteDB(path); err != nil {
		b.Fatal(err)
	}
	return path
}

// buildGigabyteDB ingests gigabyteRuns generated runs into path, one file
// at a time (each deleted once ingested), so the disk holds one file
// beside the database.
func buildGigabyteDB(path string) error {
	ctx := context.Background()
	store, err := db.Open(ctx, path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	for i := range gigabyteRuns {
		file := filepath.Join(dir, gigabyteRunName(i))
		if err := writeRunFile(file, benchSeed+uint64(i), i, gigabyteTasks, gigabyteTrials); err != nil {
			store.Close()
			return err
		}
		if err := ingestFile(ctx, store, file); err != nil {
			store.Close()
			return err
		}
		if err := os.Remove(file); err != nil {
			store.Close()
			return err
		}
	}
	return store.Close()
}

func ingestFile(ctx context.Context, store *db.DB, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	meta := ingest.MetadataFromFileName(filepath.Base(path))
	run := emobench.Run{Name: strings.TrimSuffix(filepath.Base(path), ".json"), SourceFormat: ingest.FormatTauBench, SourcePath: path,
		AgentModel: meta.Model, Domain: meta.Domain, Condition: meta.Condition}
	_, err = store.IngestRun(ctx, run, ingest.TauBench(bufio.NewReaderSize(f, 256<<10)), db.DuplicateRefuse)
	if err != nil {
		return fmt.Errorf("ingest %s: %w", path, err)
	}
	return nil
}

// gigabyteRunName is run i's file name: model i/2, with emotions for even
// i and without for odd, as the real runs are named.
func gigabyteRunName(i int) string {
	cond := "with-emotions"
	if i%2 == 1 {
		cond = "without-emotions"
	}
	return fmt.Sprintf("model%03d-retail-%s.json", i/2, cond)
}

// writeGigabyteFiles writes the gigabyteRuns files of the ~1 GB database
// into dir and returns their paths.
func writeGigabyteFiles(dir string) ([]string, error) {
	var paths []string
	for i := range gigabyteRuns {
		path := filepath.Join(dir, gigabyteRunName(i))
		if err := writeRunFile(path, benchSeed+uint64(i), i, gigabyteTasks, gigabyteTrials); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// writeRunFile writes the τ-bench result file of run number runIndex:
// tasks × trials records (task-major, as τ-bench writes them) shaped like
// the real ones in ../shared/realruns (realisticRecord), about 5 MB for
// 50 × 4. The tasks are the same in every file of one condition; each run
// has its own pass rate per task.
func writeRunFile(path string, seed uint64, runIndex, tasks, trials int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	shared := rand.New(rand.NewPCG(benchSeed, uint64(3+runIndex%2))) // tasks: one set per condition
	system := "# Retail agent policy\n\n" + synthText(shared, 1030)  // ≈ 5.7 KB
	taskList := make([]*synthTask, tasks)
	for i := range taskList {
		e := syntheticEmotion(shared)
		taskList[i] = &synthTask{
			UserID:      fmt.Sprintf("user.%d@example.com", i),
			Instruction: synthText(shared, 80), Outputs: []string{},
			Actions: []synthAction{{Name: synthTools[shared.IntN(len(synthTools))],
				Kwargs: map[string]string{"order_id": fmt.Sprintf("#W%07d", shared.IntN(1e7)), "reason": "no longer needed"}}},
		}
		if runIndex%2 == 0 {
			taskList[i].Instruction += "\n\nEmotion instruction: " + synthText(shared, 30)
			taskList[i].EmotionFamily, taskList[i].EmotionLeaf = e.Family, e.Leaf
			taskList[i].Politeness, taskList[i].Urgency, taskList[i].Trust = e.Politeness, e.Urgency, e.Trust
		}
	}
	r := rand.New(rand.NewPCG(seed, 5))
	if _, err := w.WriteString("[\n"); err != nil {
		return err
	}
	for task := range tasks {
		passRate := r.Float64()
		for trial := range trials {
			rec := realisticRecord(r, task, trial, taskList[task], system, passRate)
			data, err := json.MarshalIndent(rec, "  ", "  ")
			if err != nil {
				return err
			}
			if task > 0 || trial > 0 {
				w.WriteString(",\n")
			}
			w.WriteString("  ")
			if _, err := w.Write(data); err != nil {
				return err
			}
		}
	}
	if _, err := w.WriteString("\n]\n"); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// realisticRecord is one τ-bench record sized like those of
// ../shared/realruns/gpt-4.1-retail.json: a 5.7 KB system prompt, 9 user
// messages (150 bytes on average), 16 assistant ones (7 tool calls, 9
// replies of about 330 bytes) and 7 tool results (900 bytes): about 25 KB
// as written. It passes with probability passRate; one in ten of the rest
// is abandoned (reward -1).
func realisticRecord(r *rand.Rand, task, trial int, t *synthTask, system string, passRate float64) synthRecord {
	rec := synthRecord{TaskID: task, Trial: trial, Info: synthInfo{Task: t, Source: "user", UserCost: r.Float64() / 100}}
	str := func(s string) *string { return &s }
	rec.Traj = append(rec.Traj, synthMessage{Role: "system", Content: str(system)})
	for turn := range 9 {
		rec.Traj = append(rec.Traj, synthMessage{Role: "user", Content: str(synthText(r, 15+r.IntN(20)))})
		if turn < 7 {
			tool := synthTools[r.IntN(len(synthTools))]
			id := fmt.Sprintf("call_%024x", r.Uint64())
			args, _ := json.Marshal(map[string]string{"order_id": fmt.Sprintf("#W%07d", r.IntN(1e7))})
			rec.Traj = append(rec.Traj,
				synthMessage{Role: "assistant", ToolCalls: []synthToolCall{{
					Function: synthFunction{Name: tool, Arguments: string(args)}, ID: id, Type: "function",
				}}},
				synthMessage{Role: "tool", Name: tool, ToolCallID: id,
					Content: str(fmt.Sprintf(`{"order_id": "#W%07d", "status": "delivered", "items": %q}`, r.IntN(1e7), synthText(r, 120+r.IntN(60))))},
			)
		}
		rec.Traj = append(rec.Traj, synthMessage{Role: "assistant", Content: str(synthText(r, 60+r.IntN(40)))})
	}
	ri := &synthRewardInfo{Info: map[string]any{"r_actions": 0.0, "gt_data_hash": fmt.Sprintf("%016x", r.Uint64())}, Actions: t.Actions}
	switch u := r.Float64(); {
	case u < passRate:
		rec.Reward, ri.Reward = 1, 1
	case u > passRate+0.9*(1-passRate):
		rec.Reward, ri.Reward = -1, -1
		ri.Info = map[string]any{"reason": "user_abandoned"}
		rec.Traj[len(rec.Traj)-2].Content = str("Forget it. ###UNSATISFIED###")
	}
	rec.Info.RewardInfo = ri
	return rec
}

// Environment of TestPasskCPUVersusPython.
const (
	envBenchPython   = "EMOBENCH_BENCH_PYTHON"   // "1" runs the comparison
	envBenchBaseline = "EMOBENCH_BENCH_BASELINE" // optional: an older emobench binary to measure too
	refPasskScript   = "../../../shared/bench/ref_passk.py"
)

// TestPasskCPUVersusPython writes the 240 files of the ~1 GB database
// (about 1.2 GB) into a temp dir, ingests them with the built binary, and
// logs the CPU time (user+sys of the child process) of
// `python3 ref_passk.py FILES...` and of `emobench stats passk`, for all
// runs and for one (--run), and their ratio. With EMOBENCH_BENCH_BASELINE
// naming an older emobench binary (schema 8), the files are ingested with
// it, its stats passk is measured, and the database is then migrated.
// Run with:
//
//	EMOBENCH_BENCH_PYTHON=1 go test ./cmd/emobench -run PasskCPUVersusPython -v -timeout 60m
func TestPasskCPUVersusPython(t *testing.T) {
	if os.Getenv(envBenchPython) != "1" {
		t.Skipf("set %s=1 to compare with %s (writes 1.2 GB and builds a 1 GB database)", envBenchPython, refPasskScript)
	}
	if _, err := os.Stat(refPasskScript); err != nil {
		t.Skipf("no reference script: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "emobench")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files, err := writeGigabyteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
	}
	dbPath := filepath.Join(dir, "runs.db")
	ingester := bin
	baseline := os.Getenv(envBenchBaseline)
	if baseline != "" {
		ingester = baseline
	}
	ingestCPU := childCPU(t, ingester, append([]string{"--db", dbPath, "ingest"}, files...)...)
	st, err := os.Stat(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %.0f MB of JSON; database %.0f MB; ingest CPU %v", len(files), float64(size)/1e6, float64(st.Size())/1e6, ingestCPU)

	python := childCPU(t, "python3", append([]string{refPasskScript}, files...)...)
	t.Logf("python3 ref_passk.py (all files): CPU %v", python)
	oneFile := childCPU(t, "python3", refPasskScript, files[gigabyteRuns/2])
	t.Logf("python3 ref_passk.py (one file): CPU %v", oneFile)
	oneRun := strings.TrimSuffix(filepath.Base(files[gigabyteRuns/2]), ".json")
	if baseline != "" {
		all := minChildCPU(t, 5, baseline, "--db", dbPath, "stats", "passk")
		one := minChildCPU(t, 5, baseline, "--db", dbPath, "stats", "passk", "--run", oneRun)
		t.Logf("baseline stats passk: all runs CPU %v (python/emobench %.0fx), one run CPU %v", all, ratio(python, all), one)
		t.Logf("migrate to schema %d: CPU %v", db.SchemaVersion(), childCPU(t, bin, "--db", dbPath, "migrate"))
	}
	all := minChildCPU(t, 5, bin, "--db", dbPath, "stats", "passk")
	one := minChildCPU(t, 5, bin, "--db", dbPath, "stats", "passk", "--run", oneRun)
	t.Logf("emobench stats passk: all runs CPU %v (python/emobench %.0fx); one run CPU %v (one-file python/emobench %.0fx)",
		all, ratio(python, all), one, ratio(oneFile, one))
	// The floor under both: starting the process (runtime and package
	// init, paging the binary in) and printing the version.
	t.Logf("emobench --version: CPU %v", minChildCPU(t, 5, bin, "--version"))
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// childCPU runs name with args and returns the user+sys CPU time it used.
func childCPU(t *testing.T, name string, args ...string) time.Duration {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args[:min(len(args), 6)], " "), err, stderr.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this platform")
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// minChildCPU is the least childCPU of n runs: other processes only add.
func minChildCPU(t *testing.T, n int, name string, args ...string) time.Duration {
	t.Helper()
	var times []time.Duration
	for range n {
		times = append(times, childCPU(t, name, args...))
	}
	return slices.Min(times)
}
