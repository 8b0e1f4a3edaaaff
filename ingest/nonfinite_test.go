package ingest

import (
	"io"
	"strings"
	"testing"
)

func TestNonFiniteReader(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"a": NaN, "b": Infinity, "c": -Infinity}`, `{"a": null, "b": null, "c": null}`},
		{`{"s": "NaN and -Infinity stay in strings", "n": -1.5}`, `{"s": "NaN and -Infinity stay in strings", "n": -1.5}`},
		{`["esc \" NaN", NaN]`, `["esc \" NaN", null]`},
		{`[-Inf, Na]`, `[-Inf, Na]`}, // not tokens: left for the decoder to reject
	}
	for _, tt := range tests {
		got, err := io.ReadAll(newNonFiniteReader(strings.NewReader(tt.in)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%s -> %s, want %s", tt.in, got, tt.want)
		}
	}
}

func BenchmarkNonFiniteReader(b *testing.B) {
	data := strings.Repeat(`{"role": "user", "content": "I need to cancel order #W123, NaN is not a number", "cost": NaN}, `, 20000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		io.Copy(io.Discard, newNonFiniteReader(strings.NewReader(data)))
	}
}
