package emobench

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestTaskSpec_TaskLeavesOutGenerator: Intents and Generator say where a
// task came from; the stored Task, and so its content hash, is the same
// with and without them.
func TestTaskSpec_TaskLeavesOutGenerator(t *testing.T) {
	spec := TaskSpec{
		ID: "shop-test-000", Domain: "shop", Split: SplitTest, UserID: "u1", Instruction: "Cancel #W1.",
		Scenario: Scenario{Facts: map[string]string{"order_id": "#W1"}, Requests: []Request{{Text: "Cancel #W1."}}},
		Actions:  []Action{{Name: "cancel", Arguments: json.RawMessage(`{"order_id":"#W1"}`)}},
	}
	plain := spec.Task()
	spec.Intents = []string{"cancel_order"}
	spec.Generator = &GeneratorInfo{Name: "tracer", Version: "1", Seed: 7}
	tagged := spec.Task()
	if !reflect.DeepEqual(plain, tagged) {
		t.Fatalf("Task() changed with Intents and Generator:\n%+v\n%+v", plain, tagged)
	}
	h1, _, err1 := plain.Hashes()
	h2, _, err2 := tagged.Hashes()
	if err1 != nil || err2 != nil || h1 != h2 {
		t.Fatalf("content hash %s vs %s (%v, %v)", h1, h2, err1, err2)
	}
	b, _ := json.Marshal(spec)
	var back TaskSpec
	if err := json.Unmarshal(b, &back); err != nil || back.Generator == nil || back.Generator.Seed != 7 || back.Intents[0] != "cancel_order" {
		t.Fatalf("round trip %+v (%v)", back, err)
	}
	b, _ = json.Marshal(TaskSpec{ID: "x"})
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if _, ok := m["generator"]; ok {
		t.Fatal("an untagged spec encodes a generator")
	}
	if _, ok := m["intents"]; ok {
		t.Fatal("an untagged spec encodes intents")
	}
}
