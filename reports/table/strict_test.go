package table_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench/analysis"
	"github.com/emobench/emobench/reports/table"
	"github.com/google/go-cmp/cmp"
)

// TestStrictPassK_Golden: gated beside strict for one evaluated and one
// unevaluated run in every format.
func TestStrictPassK_Golden(t *testing.T) {
	units := analysis.NewUnits(map[int64]analysis.PoolKey{1: {}, 2: {}}, false)
	named := table.Units{Units: units, Names: map[int64]string{1: "tau2_run", 2: "no rewards"}}
	nan := math.NaN()
	rows := []analysis.StrictPassKRow{
		{Gated: analysis.PassKRow{RunID: 1, K: 1, PassHatK: 0.75, PassAtK: 0.75, Tasks: 2, Trajectories: 4, Convention: analysis.PerTask},
			Strict:  analysis.PassKRow{RunID: 1, K: 1, PassHatK: 0.25, PassAtK: 0.25, Tasks: 2, Trajectories: 4, Convention: analysis.PerTask},
			Demoted: 2, Delta: -0.5},
		{Gated: analysis.PassKRow{RunID: 2, K: 1, PassHatK: nan, PassAtK: nan, Tasks: 1, Trajectories: 1, Convention: analysis.PerTask, NotEvaluated: true},
			Strict: analysis.PassKRow{RunID: 2, K: 1, PassHatK: nan, PassAtK: nan, Tasks: 1, Trajectories: 1, Convention: analysis.PerTask, NotEvaluated: true},
			Delta:  nan},
	}
	for _, format := range table.Formats {
		var out bytes.Buffer
		if err := table.StrictPassK(rows, named, nil, format).Write(&out, format); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "strict", "want."+format)
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if diff := cmp.Diff(string(want), out.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
		if format == "latex" {
			if err := table.CheckLaTeX(out.String()); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
	}
}
