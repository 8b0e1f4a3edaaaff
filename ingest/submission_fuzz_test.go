package ingest_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench/ingest"
)

// FuzzSubmission feeds Submission arbitrary bytes, seeded with
// testdata/submission. It must not panic; every result must name a model
// and a domain and hold a k of 1 or more and a 0–1 fraction.
func FuzzSubmission(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "submission", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	bad, err := filepath.Glob(filepath.Join("testdata", "submission", "bad", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range append(seeds, bad...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"model_name": "m", "results": {"r": {"pass_1": NaN, "pass_2": 1e400, "cost": Infinity}}}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		results, err := ingest.Submission(bytes.NewReader(data))
		if err != nil {
			if results != nil {
				t.Fatal("results and an error")
			}
			return
		}
		seen := map[string]bool{}
		for i, r := range results {
			if r.Model == "" || r.Domain == "" || r.K < 1 {
				t.Fatalf("result %d: %+v lacks a model, a domain or a k", i, r)
			}
			if math.IsNaN(r.PassHatK) || r.PassHatK < 0 || r.PassHatK > 1 {
				t.Fatalf("result %d: pass^k %v is not a 0–1 fraction", i, r.PassHatK)
			}
			if r.Cost != nil && (math.IsNaN(*r.Cost) || math.IsInf(*r.Cost, 0)) {
				t.Fatalf("result %d: cost %v", i, *r.Cost)
			}
			key := fmt.Sprintf("%s/%d", r.Domain, r.K)
			if seen[key] {
				t.Fatalf("result %d: (%s, k=%d) repeats", i, r.Domain, r.K)
			}
			seen[key] = true
		}
	})
}
