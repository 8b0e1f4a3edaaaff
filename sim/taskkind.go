package sim

import (
	"slices"

	"github.com/emobench/emobench"
)

// Task kinds: what a task asks the agent for, one word each wherever a
// kind is counted or printed (`emobench domains`, its test_shares,
// tracer generate's summary and quotas). KindOf gives them, from the
// most specific.
const (
	// KindMixed: an allowed write and a refusal or a transfer in one
	// task; only where KindOf is asked to tell it apart (the test-split
	// measures of issue 21), else such a task is a refusal or a transfer.
	KindMixed = "mixed"
	// KindRefusal: the task asks for something the policy forbids (a
	// forbidden intent, TaskSpec.Forbidden).
	KindRefusal = "refusal"
	// KindTransfer: the task ends with a hand-off to a human (a transfer
	// intent, a gold call to the transfer tool).
	KindTransfer = "transfer"
	// KindWrite: the task asks for an allowed write.
	KindWrite = "write"
	// KindRead: none of these; reads only.
	KindRead = "read"
)

// TaskAsks says what a task asks for, by kind of request: GoldAsks reads
// it from a task's gold, IntentAsks from its intents.
type TaskAsks struct {
	Refusal  bool // something the policy forbids
	Transfer bool // a hand-off to a human
	Write    bool // an allowed write
}

// KindOf is the one task-kind function: the kind of a task that asks a.
// With mixed, a write with a refusal or a transfer is KindMixed; else (and
// without mixed) a refusal is KindRefusal whatever else it asks, a
// transfer KindTransfer, a write KindWrite, and the rest KindRead.
func KindOf(a TaskAsks, mixed bool) string {
	switch {
	case mixed && a.Write && (a.Refusal || a.Transfer):
		return KindMixed
	case a.Refusal:
		return KindRefusal
	case a.Transfer:
		return KindTransfer
	case a.Write:
		return KindWrite
	}
	return KindRead
}

// GoldAsks reads what task asks from its gold, in a domain whose write
// tools are the keys of writes and whose transfer tool is transfer: a
// refusal when it has forbidden calls, a transfer when a gold call is to
// transfer, a write when a gold call is to a write tool.
func GoldAsks(task *emobench.TaskSpec, writes map[string]bool, transfer string) TaskAsks {
	return TaskAsks{
		Refusal:  len(task.Forbidden) > 0,
		Transfer: slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return a.Name == transfer }),
		Write:    slices.ContainsFunc(task.Actions, func(a emobench.Action) bool { return writes[a.Name] }),
	}
}

// IntentAsks reads what task asks from the kinds its intents
// (TaskSpec.Intents) have in cat: a forbidden intent is a refusal, a
// transfer intent a transfer, a write intent a write. An intent cat does
// not know counts as none.
func IntentAsks(cat *Catalog, task *emobench.TaskSpec) TaskAsks {
	var a TaskAsks
	for _, name := range task.Intents {
		i := slices.IndexFunc(cat.Intents, func(in Intent) bool { return in.Name == name })
		if i < 0 {
			continue
		}
		switch cat.Intents[i].Kind {
		case IntentForbidden:
			a.Refusal = true
		case IntentTransfer:
			a.Transfer = true
		case IntentWrite:
			a.Write = true
		}
	}
	return a
}
