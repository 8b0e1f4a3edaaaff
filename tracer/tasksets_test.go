package tracer_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench/domains/all"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

// TestGenerateSplits_TelecomByteIdentical generates telecom's splits from
// a hand-written sim.TaskSets equal to what its old gen program set
// (shares 0.25 and 0.15, SpreadIntents, both distributions: the domain
// using the most settings) and checks both against the committed files
// byte for byte: the mapping SplitOptions does is the gen programs'. A
// domain declared with sim.NewDomain is checked the same way by
// domaintest.Run; this test holds until telecom is. Slow (580 tasks):
// full suite only.
func TestGenerateSplits_TelecomByteIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 580 tasks; full suite only")
	}
	dom, err := all.Find("telecom")
	if err != nil {
		t.Fatal(err)
	}
	cd, ok := dom.(sim.CatalogDomain)
	if !ok {
		t.Fatal("telecom is not a sim.CatalogDomain")
	}
	sets := sim.TaskSets{
		Test:  sim.TaskSet{File: "tasks.json", Count: 80, Seed: 12},
		Train: sim.TaskSet{File: "tasks_train.json", Count: 500, Seed: 13},
		Generation: sim.Generation{ForbiddenShare: 0.25, TransferShare: 0.15, SpreadIntents: true,
			IntentsDist: []float64{1, 2, 8}, WalkStepsDist: []float64{1, 2, 6}},
	}
	if td, ok := dom.(sim.TaskSetDomain); ok {
		sets = td.TaskSets() // declared: its own settings
	}
	test, train, err := tracer.GenerateSplits(context.Background(), cd, sets)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		file string
		g    *tracer.Generated
	}{{sets.Test.File, test}, {sets.Train.File, train}} {
		want, err := os.ReadFile(filepath.Join("..", "domains", "telecom", f.file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := sim.EncodeTasks(f.g.Tasks)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("telecom %s: generated %d bytes (%s), committed %d: the mapping of sim.Generation differs from the old gen program's",
				f.file, len(got), f.g.Figures(), len(want))
		}
	}
}
