package redact_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// BenchmarkKnown redacts a known key from a 3 MiB reply (sim's bound)
// whose content and arguments are full of escapes, two layers deep:
// without the key, and with it echoed escaped at the content's end. The
// time should grow with the size only.
func BenchmarkKnown(b *testing.B) {
	const key = "sk-test-7f3a9c1e5b2d4680"
	line := `print(\"a\\tb\\n\") \\u00e9\\ud83d\\ude00 C:\\path\\x `
	args, _ := json.Marshal(map[string]string{"code": strings.Repeat(line, (3<<20)/4/len(line))})
	for _, echo := range []string{"", `\\u0073k-test-7f3a9c1e5b2d4680`} {
		content := strings.Repeat(line, (3<<20)/2/len(line)) + echo
		reply, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{
			"content": content, "tool_calls": []any{map[string]any{"function": map[string]string{"arguments": string(args)}}}}}}})
		b.Run(map[bool]string{true: "echoed", false: "absent"}[echo != ""], func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			for b.Loop() {
				if out := redact.Known(reply, key); bytes.Contains(out, []byte("7f3a9c1e5b2d4680")) {
					b.Fatal("the key is left")
				}
			}
		})
	}
}
