package sim

import "testing"

func TestNormalizeFreeText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Schedule change":        "schedule change",
		"a schedule change.":     "schedule change",
		"  The  ANNUAL check-up": "annual check up",
		"":                       "",
		"Änderung, bitte!":       "änderung bitte",
	} {
		if got := NormalizeFreeText(in); got != want {
			t.Errorf("NormalizeFreeText(%q) = %q, want %q", in, got, want)
		}
	}
}
