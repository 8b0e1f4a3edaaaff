package reports

import (
	"cmp"
	"fmt"
	"math"
	"strconv"

	"github.com/emobench/emobench/analysis"
)

// TracerSelection is a stored Tracer selection as the report shows it:
// its funnel (the counts `tracer filter` stored) and the command that
// prints the same numbers.
type TracerSelection struct {
	Name   string
	Funnel analysis.Funnel
	// Command prints Funnel, e.g. "emobench tracer funnel --selection
	// NAME"; named in both captions.
	Command string
	// GeneratedFromTaskSets says the funnel's generated count is the tasks
	// of the task sets the runs collected (tracer generate and collect):
	// the caption then says "generated tasks". Otherwise (imported runs,
	// runs of a domain's own tasks) it is the distinct tasks collected, and
	// the caption says "tasks".
	GeneratedFromTaskSets bool
}

// KeptFamilies is the emotion-family distribution of a selection's kept
// trajectories: one bar per family (none: the without-emotions
// condition).
type KeptFamilies struct {
	Title   string // section heading; a default when empty
	Caption string // appended to the generated caption
	Command string // prints the same numbers; named in the caption
	Bars    []analysis.FamilyCount
}

const keptFamiliesChartID = "chart-tracer-families"

// tracerSections lays out sel (nil: none) as the report's Tracer charts:
// the funnel of its totals, trajectories from collected (then not
// test-split, when some were excluded) to kept, and the
// kept trajectories per emotion family.
func tracerSections(sel *TracerSelection, in *Input) {
	if sel == nil {
		return
	}
	t := sel.Funnel.Total
	stages := []FunnelStage{{Name: "collected", Count: t.Collected}}
	if t.TestExcluded > 0 {
		stages = append(stages, FunnelStage{Name: "not test-split", Count: t.Collected - t.TestExcluded})
	}
	in.Funnel = Funnel{
		Title: "Tracer funnel: selection " + sel.Name,
		Unit:  "trajectories",
		Stages: append(stages,
			FunnelStage{Name: "passed", Count: t.Passed}, FunnelStage{Name: "not abandoned", Count: t.NotAbandoned},
			FunnelStage{Name: "within dependence", Count: t.WithinDependence}, FunnelStage{Name: "kept", Count: t.Kept}),
		Caption: fmt.Sprintf("The trajectories were collected on %d %s; %d have no known user dependence.", t.Generated, tasksWord(sel.GeneratedFromTaskSets), t.DependenceUnknown) +
			commandNote(sel.Command),
	}
	in.KeptFamilies = KeptFamilies{
		Title:   "Kept trajectories by emotion family: selection " + sel.Name,
		Command: sel.Command,
		Bars:    sel.Funnel.KeptFamilies(),
	}
}

// tasksWord is what the funnel caption calls its generated count.
func tasksWord(generated bool) string {
	if generated {
		return "generated tasks"
	}
	return "tasks"
}

// keptFamiliesSection is the kept-data distribution chart, or nothing
// when there is no selection.
func keptFamiliesSection(in Input) []section {
	k := in.KeptFamilies
	if len(k.Bars) == 0 {
		return nil
	}
	rows := make([]row, len(k.Bars))
	total, top := 0, 0
	for _, b := range k.Bars {
		total += b.Kept
		top = max(top, b.Kept)
	}
	for i, b := range k.Bars {
		text := strconv.Itoa(b.Kept)
		if total > 0 {
			text += fmt.Sprintf(" (%.1f%%)", 100*float64(b.Kept)/float64(total))
		}
		rows[i] = row{Label: b.Family, Value: float64(b.Kept), CI: Interval{Lo: math.NaN(), Hi: math.NaN()}, Text: text}
	}
	caption := fmt.Sprintf("Kept trajectories per emotion family of the task (none: the without-emotions condition, whose user played no emotion), all domains summed; the percentage is of the %d kept.", total)
	hi, step := countAxis(top)
	d := rowChart(keptFamiliesChartID, "", "kept trajectories", "kept trajectories", rows, 0, float64(hi), false)
	share := d.patch
	d.patch = func(o map[string]any) { // counts: whole-number ticks, not rowChart's 0.2 of a rate
		share(o)
		axis := o["xAxis"].([]map[string]any)[0]
		axis["interval"], axis["minInterval"] = step, 1
	}
	return one(figure{Title: cmp.Or(k.Title, "Kept trajectories by emotion family"), Caption: withCaption(caption, k.Caption) + commandNote(k.Command)}, d, "")
}

// countAxis is the [0, hi] range and tick step of a count axis whose
// largest value is top: the step is 1, 2 or 5 times a power of ten, the
// least giving at most 5 intervals, and hi the first multiple of it at or
// above top (at least one step), so that every tick is a whole number.
func countAxis(top int) (hi, step int) {
	for pow := 1; ; pow *= 10 {
		for _, m := range []int{1, 2, 5} {
			if step = m * pow; top <= 5*step {
				return max(step, (top+step-1)/step*step), step
			}
		}
	}
}
