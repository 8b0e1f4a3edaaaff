package db_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
)

func taskSetSpecs(n int) []emobench.TaskSpec {
	var out []emobench.TaskSpec
	for i := 0; i < n; i++ {
		id := "shop-train-00" + string(rune('0'+i))
		out = append(out, emobench.TaskSpec{
			ID: id, Domain: "shop", Split: emobench.SplitTrain, UserID: "ana_1", Instruction: "Cancel order #W" + id,
			Scenario:  emobench.Scenario{Facts: map[string]string{"order_id": "#W" + id}, Requests: []emobench.Request{{Text: "Cancel #W" + id, Tools: []string{"cancel"}}}},
			Emotion:   emobench.EmotionProfile{Family: "anger", Leaf: "annoyance", Politeness: "cold", Urgency: "high", Trust: "skeptical"},
			Actions:   []emobench.Action{{Name: "cancel", Arguments: json.RawMessage(`{"order_id":"#W` + id + `"}`)}},
			Outputs:   []string{},
			Intents:   []string{"cancel_order"},
			Generator: &emobench.GeneratorInfo{Name: "tracer", Version: "1", Seed: math.MaxUint64},
		})
	}
	return out
}

func TestDB_CreateTaskSet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	set := db.TaskSet{Name: "shop-train", Domain: "shop", Split: emobench.SplitTrain, GeneratorVersion: "1", Seed: math.MaxUint64,
		Params: json.RawMessage(`{"n":3}`), Rejected: json.RawMessage(`{"duplicate":2}`), CreatedAt: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}

	t.Run("OK", func(t *testing.T) {
		store, path := MustOpenDB(t)
		specs := taskSetSpecs(3)
		if _, err := store.CreateTaskSet(ctx, set, specs, false); err != nil {
			t.Fatal(err)
		}
		got, loaded, err := store.LoadTaskSet(ctx, "shop-train")
		if err != nil {
			t.Fatal(err)
		}
		if got.Seed != math.MaxUint64 || got.Tasks != 3 || got.Source != "tracer" || got.Split != emobench.SplitTrain ||
			string(got.Params) != `{"n":3}` || string(got.Rejected) != `{"duplicate":2}` || !got.CreatedAt.Equal(set.CreatedAt) {
			t.Fatalf("set %+v", got)
		}
		if !reflect.DeepEqual(loaded, specs) {
			t.Fatalf("specs differ:\n%+v\n%+v", loaded, specs)
		}
		// A run over the same task shares its tasks row (same content hash).
		run, err := store.CreateRun(ctx, emobench.Run{Name: "r", SourceFormat: emobench.SourceNative, Domain: "shop"})
		if err != nil {
			t.Fatal(err)
		}
		tr := traj("x", 0, 1)
		tr.Task = specs[1].Task()
		if err := store.AppendTrajectory(ctx, run, tr); err != nil {
			t.Fatal(err)
		}
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		var tasks, shared int
		if err := raw.QueryRow(`SELECT COUNT(*) FROM tasks`).Scan(&tasks); err != nil {
			t.Fatal(err)
		}
		if err := raw.QueryRow(`SELECT COUNT(*) FROM task_set_tasks s JOIN trajectories t ON t.task_id = s.task_id WHERE s.idx = 1`).Scan(&shared); err != nil {
			t.Fatal(err)
		}
		if tasks != 3 || shared != 1 {
			t.Fatalf("%d task rows and %d shared, want 3 and 1", tasks, shared)
		}
		list, err := store.ListTaskSets(ctx)
		if err != nil || len(list) != 1 || list[0].Name != "shop-train" || list[0].Tasks != 3 {
			t.Fatalf("list %+v (%v)", list, err)
		}
	})

	t.Run("ErrExists", func(t *testing.T) {
		store, _ := MustOpenDB(t)
		if _, err := store.CreateTaskSet(ctx, set, taskSetSpecs(3), false); err != nil {
			t.Fatal(err)
		}
		_, err := store.CreateTaskSet(ctx, set, taskSetSpecs(1), false)
		var exists *db.TaskSetExistsError
		if !errors.As(err, &exists) || !errors.Is(err, emobench.ErrConflict) || exists.Name != "shop-train" {
			t.Fatalf("err %v, want TaskSetExistsError", err)
		}
		if _, err := store.CreateTaskSet(ctx, set, taskSetSpecs(2), true); err != nil {
			t.Fatal(err)
		}
		got, specs, err := store.LoadTaskSet(ctx, "shop-train")
		if err != nil || got.Tasks != 2 || len(specs) != 2 {
			t.Fatalf("after replace: %+v, %d specs (%v)", got, len(specs), err)
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		store, _ := MustOpenDB(t)
		_, _, err := store.LoadTaskSet(ctx, "nope")
		if !errors.Is(err, db.ErrNotFound) || !strings.Contains(err.Error(), `"nope"`) {
			t.Fatalf("err %v", err)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		store, _ := MustOpenDB(t)
		specs := taskSetSpecs(3)
		specs[2].Instruction = ""
		_, err := store.CreateTaskSet(ctx, set, specs, false)
		if !errors.Is(err, emobench.ErrInvalid) || !strings.Contains(err.Error(), "shop-train-002") {
			t.Fatalf("err %v, want the bad task named", err)
		}
		specs = taskSetSpecs(2)
		specs[1].Domain = "retail"
		if _, err := store.CreateTaskSet(ctx, set, specs, false); err == nil || !strings.Contains(err.Error(), "retail/train") {
			t.Fatalf("err %v, want the other domain named", err)
		}
		if list, _ := store.ListTaskSets(ctx); len(list) != 0 {
			t.Fatalf("a refused set was stored: %+v", list)
		}
	})
}
