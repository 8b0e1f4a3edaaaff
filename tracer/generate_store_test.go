package tracer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/emobench/emobench/db"
	"github.com/emobench/emobench/tracer"
)

func TestStoreTaskSet(t *testing.T) {
	ctx := context.Background()
	store, err := db.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	opts := genOptions(12, 5, func(o *tracer.GenerateOptions) { o.IntentsDist = []float64{3, 2, 1} })
	gen := generate(t, shopDomain{}, opts)
	if _, err := tracer.StoreTaskSet(ctx, store, "shop-a", "shop", opts, gen, false, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	set, specs, err := store.LoadTaskSet(ctx, "shop-a")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, specs), encode(t, gen.Tasks)) {
		t.Fatal("stored specs differ from the generated ones")
	}
	var p tracer.Params
	if err := json.Unmarshal(set.Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.N != 12 || p.Seed != 5 || p.ForbiddenShare != 0.10 || len(p.WalkSteps) != 3 || p.IntentsDist[0] != 3 || set.GeneratorVersion != tracer.GeneratorVersion || set.Source != "tracer" {
		t.Fatalf("set %+v params %+v", set, p)
	}
	var rejected map[string]int
	if err := json.Unmarshal(set.Rejected, &rejected); err != nil || len(rejected) != len(gen.Rejected) {
		t.Fatalf("rejected %s (%v), want %v", set.Rejected, err, gen.Rejected)
	}
}
