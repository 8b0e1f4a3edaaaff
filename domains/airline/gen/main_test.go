package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/airline"
	"github.com/emobench/emobench/sim"
)

// TestEmbeddedTasks_UpToDate is the golden check: the embedded tasks are
// what this generator writes today, the test split in full and, without
// -short, the first 100 train tasks (Generate keeps candidates in order,
// so they are the first 100 of the 500; all 500 take a minute). Regenerate
// with `go generate ./domains/airline`.
func TestEmbeddedTasks_UpToDate(t *testing.T) {
	ctx := context.Background()
	embedded := map[emobench.Split][]emobench.TaskSpec{}
	for _, task := range airline.New().Tasks() {
		embedded[task.Split] = append(embedded[task.Split], task)
	}
	test, err := generate(ctx, emobench.SplitTest, nil, airline.NumTestTasks)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "tasks.json", test.Tasks, embedded[emobench.SplitTest])
	if testing.Short() {
		return
	}
	const prefix = 100
	train, err := generate(ctx, emobench.SplitTrain, test.Tasks, prefix)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(embedded[emobench.SplitTrain]); got != airline.NumTrainTasks {
		t.Fatalf("tasks_train.json holds %d tasks, want %d", got, airline.NumTrainTasks)
	}
	compare(t, "tasks_train.json", train.Tasks, embedded[emobench.SplitTrain][:prefix])
}

func compare(t *testing.T, file string, generated, embedded []emobench.TaskSpec) {
	t.Helper()
	want, err := sim.EncodeTasks(generated)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sim.EncodeTasks(embedded)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale; run go generate ./domains/airline (-embedded +generated):\n%s", file, cmp.Diff(string(got), string(want)))
	}
}
