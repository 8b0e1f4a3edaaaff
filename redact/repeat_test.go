package redact_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench/redact"
)

// BenchmarkContent_RepeatedAuthorization redacts a message content of
// "Authorization: " repeated, which took time quadratic in its length
// (a 3 MiB record took minutes to ingest): MB/s should be about the same
// at both sizes.
func BenchmarkContent_RepeatedAuthorization(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"100KB", 100_000}, {"400KB", 400_000}} {
		s := strings.Repeat("Authorization: ", size.n/len("Authorization: "))
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				redact.Content(s)
			}
		})
	}
}

// TestRepeatedHintsStillRedacted checks that text of many hint words
// keeps every finding: the searches bounded for speed must still reach a
// quoted key and its value, a header's value and a key=value after them.
func TestRepeatedHintsStillRedacted(t *testing.T) {
	t.Parallel()
	filler := strings.Repeat("Authorization: ", 20_000)
	for _, c := range []struct{ in, want string }{
		{filler + `{"api_key": "abc123def456"}`, filler + `{"api_key": "[redacted]"}`},
		{`{"api_key": "abc123def456"} ` + filler, `{"api_key": "[redacted]"} ` + filler},
		{filler + "Authorization: Bearer sk_live_1234567890abcdef", filler + "Authorization: Bearer [redacted]"},
		{strings.Repeat("token_", 20_000) + "key=abc123", strings.Repeat("token_", 20_000) + "key=[redacted]"},
	} {
		got := redact.Content(c.in)
		if got != c.want {
			t.Errorf("Content(%.40q…): got …%q, want …%q", c.in, tail(got), tail(c.want))
		}
		if again := redact.Content(got); again != got {
			t.Errorf("Content not idempotent on %.40q…", c.in)
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-60):] }
