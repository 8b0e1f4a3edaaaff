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

// The shares of refusal and transfer tasks of both splits. 24 refusals
// and 12 transfers in the 80 test tasks leave SpreadIntents room to give
// each of the 10 forbidden and 5 transfer intents two tasks, though the
// rarest trap only a fifth of the patients hold.
const (
	ForbiddenShare = 0.3
	TransferShare  = 0.15
)

// IntentsDist weighs tasks of one, two and three intents: three-intent
// tasks most, so that refusals and transfers come after allowed writes
// (a mixed task) and the split keeps 1.5 writes a task.
var IntentsDist = []float64{1, 2, 8}

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
	// Tracer's defaults, but for a margin above the 10% refusals and 5%
	// transfers the benchmark asks of every split, and every refusal and
	// transfer intent in the test split (SpreadIntents).
	opts := func(n int, seed uint64, split emobench.Split, exclude []emobench.TaskSpec) tracer.GenerateOptions {
		o := tracer.NewGenerateOptions()
		o.N, o.Seed, o.Split, o.Exclude, o.ForbiddenShare, o.TransferShare = n, seed, split, exclude, ForbiddenShare, TransferShare
		o.SpreadIntents, o.IntentsDist, o.MeasurePolicy = true, IntentsDist, split == emobench.SplitTest // MeasurePolicy: tracer's test-split shares (#21)
		return o
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
