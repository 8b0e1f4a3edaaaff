package tracer

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/emobench/emobench"
)

// WriteText writes what Generate made, as tracer generate prints it: kept
// and rejected counts (each reason with its first example), the kind mix,
// gold writes per task, the walks at the nearest length and the leakage
// report (at most 10 leaks named). Errors are w's.
func (g *Generated) WriteText(w io.Writer) error {
	var b strings.Builder
	rejected := 0
	for _, n := range g.Rejected {
		rejected += n
	}
	fmt.Fprintf(&b, "kept %d tasks of %d candidates; rejected %d\n", len(g.Tasks), g.Candidates, rejected)
	for _, r := range slices.Sorted(maps.Keys(g.Rejected)) {
		fmt.Fprintf(&b, "  rejected %-26s %d  (e.g. %s)\n", r, g.Rejected[r], g.Examples[r])
	}
	if n := float64(len(g.Tasks)); n > 0 {
		var mix []string
		for _, k := range []string{KindWrite, KindRead, KindRefusal, KindTransfer} {
			mix = append(mix, fmt.Sprintf("%s %d (%.0f%%)", k, g.Kinds[k], 100*float64(g.Kinds[k])/n))
		}
		fmt.Fprintf(&b, "kinds: %s\n", strings.Join(mix, ", "))
		writes, multi := 0, 0
		for _, w := range g.Writes {
			writes += w
			if w >= 2 {
				multi++
			}
		}
		fmt.Fprintf(&b, "writes per task: %.2f on average; %d tasks (%.0f%%) with two or more\n", float64(writes)/n, multi, 100*float64(multi)/n)
	}
	if g.WalkFallbacks > 0 {
		fmt.Fprintf(&b, "walks at the nearest length (no intent of the drawn one): %d\n", g.WalkFallbacks)
	}
	fmt.Fprintf(&b, "leakage: %d train candidates refused for repeating a test task's action set\n", len(g.Leaks))
	for i, l := range g.Leaks {
		if i == 10 {
			fmt.Fprintf(&b, "  ... and %d more\n", len(g.Leaks)-10)
			break
		}
		fmt.Fprintf(&b, "  %s: user %s, intents %s\n", l.TestTaskID, l.UserID, strings.Join(l.Intents, "+"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TestTasks returns the test-split tasks of tasks: what a train split
// excludes (GenerateOptions.Exclude) so that it repeats no test task's
// action set.
func TestTasks(tasks []emobench.TaskSpec) []emobench.TaskSpec {
	var out []emobench.TaskSpec
	for _, t := range tasks {
		if t.Split == emobench.SplitTest {
			out = append(out, t)
		}
	}
	return out
}
