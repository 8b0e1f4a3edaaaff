package redact_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench/redact"
)

const testJWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

// A JSON Web Token is redacted wherever it stands, in text, conversation
// text and JSON, whatever names it; the text around it stays.
func TestRedactJWT(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"jwt=" + testJWT: "jwt=[redacted]",
		"the session is " + testJWT + ". Use it.": "the session is [redacted]. Use it.",
		"id_token " + testJWT + " expires":        "id_token [redacted] expires",
		"(" + testJWT + ")":                       "([redacted])",
		"jwe " + testJWT + ".cGFydDQ.cGFydDU end": "jwe [redacted] end",
		"version 1.2.3 and eyJunk alone stay":     "version 1.2.3 and eyJunk alone stay",
		"see heyJude.mp3.bak, not a token":        "see heyJude.mp3.bak, not a token",
	} {
		for name, f := range map[string]func(string) string{"Text": redact.Text, "Content": redact.Content} {
			got := f(in)
			if got != want {
				t.Errorf("%s(%q)\n = %q\nwant %q", name, in, got, want)
			}
			if f(got) != got {
				t.Errorf("%s not idempotent over %q", name, in)
			}
		}
	}
	raw := json.RawMessage(`{"instruction":"Log in with jwt=` + testJWT + `","note":"x"}`)
	if out := redact.Field(raw); strings.Contains(string(out), "eyJ") || !strings.Contains(string(out), "jwt=[redacted]") {
		t.Errorf("Field(%s) = %s, want the JWT redacted", raw, out)
	}
}
