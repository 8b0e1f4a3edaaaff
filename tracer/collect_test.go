package tracer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench"
)

func TestCollectedTasks(t *testing.T) {
	ctx := context.Background()
	store := openDB(t)
	spec := emobench.TaskSpec{ID: "t1", Domain: "retail", Split: emobench.SplitTest, Instruction: "x",
		Scenario: emobench.Scenario{Requests: []emobench.Request{{Text: "x"}}}}
	data, err := json.Marshal([]emobench.TaskSpec{spec})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tasks.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	run := emobench.RunSpec{TaskSet: path, TaskSetSHA256: hex.EncodeToString(sum[:])}

	tasks, ok, err := CollectedTasks(ctx, store, run)
	if err != nil || !ok || len(tasks) != 1 || tasks[0].ID != "t1" {
		t.Fatalf("matching file: %v %v %v", tasks, ok, err)
	}
	if _, ok, err := CollectedTasks(ctx, store, emobench.RunSpec{}); ok || err != nil {
		t.Fatalf("no task set: ok %v, err %v", ok, err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := CollectedTasks(ctx, store, run); ok || err != nil {
		t.Fatalf("changed file: ok %v, err %v; want unknown", ok, err)
	}
	if got, want := len(TaskSetSHA256([]emobench.TaskSpec{spec})), 64; got != want {
		t.Fatalf("TaskSetSHA256 length %d, want %d", got, want)
	}
}
