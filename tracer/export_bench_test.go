package tracer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/tracer"
	"github.com/emobench/emobench/tracer/sft"
)

// BenchmarkExport measures Export from a db (reading trajectories and
// messages, validating, encoding) in MB/s of JSONL written and records/s.
func BenchmarkExport(b *testing.B) {
	ctx := context.Background()
	store, err := db.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	runID, err := store.CreateRun(ctx, emobench.Run{Name: "bench", SourceFormat: emobench.SourceNative, AgentModel: "m", UserModel: "u", Domain: "retail", Condition: emobench.ConditionWithEmotions})
	if err != nil {
		b.Fatal(err)
	}
	const n = 200
	for i := range n {
		var msgs []emobench.Message
		msgs = append(msgs, user(fmt.Sprintf("My email is user%d@example.com; where is order #R%07d?", i, i)))
		for j := range 4 {
			id := fmt.Sprintf("c%d", j)
			msgs = append(msgs, agent("", call(id, "get_order_details", fmt.Sprintf(`{"order_id":"#R%07d"}`, i*10+j))),
				result(id, "get_order_details", fmt.Sprintf(`{"order_id":"#R%07d","status":"delivered","items":[{"item_id":"%010d","price":%d.99}]}`, i*10+j, i*j, 10+j)),
				agent(fmt.Sprintf("Order #R%07d was delivered. Anything else?", i*10+j)),
				user("Yes, the next one please."))
		}
		err := store.AppendTrajectory(ctx, runID, &emobench.Trajectory{
			Task:  emobench.Task{Domain: "retail", Key: fmt.Sprint(i), Emotion: emobench.EmotionProfile{Family: "anger"}},
			Trial: 0, Evaluated: true, TerminationReason: emobench.TerminationUserStop, Messages: msgs,
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	// The selection of every trajectory, as tracer filter would store it.
	sel := db.Selection{Name: "bench", CreatedAt: time.Now(), Criteria: json.RawMessage(`{}`), Counts: json.RawMessage(`{}`)}
	for i := range n {
		sel.TrajectoryIDs = append(sel.TrajectoryIDs, int64(i+1))
	}
	if _, err := store.CreateSelection(ctx, sel, nil, false); err != nil {
		b.Fatal(err)
	}
	for _, f := range sft.Formats {
		b.Run(string(f), func(b *testing.B) {
			var written int64
			for b.Loop() {
				stats, err := tracer.Export(ctx, store, io.Discard, tracer.ExportConfig{Selection: "bench", Format: f, Domain: lookupDomain})
				if err != nil {
					b.Fatal(err)
				}
				written = stats.Bytes
			}
			b.SetBytes(written)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
