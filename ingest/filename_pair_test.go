package ingest

import "testing"

func TestPairName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ path, want string }{
		{"/r/qwen3-retail-with-emotions.json", "/r/qwen3-retail-*.json"},
		{"/r/qwen3-retail-without-emotions.json", "/r/qwen3-retail-*.json"},
		{"/r/results_no-emotion_seed2.json", "/r/results_*_seed2.json"},
		{"/r/With_Emotions.json", "/r/*.json"},
		{"/r/gpt-4.1-retail.json", ""},
		{"", ""},
	} {
		if got := PairName(tt.path); got != tt.want {
			t.Errorf("PairName(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
