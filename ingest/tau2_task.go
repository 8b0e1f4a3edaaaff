package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/redact"
)

// tau2Task is a τ²-bench Task. Its content fields vary between versions and
// are read leniently: a field of an unexpected shape is left out.
type tau2Task struct {
	ID                 json.RawMessage `json:"id"`
	Description        json.RawMessage `json:"description"`
	UserScenario       json.RawMessage `json:"user_scenario"`
	Ticket             json.RawMessage `json:"ticket"`
	EvaluationCriteria json.RawMessage `json:"evaluation_criteria"`
	Emobench           json.RawMessage `json:"emobench"` // emobench's export: {user_id, emotion, instruction}
}

// tau2Action is a ground-truth action as stored: τ-bench's {name, kwargs},
// with requestor kept when the user (not the agent) makes the call, as in
// τ²-bench's telecom domain.
type tau2Action struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"kwargs"`
	Requestor string          `json:"requestor,omitempty"`
}

// streamTasks reads the value of the key tasks from dec one task at a
// time, so that each task, not the whole array, is held within the
// decoder's record limit. A repeated tasks key replaces the tasks read
// before it; keys repeated in a task are noted (tasks[3].user_scenario)
// and their last values kept.
func (t *Tau2Reader) streamTasks(dec *json.Decoder) error {
	clear(t.tasks) // a repeated tasks key: the last one lists the run's tasks
	t.info.Tasks = 0
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("tasks (byte %d): %w", dec.InputOffset(), explainJSON(err, "tasks"))
	}
	switch tok {
	case nil:
		return nil
	case json.Delim('['):
	case json.Delim('{'):
		return errors.New("tasks is an object, want an array")
	default:
		return fmt.Errorf("tasks is %s, want an array", describeToken(tok))
	}
	for i := 0; dec.More(); i++ {
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return fmt.Errorf("tasks[%d] (byte %d): %w", i, dec.InputOffset(), explainJSON(err, "task"))
		}
		item = t.headerLastWins(fmt.Sprintf("tasks[%d]", i), item)
		task, err := tau2TaskFrom(item)
		if err != nil {
			return fmt.Errorf("tasks[%d]: %w", i, err)
		}
		t.tasks[task.Key] = task
		t.info.Tasks++
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("tasks (byte %d): %w", dec.InputOffset(), explainJSON(err, "tasks"))
	}
	return nil
}

func tau2TaskFrom(raw json.RawMessage) (*emobench.Task, error) {
	var tt tau2Task
	if isNull(raw) || raw[0] != '{' {
		return nil, fmt.Errorf("task is %s, want an object", jsonKind(raw))
	}
	if err := json.Unmarshal(raw, &tt); err != nil {
		return nil, explainJSON(err, "task")
	}
	key, err := tau2Key(tt.ID, "id")
	if err != nil {
		return nil, err
	}
	task := &emobench.Task{Key: key}
	task.Instruction = scenarioText(tt.UserScenario)
	if task.Instruction == "" {
		task.Instruction = descriptionText(tt.Description)
	}
	if task.Instruction == "" {
		task.Instruction = stringOf(tt.Ticket)
	}
	// emobench's export writes the instruction itself when user_scenario
	// does not render back to it (a τ-bench instruction).
	if v := jsonPath(tt.Emobench, "instruction"); !isNull(v) && v[0] == '"' {
		task.Instruction = stringOf(v)
	}
	// Redacted before the task is hashed, so re-ingest finds the same row.
	task.Instruction = redact.Content(task.Instruction)
	criteria := tt.EvaluationCriteria
	task.Actions = tau2Actions(jsonPath(criteria, "actions"))
	outputs := append(stringList(jsonPath(criteria, "communicate_info")), stringList(jsonPath(criteria, "nl_assertions"))...)
	task.Outputs = marshalText(outputs)
	task.UserID, task.Emotion = emobenchTask(tt.Emobench)
	return task, nil
}

// emobenchTask reads the task fields τ²-bench has no place for, which
// emobench's export writes as {user_id, emotion: {family, leaf, politeness,
// urgency, trust}}; fields of another shape are left empty.
func emobenchTask(raw json.RawMessage) (string, emobench.EmotionProfile) {
	var e emobench.EmotionProfile
	emotion := jsonPath(raw, "emotion")
	for _, f := range []struct {
		key string
		dst *string
	}{{"family", &e.Family}, {"leaf", &e.Leaf}, {"politeness", &e.Politeness}, {"urgency", &e.Urgency}, {"trust", &e.Trust}} {
		*f.dst = stringOf(jsonPath(emotion, f.key))
	}
	return stringOf(jsonPath(raw, "user_id")), e
}

// scenarioText renders a user_scenario as τ²-bench's UserScenario.__str__
// does: the text its user simulator is given.
func scenarioText(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	if raw[0] == '"' {
		return stringOf(raw)
	}
	persona, instructions := jsonPath(raw, "persona"), jsonPath(raw, "instructions")
	if isNull(persona) && isNull(instructions) {
		return ""
	}
	var lines []string
	if !isNull(persona) {
		lines = append(lines, "Persona:", pyIndent(textOrJSON(persona), "\t"))
	}
	lines = append(lines, "Instructions:", pyIndent(instructionsText(instructions), "\t"))
	return strings.Join(lines, "\n")
}

// instructionsText renders instructions given as a string or as τ²-bench's
// StructuredUserInstructions.
func instructionsText(raw json.RawMessage) string {
	if isNull(raw) || raw[0] != '{' {
		return textOrJSON(raw)
	}
	field := func(k string) json.RawMessage { return jsonPath(raw, k) }
	lines := []string{
		"Domain: " + textOrJSON(field("domain")),
		"Reason for call:\n" + pyIndent(textOrJSON(field("reason_for_call")), "\t"),
	}
	if v := field("known_info"); !isNull(v) {
		lines = append(lines, "Known info:\n"+pyIndent(textOrJSON(v), "\t"))
	}
	if v := field("unknown_info"); !isNull(v) {
		lines = append(lines, "Unknown info:\n"+pyIndent(textOrJSON(v), "\t"))
	}
	lines = append(lines, "Task instructions:\n"+pyIndent(textOrJSON(field("task_instructions")), "\t"))
	return strings.Join(lines, "\n")
}

// descriptionText renders a description given as a string or as
// τ²-bench's Description {purpose, relevant_policies, notes}.
func descriptionText(raw json.RawMessage) string {
	if isNull(raw) || raw[0] != '{' {
		return stringOf(raw)
	}
	var lines []string
	for _, f := range []struct{ key, label string }{
		{"purpose", "Purpose"}, {"relevant_policies", "Relevant Policies"}, {"notes", "Notes"},
	} {
		if v := jsonPath(raw, f.key); !isNull(v) {
			lines = append(lines, f.label+": "+textOrJSON(v))
		}
	}
	return strings.Join(lines, "\n")
}

// textOrJSON returns a JSON string's text, "" for null, and other values as
// JSON text.
func textOrJSON(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	if raw[0] == '"' {
		return stringOf(raw)
	}
	return string(raw)
}

// pyIndent prefixes every line of s that is not blank, as Python's
// textwrap.indent does.
func pyIndent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}

// tau2Actions converts evaluation_criteria.actions ({action_id, requestor,
// name, arguments, ...}) into [{name, kwargs}]; entries that are not
// objects are left out.
func tau2Actions(raw json.RawMessage) json.RawMessage {
	var items []json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &items) != nil {
		return json.RawMessage("[]")
	}
	actions := make([]tau2Action, 0, len(items))
	for _, item := range items {
		if isNull(item) || item[0] != '{' {
			continue
		}
		a := tau2Action{Name: stringOf(jsonPath(item, "name")), Arguments: jsonPath(item, "arguments")}
		if isNull(a.Arguments) {
			a.Arguments = json.RawMessage("{}")
		}
		if r := stringOf(jsonPath(item, "requestor")); r != "" && r != "assistant" {
			a.Requestor = r
		}
		actions = append(actions, a)
	}
	return marshalText(actions)
}

// stringList returns the strings of a JSON array, skipping other values.
func stringList(raw json.RawMessage) []string {
	var items []json.RawMessage
	if isNull(raw) || json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []string
	for _, item := range items {
		if !isNull(item) && item[0] == '"' {
			out = append(out, stringOf(item))
		}
	}
	return out
}

// marshalText encodes v as compact JSON without escaping <, > and &, so
// stored text reads as written. A nil slice encodes as [].
func marshalText(v any) json.RawMessage {
	if s, ok := v.([]string); ok && s == nil {
		return json.RawMessage("[]")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("[]")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
