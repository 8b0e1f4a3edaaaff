package ingest

import (
	"encoding/json"
	"testing"
)

// A redaction that panics costs its field, never the caller (#20 item 1):
// the field is replaced whole, and nothing it held is kept.
func TestFailClosed(t *testing.T) {
	t.Parallel()
	boom := func(json.RawMessage) json.RawMessage { panic("index out of range") }
	if got, want := string(failClosed(boom, json.RawMessage(`{"k":"sk-LEAK"}`), placeholderJSON)), `"[redacted]"`; got != want {
		t.Errorf("failClosed(panicking) = %s, want %s", got, want)
	}
	if !json.Valid(placeholderJSON) {
		t.Errorf("placeholderJSON %s is not JSON", placeholderJSON)
	}
	same := func(s string) string { return s + "!" }
	if got, want := failClosed(same, "hi", "whole"), "hi!"; got != want {
		t.Errorf("failClosed(ok) = %q, want %q", got, want)
	}
}
