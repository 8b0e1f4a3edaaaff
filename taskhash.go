package emobench

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// ContentSHA256 is the hex sha256 of the task's canonical JSON (domain,
// key, instruction, user, emotion profile, actions, outputs, and the
// emotion instruction its Scenario JSON holds when it holds a non-empty
// one (TaskSpec.EmotionInstruction); object keys sorted; an empty domain
// counts as "unknown", empty actions and outputs as []). A task without an
// emotion instruction hashes as it did before there were any. It is the address under which the db shares tasks between runs
// (tasks.content_sha256). It fails only when Actions or Outputs is not
// JSON, naming the task.
func (t *Task) ContentSHA256() (string, error) {
	content, _, err := t.Hashes()
	return content, err
}

// PairSHA256 is the hex sha256 that pairs a task across conditions: the
// fields of ContentSHA256 without the emotion profile and emotion
// instruction, and the instruction
// with any "Emotion Instruction:" part removed (StripEmotionInstruction).
// Imported τ-Emotion-Bench pairs and native runs pair up by it
// (tasks.pair_sha256). Errors as ContentSHA256.
func (t *Task) PairSHA256() (string, error) {
	_, pair, err := t.Hashes()
	return pair, err
}

// Hashes returns ContentSHA256 and PairSHA256 at once, canonicalizing the
// actions and outputs once.
func (t *Task) Hashes() (content, pair string, err error) {
	actions, err := canonicalJSON(orJSON(t.Actions, "[]"))
	if err != nil {
		return "", "", fmt.Errorf("task %s: actions: %w", t.Key, err)
	}
	outputs, err := canonicalJSON(orJSON(t.Outputs, "[]"))
	if err != nil {
		return "", "", fmt.Errorf("task %s: outputs: %w", t.Key, err)
	}
	domain := t.Domain
	if domain == "" {
		domain = "unknown"
	}
	fields := map[string]any{
		"domain": domain, "key": t.Key, "instruction": t.Instruction,
		"user_id": t.UserID, "emotion": t.Emotion, "actions": actions, "outputs": outputs,
	}
	emotionInstruction, err := scenarioEmotionInstruction(t.Scenario)
	if err != nil {
		return "", "", fmt.Errorf("task %s: scenario: %w", t.Key, err)
	}
	if emotionInstruction != "" {
		fields["emotion_instruction"] = emotionInstruction
	}
	if content, err = sha256JSON(fields); err != nil {
		return "", "", err
	}
	delete(fields, "emotion")
	delete(fields, "emotion_instruction")
	fields["instruction"] = StripEmotionInstruction(t.Instruction)
	pair, err = sha256JSON(fields)
	return content, pair, err
}

// scenarioEmotionInstruction returns the "emotion_instruction" of a
// Task's Scenario JSON, "" when there is none (imported tasks have no
// scenario; most native ones no instruction, skipped without decoding).
func scenarioEmotionInstruction(scenario json.RawMessage) (string, error) {
	if !bytes.Contains(scenario, []byte(`"emotion_instruction"`)) {
		return "", nil
	}
	var v struct {
		EmotionInstruction string `json:"emotion_instruction"`
	}
	if err := json.Unmarshal(scenario, &v); err != nil {
		return "", err
	}
	return v.EmotionInstruction, nil
}

// StripEmotionInstruction removes τ-Emotion-Bench's "Emotion Instruction:"
// part (matched in any case; it runs to the end of the instruction) and
// the surrounding space.
func StripEmotionInstruction(instruction string) string {
	if i := strings.Index(strings.ToLower(instruction), "emotion instruction:"); i >= 0 {
		instruction = instruction[:i]
	}
	return strings.TrimSpace(instruction)
}

func sha256JSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// canonicalJSON re-encodes raw with sorted object keys and no spaces.
func canonicalJSON(raw json.RawMessage) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func orJSON(raw json.RawMessage, empty string) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(empty)
	}
	return raw
}
