package ingest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/ingest"
)

// tau2Golden is what a golden case records: the run's metadata, the
// trajectories and the warnings.
type tau2Golden struct {
	Info         ingest.Tau2Info
	Warnings     []string
	Trajectories []*emobench.Trajectory
}

// TestTau2_Golden reads each testdata/tau2/golden/<case>/input.json (or the
// run directory input/) and compares the result, rendered as indented JSON,
// with want.json. Rerun with -update to rewrite want.json.
func TestTau2_Golden(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("testdata", "tau2", "golden", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no cases in testdata/tau2/golden")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			input := filepath.Join(dir, "input.json")
			if _, err := os.Stat(input); err != nil {
				input = filepath.Join(dir, "input")
			}
			rd, trajs, err := readTau2(t, input)
			if err != nil {
				t.Fatalf("read %s: %v", input, err)
			}
			got, err := json.MarshalIndent(tau2Golden{Info: rd.Info(), Warnings: rd.Warnings(), Trajectories: trajs}, "", "  ")
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
				t.Fatalf("%v (run go test -run TestTau2_Golden -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Fatalf("%s mismatch (-want +got):\n%s\nrerun with -update if the change is intended", wantPath, diff)
			}
		})
	}
}
