package sim

import (
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// adviceOpening is what the oracle says first when the task wants advice
// (TaskSpec.Advice): each advice's first phrase, which then precedes
// every tool call, its Before tool among them, as policy.md asks of
// emergency advice ("say it before anything else"). "" when the task
// wants none.
func adviceOpening(task *emobench.TaskSpec) string {
	var b strings.Builder
	for _, a := range task.Advice {
		switch {
		case slices.Contains(a.AnyOf, "911"):
			b.WriteString("Before anything else: please call 911 (emergency services) right away, and do not wait for us. ")
		case len(a.AnyOf) > 0:
			b.WriteString("Before anything else: " + a.AnyOf[0] + ". ")
		}
	}
	return b.String()
}
