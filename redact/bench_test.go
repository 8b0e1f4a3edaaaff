package redact_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/emobench/emobench/redact"
)

// BenchmarkContent redacts every message content of the shared real retail
// runs, as ingest does; SetBytes counts the content bytes.
func BenchmarkContent(b *testing.B) {
	files, _ := filepath.Glob("../../shared/realruns/*retail*.json")
	if len(files) == 0 {
		b.Skip("../shared/realruns not found")
	}
	var contents []string
	size := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		var records []struct {
			Traj []struct {
				Content any `json:"content"`
			} `json:"traj"`
		}
		if err := json.Unmarshal(data, &records); err != nil {
			b.Fatalf("%s: %v", path, err)
		}
		for _, r := range records {
			for _, m := range r.Traj {
				if s, ok := m.Content.(string); ok {
					contents, size = append(contents, s), size+len(s)
				}
			}
		}
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, s := range contents {
			redact.Content(s)
		}
	}
}
