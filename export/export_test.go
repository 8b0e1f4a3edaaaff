package export_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/export"
	"github.com/emobench/emobench/ingest"
)

var update = flag.Bool("update", false, "rewrite testdata/*/*/want.* from the current output")

// loadTrajectories reads testdata/taubench/<name>/input.json: a JSON array
// of emobench.Trajectory, as ingest's golden tests print them.
func loadTrajectories(t *testing.T, name string) []*emobench.Trajectory {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "taubench", name, "input.json"))
	if err != nil {
		t.Fatal(err)
	}
	var trajs []*emobench.Trajectory
	if err := json.Unmarshal(b, &trajs); err != nil {
		t.Fatal(err)
	}
	return trajs
}

func seq(trajs []*emobench.Trajectory) iter.Seq2[*emobench.Trajectory, error] {
	return func(yield func(*emobench.Trajectory, error) bool) {
		for _, t := range trajs {
			if !yield(t, nil) {
				return
			}
		}
	}
}

func testRun(trajs []*emobench.Trajectory) export.Run {
	return export.Run{
		Run: emobench.Run{
			ID: 7, Name: "oracle-retail-with-emotions", SourceFormat: "native", AgentModel: "oracle", AgentStrategy: "oracle",
			UserModel: "scripted", UserStrategy: "scripted", Domain: "retail", Condition: emobench.ConditionWithEmotions,
			CreatedAt: time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC), Config: json.RawMessage(`{"max_steps":30,"max_errors":5,"seed":1}`),
		},
		Trajectories: seq(trajs),
	}
}

func collect(t *testing.T, s iter.Seq2[*emobench.Trajectory, error]) []*emobench.Trajectory {
	t.Helper()
	var out []*emobench.Trajectory
	for traj, err := range s {
		if err != nil {
			t.Fatalf("read back: %v", err)
		}
		out = append(out, traj)
	}
	return out
}

// TestTauBench_Golden writes each testdata/taubench/<case>/input.json as a
// τ-bench file and compares it with want.json.
func TestExportTauBench_Golden(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "taubench", "*"))
	if len(dirs) == 0 {
		t.Fatal("no cases in testdata/taubench")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var got bytes.Buffer
			trajs := loadTrajectories(t, filepath.Base(dir))
			n, err := export.TauBench(&got, export.Run{Trajectories: seq(trajs)})
			if err != nil {
				t.Fatal(err)
			}
			if n != len(trajs) {
				t.Fatalf("wrote %d records, want %d", n, len(trajs))
			}
			wantPath := filepath.Join(dir, "want.json")
			if *update {
				if err := os.WriteFile(wantPath, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatalf("%v (run go test ./export -run ExportTauBench_Golden -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Fatalf("%s mismatch (-want +got):\n%s\nrerun with -update if the change is intended", wantPath, diff)
			}
		})
	}
}

// outcome is what a round trip must keep of a trajectory.
type outcome struct {
	Key       string
	Trial     int
	Reward    *float64
	Reason    emobench.TerminationReason
	Messages  int
	ToolCalls []emobench.ToolCall
	Costs     [2]*float64
}

func outcomes(trajs []*emobench.Trajectory, costs bool) []outcome {
	out := make([]outcome, len(trajs))
	for i, t := range trajs {
		o := outcome{Key: t.Task.Key, Trial: t.Trial, Reward: t.Reward, Reason: t.TerminationReason, Messages: len(t.Messages)}
		if costs {
			o.Costs = [2]*float64{t.AgentCost, t.UserCost}
		}
		for _, m := range t.Messages {
			for _, c := range m.ToolCalls {
				var b bytes.Buffer
				if json.Compact(&b, c.Arguments) == nil {
					c.Arguments = b.Bytes()
				}
				o.ToolCalls = append(o.ToolCalls, c)
			}
		}
		out[i] = o
	}
	return out
}

func TestExportTauBench_RoundTrip(t *testing.T) {
	trajs := loadTrajectories(t, "reasons")
	var buf bytes.Buffer
	if _, err := export.TauBench(&buf, export.Run{Trajectories: seq(trajs)}); err != nil {
		t.Fatal(err)
	}
	back := collect(t, ingest.TauBench(&buf))
	if len(back) != len(trajs) {
		t.Fatalf("read %d trajectories back, want %d", len(back), len(trajs))
	}
	// Every reason survives: those τ-bench can signal as the reader's own
	// derivation, the others through info.emobench_termination_reason.
	for i, b := range back {
		want := trajs[i]
		if b.Task.Instruction != want.Task.Instruction || b.Task.Emotion != want.Task.Emotion || b.Task.UserID != want.Task.UserID {
			t.Errorf("record %d: task %+v, want %+v", i, b.Task, want.Task)
		}
		if b.Passed() != want.Passed() {
			t.Errorf("record %d: passed %v, want %v", i, b.Passed(), want.Passed())
		}
		// τ-bench records that end in error are never evaluated (ingest's
		// rule), nor are those whose reward is null beside a reward_info
		// (#20 item 17); an evaluated max_steps comes back through
		// info.emobench_reward_info.
		if want.TerminationReason != emobench.TerminationError && want.Reward != nil && b.Evaluated != want.Evaluated {
			t.Errorf("record %d (%s): evaluated %v, want %v", i, want.TerminationReason, b.Evaluated, want.Evaluated)
		}
	}
	if diff := cmp.Diff(outcomes(trajs, true), outcomes(back, true)); diff != "" {
		t.Fatalf("round trip changed trajectories (-want +got):\n%s", diff)
	}
}

func TestExportTau2_RoundTrip(t *testing.T) {
	trajs := loadTrajectories(t, "reasons")
	var buf bytes.Buffer
	run := testRun(trajs)
	n, err := export.Tau2(&buf, run)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(trajs) {
		t.Fatalf("wrote %d simulations, want %d", n, len(trajs))
	}
	r, err := ingest.Tau2(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("ingest.Tau2: %v\n%s", err, buf.String())
	}
	info := r.Info()
	if info.AgentModel != "oracle" || info.UserModel != "scripted" || info.Domain != "retail" || info.Tasks != 9 {
		// Ten tasks, one without content (an error record), left unlisted.
		t.Errorf("info %+v, want oracle, scripted, retail, 9 tasks", info)
	}
	back := collect(t, r.Trajectories())
	if len(back) != len(trajs) {
		t.Fatalf("read %d trajectories back, want %d", len(back), len(trajs))
	}
	var sim struct {
		Simulations []struct {
			Info map[string]any `json:"info"`
		} `json:"simulations"`
	}
	if err := json.Unmarshal(buf.Bytes(), &sim); err != nil {
		t.Fatal(err)
	}
	kept := 0
	for i, b := range back {
		if _, ok := sim.Simulations[i].Info["emobench_termination_reason"].(string); ok {
			kept++ // and read back: outcomes compares the reasons
		}
		if want := trajs[i].Task; want.Instruction != "" && (b.Task.UserID != want.UserID || b.Task.Emotion != want.Emotion) {
			t.Errorf("simulation %d: user %q, emotion %+v; want %q, %+v", i, b.Task.UserID, b.Task.Emotion, want.UserID, want.Emotion)
		}
		if b.Passed() != trajs[i].Passed() || b.Task.Instruction == "" && trajs[i].Task.Instruction != "" {
			t.Errorf("simulation %d: passed %v, instruction %q; want %v, %q", i, b.Passed(), b.Task.Instruction, trajs[i].Passed(), trajs[i].Task.Instruction)
		}
		if trajs[i].Evaluated && !bytes.Equal(compact(t, b.Task.Actions), compact(t, trajs[i].Task.Actions)) {
			t.Errorf("simulation %d: actions %s, want %s", i, b.Task.Actions, trajs[i].Task.Actions)
		}
	}
	if kept == 0 {
		t.Error("no simulation kept its reason in info: the reasons fixture should need it")
	}
	// Rewards of unevaluated trajectories live in simulation info, not in
	// reward_info: compare the evaluated ones.
	want, got := outcomes(trajs, true), outcomes(back, true)
	for i := range want {
		if !trajs[i].Evaluated {
			want[i].Reward, got[i].Reward = nil, nil
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("round trip changed trajectories (-want +got):\n%s", diff)
	}
}

func compact(t *testing.T, raw json.RawMessage) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return b
}

func TestExportJSONL(t *testing.T) {
	trajs := loadTrajectories(t, "reasons")
	var buf bytes.Buffer
	for range 2 { // two runs in one file
		if _, err := export.JSONL(&buf, testRun(trajs)); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if got, want := len(lines), 2*len(trajs); got != want {
		t.Fatalf("%d lines, want %d", got, want)
	}
	var rec export.JSONLRecord
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Run.Name != "oracle-retail-with-emotions" || rec.Task.Emotion == nil || rec.Task.Emotion.Family != "anger" ||
		!rec.Passed || rec.TerminationReason != "user_stop" || len(rec.Messages) != 6 || string(rec.Messages[2].ToolCalls[0].Arguments) == "" {
		t.Errorf("first record: %+v", rec)
	}
	if rec.AgentCost != nil || rec.UserCost == nil {
		t.Errorf("costs %v, %v: want null (unknown) and 0.0012", rec.AgentCost, rec.UserCost)
	}
}

func TestExportCSV(t *testing.T) {
	trajs := loadTrajectories(t, "reasons")
	var runs, trajsCSV, msgs bytes.Buffer
	w, err := export.NewTables(export.FormatCSV, []io.Writer{&runs, &trajsCSV, &msgs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteRun(testRun(trajs)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	nMsgs := 0
	for _, tr := range trajs {
		nMsgs += len(tr.Messages)
	}
	for _, c := range []struct {
		name string
		buf  *bytes.Buffer
		rows int
	}{{"runs.csv", &runs, 1}, {"trajectories.csv", &trajsCSV, len(trajs)}, {"messages.csv", &msgs, nMsgs}} {
		records, err := csv.NewReader(c.buf).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := len(records) - 1; got != c.rows {
			t.Errorf("%s: %d rows, want %d", c.name, got, c.rows)
		}
		if c.name == "trajectories.csv" {
			head, first := records[0], records[1]
			row := map[string]string{}
			for i, h := range head {
				row[h] = first[i]
			}
			if row["passed"] != "1" || row["agent_cost"] != "" || row["user_cost"] != "0.0012" || row["emotion_family"] != "anger" || row["n_messages"] != "6" {
				t.Errorf("first trajectory row: %v", row)
			}
		}
	}
}

func TestExportParquet(t *testing.T) {
	trajs := loadTrajectories(t, "reasons")
	files := export.TableFiles(export.FormatParquet)
	bufs := make([]*bytes.Buffer, len(files))
	ws := make([]io.Writer, len(files))
	for i := range files {
		bufs[i] = new(bytes.Buffer)
		ws[i] = bufs[i]
	}
	w, err := export.NewTables(export.FormatParquet, ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{7, 8} { // two runs over the same tasks
		run := testRun(trajs)
		run.ID = id
		if _, err := w.WriteRun(run); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	nMsgs := 0
	for _, tr := range trajs {
		nMsgs += len(tr.Messages)
	}
	wantRows := map[string]int64{"runs.parquet": 2, "tasks.parquet": 10, "trajectories.parquet": int64(2 * len(trajs)), "messages.parquet": int64(2 * nMsgs)}
	// Column types as DuckDB, pandas and Spark see them: physical type,
	// logical type, and whether the column may be NULL.
	type colType struct {
		prefix   string
		optional bool
	}
	wantTypes := map[string]map[string]colType{
		"runs.parquet":         {"run_id": {"INT64", false}, "created_at": {"INT64 TIMESTAMP(isAdjustedToUTC=true,unit=MILLIS)", true}, "config": {"BYTE_ARRAY STRING", true}},
		"tasks.parquet":        {"task_sha256": {"BYTE_ARRAY STRING", false}, "emotion_family": {"BYTE_ARRAY STRING", true}},
		"trajectories.parquet": {"trial": {"INT64", false}, "reward": {"DOUBLE", true}, "agent_cost": {"DOUBLE", true}, "passed": {"INT64", false}, "reward_info": {"BYTE_ARRAY STRING", true}},
		"messages.parquet":     {"idx": {"INT64", false}, "content": {"BYTE_ARRAY STRING", false}, "prompt_tokens": {"INT64", true}, "cost": {"DOUBLE", true}},
	}
	for i, name := range files {
		f, err := parquet.OpenFile(bytes.NewReader(bufs[i].Bytes()), int64(bufs[i].Len()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := f.NumRows(), wantRows[name]; got != want {
			t.Errorf("%s: %d rows, want %d", name, got, want)
		}
		if v, _ := f.Lookup("emobench.schema"); v != export.ParquetSchemaVersion {
			t.Errorf("%s: emobench.schema = %q", name, v)
		}
		for col, want := range wantTypes[name] {
			field, ok := f.Schema().Lookup(col)
			if !ok {
				t.Errorf("%s: no column %s", name, col)
				continue
			}
			if got := columnType(field.Node); !strings.HasPrefix(got, want.prefix) || field.Node.Optional() != want.optional {
				t.Errorf("%s.%s: type %q (optional %v), want %q (optional %v)", name, col, got, field.Node.Optional(), want.prefix, want.optional)
			}
		}
	}
	rows, err := parquet.Read[export.TrajectoryRow](bytes.NewReader(bufs[2].Bytes()), int64(bufs[2].Len()))
	if err != nil {
		t.Fatal(err)
	}
	first := rows[0]
	if first.TrajectoryID != 1 || first.RunID != 7 || first.Passed != 1 || first.AgentCost != nil || first.UserCost == nil || *first.UserCost != 0.0012 {
		t.Errorf("first trajectory row: %+v", first)
	}
	if last := rows[len(rows)-1]; last.TrajectoryID != int64(len(rows)) || last.RunID != 8 || last.Reward != nil {
		t.Errorf("last trajectory row: %+v", last)
	}
}

// columnType describes a leaf column: its physical and logical types.
func columnType(n parquet.Node) string {
	s := n.Type().Kind().String()
	if lt := n.Type().LogicalType(); lt != nil && lt.String() != "" {
		s += " " + lt.String()
	}
	return s
}

// TestExportTauBench_Metadata: every record carries the run's metadata in
// info.emobench, without unknown values.
func TestExportTauBench_Metadata(t *testing.T) {
	trajs := loadTrajectories(t, "reasons")
	run := testRun(trajs)
	run.AgentModel, run.UserModel = "gpt-4.1", "unknown"
	var buf bytes.Buffer
	if _, err := export.TauBench(&buf, run); err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		Info map[string]json.RawMessage `json:"info"`
	}
	if err := json.Unmarshal(buf.Bytes(), &recs); err != nil {
		t.Fatal(err)
	}
	want := `{"model":"gpt-4.1","domain":"retail","condition":"with-emotions","run_name":"oracle-retail-with-emotions"}`
	for i, r := range recs {
		if got := string(r.Info[export.TauBenchMetaKey]); got != want {
			t.Fatalf("record %d: info.emobench = %s, want %s", i, got, want)
		}
	}
	if len(recs) != len(trajs) {
		t.Fatalf("%d records, want %d", len(recs), len(trajs))
	}
}
