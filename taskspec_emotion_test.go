package emobench_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench"
)

// retailTest000 is retail's embedded task retail-test-000 as it was when
// TaskSpec.EmotionInstruction was added, copied here so that regenerating
// the domain's tasks does not move the pin.
const retailTest000 = `{"id": "retail-test-000", "domain": "retail", "split": "test", "user_id": "hiro_achebe_3498", "instruction": "I want to cancel my order #R4246633 (garden hose, laptop, espresso machine and backpack) because I ordered it by mistake.", "scenario": {"facts": {"first_name": "Hiro", "last_name": "Achebe", "order_id": "#R4246633", "reason": "ordered by mistake", "zip": "97278"}, "requests": [{"text": "Cancel order #R4246633; I ordered it by mistake.", "tools": ["cancel_pending_order"]}]}, "emotion": {"family": "enjoyment", "leaf": "peace", "politeness": "warm", "urgency": "low", "trust": "trusting"}, "actions": [{"name": "find_user_id_by_name_zip", "kwargs": {"first_name": "Hiro", "last_name": "Achebe", "zip": "97278"}}, {"name": "get_order_details", "kwargs": {"order_id": "#R4246633"}}, {"name": "cancel_pending_order", "kwargs": {"order_id": "#R4246633", "reason": "ordered by mistake"}}], "outputs": []}`

// TestTaskSpec_Task_HashWithoutEmotionInstruction pins the hashes of an
// existing embedded task: adding EmotionInstruction (empty here) must not
// move them. The values were computed on main before the field existed.
func TestTaskSpec_Task_HashWithoutEmotionInstruction(t *testing.T) {
	var spec emobench.TaskSpec
	if err := json.Unmarshal([]byte(retailTest000), &spec); err != nil {
		t.Fatal(err)
	}
	task := spec.Task()
	content, pair, err := task.Hashes()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := content, "3e9a39b9b0d5e1220feb38f35b59511d8f59f2ba167d96647974c4e8e6bbc772"; got != want {
		t.Errorf("content hash = %s, want %s", got, want)
	}
	if got, want := pair, "a3e269acee3284c162249cb324b81f0eded83de201868427c1868a017b50a273"; got != want {
		t.Errorf("pair hash = %s, want %s", got, want)
	}
	scenario, _ := json.Marshal(spec.Scenario)
	if got, want := string(task.Scenario), string(scenario); got != want {
		t.Errorf("stored scenario = %s, want the scenario alone %s", got, want)
	}
}

// A task's emotion instruction is what its user is told: two tasks that
// differ only in it have different content hashes and pair up as one task.
func TestTaskSpec_Task_EmotionInstruction(t *testing.T) {
	var spec emobench.TaskSpec
	if err := json.Unmarshal([]byte(retailTest000), &spec); err != nil {
		t.Fatal(err)
	}
	plain := spec.Task()
	c0, p0, err := plain.Hashes()
	if err != nil {
		t.Fatal(err)
	}
	var contents []string
	for _, text := range []string{"You feel at peace.", "You feel relief."} {
		spec.EmotionInstruction = text
		task := spec.Task()
		if !strings.Contains(string(task.Scenario), `"emotion_instruction":"`+text+`"`) {
			t.Errorf("stored scenario %s lacks the emotion instruction %q", task.Scenario, text)
		}
		var back emobench.Scenario
		if err := json.Unmarshal(task.Scenario, &back); err != nil || len(back.Facts) != len(spec.Scenario.Facts) || len(back.Requests) != 1 {
			t.Errorf("stored scenario %s does not decode as the scenario (%v)", task.Scenario, err)
		}
		c, p, err := task.Hashes()
		if err != nil {
			t.Fatal(err)
		}
		if c == c0 {
			t.Errorf("content hash with emotion instruction %q = the hash without one", text)
		}
		if p != p0 {
			t.Errorf("pair hash with emotion instruction %q = %s, want %s (the plain task's)", text, p, p0)
		}
		contents = append(contents, c)
	}
	if contents[0] == contents[1] {
		t.Error("tasks differing only in their emotion instruction share a content hash")
	}
	bad := plain
	bad.Scenario = json.RawMessage(`{"emotion_instruction": 3}`)
	if _, err := bad.ContentSHA256(); err == nil || !strings.Contains(err.Error(), "retail-test-000") {
		t.Errorf("malformed emotion instruction: err %v, want one naming the task", err)
	}
}

func TestTaskSpec_Validate_ErrEmotion(t *testing.T) {
	var base emobench.TaskSpec
	if err := json.Unmarshal([]byte(retailTest000), &base); err != nil {
		t.Fatal(err)
	}
	if err := base.Validate(); err != nil {
		t.Fatalf("Validate = %v, want nil", err)
	}
	none := base
	none.Emotion = emobench.EmotionProfile{}
	if err := none.Validate(); err != nil {
		t.Errorf("Validate of a task without emotion = %v, want nil", err)
	}
	for _, c := range []struct {
		edit func(*emobench.EmotionProfile)
		want string
	}{
		{func(e *emobench.EmotionProfile) { e.Family = "bogus" }, `task retail-test-000: emotion.family "bogus"`},
		{func(e *emobench.EmotionProfile) { e.Leaf = "bogus" }, `task retail-test-000: emotion.leaf "bogus" is not a leaf of family enjoyment`},
		{func(e *emobench.EmotionProfile) { e.Leaf = "panic" }, `emotion.leaf "panic" is not a leaf of family enjoyment`},
		{func(e *emobench.EmotionProfile) { e.Family, e.Leaf = "", "bogus" }, `emotion.leaf "bogus" is not a Taxonomy leaf`},
		{func(e *emobench.EmotionProfile) { e.Politeness = "bogus" }, `emotion.politeness "bogus" is not one of warm, neutral, cold`},
		{func(e *emobench.EmotionProfile) { e.Urgency = "bogus" }, `emotion.urgency "bogus"`},
		{func(e *emobench.EmotionProfile) { e.Trust = "bogus" }, `emotion.trust "bogus"`},
	} {
		task := base
		c.edit(&task.Emotion)
		if err := task.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want %q", task.Emotion, err, c.want)
		}
	}
}
