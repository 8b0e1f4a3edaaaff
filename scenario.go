package emobench

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Split says what a task is for: evaluation or training data.
type Split string

// Task splits.
const (
	SplitTest  Split = "test"
	SplitTrain Split = "train"
)

// Request is one thing the user wants done, in the order the user asks.
// Tools names the tool calls whose success completes it; the scripted user
// simulator watches the transcript for them.
type Request struct {
	Text  string   `json:"text"`
	Tools []string `json:"tools,omitempty"`
}

// Scenario is what the simulated user knows and wants: facts it may reveal
// (key → value, revealed only when asked) and its requests in order.
type Scenario struct {
	Facts    map[string]string `json:"facts"`
	Requests []Request         `json:"requests"`
}

// TaskSpec is a native task as domains embed it and Tracer writes it (one
// JSON object per task). Actions are the ground truth replayed by the
// evaluator; Outputs are strings the agent must tell the user; Forbidden
// are the write calls the policy forbids in this task (a call counts when
// it matches the entry's CompareArgs, or when nil the ids the entry names,
// names ending in _id or _ids, else all it names; no arguments: any call
// of that tool; see sim's matchingCalls for how values compare);
// NLAssertions are statements about the conversation a judge decides;
// RewardBasis lists the check kinds that gate the reward (nil: the
// evaluator's default, see sim.RewardBasis). Intents and Generator record
// how Tracer made the task: the catalog intents it combines, in order,
// and the generator's name, version and seed (both absent from hand-made
// tasks).
type TaskSpec struct {
	ID          string         `json:"id"`
	Domain      string         `json:"domain"`
	Split       Split          `json:"split"`
	UserID      string         `json:"user_id"`
	Instruction string         `json:"instruction"`
	Scenario    Scenario       `json:"scenario"`
	Emotion     EmotionProfile `json:"emotion"`
	Actions     []Action       `json:"actions"`
	Outputs     []string       `json:"outputs"`
	// Forbidden, NLAssertions and RewardBasis are left out of the stored
	// Task and its content hash, on purpose. The hash addresses the task
	// row, so it must be recomputable from what the row and every export
	// carry: the tasks table has no column for them, and an exported run
	// read back (τ-bench, τ²-bench, jsonl) would get another hash and stop
	// pairing with its original. What they change is how trajectories are
	// scored, and each trajectory's reward_info records them (reward_basis,
	// forbidden_checks[].action, nl_assertions), so a trial can be
	// re-scored without the task. Tasks differing only in them would share
	// a row; a task builder that changes them must change the task's id
	// (Key, which is hashed), and the domains' tests check that no two
	// embedded tasks share a content hash.
	Forbidden    []Action    `json:"forbidden,omitempty"`
	NLAssertions []string    `json:"nl_assertions,omitempty"`
	RewardBasis  []CheckKind `json:"reward_basis,omitempty"`
	// Intents and Generator are left out of the stored Task and its
	// content hash too: they say where the task came from, not what it is.
	Intents   []string       `json:"intents,omitempty"`
	Generator *GeneratorInfo `json:"generator,omitempty"`
	// EmotionInstruction is the emotion text the LLM user simulator is
	// told under the with-emotions condition, verbatim (a generator renders
	// it from Emotion with sim.RenderEmotion); "" renders it from Emotion
	// at run time. When set it is part of what the user is told, so the
	// stored Task keeps it in its Scenario JSON and in the content hash.
	EmotionInstruction string `json:"emotion_instruction,omitempty"`
	// Traits and Advice are left out of the stored Task and its content
	// hash, as Forbidden is. Traits say what makes the task harder than a
	// plain request (TraitConditional, TraitFindable), as its grounders
	// declared them; Advice is what the agent must tell the user, checked
	// by the evaluator (emergency advice before a transfer).
	Traits []string `json:"traits,omitempty"`
	Advice []Advice `json:"advice,omitempty"`
}

// Task traits (TaskSpec.Traits).
const (
	// TraitConditional: the user states a condition the right action
	// turns on ("if the refund is under $50, cancel it; otherwise keep
	// it"), and the data decides it.
	TraitConditional = "conditional"
	// TraitFindable: the user does not know an id the task needs (an
	// order, a reservation, a plan) and describes it as a customer would;
	// the agent must find it.
	TraitFindable = "findable"
)

// Advice is something the agent must tell the user, such as to call 911
// when a patient reports warning signs, checked offline by phrase and
// with a judge as an NL assertion.
type Advice struct {
	// Before is the tool whose first call the advice must precede
	// (typically the transfer tool); "" means anywhere in the
	// conversation.
	Before string `json:"before,omitempty"`
	// AnyOf are phrases, any one of which in an agent message counts
	// (case-insensitive, on word boundaries), e.g. ["911", "emergency
	// room", "emergency services"].
	AnyOf []string `json:"any_of"`
	// NLAssertion states the same requirement for a judge.
	NLAssertion string `json:"nl_assertion"`
}

// GeneratorInfo names the generator that made a task and the seed it was
// given: Name "tracer", its Version, and Seed (the same seed and version
// give the same tasks).
type GeneratorInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Seed    uint64 `json:"seed"`
}

// Validate reports the first missing or malformed field of the spec.
func (s *TaskSpec) Validate() error {
	switch {
	case s.ID == "":
		return fmt.Errorf("task without id")
	case s.Domain == "":
		return fmt.Errorf("task %s: no domain", s.ID)
	case s.Split != SplitTest && s.Split != SplitTrain:
		return fmt.Errorf("task %s: split %q is not test or train", s.ID, s.Split)
	case s.Instruction == "":
		return fmt.Errorf("task %s: no instruction", s.ID)
	case len(s.Scenario.Requests) == 0:
		return fmt.Errorf("task %s: scenario has no requests", s.ID)
	}
	for i, a := range s.Actions {
		if a.Name == "" || !json.Valid(orEmptyObject(a.Arguments)) {
			return fmt.Errorf("task %s: action %d: needs a name and JSON arguments", s.ID, i)
		}
	}
	for i, a := range s.Forbidden {
		if a.Name == "" || !json.Valid(orEmptyObject(a.Arguments)) {
			return fmt.Errorf("task %s: forbidden %d: needs a name and JSON arguments", s.ID, i)
		}
	}
	for _, k := range s.RewardBasis {
		if _, err := ParseCheckKind(string(k)); err != nil {
			return fmt.Errorf("task %s: reward_basis: %w", s.ID, err)
		}
	}
	return s.Emotion.validate(s.ID)
}

// validate reports the first emotion field outside Taxonomy ("" is no
// emotion and always valid): a family, a leaf of that family (of any
// family when none is given), a dimension value.
func (e EmotionProfile) validate(task string) error {
	if e.Family != "" {
		f, ok := FindFamily(e.Family)
		if !ok {
			return fmt.Errorf("task %s: emotion.family %q is not a Taxonomy family", task, e.Family)
		}
		if e.Leaf != "" && !slices.Contains(f.Leaves, e.Leaf) {
			return fmt.Errorf("task %s: emotion.leaf %q is not a leaf of family %s (%s)", task, e.Leaf, f.Name, strings.Join(f.Leaves, ", "))
		}
	} else if e.Leaf != "" && !slices.ContainsFunc(Taxonomy.Families, func(f Family) bool { return slices.Contains(f.Leaves, e.Leaf) }) {
		return fmt.Errorf("task %s: emotion.leaf %q is not a Taxonomy leaf", task, e.Leaf)
	}
	for _, d := range []struct{ name, value string }{{"politeness", e.Politeness}, {"urgency", e.Urgency}, {"trust", e.Trust}} {
		if values := Taxonomy.Dimensions[d.name]; d.value != "" && !slices.Contains(values, d.value) {
			return fmt.Errorf("task %s: emotion.%s %q is not one of %s", task, d.name, d.value, strings.Join(values, ", "))
		}
	}
	return nil
}

// Task returns the spec as the storable Task, with actions and outputs as
// JSON. A non-empty EmotionInstruction goes into the Scenario JSON as
// "emotion_instruction" (the tasks table has no column of its own for it),
// where Task.Hashes finds it; without one the Scenario JSON is the
// scenario's alone, as before.
func (s *TaskSpec) Task() Task {
	actions, _ := json.Marshal(s.Actions)
	outputs, _ := json.Marshal(s.Outputs)
	if s.Outputs == nil {
		outputs = []byte("[]")
	}
	scenario, _ := json.Marshal(storedScenario{s.Scenario, s.EmotionInstruction})
	return Task{
		Domain: s.Domain, Key: s.ID, Instruction: s.Instruction, UserID: s.UserID,
		Emotion: s.Emotion, Actions: actions, Outputs: outputs,
		Split: s.Split, Scenario: scenario,
	}
}

// storedScenario is a Task's Scenario JSON: the scenario's fields and,
// when the task has one, its emotion instruction.
type storedScenario struct {
	Scenario
	EmotionInstruction string `json:"emotion_instruction,omitempty"`
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// PublishedResult is one published score from a leaderboard: a model's
// pass^k on a domain, as a 0–1 fraction.
type PublishedResult struct {
	Model          string
	Organization   string
	Domain         string
	K              int
	PassHatK       float64  // 0–1, converted from percent when the source used percent
	Cost           *float64 // USD; nil when not published
	UserSimulator  string
	Date           string
	SourceFile     string
	Modality       string // text or voice, as the source says; empty when not given
	SubmissionType string // standard or custom; empty when not given
	SourceSHA256   string // sha256 of SourceFile, set by the db: one leaderboard file's rows share it
}
