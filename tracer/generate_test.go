package tracer_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/emobench/emobench/sim"
	"github.com/emobench/emobench/tracer"
)

func generate(t testing.TB, dom sim.CatalogDomain, opts tracer.GenerateOptions) *tracer.Generated {
	t.Helper()
	g, err := tracer.Generate(context.Background(), dom, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGenerate_OK(t *testing.T) {
	g := generate(t, shopDomain{}, tracer.GenerateOptions{N: 30, Seed: 7})
	if got, want := len(g.Tasks), 30; got != want {
		t.Fatalf("kept %d tasks, want %d (rejected %v)", got, want, g.Rejected)
	}
	t.Logf("kinds %v rejected %v candidates %d fallbacks %d", g.Kinds, g.Rejected, g.Candidates, g.WalkFallbacks)
	b, _ := sim.EncodeTasks(g.Tasks[:3])
	t.Logf("%s", b)
	again := generate(t, shopDomain{}, tracer.GenerateOptions{N: 30, Seed: 7})
	b1, _ := sim.EncodeTasks(g.Tasks)
	b2, _ := sim.EncodeTasks(again.Tasks)
	if !bytes.Equal(b1, b2) {
		t.Fatal("same seed, different tasks")
	}
}
