package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// readTranscripts reads every record of transcript JSON data, stopping at
// the first error.
func readTranscripts(data []byte) ([]ingest.Transcript, error) {
	var out []ingest.Transcript
	for t, err := range ingest.ReadTranscripts(bytes.NewReader(data), 0) {
		if err != nil {
			return out, err
		}
		out = append(out, t)
	}
	return out, nil
}

func TestReadTranscripts_Shapes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file   string
		trials []int
	}{
		{"one.json", []int{0}},
		{"array.json", []int{0, 1}},
		{"lines.jsonl", []int{0, 1}},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "transcript", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if !ingest.IsTranscript(data) {
				t.Fatalf("IsTranscript(%s) = false", c.file)
			}
			got, err := readTranscripts(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.trials) {
				t.Fatalf("%d records, want %d", len(got), len(c.trials))
			}
			first := got[0]
			if g, w := first.Run.AgentModel, "oracle"; g != w {
				t.Errorf("run.agent_model = %q, want %q", g, w)
			}
			if g, w := first.Run.Condition, emobench.ConditionWithEmotions; g != w {
				t.Errorf("run.condition = %q, want %q", g, w)
			}
			tr := first.Trajectory
			if g, w := tr.Task.Key, "airline-test-000"; g != w {
				t.Errorf("task key = %q, want %q", g, w)
			}
			if g, w := tr.TerminationReason, emobench.TerminationUserStop; g != w {
				t.Errorf("termination = %q, want %q", g, w)
			}
			if g, w := len(tr.Messages), 6; g != w {
				t.Fatalf("%d messages, want %d", g, w)
			}
			call := tr.Messages[2].ToolCalls[0]
			if call.Name != "get_flight_status" || call.ID != "c1" || !strings.Contains(string(call.Arguments), `"LK1"`) {
				t.Errorf("tool call = %+v", call)
			}
			if g, w := tr.Messages[3].ToolCallID, "c1"; g != w {
				t.Errorf("tool_call_id = %q, want %q", g, w)
			}
			for i, rec := range got {
				if rec.Trajectory.Trial != c.trials[i] {
					t.Errorf("record %d: trial %d, want %d", i, rec.Trajectory.Trial, c.trials[i])
				}
			}
			if len(got) > 1 && !got[1].Trajectory.Messages[2].ToolCalls[0].ArgumentsMalformed {
				t.Error("record 1's malformed arguments are not marked")
			}
		})
	}
}

func TestReadTranscripts_Errors(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]string{
		"no-key.json":     "record 0: has no task key",
		"bad-role.json":   `record 0: messages[0].role "robot"`,
		"bad-reason.json": `record 0: termination_reason "eaten"`,
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "transcript", file))
		if err != nil {
			t.Fatal(err)
		}
		_, err = readTranscripts(data)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", file, err, want)
		}
	}
	if _, err := readTranscripts(nil); err == nil || !strings.Contains(err.Error(), "no records") {
		t.Errorf("empty input: error %v, want no records", err)
	}
	if ingest.IsTranscript([]byte(`{"simulations": []}`)) || ingest.IsTranscript([]byte(`[{"task_id": 1, "traj": []}]`)) {
		t.Error("IsTranscript claims a τ²-bench or τ-bench file")
	}
}

// FuzzTranscripts feeds ReadTranscripts arbitrary bytes, seeded with
// testdata/transcript. It must not panic, every trajectory must have a task
// key and an emobench termination reason, and nothing may follow an error.
func FuzzTranscripts(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "transcript", "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ingest.IsTranscript(data)
		failed := false
		for rec, err := range ingest.ReadTranscripts(bytes.NewReader(data), 1<<16) {
			if failed {
				t.Fatal("a record after an error")
			}
			if err != nil {
				failed = true
				continue
			}
			tr := rec.Trajectory
			if tr == nil || tr.Task.Key == "" {
				t.Fatalf("record without a task key: %+v", rec)
			}
			if !validReasons[tr.TerminationReason] && tr.TerminationReason != emobench.TerminationUserTransfer && tr.TerminationReason != emobench.TerminationUserOutOfScope {
				t.Fatalf("termination reason %q", tr.TerminationReason)
			}
		}
	})
}
