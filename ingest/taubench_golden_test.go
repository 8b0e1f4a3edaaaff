package ingest_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench/ingest"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*/want.json from the current output")

// TestTauBench_Golden reads each testdata/golden/<case>/input.json and
// compares the trajectories, rendered as indented JSON, with want.json.
func TestTauBench_Golden(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no cases in testdata/golden")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join(dir, "input.json"))
			if err != nil {
				t.Fatal(err)
			}
			trajs, err := collect(t, ingest.TauBench(bytes.NewReader(in)))
			if err != nil {
				t.Fatalf("TauBench: %v", err)
			}
			got, err := json.MarshalIndent(trajs, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			wantPath := filepath.Join(dir, "want.json")
			if *update {
				if err := os.WriteFile(wantPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatalf("%v (run go test -run TestTauBench_Golden -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Fatalf("%s mismatch (-want +got):\n%s\nrerun with -update if the change is intended", wantPath, diff)
			}
		})
	}
}
