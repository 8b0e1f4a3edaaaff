package ingest_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/ingest"
)

// readTauNotes reads a τ-bench file completely and returns its notes.
func readTauNotes(t *testing.T, in string) ([]*float64, []*float64, []string) {
	t.Helper()
	var notes []string
	var agent, user []*float64
	for traj, err := range ingest.TauBenchWithNotes(strings.NewReader(in), func(n string) { notes = append(notes, n) }) {
		if err != nil {
			t.Fatal(err)
		}
		agent, user = append(agent, traj.AgentCost), append(user, traj.UserCost)
	}
	return agent, user, notes
}

// A repeated key keeps its last value, as encoding/json and Python do, and
// the note names the record and the key's path.
func TestTauBench_DuplicateKeyNote(t *testing.T) {
	t.Parallel()
	in := `[{"task_id": 0, "reward": 1.0, "info": {"reward_info": {"reward": 1.0}}, "traj": [], "trial": 0},
	 {"task_id": 1, "reward": 0.0, "info": {"task": {"user_id": "a", "user_id": "b"}, "reward_info": {}}, "traj": [], "trial": 0, "reward": 1.0},
	 {"task_id": 2, "reward": 1.0, "info": {"reward_info": {}}, "traj": [{"role": "user", "content": "a \"role\": x", "role": "assistant"}], "trial": 0}]`
	var rewards []float64
	var users []string
	var notes []string
	for traj, err := range ingest.TauBenchWithNotes(strings.NewReader(in), func(n string) { notes = append(notes, n) }) {
		if err != nil {
			t.Fatal(err)
		}
		rewards, users = append(rewards, *traj.Reward), append(users, traj.Task.UserID)
	}
	if got, want := rewards, []float64{1, 1, 1}; !cmp.Equal(got, want) {
		t.Errorf("rewards = %v, want %v (the last value of a repeated key)", got, want)
	}
	if got, want := users[1], "b"; got != want {
		t.Errorf("user_id = %q, want %q", got, want)
	}
	want := []string{
		"record 1: keys info.task.user_id, reward appear more than once: the last value of each is kept",
		"record 2: key traj[0].role appears more than once: the last value is kept",
	}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	// JSON Lines: the same rule.
	lines := `{"task_id": 0, "reward": 0.0, "reward": 1.0, "info": {"reward_info": {}}, "traj": []}` + "\n"
	notes = nil
	for _, err := range ingest.TauBenchWithNotes(strings.NewReader(lines), func(n string) { notes = append(notes, n) }) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"record 0: key reward appears more than once: the last value is kept"}, notes); diff != "" {
		t.Errorf("JSON Lines notes (-want +got):\n%s", diff)
	}
}

// A string cost is read when it spells a number and flagged when it does
// not; it never becomes NULL without a note.
func TestTauBench_StringCostNote(t *testing.T) {
	t.Parallel()
	in := `[{"task_id": 0, "reward": 1.0, "info": {"reward_info": {}, "agent_cost": "0.5", "user_cost": 0.25}, "traj": []},
	 {"task_id": 1, "reward": 1.0, "info": {"reward_info": {}, "agent_cost": "n/a", "user_cost": " 1e-3 "}, "traj": []},
	 {"task_id": 2, "reward": 1.0, "info": {"reward_info": {}, "agent_cost": {"usd": 1}, "user_cost": null}, "traj": []}]`
	agent, user, notes := readTauNotes(t, in)
	str := func(p *float64) string {
		if p == nil {
			return "NULL"
		}
		return fmt.Sprint(*p)
	}
	var got []string
	for i := range agent {
		got = append(got, str(agent[i])+"/"+str(user[i]))
	}
	if diff := cmp.Diff([]string{"0.5/0.25", "NULL/0.001", "NULL/NULL"}, got); diff != "" {
		t.Errorf("agent/user costs (-want +got):\n%s", diff)
	}
	want := []string{
		`record 0: info.agent_cost is the string "0.5": read as 0.5`,
		`record 1: info.agent_cost is the string "n/a", not a number: stored as unknown (NULL)`,
		`record 1: info.user_cost is the string " 1e-3 ": read as 0.001`,
		`record 2: info.agent_cost is an object ({"usd": 1}), not a cost: stored as unknown (NULL)`,
	}
	// info is a map: the order of its keys' notes within a record is not
	// the file's.
	if diff := cmp.Diff(want, sortedWithin(notes)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// sortedWithin sorts notes by their text, which starts with the record.
func sortedWithin(notes []string) []string {
	out := slices.Clone(notes)
	slices.Sort(out)
	return out
}

// Notes beyond the first 20 are counted, not listed.
func TestTauBench_NotesCapped(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("[")
	for i := range 25 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"task_id": %d, "reward": 1, "info": {"reward_info": {}, "agent_cost": "1"}, "traj": []}`, i)
	}
	b.WriteString("]")
	_, _, notes := readTauNotes(t, b.String())
	if got, want := len(notes), 21; got != want {
		t.Fatalf("%d notes, want %d", got, want)
	}
	if got, want := notes[20], "5 more notes not shown"; got != want {
		t.Errorf("last note = %q, want %q", got, want)
	}
}

// τ²-bench simulations get the same notes, as the reader's warnings.
func TestTau2_DuplicateKeyAndStringCostWarnings(t *testing.T) {
	t.Parallel()
	in := `{"info": {}, "tasks": [{"id": "t1"}], "simulations": [
		{"id": "s0", "task_id": "t1", "trial": 0, "agent_cost": "0.5", "user_cost": "free", "reward_info": {"reward": 0.0, "reward": 1.0},
		 "messages": [{"role": "assistant", "content": "hi", "cost": "0.1"}], "termination_reason": "agent_stop"}]}`
	rd, err := ingest.Tau2(bytes.NewReader([]byte(in)))
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := collect(t, rd.Trajectories())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := *trajs[0].AgentCost, 0.5; got != want {
		t.Errorf("agent cost = %v, want %v", got, want)
	}
	if trajs[0].UserCost != nil {
		t.Errorf("user cost = %v, want NULL", *trajs[0].UserCost)
	}
	if got, want := *trajs[0].Messages[0].Usage.Cost, 0.1; got != want {
		t.Errorf("message cost = %v, want %v", got, want)
	}
	if got, want := *trajs[0].Reward, 1.0; got != want {
		t.Errorf("reward = %v, want the last value %v", got, want)
	}
	want := []string{
		`simulation 0: agent_cost is the string "0.5": read as 0.5`,
		`simulation 0: user_cost is the string "free", not a number: stored as unknown (NULL)`,
		`simulation 0: messages[0].cost is the string "0.1": read as 0.1`,
		`simulation 0: key reward_info.reward appears more than once: the last value is kept`,
	}
	if diff := cmp.Diff(want, rd.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// A simulation file of the 1.x directory layout gets the same warnings.
func TestTau2Dir_DuplicateKeyWarning(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"results.json":       {Data: []byte(`{"info": {}, "tasks": [{"id": "t1"}]}`)},
		"simulations/a.json": {Data: []byte(`{"id": "a", "task_id": "t1", "trial": 0, "trial": 1, "termination_reason": "agent_stop", "reward_info": {"reward": 1}, "messages": []}`)},
	}
	rd, err := ingest.Tau2Dir(fsys)
	if err != nil {
		t.Fatal(err)
	}
	trajs, err := collect(t, rd.Trajectories())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := trajs[0].Trial, 1; got != want {
		t.Errorf("trial = %d, want the last value %d", got, want)
	}
	if diff := cmp.Diff([]string{"simulation 0: key trial appears more than once: the last value is kept"}, rd.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// Repeated keys in a Results header and in a submission are named too.
func TestDuplicateKeys_HeaderAndSubmission(t *testing.T) {
	t.Parallel()
	rd, err := ingest.Tau2(strings.NewReader(`{"info": {"agent_info": {"llm": "a", "llm": "b"}}, "tasks": [{"id": "1", "description": "x", "description": "y"}], "simulations": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, rd.Trajectories()); err != nil {
		t.Fatal(err)
	}
	if got, want := rd.Info().AgentModel, "b"; got != want {
		t.Errorf("agent model = %q, want the last value %q", got, want)
	}
	want := []string{
		"keys info.agent_info.llm, tasks[0].description appear more than once: the last value of each is kept",
	}
	if diff := cmp.Diff(want, rd.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	var notes []string
	if _, err := ingest.SubmissionWithNotes(strings.NewReader(`{"model_name": "a", "model_name": "b", "results": {}}`), func(n string) { notes = append(notes, n) }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"key model_name appears more than once: the last value is kept"}, notes); diff != "" {
		t.Errorf("submission notes (-want +got):\n%s", diff)
	}
}

// A record with repeated keys is read as Python reads it, in JSON arrays
// and JSON Lines alike: the last value wins whole (a repeated object is
// replaced, not merged as encoding/json merges into a struct), the raw
// JSON kept holds only that value, and an earlier value of the wrong type
// is no error.
func TestTauBench_DuplicateKeysLastWins(t *testing.T) {
	t.Parallel()
	records := []string{
		`{"task_id": 0, "reward": 1, "info": {"reward_info": {"reward": 1}, "note": "a"}, "info": {"source": "user", "note": {"x": 1, "x": 2}}, "traj": []}`,
		`{"task_id": 1, "reward": 1, "traj": 5, "info": {"reward_info": {"reward": 0, "reward": 1}}, "traj": [{"role": "user", "content": "hi"}]}`,
	}
	for name, in := range map[string]string{
		"array": "[" + strings.Join(records, ",\n") + "]",
		"lines": strings.Join(records, "\n") + "\n",
	} {
		var notes []string
		trajs, err := collect(t, ingest.TauBenchWithNotes(strings.NewReader(in), func(n string) { notes = append(notes, n) }))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := trajs[0]; got.Evaluated || got.RewardInfo != nil || string(got.Extra) != `{"note":{"x":2},"source":"user"}` {
			t.Errorf("%s: record 0: evaluated %v, reward_info %s, extra %s; want the second info alone", name, got.Evaluated, got.RewardInfo, got.Extra)
		}
		if got := trajs[1]; len(got.Messages) != 1 || string(got.RewardInfo) != `{"reward": 1}` {
			t.Errorf("%s: record 1: %d messages, reward_info %s; want 1 and {\"reward\": 1}", name, len(got.Messages), got.RewardInfo)
		}
		want := []string{
			"record 0: keys info, info.note.x appear more than once: the last value of each is kept",
			"record 1: keys info.reward_info.reward, traj appear more than once: the last value of each is kept",
		}
		if diff := cmp.Diff(want, notes); diff != "" {
			t.Errorf("%s: notes (-want +got):\n%s", name, diff)
		}
	}
}
