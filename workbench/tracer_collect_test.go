package workbench_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/workbench"
)

// PlanCollect plans one run per condition over the source's tasks, named
// after the file, at its split, recording the source in each config.
func TestPlanCollect(t *testing.T) {
	t.Parallel()
	dom, err := all.Find("retail")
	if err != nil {
		t.Fatal(err)
	}
	tasks := dom.Tasks()[:2]
	src := &workbench.TaskSource{Kind: workbench.TaskSourceFile, Name: "/tmp/x/retail-small.json", Tasks: tasks, SHA256: "abc"}
	plans, err := workbench.PlanCollect(src, "both", 1, sim.RunOptions{Agent: "oracle", User: "scripted", Trials: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(plans), 2; got != want {
		t.Fatalf("%d plans, want %d (one per condition)", got, want)
	}
	for _, p := range plans {
		if !strings.HasPrefix(p.Run.Name, "collect-retail-small") || p.Spec.Split != string(tasks[0].Split) || p.Spec.TaskSource != "file" ||
			p.Spec.TaskSet != src.Name || p.Spec.TaskSetSHA256 != "abc" || len(p.Spec.Tasks) != 2 {
			t.Errorf("plan %s: split %s, source %s %s %s, %d tasks", p.Run.Name, p.Spec.Split, p.Spec.TaskSource, p.Spec.TaskSet, p.Spec.TaskSetSHA256, len(p.Spec.Tasks))
		}
	}
	mixed := append([]emobench.TaskSpec{}, tasks...)
	mixed[1].Split = emobench.SplitTrain
	if mixed[0].Split == emobench.SplitTrain {
		mixed[1].Split = emobench.SplitTest
	}
	src.Tasks = mixed
	if _, err := workbench.PlanCollect(src, "both", 1, sim.RunOptions{Agent: "oracle", User: "scripted", Trials: 1}); err == nil || !strings.Contains(err.Error(), "collect one split at a time") || !strings.Contains(err.Error(), mixed[1].ID) {
		t.Fatalf("mixed splits: err %v", err)
	}
}
