package tracer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/tracer/sft"
)

// deleteOnFirstWrite is an export's output that, at its first record,
// deletes runs through another connection, as `runs rm` in another
// process would while the export runs.
type deleteOnFirstWrite struct {
	bytes.Buffer
	store *db.DB
	runs  []int64
	err   error
	done  bool
}

func (w *deleteOnFirstWrite) Write(p []byte) (int, error) {
	if !w.done {
		w.done = true
		_, w.err = w.store.DeleteRuns(context.Background(), w.runs)
	}
	return w.Buffer.Write(p)
}

// A run deleted while tracer export reads it is exported whole: the
// export reads one snapshot (#20 item 18: each trajectory after the
// deletion was a record without messages, a validation failure).
func TestExport_OneSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	store, err := db.Open(ctx, path) // open while the export runs: the file is in WAL mode
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	const n = 5
	var runs []int64
	for _, name := range []string{"first", "second"} {
		id, err := store.CreateRun(ctx, emobench.Run{Name: name, SourceFormat: emobench.SourceNative, AgentModel: "m", UserModel: "u", Domain: "retail", Condition: emobench.ConditionWithoutEmotions})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, id)
		for i := range n {
			err := store.AppendTrajectory(ctx, id, &emobench.Trajectory{
				Task:   emobench.Task{Domain: "retail", Key: fmt.Sprintf("%s-%d", name, i), Instruction: "ask"},
				Reward: new(float64), Evaluated: true, TerminationReason: emobench.TerminationUserStop,
				Messages: []emobench.Message{user("Where is order #R1?"), agent("Order #R1 was delivered yesterday.")},
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	// The selection of every trajectory, as tracer filter would store it.
	sel := db.Selection{Name: "all", CreatedAt: time.Now(), Criteria: json.RawMessage(`{}`), Counts: json.RawMessage(`{}`)}
	for i := range 2 * n {
		sel.TrajectoryIDs = append(sel.TrajectoryIDs, int64(i+1))
	}
	if _, err := store.CreateSelection(ctx, sel, nil, false); err != nil {
		t.Fatal(err)
	}
	ro, err := db.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	out := &deleteOnFirstWrite{store: store, runs: runs}
	stats, err := tracer.Export(ctx, ro, out, tracer.ExportConfig{Selection: "all", Format: sft.FormatOpenAI, Domain: lookupDomain})
	if out.err != nil {
		t.Fatalf("runs rm during the export: %v", out.err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stats.Records, 2*n; got != want || len(stats.Failures) != 0 {
		t.Fatalf("%d records, failures %q; want %d records and no failure", got, stats.Failures, want)
	}
	if got := strings.Count(out.String(), "\n"); got != 2*n {
		t.Fatalf("%d lines written, want %d", got, 2*n)
	}
	// The deletion did happen: a new export finds nothing.
	if _, err := tracer.Export(ctx, ro, &bytes.Buffer{}, tracer.ExportConfig{Selection: "all", Format: sft.FormatOpenAI, Domain: lookupDomain}); err == nil {
		t.Fatal("export after runs rm: no error, want no record written")
	}
}
