package emobench_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// TestTask_Hashes pins the hash values: they address task rows in every
// stored db, so they must never change. The values were computed by
// db.taskHashes before the hashes moved to the root package.
func TestTask_Hashes(t *testing.T) {
	tests := []struct {
		name          string
		task          emobench.Task
		content, pair string
	}{
		{"full", emobench.Task{
			Domain: "retail", Key: "7", Instruction: "Cancel order #W1. Emotion Instruction: be angry", UserID: "u1",
			Emotion: emobench.EmotionProfile{Family: "anger", Leaf: "frustration", Politeness: "cold"},
			Actions: json.RawMessage(`[{"name":"cancel","kwargs":{"z":1,"a":"x"}}]`), Outputs: json.RawMessage(`["10.5"]`),
		}, "9ee29faa7b1066ca5cf0bf4a5b2c3739f552f2881340873efbd8583c4eca67ec", "d51788e1a5f772c1d62d3fe114b52b0276e9d60efd0ce15b80c35adfd7808b8b"},
		{"empty", emobench.Task{Key: "x"},
			"974b922dda9ccd66251795c96693c4ddc2698a4219dfb108320802439cc45ef9", "452aca05acc6701ab67a195efbc68fd035f09fc9320a12c509c14e3cc7df84a2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content, err := tt.task.ContentSHA256()
			if err != nil {
				t.Fatal(err)
			}
			pair, err := tt.task.PairSHA256()
			if err != nil {
				t.Fatal(err)
			}
			if content != tt.content || pair != tt.pair {
				t.Fatalf("hashes = %s, %s; want %s, %s", content, pair, tt.content, tt.pair)
			}
		})
	}
}

// TestTask_PairSHA256_PairsConditions: the two conditions of one task
// differ in content hash and share the pair hash.
func TestTask_PairSHA256_PairsConditions(t *testing.T) {
	with := emobench.Task{Domain: "retail", Key: "1", Instruction: "Return it.\nEmotion Instruction: you are furious.",
		Emotion: emobench.EmotionProfile{Family: "anger"}}
	without := emobench.Task{Domain: "retail", Key: "1", Instruction: "Return it."}
	c1, p1, err := with.Hashes()
	if err != nil {
		t.Fatal(err)
	}
	c2, p2, err := without.Hashes()
	if err != nil {
		t.Fatal(err)
	}
	if c1 == c2 {
		t.Errorf("content hashes equal across conditions: %s", c1)
	}
	if p1 != p2 {
		t.Errorf("pair hashes %s and %s differ, want equal", p1, p2)
	}
}

func TestTask_Hashes_ErrMalformed(t *testing.T) {
	task := emobench.Task{Key: "t9", Actions: json.RawMessage(`[{`)}
	if _, err := task.ContentSHA256(); err == nil || !strings.Contains(err.Error(), "task t9: actions") {
		t.Fatalf("err = %v, want one naming task t9's actions", err)
	}
}

// TestTaskSpec_HashLeavesOutEvaluationCriteria pins the decision written
// on TaskSpec: Forbidden, NLAssertions and RewardBasis do not change the
// content or pair hash (the row has no column for them and every export
// read back must keep its hash), while the id, actions and outputs do.
func TestTaskSpec_HashLeavesOutEvaluationCriteria(t *testing.T) {
	base := emobench.TaskSpec{ID: "retail-test-040", Domain: "retail", Split: emobench.SplitTest, Instruction: "Cancel #W1.",
		Actions: []emobench.Action{{Name: "get_order_details", Arguments: json.RawMessage(`{"order_id":"#W1"}`)}}}
	hashes := func(s emobench.TaskSpec) string {
		task := s.Task()
		content, pair, err := task.Hashes()
		if err != nil {
			t.Fatal(err)
		}
		return content + " " + pair
	}
	want := hashes(base)
	criteria := base
	criteria.Forbidden = []emobench.Action{{Name: "cancel_pending_order", Arguments: json.RawMessage(`{"order_id":"#W1"}`)}}
	criteria.NLAssertions = []string{"The agent refuses."}
	criteria.RewardBasis = []emobench.CheckKind{emobench.CheckDB, emobench.CheckForbidden}
	if got := hashes(criteria); got != want {
		t.Errorf("hashes with forbidden, nl_assertions and reward_basis = %s, want %s", got, want)
	}
	renamed := base
	renamed.ID = "retail-test-040b"
	if hashes(renamed) == want {
		t.Errorf("hashes of another id equal %s", want)
	}
	withOutput := base
	withOutput.Outputs = []string{"delivered"}
	if hashes(withOutput) == want {
		t.Errorf("hashes with an output equal %s", want)
	}
}
