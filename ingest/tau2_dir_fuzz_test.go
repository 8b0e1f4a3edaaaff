package ingest_test

import (
	"testing"
	"testing/fstest"

	"github.com/emobench/emobench/ingest"
)

// FuzzTau2Dir feeds the 1.x directory layout an arbitrary results.json
// (its simulation index) beside one fuzzed simulation file. Tau2Dir must not
// panic and every trajectory must be well-formed.
func FuzzTau2Dir(f *testing.F) {
	f.Add([]byte(`{"info": {}, "tasks": [], "simulation_index": [{"id": "s1", "task_id": "t1", "trial": 0}]}`),
		[]byte(`{"id": "s1", "task_id": "t1", "trial": 0, "termination_reason": "user_stop", "reward_info": {"reward": 1.0}, "messages": []}`))
	f.Add([]byte(`{"tasks": [], "simulation_index": null}`), []byte(`{"task_id": null}`))
	f.Add([]byte(`{"simulation_index": [{"id": 3}]}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, results, simulation []byte) {
		fsys := fstest.MapFS{
			"results.json":        {Data: results},
			"simulations/s1.json": {Data: simulation},
		}
		rd, err := ingest.Tau2Dir(fsys)
		if err != nil {
			return
		}
		trajs, _ := collect(t, rd.Trajectories())
		checkTrajectories(t, trajs)
	})
}
