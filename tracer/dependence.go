package tracer

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/sim"
)

// UserDependence is how much one trajectory leaned on its user, the
// signal `tracer filter` bounds. Every field is a pure function of the
// transcript and the task's scenario and gold actions (Dependence).
type UserDependence struct {
	// NeededFacts are the scenario facts the gold actions use (UsedFacts):
	// the facts the task needs from the user, sorted by key.
	NeededFacts []string
	// UserTurns counts the user's messages, the opening one included.
	UserTurns int
	// UserTurnsPerFact is UserTurns / max(1, len(NeededFacts)): 1 or less
	// means the user spoke about once per fact the task needed.
	UserTurnsPerFact float64
	// FollowUpQuestions counts the agent's turns to the user (assistant
	// messages without tool calls) that ask something, by the rule `stats
	// balance` uses (analysis.IsFollowUp), so the stored tool-call share
	// and the balance statistics agree.
	FollowUpQuestions int
	// QuestionsAlreadyAnswered counts the follow-up questions that ask
	// (sim.AskedFacts) for a fact whose value an earlier user message
	// already held.
	QuestionsAlreadyAnswered int
	// QuestionsToolFindable counts the follow-up questions that ask for a
	// fact whose value a successful tool result of the trajectory holds
	// (case-insensitively), before the question (the agent had it) or
	// after it (a read tool did find it, so it could have been looked up).
	// A tool result is successful unless it starts with "Error".
	QuestionsToolFindable int
	// ToolCalls counts the agent's function calls.
	ToolCalls int
	// ToolCallShare is ToolCalls / (ToolCalls + FollowUpQuestions), in
	// [0, 1]; 0 when both are 0.
	ToolCallShare float64
}

// Dependence computes traj's UserDependence from its messages and its
// task's scenario (facts) and gold actions. It returns false, with no
// error, when the task has no scenario (an imported τ-bench or τ²-bench
// task): dependence is then unknown. A scenario or actions that are not
// the JSON a TaskSpec writes is an error naming the task.
func Dependence(traj *emobench.Trajectory) (UserDependence, bool, error) {
	if len(traj.Task.Scenario) == 0 || string(traj.Task.Scenario) == "null" {
		return UserDependence{}, false, nil
	}
	var scenario emobench.Scenario
	if err := json.Unmarshal(traj.Task.Scenario, &scenario); err != nil {
		return UserDependence{}, false, fmt.Errorf("task %s: scenario: %w", traj.Task.Key, err)
	}
	var actions []emobench.Action
	if len(traj.Task.Actions) > 0 {
		if err := json.Unmarshal(traj.Task.Actions, &actions); err != nil {
			return UserDependence{}, false, fmt.Errorf("task %s: actions: %w", traj.Task.Key, err)
		}
	}
	d := UserDependence{NeededFacts: UsedFacts(scenario.Facts, actions)}
	var findable []string // successful tool results, lower case
	for _, m := range traj.Messages {
		if m.Role == emobench.RoleTool && !isToolError(m.Content) {
			findable = append(findable, strings.ToLower(m.Content))
		}
	}
	var said []string // the user's messages so far
	for _, m := range traj.Messages {
		switch m.Role {
		case emobench.RoleUser:
			d.UserTurns++
			said = append(said, m.Content)
		case emobench.RoleAssistant:
			d.ToolCalls += len(m.ToolCalls)
			if len(m.ToolCalls) > 0 || !analysis.IsFollowUp(m.Content) {
				continue
			}
			d.FollowUpQuestions++
			asked := sim.AskedFacts(m.Content, scenario.Facts)
			if slices.ContainsFunc(asked, func(key string) bool { return anyContains(said, scenario.Facts[key], false) }) {
				d.QuestionsAlreadyAnswered++
			}
			if slices.ContainsFunc(asked, func(key string) bool { return anyContains(findable, scenario.Facts[key], true) }) {
				d.QuestionsToolFindable++
			}
		}
	}
	d.UserTurnsPerFact = float64(d.UserTurns) / float64(max(1, len(d.NeededFacts)))
	if n := d.ToolCalls + d.FollowUpQuestions; n > 0 {
		d.ToolCallShare = float64(d.ToolCalls) / float64(n)
	}
	return d, true, nil
}

// anyContains reports whether some text holds value (not empty); fold
// compares in lower case (texts already are).
func anyContains(texts []string, value string, fold bool) bool {
	if value == "" {
		return false
	}
	if fold {
		value = strings.ToLower(value)
	}
	return slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, value) })
}

// isToolError reports whether a tool result reports an error, as
// emobench.Trajectory.Counts reads it.
func isToolError(content string) bool {
	return len(content) >= 5 && strings.EqualFold(content[:5], "error")
}

// UsedFacts returns the keys of facts (key → value) that the gold actions
// use, sorted: a fact is used when some string argument of an action
// (nested in lists and objects too) matches its value. Values compare in
// lower case with spaces and dashes as underscores, and match when equal,
// when the argument extends the value at an underscore ("paypal" and
// "paypal_2497361", "gift card" and "gift_card_4854459"), or when the
// argument is one of the value's words of at least 3 characters ("my gift
// card (gift_card_9676094)"). A fact the actions address by another value
// (an item's name, given as its id) is not used.
func UsedFacts(facts map[string]string, actions []emobench.Action) []string {
	var args []string
	for _, a := range actions {
		var v any
		if json.Unmarshal(a.Arguments, &v) == nil {
			args = appendStrings(args, v)
		}
	}
	var used []string
	for key, value := range facts {
		v := normalizeValue(value)
		if v == "" {
			continue
		}
		words := strings.FieldsFunc(v, func(r rune) bool { return !isValueRune(r) })
		if slices.ContainsFunc(args, func(arg string) bool {
			return arg == v || strings.HasPrefix(arg, v+"_") || len(arg) >= 3 && slices.Contains(words, arg)
		}) {
			used = append(used, key)
		}
	}
	sort.Strings(used)
	return used
}

// appendStrings appends the normalized string values of a decoded JSON
// value to out.
func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		if n := normalizeValue(v); n != "" {
			out = append(out, n)
		}
	case []any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	case map[string]any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	}
	return out
}

func normalizeValue(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return '_'
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

func isValueRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("_#@.", r)
}
