package sim_test

import (
	"testing"

	"github.com/emobench/emobench/sim"
)

// FuzzDecodeTasks: a tasks file (run --tasks-file, tracer audit --tasks) is
// outside input. Decoding never panics, and what it accepts validates and
// encodes again.
func FuzzDecodeTasks(f *testing.F) {
	f.Add([]byte(`[{"id":"t1","domain":"retail","split":"test","instruction":"Cancel my order.","scenario":{"facts":{"order_id":"#W1"},"requests":[{"text":"Cancel #W1.","tools":["cancel_pending_order"]}]},"emotion":{"family":"anger","leaf":"frustration"},"actions":[{"name":"cancel_pending_order","kwargs":{"order_id":"#W1"}}],"outputs":[]}]`))
	f.Add([]byte(`[{"id":"t2","domain":"airline","split":"train","instruction":"x","scenario":{"requests":[{"text":"y"}]},"actions":[{"name":"a","kwargs":null}],"forbidden":[{"name":"b"}]}]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"id":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tasks, err := sim.DecodeTasks(data)
		if err != nil {
			return
		}
		for i := range tasks {
			if err := tasks[i].Validate(); err != nil {
				t.Fatalf("task %d decoded but does not validate: %v", i, err)
			}
		}
		if _, err := sim.EncodeTasks(tasks); err != nil {
			t.Fatalf("decoded tasks do not encode: %v", err)
		}
	})
}
