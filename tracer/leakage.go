package tracer

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// Leak is a train candidate refused because its action set equals a test
// task's: the test task it would leak and the candidate's user and
// intents.
type Leak struct {
	TestTaskID string   `json:"test_task_id"`
	UserID     string   `json:"user_id"`
	Intents    []string `json:"intents"`
}

// ActionSetKey returns the canonical form of an action multiset: each
// action as its name and its arguments' canonical JSON (keys sorted,
// whitespace dropped), sorted, so that two tasks making the same calls in
// any order have the same key. Arguments that are not JSON are taken as
// they are.
func ActionSetKey(actions []emobench.Action) string {
	parts := make([]string, len(actions))
	for i, a := range actions {
		parts[i] = a.Name + " " + canonicalJSON(a.Arguments)
	}
	slices.Sort(parts)
	return strings.Join(parts, "\n")
}

// canonicalJSON re-encodes raw with sorted keys and no spaces; "{}" for
// empty arguments.
func canonicalJSON(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// leakIndex finds the test tasks a candidate's action set equals.
type leakIndex map[string]string // ActionSetKey → test task id

func newLeakIndex(tasks []emobench.TaskSpec) leakIndex {
	idx := leakIndex{}
	for _, t := range tasks {
		key := ActionSetKey(t.Actions)
		if _, ok := idx[key]; !ok {
			idx[key] = t.ID
		}
	}
	return idx
}
