package tracer_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGenerate_Golden pins the shop's tasks from seed 7: a change of the
// generator that changes them must bump GeneratorVersion and rewrite the
// file (go test ./tracer -run Golden -update).
func TestGenerate_Golden(t *testing.T) {
	got := encode(t, generate(t, shopDomain{}, genOptions(12, 7)).Tasks)
	path := filepath.Join("testdata", "shop_seed7", "want.json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Fatalf("tasks from seed 7 differ from %s (-want +got):\n%s", path, diff)
	}
}
