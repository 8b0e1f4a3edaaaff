package redact_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emobench/emobench/redact"
)

// Keys in their providers' formats, at realistic lengths, are redacted in
// free text; look-alikes in ordinary words stay (#20 item 12).
func TestText_ProviderKeyShapes(t *testing.T) {
	t.Parallel()
	stripe := "51H8xKqLkP3aZ9mN2vB7cX4dF6gH1jK0lM5nB8vC3xZ2aQ9wE7rT4yU6iO1pA3sD5fG8hJ0kL2zX4cV6bN8mQ1wE3rT5yU7iO9pA2sD"
	for _, tc := range []struct{ in, want string }{
		{"STRIPE_KEY is sk_live_" + stripe + " ok", "STRIPE_KEY is [redacted] ok"},
		{"use sk_test_4eC39HqLyjWDarjtT1zdp7dc for tests", "use [redacted] for tests"},
		{"restricted: rk_live_51H8xKqLkP3aZ9mN2vB7cX4d.", "restricted: [redacted]."},
		{"groq gsk_8fJ2kL9mN3pQ7rS1tV5wX0yZ4aB6cD8eF2gH4jK6lM8nP0qR2sT4uV6wX8y", "groq [redacted]"},
		{"my_gsk_8fJ2kL9mN3pQ7rS1tV5wX0yZ4aB6cD8eF2gH4jK6lM8nP0qR2sT4uV6wX8y", "my_[redacted]"},
		{"xai key xai-" + strings.Repeat("Ab3dE5gH7j", 8), "xai key [redacted]"},
		{"//registry.npmjs.org/:_authToken npm_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "//registry.npmjs.org/:_authToken [redacted]"},
		{"twine -p pypi-AgEIcHlwaS5vcmcCJDU3OTM5NjEwLTZiNGUtNGMxZS1hYmNlLWQ0OGY2MzM3ZDk3OQ done", "twine -p [redacted] done"},
		{"REPLICATE r8_Gx3KmN7pQ2rS5tV8wX1yZ4aB6cD9eF0gH3jK", "REPLICATE [redacted]"},
		{"access ya29.a0AfH6SMBx3kLmN9pQ2rS5tV8wX1yZ4aB6cD9eF0gH3jK7lM2nP5qR8sT1uV4wX7y tok", "access [redacted] tok"},
		{"id ASIAIOSFODNN7EXAMPLE", "id [redacted]"},
		// A bare AWS secret key beside its access key id, as a credentials CSV writes them.
		{"AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "[redacted],[redacted]"},
		{"key AKIAIOSFODNN7EXAMPLE secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.", "key [redacted] secret [redacted]."},
		{"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY then ASIAIOSFODNN7EXAMPLE", "[redacted] then [redacted]"},
		// Webhook URLs keep their host, lose their secret path.
		{"post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX now",
			"post to https://hooks.slack.com/services/[redacted] now"},
		{"https://discord.com/api/webhooks/123456789012345678/aBcDeFgHiJkLmNoPqRsTuVwXyZ-0123456789_abcdefghijklmnopqrstuvwxyzABCDEF",
			"https://discord.com/api/webhooks/[redacted]"},
		{"(https://discordapp.com/api/webhooks/123456789012345678/tok-en_42xyz)", "(https://discordapp.com/api/webhooks/[redacted])"},
		{"https://canary.discord.com/api/v10/webhooks/1234567890/abcdefgh", "https://canary.discord.com/api/v10/webhooks/[redacted]"},
	} {
		for name, f := range map[string]func(string) string{"Text": redact.Text, "Content": redact.Content} {
			if got := f(tc.in); got != tc.want {
				t.Errorf("%s(%q)\n = %q\nwant %q", name, tc.in, got, tc.want)
			}
			if got := f(tc.want); got != tc.want {
				t.Errorf("second %s over %q changed it: %q", name, tc.want, got)
			}
		}
	}
}

// Near misses: prefixes in ordinary words and names, short tails, a 40-
// character string with no key id beside it, a commit hash beside one.
func TestText_ProviderKeyNearMisses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"xai-grok-2 and xai-grok-beta are models; see docs.x.ai",
		"xai-" + strings.Repeat("abcdef", 6), // 36 characters: too short
		"the tsk_live_total counter, risk_test_cases, task_live_stats",
		"sk_live_short", "gsk_config_file", "npm_config_registry=https://r.example", "npm_package_version",
		"pypi-simple index; pypi-AgEIshort", "r8_model names", "ya29.short token",
		"I flew to ASIA last year, then to Asia Minor",
		"git commit 3f786850e387550fdab836ed7e6dc881de23001b is 40 hex",
		"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY with no key id",
		"AKIAIOSFODNN7EXAMPLE beside commit 3f786850e387550fdab836ed7e6dc881de23001b",
		"AKIAIOSFODNN7EXAMPLE " + strings.Repeat("x", 300) + " wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"https://hooks.slack.com/services/ is the prefix; https://discord.com/api/webhooks/ too",
		"Captain Hook's webhooks and hooks.example.com/services/T000/B000/XXXXXXXXXX",
	} {
		want := in
		if strings.HasPrefix(in, "AKIA") {
			want = "[redacted]" + in[len("AKIAIOSFODNN7EXAMPLE"):]
		}
		for name, f := range map[string]func(string) string{"Text": redact.Text, "Content": redact.Content} {
			if got := f(in); got != want {
				t.Errorf("%s(%q)\n = %q\nwant %q", name, in, got, want)
			}
		}
	}
}

// A task's ground-truth tool-call arguments stay as written, whatever
// they hold; the same key elsewhere in the record is redacted.
func TestSecrets_ProviderKeyShapesInActionsKept(t *testing.T) {
	t.Parallel()
	in := `{"actions":[{"name":"charge","arguments":{"stripe_ref":"sk_live_51H8xKqLkP3aZ9mN2vB7cX4d"}}],"note":"sk_live_51H8xKqLkP3aZ9mN2vB7cX4d"}`
	out, paths := redact.Secrets(json.RawMessage(in))
	want := `{"actions":[{"arguments":{"stripe_ref":"sk_live_51H8xKqLkP3aZ9mN2vB7cX4d"},"name":"charge"}],"note":"[redacted]"}`
	if string(out) != want || len(paths) != 1 || paths[0] != "note" {
		t.Errorf("Secrets = %s %v, want %s [note]", out, paths, want)
	}
	if got := string(redact.Field(json.RawMessage(`{"hook":"https://hooks.slack.com/services/T0/B0/abcdefghij"}`))); got != `{"hook":"https://hooks.slack.com/services/[redacted]"}` {
		t.Errorf("Field = %s", got)
	}
}
