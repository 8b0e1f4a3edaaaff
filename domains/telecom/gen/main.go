// Command gen writes the telecom domain's embedded tasks with Tracer,
// tracer.Generate over telecom's intent catalog: tasks.json, the test
// split (seed telecom.TestTaskSeed, telecom.NumTestTasks tasks), and
// tasks_train.json, the train split (seed telecom.TrainTaskSeed,
// telecom.NumTrainTasks tasks, none repeating a test task's action set).
// Run it with `go generate ./domains/telecom`; it writes into the current
// directory unless -out and -train-out say otherwise. It prints each
// split's figures (writes a task, kinds, rejections) to stderr.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/telecom"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func main() {
	out := flag.String("out", "tasks.json", "the file the test split is written to")
	trainOut := flag.String("train-out", "tasks_train.json", "the file the train split is written to")
	flag.Parse()
	ctx := context.Background()
	test, err := generate(ctx, emobench.SplitTest, nil, telecom.NumTestTasks)
	if err != nil {
		log.Fatalf("telecom gen: %v", err)
	}
	train, err := generate(ctx, emobench.SplitTrain, test.Tasks, telecom.NumTrainTasks)
	if err != nil {
		log.Fatalf("telecom gen: %v", err)
	}
	for _, f := range []struct {
		path string
		g    *tracer.Generated
		n    int
	}{{*out, test, telecom.NumTestTasks}, {*trainOut, train, telecom.NumTrainTasks}} {
		if err := sim.WriteTasksFile(f.path, f.g.Tasks, f.n); err != nil {
			log.Fatalf("telecom gen: %s: %v", f.path, err)
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
// defaults (what `tracer generate` gives users) but for a larger share of
// refusals and transfers, and the split's seed. The test split must hold
// each of the nine forbidden intents and each of the five transfer
// triggers at least twice: 20 refusals (25%) and 12 transfers (15%) of
// 80 leave SpreadIntents, which tries the least kept intent of a kind
// first, a margin of two each.
func options(split emobench.Split) tracer.GenerateOptions {
	o := tracer.NewGenerateOptions()
	o.Seed, o.Split, o.ForbiddenShare, o.TransferShare, o.SpreadIntents = telecom.TestTaskSeed, split, 0.25, 0.15, true
	o.IntentsDist, o.WalkStepsDist = []float64{1, 2, 8}, []float64{1, 2, 6}
	o.MeasurePolicy = split == emobench.SplitTest // tracer's test-split shares (#21)
	if split == emobench.SplitTrain {
		o.Seed = telecom.TrainTaskSeed
	}
	return o
}

// generate returns the split's first n tasks; a train split excludes the
// action sets of exclude.
func generate(ctx context.Context, split emobench.Split, exclude []emobench.TaskSpec, n int) (*tracer.Generated, error) {
	o := options(split)
	o.N, o.Exclude = n, exclude
	dom, ok := telecom.New().(sim.CatalogDomain)
	if !ok {
		return nil, fmt.Errorf("the telecom domain has no intent catalog")
	}
	g, err := tracer.Generate(ctx, dom, o)
	if err != nil {
		return nil, fmt.Errorf("%s split: %w", split, err)
	}
	return g, nil
}
