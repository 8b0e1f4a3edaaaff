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
// what this generator writes today, test split always and train split
// (500 tasks, most of the time) without -short. Regenerate with
// `go generate ./domains/airline`.
func TestEmbeddedTasks_UpToDate(t *testing.T) {
	ctx := context.Background()
	embedded := map[emobench.Split][]emobench.TaskSpec{}
	for _, task := range airline.New().Tasks() {
		embedded[task.Split] = append(embedded[task.Split], task)
	}
	test, err := generate(ctx, emobench.SplitTest, nil)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "tasks.json", test.Tasks, embedded[emobench.SplitTest])
	if testing.Short() {
		return
	}
	train, err := generate(ctx, emobench.SplitTrain, test.Tasks)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "tasks_train.json", train.Tasks, embedded[emobench.SplitTrain])
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
