package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"

	"github.com/emobench/emobench"
	"github.com/emobench/emobench/domains/retail"
	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite ../tasks.json and ../tasks_train.json from the generator")

// TestGenerate_Golden checks that the embedded task files are fresh: equal,
// byte for byte, to what the generator writes.
func TestGenerate_Golden(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 620 tasks")
	}
	test, train, err := generate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		path  string
		tasks []emobench.TaskSpec
	}{{"../tasks.json", test}, {"../tasks_train.json", train}} {
		got, err := sim.EncodeTasks(f.tasks)
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(f.path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale; run `go generate ./domains/retail` (-want +got):\n%s", f.path, cmp.Diff(string(want), string(got)))
		}
	}
}

// TestGenerate_Seeds checks that the same seed gives the same tasks and
// another seed others.
func TestGenerate_Seeds(t *testing.T) {
	dom := retail.New().(sim.CatalogDomain)
	gen := func(seed uint64) []byte {
		g, err := tracer.Generate(context.Background(), dom, trainOptions(15, seed))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := sim.EncodeTasks(g.Tasks)
		return b
	}
	a, b, c := gen(11), gen(11), gen(12)
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed gave different tasks")
	}
	if bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same tasks")
	}
}

// BenchmarkGenerate measures Tracer on the retail catalog: tasks kept per
// second, every check included (oracle and careless episodes).
func BenchmarkGenerate(b *testing.B) {
	dom := retail.New().(sim.CatalogDomain)
	const n = 20
	for i := 0; i < b.N; i++ {
		if _, err := tracer.Generate(context.Background(), dom, trainOptions(n, uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "tasks/s")
}

// trainOptions are Tracer's defaults for n train tasks of seed.
func trainOptions(n int, seed uint64) tracer.GenerateOptions {
	o := tracer.NewGenerateOptions()
	o.N, o.Seed, o.Split = n, seed, emobench.SplitTrain
	return o
}
