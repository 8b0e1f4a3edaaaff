package sft_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/tracer/sft"
)

// benchRecords returns n seeded records of 6–20 turns each, a third of the
// agent turns calling tools.
func benchRecords(n int) []*sft.Record {
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([]*sft.Record, n)
	for i := range out {
		msgs := []emobench.Message{user("Hello, I need help with my order.")}
		for turn := 0; turn < 3+rng.IntN(8); turn++ {
			if rng.IntN(3) == 0 {
				id := fmt.Sprintf("c%d", turn)
				msgs = append(msgs, agent("", call(id, "lookup_order", fmt.Sprintf(`{"order_id":"#R%07d"}`, rng.IntN(1e7)))),
					result(id, "lookup_order", fmt.Sprintf(`{"order_id":"#R%07d","status":"delivered","items":[{"id":"%d","price":%d.99}]}`, rng.IntN(1e7), rng.IntN(1e10), rng.IntN(500))))
			}
			msgs = append(msgs, agent(fmt.Sprintf("I found order %d; it was delivered on day %d. Anything else I can do?", rng.IntN(1e7), rng.IntN(28))),
				user(fmt.Sprintf("Yes, one more question about item %d, please.", rng.IntN(1e10))))
		}
		out[i] = sft.NewRecord(int64(i), "shop", "anger", fixturePolicy, fixtureTools, msgs)
	}
	return out
}

// BenchmarkExport reports each format's validated-write speed in MB/s of
// JSONL written and records/s.
func BenchmarkExport(b *testing.B) {
	for _, n := range []int{100, 1000} {
		recs := benchRecords(n)
		for _, f := range sft.Formats {
			b.Run(fmt.Sprintf("%s/records=%d", f, n), func(b *testing.B) {
				var written int64
				for b.Loop() {
					w := sft.NewWriter(io.Discard, f)
					for _, r := range recs {
						if err := w.Write(r); err != nil {
							b.Fatal(err)
						}
					}
					written = w.Stats.Bytes
				}
				b.SetBytes(written)
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			})
		}
	}
}
