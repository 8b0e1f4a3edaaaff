package sim

import "github.com/emobench/emobench"

// ForbiddenMatch reports whether call (a gold action, say) is the write
// that the forbidden entry f stands for, as the evaluator's FORBIDDEN check
// counts an agent's call: the same tool, and the arguments f compares
// (its CompareArgs; nil: its _id and _ids arguments, or all when it has
// none) matching by value (a number and its string, a list holding f's
// elements). Tracer's audit uses it so that a gold the evaluator would
// fail is what the audit reports.
func ForbiddenMatch(f, call emobench.Action) bool {
	calls := []agentCall{{call: emobench.ToolCall{Name: call.Name, Arguments: call.Arguments}}}
	return len(matchingCalls(calls, f, true)) > 0
}
