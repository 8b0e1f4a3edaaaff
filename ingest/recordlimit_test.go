package ingest_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/emobench/emobench/ingest"
)

// A record of exactly MaxRecord bytes is read; one byte more is refused
// with a *RecordTooLargeError inside the *RecordError of its index, however
// the input arrives (one byte per read, too).
func TestTauBenchWith_MaxRecord(t *testing.T) {
	t.Parallel()
	rec := `{"task_id": 1, "reward": 1, "traj": [{"role": "user", "content": "hello"}]}`
	for _, tt := range []struct{ name, file string }{
		{"array", "[" + rec + "," + rec + "]"},
		{"lines", rec + "\n" + rec + "\n"},
	} {
		for _, oneByte := range []bool{false, true} {
			read := func(max int) (int, error) {
				r := strings.NewReader(tt.file)
				in := iotestReader(r, oneByte)
				trajs, err := collect(t, ingest.TauBenchWith(in, ingest.TauBenchOptions{MaxRecord: int64(max)}))
				return len(trajs), err
			}
			// The second record's budget includes the separator before it.
			if n, err := read(len(rec) + 1); err != nil || n != 2 {
				t.Errorf("%s (one byte %v): MaxRecord %d: %d records, %v; want 2", tt.name, oneByte, len(rec)+1, n, err)
			}
			n, err := read(len(rec) - 1)
			var recErr *ingest.RecordError
			var tooLarge *ingest.RecordTooLargeError
			if n != 0 || !errors.As(err, &recErr) || recErr.Index != 0 || !errors.As(err, &tooLarge) || tooLarge.Max != int64(len(rec)-1) {
				t.Errorf("%s (one byte %v): MaxRecord %d: %d records, %v; want record 0 refused as too large", tt.name, oneByte, len(rec)-1, n, err)
			}
		}
	}
}

func iotestReader(r *strings.Reader, oneByte bool) io.Reader {
	if oneByte {
		return iotest.OneByteReader(r)
	}
	return r
}

// A τ²-bench simulation over MaxRecord is refused as too large; one under
// it is read.
func TestTau2With_MaxRecord(t *testing.T) {
	t.Parallel()
	sim := `{"id": "s0", "task_id": "t0", "termination_reason": "user_stop", "messages": [{"role": "user", "content": "` + strings.Repeat("a", 1000) + `"}], "trial": 0}`
	file := `{"info": {}, "tasks": [{"id": "t0"}], "simulations": [` + sim + `]}`
	for _, max := range []int{len(sim), len(sim) - 1} {
		rd, err := ingest.Tau2With(strings.NewReader(file), ingest.Tau2Options{MaxRecord: int64(max)})
		if err != nil {
			t.Fatal(err)
		}
		trajs, err := collect(t, rd.Trajectories())
		var simErr *ingest.SimulationError
		var tooLarge *ingest.RecordTooLargeError
		switch {
		case max == len(sim) && (err != nil || len(trajs) != 1):
			t.Errorf("MaxRecord %d: %d simulations, %v; want 1", max, len(trajs), err)
		case max < len(sim) && (!errors.As(err, &simErr) || simErr.Index != 0 || !errors.As(err, &tooLarge)):
			t.Errorf("MaxRecord %d: %d simulations, %v; want simulation 0 refused as too large", max, len(trajs), err)
		}
	}
}
