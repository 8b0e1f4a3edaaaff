// Command gen writes the telehealth domain's embedded tasks with Tracer from
// the telehealth intent catalog: the test split (NumTestTasks tasks, seed
// TestTaskSeed) to tasks.json and the train split (NumTrainTasks tasks,
// seed TrainTaskSeed, no action set of a test task) to tasks_train.json,
// each encoded by sim.EncodeTasks. Run it with `go generate
// ./domains/telehealth`; it writes into the current directory unless -out and
// -train-out say otherwise.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/telehealth"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func main() {
	out := flag.String("out", "tasks.json", "the file the test tasks go to")
	trainOut := flag.String("train-out", "tasks_train.json", "the file the train tasks go to")
	flag.Parse()
	test, train, err := generate(context.Background())
	if err != nil {
		log.Fatalf("telehealth gen: %v", err)
	}
	for _, f := range []struct {
		path string
		g    *tracer.Generated
		n    int
	}{{*out, test, telehealth.NumTestTasks}, {*trainOut, train, telehealth.NumTrainTasks}} {
		if err := sim.WriteTasksFile(f.path, f.g.Tasks, f.n); err != nil {
			log.Fatalf("telehealth gen: %v", err)
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
		for reason, example := range f.g.Examples {
			fmt.Fprintf(os.Stderr, "  first %s: %s\n", reason, example)
		}
	}
}

// generate returns the test tasks, then the train tasks, which repeat no
// test task's action set.
func generate(ctx context.Context) (test, train *tracer.Generated, err error) {
	dom, ok := telehealth.New().(sim.CatalogDomain)
	if !ok {
		return nil, nil, fmt.Errorf("the telehealth domain has no intent catalog")
	}
	// The settings of the domain's declaration (telehealth.New's TaskSets).
	gen := dom.(sim.TaskSetDomain).TaskSets().Generation
	opts := func(n int, seed uint64, split emobench.Split, exclude []emobench.TaskSpec) tracer.GenerateOptions {
		return tracer.GenerateOptions{N: n, Seed: seed, Split: split, Exclude: exclude, ForbiddenShare: gen.ForbiddenShare, TransferShare: gen.TransferShare,
			SpreadIntents: gen.SpreadIntents, IntentsDist: gen.IntentsDist, MeasurePolicy: split == emobench.SplitTest} // MeasurePolicy: tracer's test-split shares (#21)
	}
	g, err := tracer.Generate(ctx, dom, opts(telehealth.NumTestTasks, telehealth.TestTaskSeed, emobench.SplitTest, nil))
	if err != nil {
		return nil, nil, fmt.Errorf("test split: %w", err)
	}
	gt, err := tracer.Generate(ctx, dom, opts(telehealth.NumTrainTasks, telehealth.TrainTaskSeed, emobench.SplitTrain, g.Tasks))
	if err != nil {
		return nil, nil, fmt.Errorf("train split: %w", err)
	}
	return g, gt, nil
}
