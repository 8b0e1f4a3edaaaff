// Command gen writes the retail domain's embedded tasks with Tracer from
// the retail intent catalog: the test split (NumTestTasks tasks, seed
// TestTaskSeed) to tasks.json and the train split (NumTrainTasks tasks,
// seed TrainTaskSeed, no action set of a test task) to tasks_train.json,
// each encoded by sim.EncodeTasks. Run it with `go generate
// ./domains/retail`; it writes into the current directory unless -out and
// -train-out say otherwise.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/retail"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func main() {
	out := flag.String("out", "tasks.json", "the file the test tasks go to")
	trainOut := flag.String("train-out", "tasks_train.json", "the file the train tasks go to")
	flag.Parse()
	test, train, err := generate(context.Background())
	if err != nil {
		log.Fatalf("retail gen: %v", err)
	}
	for _, f := range []struct {
		path  string
		tasks []emobench.TaskSpec
		n     int
	}{{*out, test, retail.NumTestTasks}, {*trainOut, train, retail.NumTrainTasks}} {
		if err := sim.WriteTasksFile(f.path, f.tasks, f.n); err != nil {
			log.Fatalf("retail gen: %v", err)
		}
	}
}

// IntentsDist weighs tracer.DefaultIntents (1, 2 or 3 intents a task)
// a little more towards three than Tracer's default (1, 2, 4): the
// conditional and read intents have one write or none, and the test split
// must keep 1.5 writes a task.
var IntentsDist = []float64{1, 2, 8}

// generate returns the test tasks, then the train tasks, which repeat no
// test task's action set.
func generate(ctx context.Context) (test, train []emobench.TaskSpec, err error) {
	dom, ok := retail.New().(sim.CatalogDomain)
	if !ok {
		return nil, nil, fmt.Errorf("the retail domain has no intent catalog")
	}
	// Tracer's defaults (what `tracer generate` gives users), except that
	// a refusal or transfer position tries the intents of its kind kept
	// least so far first (SpreadIntents), so that the few refusals cover
	// the forbidden intents rather than the ones most users hold.
	opts := func(n int, seed uint64, split emobench.Split, exclude []emobench.TaskSpec) tracer.GenerateOptions {
		o := tracer.NewGenerateOptions()
		o.N, o.Seed, o.Split, o.Exclude, o.SpreadIntents = n, seed, split, exclude, true
		o.IntentsDist, o.MeasurePolicy = IntentsDist, split == emobench.SplitTest // MeasurePolicy: tracer's test-split shares (#21)
		return o
	}
	g, err := tracer.Generate(ctx, dom, opts(retail.NumTestTasks, retail.TestTaskSeed, emobench.SplitTest, nil))
	if err != nil {
		return nil, nil, fmt.Errorf("test split: %w", err)
	}
	gt, err := tracer.Generate(ctx, dom, opts(retail.NumTrainTasks, retail.TrainTaskSeed, emobench.SplitTrain, g.Tasks))
	if err != nil {
		return nil, nil, fmt.Errorf("train split: %w", err)
	}
	return g.Tasks, gt.Tasks, nil
}
