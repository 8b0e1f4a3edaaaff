package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/ingest"
)

func shapeFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "tau2", "shapes", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A bare JSON array of τ²-bench simulations (no Results wrapper) is told
// from τ-bench's array of records and read as a τ²-bench run.
func TestTau2_BareArray(t *testing.T) {
	t.Parallel()
	data := shapeFile(t, "bare-array.json")
	if got, want := ingest.DetectFormat(bytes.NewReader(data)), ingest.FormatTau2; got != want {
		t.Fatalf("DetectFormat = %s, want %s", got, want)
	}
	rd, err := ingest.Tau2(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := collect(t, rd.Trajectories())
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Key, Reason string
		Reward      float64
		Passed      bool
		Messages    int
	}
	var got []row
	for _, tr := range trajs {
		got = append(got, row{tr.Task.Key, string(tr.TerminationReason), *tr.Reward, tr.Passed(), len(tr.Messages)})
	}
	want := []row{{"3", "user_stop", 1, true, 2}, {"4", "max_steps", 0, false, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trajectories (-want +got):\n%s", diff)
	}
	if !rd.Info().Bare {
		t.Error("Info().Bare = false")
	}
	wantWarn := []string{"a bare array of τ²-bench simulations (no Results wrapper): it lists no tasks, so 2 simulations are stored without instruction, actions or outputs, and it names no model or domain"}
	if diff := cmp.Diff(wantWarn, rd.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// Read as τ-bench records, it says what it is instead of "missing reward".
	_, err = collect(t, ingest.TauBench(bytes.NewReader(data)))
	if want := "record 0 (byte 358): this is a τ²-bench simulation (messages, termination_reason, reward_info), not a τ-bench record: a bare array of τ²-bench simulations reads with --format tau2 (or auto)"; err == nil || err.Error() != want {
		t.Errorf("TauBench: err = %v, want %q", err, want)
	}
}

// An array of τ-bench records, and an array whose first element has keys
// of neither format, stay τ-bench's.
func TestDetectFormat_Arrays(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`[{"task_id": 1, "reward": 1, "info": {}, "traj": []}]`:            ingest.FormatTauBench,
		`[{"task_id": 1, "info": {"reward_info": {}}, "traj": []}]`:        ingest.FormatTauBench,
		`[{"task_id": "a", "reward_info": {"reward": 1}, "messages": []}]`: ingest.FormatTau2,
		`[{"id": "s", "task_id": "a", "termination_reason": "agent_stop"`:  ingest.FormatTau2, // decided before the end
		`[{"task_id": 1}]`: ingest.FormatTauBench,
		`[1, 2]`:           ingest.FormatTauBench,
		`[]`:               ingest.FormatTauBench,
	} {
		if got := ingest.DetectFormat(strings.NewReader(in)); got != want {
			t.Errorf("DetectFormat(%s) = %s, want %s", in, got, want)
		}
	}
}

// A wrapper's own model, domain and agent name the run when info does not.
func TestTau2_WrapperFields(t *testing.T) {
	t.Parallel()
	rd, err := ingest.Tau2(bytes.NewReader(shapeFile(t, "wrapper-model-domain.json")))
	if err != nil {
		t.Fatal(err)
	}
	info := rd.Info()
	if got, want := [3]string{info.AgentModel, info.Domain, info.AgentImplementation}, [3]string{"qwen3-32b", "airline", "llm_agent"}; got != want {
		t.Errorf("agent model, domain, implementation = %q, want %q", got, want)
	}
	if got, want := string(info.Wrapper), `{"agent":"llm_agent","domain":"airline","model":"qwen3-32b"}`; got != want {
		t.Errorf("Wrapper = %s, want %s", got, want)
	}
	// info wins where it says; an agent object gives llm and
	// implementation; credentials in the wrapper are redacted.
	in := `{"info": {"agent_info": {"llm": "gpt-4.1"}}, "domain": {"name": "telecom"}, "agent": {"llm": "other", "implementation": "llm_agent_gt", "api_key": "sk-LEAK"}, "simulations": []}`
	rd, err = ingest.Tau2(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	info = rd.Info()
	if got, want := [3]string{info.AgentModel, info.Domain, info.AgentImplementation}, [3]string{"gpt-4.1", "telecom", "llm_agent_gt"}; got != want {
		t.Errorf("agent model, domain, implementation = %q, want %q", got, want)
	}
	if strings.Contains(string(info.Wrapper), "sk-LEAK") {
		t.Errorf("Wrapper keeps a credential: %s", info.Wrapper)
	}
}

// A file that lists more tasks than it has simulations says how many have
// none.
func TestTau2_PartialRunWarning(t *testing.T) {
	t.Parallel()
	rd, err := ingest.Tau2(bytes.NewReader(shapeFile(t, "partial-run.json")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, rd.Trajectories()); err != nil {
		t.Fatal(err)
	}
	want := []string{"3 of 5 listed tasks have no simulation (a partial run?); statistics cover the other 2"}
	if diff := cmp.Diff(want, rd.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
