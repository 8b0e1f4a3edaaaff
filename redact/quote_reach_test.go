package redact_test

import (
	"strings"
	"testing"

	"github.com/emobench/emobench/redact"
)

// airlineMessage is a user's message of 290 bytes whose apostrophe ("I'm")
// lies 257 to 300 bytes before the hint word that ends it ("pass"), with a
// ':' between: mayHoldQuotedName read one byte past its end (#20 item 1,
// the crasher FuzzRedactSecrets found; also in its corpus as
// airline-boarding-pass).
const airlineMessage = "Hi, I'm Anna. Flight: NYC to LAX on the 14th, seat 22C, booking reference QX7P2L. " +
	"I changed my mind about the window seat and would like an aisle seat if one is free, and I also need " +
	"to add one checked bag of 23 kg to the same booking. Thanks a lot, could you please resend my boarding pass"

// A quote up to 300 bytes before a hint word at the end of the text is
// ordinary text: every redaction returns it unchanged, and none panics.
func TestContent_QuoteFarBeforeTrailingHint(t *testing.T) {
	t.Parallel()
	for _, in := range []string{airlineMessage, airlineMessage[:len(airlineMessage)-4] + "token",
		`"` + strings.Repeat("a", 260) + ": my key", `'` + strings.Repeat("b", 299) + ":secret"} {
		for name, f := range map[string]func(string) string{"Content": redact.Content, "Text": redact.Text} {
			if got := f(in); got != in {
				t.Errorf("%s(%q) = %q, want it unchanged", name, in, got)
			}
		}
	}
}
