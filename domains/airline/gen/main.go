// Command gen writes the airline domain's embedded tasks with Tracer,
// tracer.Generate over airline's intent catalog: tasks.json, the test split
// (seed airline.TestTaskSeed, airline.NumTestTasks tasks), and
// tasks_train.json, the train split (seed airline.TrainTaskSeed,
// airline.NumTrainTasks tasks, none repeating a test task's action set).
// Run it with `go generate ./domains/airline`; it writes into the current
// directory unless -out and -train-out say otherwise.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/airline"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func main() {
	out := flag.String("out", "tasks.json", "the file the test split is written to")
	trainOut := flag.String("train-out", "tasks_train.json", "the file the train split is written to")
	flag.Parse()
	ctx := context.Background()
	test, err := generate(ctx, emobench.SplitTest, nil, airline.NumTestTasks)
	if err != nil {
		log.Fatalf("airline gen: %v", err)
	}
	train, err := generate(ctx, emobench.SplitTrain, test.Tasks, airline.NumTrainTasks)
	if err != nil {
		log.Fatalf("airline gen: %v", err)
	}
	for _, f := range []struct {
		path string
		g    *tracer.Generated
		n    int
	}{{*out, test, airline.NumTestTasks}, {*trainOut, train, airline.NumTrainTasks}} {
		if err := sim.WriteTasksFile(f.path, f.g.Tasks, f.n); err != nil {
			log.Fatalf("airline gen: %s: %v", f.path, err)
		}
		writes, multi := 0, 0
		for _, n := range f.g.Writes {
			writes += n
			if n >= 2 {
				multi++
			}
		}
		fmt.Fprintf(os.Stderr, "%s: %d tasks of %d candidates, %.2f writes a task, %d with two or more, kinds %v, rejected %v\n",
			f.path, len(f.g.Tasks), f.g.Candidates, float64(writes)/float64(len(f.g.Tasks)), multi, f.g.Kinds, f.g.Rejected)
	}
}

// options are the generator's settings for the embedded tasks: Tracer's
// defaults (what `tracer generate` gives users) and the split's seed, with
// refusals and transfers spread over their intents and enough of them
// that each of the 6 forbidden intents and 2 transfer triggers can come
// twice in the test split (issue 21's test shares).
func options(split emobench.Split) tracer.GenerateOptions {
	o := tracer.NewGenerateOptions()
	o.Seed, o.Split, o.SpreadIntents, o.ForbiddenShare, o.TransferShare = airline.TestTaskSeed, split, true, 0.2, 0.07
	o.MeasurePolicy = split == emobench.SplitTest // tracer's test-split shares (#21)
	if split == emobench.SplitTrain {
		o.Seed = airline.TrainTaskSeed
	}
	return o
}

// generate returns the split's first n tasks (the first n of any larger
// n: Generate keeps candidates in order); a train split excludes the
// action sets of exclude.
func generate(ctx context.Context, split emobench.Split, exclude []emobench.TaskSpec, n int) (*tracer.Generated, error) {
	o := options(split)
	o.N, o.Exclude = n, exclude
	dom, ok := airline.New().(sim.CatalogDomain)
	if !ok {
		return nil, fmt.Errorf("the airline domain has no intent catalog")
	}
	g, err := tracer.Generate(ctx, dom, o)
	if err != nil {
		return nil, fmt.Errorf("%s split: %w", split, err)
	}
	return g, nil
}
