package ingest_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench/ingest"
)

// FuzzOpen: any bytes, detected and read through the registry, end in
// trajectories or an error naming the source, never a panic; a run's
// condition is always set.
func FuzzOpen(f *testing.F) {
	for _, seed := range []string{
		emobenchRecord, sortedResults(2), `{"model_name": "m", "results": {"retail": {"pass_1": 50}}}`,
		`{"run": {}, "task": {}}`, `[{"messages": []}]`, `{"task_id": 1}`, "\ufeff[]", "", "[{",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		src := ingest.StreamSource(t.Context(), "fuzz", strings.NewReader(data))
		defer src.Close()
		o, err := ingest.Open(src, ingest.Hints{MaxRecord: 1 << 16, MaxSpool: 1 << 16})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error %q does not name the source", err)
			}
			return
		}
		if o.Format != ingest.FormatSubmission && o.Run.Condition == "" {
			t.Fatalf("run %+v has no condition", o.Run)
		}
		if o.Trajectories != nil {
			for _, err := range o.Trajectories {
				if err != nil {
					break
				}
			}
		}
		_, _ = src.Finish()
	})
}
